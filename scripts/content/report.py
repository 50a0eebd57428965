#!/usr/bin/env python3
"""Write the measurement table into docs/content.md from Content/measurements.json
(between the measurements:begin/end markers). Standard library only."""

import argparse
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def fmt(v, spec):
    return "—" if v is None else format(v, spec)


def table(meas, content):
    rows = ["| recording | set | theme | duration (s) | MP3 bytes | integrated (LUFS) | LRA (LU) | true peak (dBTP) | sample peak (dBFS) | voice over bed (LU) |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    order = {"bundled": 0, "sound": 1, "remote": 2}
    for r in sorted(meas["recordings"], key=lambda r: (order.get(r.get("set"), 3), r["id"])):
        rows.append(f"| `{r['id']}` | {r.get('set')} | {r['theme']} | {r['durationSeconds']:.3f} | {r['bytes']:,} | "
                    f"{fmt(r['integratedLUFS'], '.1f')} | {fmt(r['loudnessRangeLU'], '.1f')} | "
                    f"{fmt(r['truePeakDBTP'], '.1f')} | {fmt(r['samplePeakDBFS'], '.2f')} | "
                    f"{fmt(r.get('speechOverBedLU'), '.1f')} |")
    bundled = 0
    for dirpath, _, files in os.walk(content):
        if os.path.relpath(dirpath, content).split(os.sep)[0] == "remote":
            continue
        bundled += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files)
    remote = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(os.path.join(content, "remote")) for f in fs)
    mp3 = sum(r["bytes"] for r in meas["recordings"] if r.get("set") in ("bundled", "sound"))
    rows.append("")
    rows.append(f"Bundled content (everything in `Content/` except `remote/`): **{bundled:,} bytes "
                f"({bundled / 1e6:.2f} MB)**, of which MP3 audio {mp3:,} bytes. "
                f"Sample remote set (not bundled): {remote:,} bytes ({remote / 1e6:.2f} MB).")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.abspath(os.path.join(HERE, "..", "..")))
    args = ap.parse_args()
    content = os.path.join(args.root, "Content")
    with open(os.path.join(content, "measurements.json"), encoding="utf-8") as f:
        meas = json.load(f)
    doc_path = os.path.join(args.root, "docs", "content.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    begin, end = "<!-- measurements:begin -->", "<!-- measurements:end -->"
    a, b = doc.index(begin) + len(begin), doc.index(end)
    doc = doc[:a] + "\n" + table(meas, content) + "\n" + doc[b:]
    with open(doc_path, "w", encoding="utf-8") as f:
        f.write(doc)
    print(f"updated {doc_path}")


if __name__ == "__main__":
    main()
