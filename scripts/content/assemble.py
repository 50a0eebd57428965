#!/usr/bin/env python3
"""Rewrite Content/catalog.json, Content/remote/manifest.json and Content/measurements.json
from the sessions and sounds already on disk, without rebuilding any audio.

Each session must be intact (every file listed in its provenance.json matches its sha256).
Used after partial builds (`scripts/make-content --only ...`). Standard library only.
"""

import argparse
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import markup  # noqa: E402
import signed_list  # noqa: E402

KEY_ORDER = ["id", "title", "theme", "description", "durationSeconds", "audio", "remote",
             "transcript", "breathCues", "license", "provenance"]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write("\n")


def session(folder, rel, kind):
    with open(os.path.join(folder, "script.txt"), encoding="utf-8") as f:
        script = markup.parse(f.read())
    with open(os.path.join(folder, "provenance.json"), encoding="utf-8") as f:
        prov = json.load(f)
    for item in prov["files"]:
        if sha256(os.path.join(folder, item["path"])) != item["sha256"]:
            raise SystemExit(f"{folder}: {item['path']} does not match its provenance; rebuild it")
    listed = {item["path"] for item in prov["files"]}
    sid = os.path.basename(folder)
    mp3 = os.path.join(folder, "audio.mp3")
    entry = {"id": sid, "title": script.title, "theme": script.theme, "description": script.description,
             "durationSeconds": prov["audio"]["durationSeconds"], "transcript": f"{rel}/transcript.vtt",
             "license": prov["outputLicence"], "provenance": f"{rel}/provenance.json"}
    if "breath.json" in listed:
        entry["breathCues"] = f"{rel}/breath.json"
    if kind == "bundled":
        entry["audio"] = f"{rel}/audio.mp3"
    else:
        entry["remote"] = {"url": f"{sid}/audio.mp3", "bytes": os.path.getsize(mp3), "sha256": sha256(mp3)}
    loud = prov["loudness"]
    summary = {"id": sid, "theme": script.theme, "durationSeconds": prov["audio"]["durationSeconds"],
               "bytes": os.path.getsize(mp3), "sha256": sha256(mp3),
               "integratedLUFS": loud["integratedLUFS"], "truePeakDBTP": loud["truePeakDBTP"],
               "loudnessRangeLU": loud["loudnessRangeLU"], "samplePeakDBFS": prov["audio"]["samplePeakDBFS"],
               "speechOverBedLU": loud.get("speechOverBedLU"), "voice": prov["voice"]["backend"],
               "generatorSha256": prov["generator"]["sha256"], "set": kind}
    return {k: entry[k] for k in KEY_ORDER if k in entry}, summary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.abspath(os.path.join(HERE, "..", "..")))
    ap.add_argument("--default", default="steady-breath")
    args = ap.parse_args()
    content = os.path.join(args.root, "Content")
    with open(os.path.join(content, "catalog.json"), encoding="utf-8") as f:
        old = json.load(f)
    with open(os.path.join(content, "measurements.json"), encoding="utf-8") as f:
        old_meas = json.load(f)
    bundled, remote, summaries = [], [], []
    for kind, base, out in (("bundled", "sessions", bundled), ("remote", "remote", remote)):
        d = os.path.join(content, base)
        for sid in sorted(os.listdir(d)):
            folder = os.path.join(d, sid)
            if os.path.isfile(os.path.join(folder, "script.txt")):
                e, s = session(folder, f"sessions/{sid}" if kind == "bundled" else sid, kind)
                out.append(e)
                summaries.append(s)
    order = lambda e: (e["id"] != args.default, ["breathe", "focus", "unwind"].index(e["theme"]), e["id"])  # noqa: E731
    write_json(os.path.join(content, "catalog.json"), {
        "schema": 1, "defaultSession": args.default,
        "sessions": sorted(bundled, key=order), "sounds": old["sounds"]})
    signed_list.write_remote_list(content, sorted(remote, key=order))
    summaries += [r for r in old_meas["recordings"] if r.get("set") == "sound"]
    write_json(os.path.join(content, "measurements.json"), {"note": old_meas["note"], "recordings": summaries})
    print("assembled catalog.json, remote/manifest.json, measurements.json")


if __name__ == "__main__":
    main()
