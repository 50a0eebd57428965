#!/usr/bin/env python3
"""Self-check of Stillroom's content: catalog <-> files <-> transcripts <-> breath cues
<-> durations <-> sha256 <-> provenance <-> loudness. Standard library only; needs
mpg123 (and ffmpeg unless --fast).

    python3 scripts/content/check.py [--root DIR] [--fast]

Prints one line per failed check and ends with 'N passed, N failed'. Exit 1 on any failure.
"""

import argparse
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import markup  # noqa: E402
import measure  # noqa: E402

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
PATH_RE = re.compile(r"^[A-Za-z0-9._/-]{1,255}$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
THEMES = {"breathe", "focus", "unwind"}
PHASES = {"inhale", "hold", "exhale"}
VTT_TIME = re.compile(r"^(\d{2,}):(\d{2}):(\d{2})\.(\d{3})$")
BREATH_WORDS = {"Breathe in.", "Hold.", "And out."}


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")
        return cond


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def good_rel_path(p):
    if not isinstance(p, str) or not PATH_RE.match(p) or p.startswith("/") or "\\" in p:
        return False
    return all(part and not part.startswith(".") for part in p.split("/"))


def no_controls(s):
    return isinstance(s, str) and not any(ord(c) < 32 or ord(c) == 127 for c in s)


def parse_vtt(text):
    """Returns list of (start, end, text) or raises ValueError."""
    lines = text.split("\n")
    if not lines or not lines[0].startswith("WEBVTT"):
        raise ValueError("missing WEBVTT header")
    cues = []
    i = 1
    while i < len(lines):
        line = lines[i]
        if "-->" in line:
            a, _, b = line.partition("-->")
            times = []
            for t in (a.strip(), b.strip().split()[0]):
                m = VTT_TIME.match(t)
                if not m:
                    raise ValueError(f"bad time {t!r}")
                h, mi, s, ms = map(int, m.groups())
                times.append(h * 3600 + mi * 60 + s + ms / 1000.0)
            body = []
            i += 1
            while i < len(lines) and lines[i].strip():
                body.append(lines[i])
                i += 1
            cues.append((times[0], times[1], "\n".join(body)))
        i += 1
    return cues


def decoded_seconds(path):
    return len(measure.decode_s16(path)) / 2 / 44100.0


def check_session(c, content_dir, base_dir, s, remote, fast, seen):
    sid = s.get("id")
    where = f"session {sid!r}"
    c.ok(isinstance(sid, str) and bool(ID_RE.match(sid)), f"{where}: id format")
    c.ok(sid not in seen, f"{where}: duplicate id")
    seen.add(sid)
    c.ok(no_controls(s.get("title")) and 1 <= len(s.get("title", "")) <= 80, f"{where}: title")
    c.ok(s.get("theme") in THEMES, f"{where}: theme")
    c.ok(no_controls(s.get("description")) and 1 <= len(s.get("description", "")) <= 600, f"{where}: description")
    dur = s.get("durationSeconds")
    c.ok(isinstance(dur, (int, float)) and 0 < dur <= 3600, f"{where}: durationSeconds range")
    c.ok(("audio" in s) != ("remote" in s), f"{where}: exactly one of audio/remote")
    lic = s.get("license", {})
    c.ok(isinstance(lic, dict) and lic.get("name") and lic.get("attribution"), f"{where}: license")
    for key in ("transcript", "provenance") + (("audio",) if not remote else ()):
        c.ok(good_rel_path(s.get(key)), f"{where}: {key} path")
    if "breathCues" in s:
        c.ok(good_rel_path(s["breathCues"]), f"{where}: breathCues path")

    if remote:
        r = s.get("remote", {})
        c.ok(good_rel_path(r.get("url")), f"{where}: remote.url is relative to the manifest")
        audio = os.path.join(base_dir, r.get("url", ""))
        if c.ok(os.path.isfile(audio), f"{where}: remote audio file exists"):
            c.ok(os.path.getsize(audio) == r.get("bytes"), f"{where}: remote.bytes exact")
            c.ok(HEX64.match(r.get("sha256", "")) and sha256(audio) == r["sha256"], f"{where}: remote.sha256 exact")
    else:
        audio = os.path.join(base_dir, s.get("audio", ""))
        c.ok(os.path.isfile(audio), f"{where}: audio file exists")
    if not os.path.isfile(audio):
        return None

    # decoding, stream test, header
    rc, bad = measure.mpg123_test(audio)
    c.ok(rc == 0 and not bad, f"{where}: mpg123 -t exit {rc} warnings {bad}")
    hdr = measure.mp3_header_info(audio)
    c.ok(hdr is not None and "encoderDelay" in hdr, f"{where}: Xing/Info + LAME header present")
    secs = decoded_seconds(audio)
    c.ok(isinstance(dur, (int, float)) and abs(secs - dur) <= 0.05,
         f"{where}: durationSeconds {dur} vs decoded {secs:.3f}")
    if not remote:
        c.ok(180 <= secs <= 600, f"{where}: bundled session is 3 to 10 minutes ({secs:.1f} s)")

    # transcript
    vtt_path = os.path.join(base_dir, s.get("transcript", ""))
    cues = []
    if c.ok(os.path.isfile(vtt_path), f"{where}: transcript exists"):
        try:
            with open(vtt_path, encoding="utf-8") as f:
                cues = parse_vtt(f.read())
            c.ok(len(cues) > 0, f"{where}: transcript has cues")
            prev = -1.0
            for a, b, _ in cues:
                c.ok(0 <= a < b <= secs and a >= prev, f"{where}: cue {a}-{b} ordered and within audio")
                prev = b
        except ValueError as e:
            c.ok(False, f"{where}: transcript parse: {e}")

    # script <-> transcript
    folder = os.path.dirname(vtt_path)
    script_path = os.path.join(folder, "script.txt")
    if c.ok(os.path.isfile(script_path), f"{where}: script.txt beside the transcript"):
        with open(script_path, encoding="utf-8") as f:
            sc = markup.parse(f.read())
        said = [t for b in sc.body if isinstance(b, markup.Say) for t in b.sentences]
        spoken = [t for _, _, t in cues if t not in BREATH_WORDS]
        c.ok(said == spoken, f"{where}: transcript text equals the script's sentences")
        c.ok(sc.title == s.get("title") and sc.theme == s.get("theme") and sc.description == s.get("description"),
             f"{where}: catalog title/theme/description come from the script")
        has_breath = any(isinstance(b, markup.Breathe) for b in sc.body)
        c.ok(has_breath == ("breathCues" in s), f"{where}: breathCues present iff the script has breath guidance")

    # breath cues
    if "breathCues" in s:
        bpath = os.path.join(base_dir, s["breathCues"])
        if c.ok(os.path.isfile(bpath), f"{where}: breath.json exists"):
            with open(bpath, encoding="utf-8") as f:
                b = json.load(f)
            c.ok(b.get("schema") == 1 and isinstance(b.get("cues"), list) and b["cues"], f"{where}: breath.json shape")
            prev = 0.0
            for cue in b.get("cues", []):
                c.ok(cue.get("phase") in PHASES and 0 <= cue["start"] < cue["end"] <= secs and cue["start"] >= prev,
                     f"{where}: breath cue {cue}")
                prev = cue.get("end", prev)
    if s.get("theme") == "breathe":
        c.ok("breathCues" in s, f"{where}: breathing session has breath cues")

    # provenance
    ppath = os.path.join(base_dir, s.get("provenance", ""))
    figures = None
    if c.ok(os.path.isfile(ppath), f"{where}: provenance exists"):
        with open(ppath, encoding="utf-8") as f:
            p = json.load(f)
        figures = check_provenance(c, where, p, os.path.dirname(ppath), audio, fast)
        c.ok(p.get("id") == sid, f"{where}: provenance id")
        c.ok(p.get("outputLicence", {}).get("name") == lic.get("name"), f"{where}: provenance licence = catalog licence")
        c.ok(p.get("script", {}).get("author") == "Stillroom project", f"{where}: script author")
        v = p.get("voice") or {}
        chain = v.get("licenceChain") or []
        c.ok(bool(chain), f"{where}: voice licence chain recorded")
        unclear = [link.get("link") for link in chain
                   if link.get("status") != "clear" or not link.get("evidence") or not link.get("sources")]
        c.ok(not unclear, f"{where}: every voice licence link clear, with evidence and sources"
             + (f" (not: {', '.join(map(str, unclear))})" if unclear else ""))
        c.ok(abs(p.get("audio", {}).get("durationSeconds", -1) - secs) <= 0.01, f"{where}: provenance duration")
    return secs, figures


def check_provenance(c, where, p, folder, audio, fast):
    listed = {f["path"]: f for f in p.get("files", [])}
    c.ok(os.path.basename(audio) in listed, f"{where}: provenance lists the audio")
    for rel, f in listed.items():
        full = os.path.join(folder, rel)
        if c.ok(os.path.isfile(full), f"{where}: provenance file {rel} exists"):
            c.ok(sha256(full) == f.get("sha256"), f"{where}: sha256 of {rel} matches provenance")
            c.ok(os.path.getsize(full) == f.get("bytes"), f"{where}: size of {rel} matches provenance")
    g = p.get("generator", {})
    c.ok(bool(g.get("sha256")) and bool(g.get("files")), f"{where}: generator fingerprint")
    t = p.get("tools", {})
    for tool in ("sox", "lame", "ffmpeg", "mpg123"):
        c.ok(tool in t, f"{where}: {tool} version recorded")
    loud = p.get("loudness", {})
    i, tp = loud.get("integratedLUFS"), loud.get("truePeakDBTP")
    if p.get("kind") == "session" or (loud.get("target") or {}).get("integratedLUFS") is not None:
        c.ok(isinstance(i, (int, float)) and -19.0 <= i <= -17.0, f"{where}: integrated loudness {i} LUFS within -18 ±1")
    c.ok(isinstance(tp, (int, float)) and tp <= -1.5, f"{where}: true peak {tp} dBTP <= -1.5")
    c.ok(p.get("audio", {}).get("clippedSamples") == 0, f"{where}: no clipped samples")
    if not fast:
        m = measure.loudness(audio)
        c.ok(abs(m["integratedLUFS"] - i) <= 0.1 and abs(m["truePeakDBTP"] - tp) <= 0.1,
             f"{where}: re-measured {m['integratedLUFS']} LUFS / {m['truePeakDBTP']} dBTP vs provenance {i} / {tp}")
    return {"integratedLUFS": i, "truePeakDBTP": tp}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.abspath(os.path.join(HERE, "..", "..")))
    ap.add_argument("--fast", action="store_true", help="skip re-measuring loudness with ffmpeg")
    args = ap.parse_args()
    content = os.path.join(args.root, "Content")
    c = Checker()

    with open(os.path.join(content, "catalog.json"), encoding="utf-8") as f:
        cat = json.load(f)
    c.ok(cat.get("schema") == 1, "catalog: schema 1")
    sessions = cat.get("sessions", [])
    seen = set()
    durations = {}
    bundled_bytes = os.path.getsize(os.path.join(content, "catalog.json"))
    for s in sessions:
        r = check_session(c, content, content, s, False, args.fast, seen)
        if r:
            durations[s["id"]] = r[0]
        for key in ("audio", "transcript", "breathCues", "provenance"):
            if key in s and os.path.isfile(os.path.join(content, s[key])):
                bundled_bytes += os.path.getsize(os.path.join(content, s[key]))
        script = os.path.join(content, os.path.dirname(s.get("audio", "x/x")), "script.txt")
        if os.path.isfile(script):
            bundled_bytes += os.path.getsize(script)
    c.ok(len(sessions) >= 6, f"catalog: at least 6 bundled sessions (has {len(sessions)})")
    c.ok({s.get("theme") for s in sessions} == THEMES, "catalog: all three themes bundled")
    d = cat.get("defaultSession")
    dflt = next((s for s in sessions if s.get("id") == d), None)
    if c.ok(dflt is not None, "catalog: defaultSession is a bundled session"):
        c.ok(dflt["theme"] == "breathe" and 290 <= durations.get(d, 0) <= 310,
             f"catalog: default is the five-minute breathing session ({durations.get(d)} s)")

    sounds = {x.get("id"): x for x in cat.get("sounds", [])}
    for sid in ("chime", "tick"):
        x = sounds.get(sid)
        if not c.ok(x is not None, f"catalog: sound {sid}"):
            continue
        c.ok(good_rel_path(x.get("audio")) and good_rel_path(x.get("provenance")), f"sound {sid}: paths")
        audio = os.path.join(content, x.get("audio", ""))
        if c.ok(os.path.isfile(audio), f"sound {sid}: audio exists"):
            bundled_bytes += os.path.getsize(audio)
            rc, bad = measure.mpg123_test(audio)
            c.ok(rc == 0 and not bad, f"sound {sid}: mpg123 -t exit {rc} warnings {bad}")
            c.ok(measure.mp3_header_info(audio) is not None, f"sound {sid}: Xing/Info header")
            secs = decoded_seconds(audio)
            if "durationSeconds" in x:
                c.ok(abs(secs - x["durationSeconds"]) <= 0.05, f"sound {sid}: duration")
        ppath = os.path.join(content, x.get("provenance", ""))
        if c.ok(os.path.isfile(ppath), f"sound {sid}: provenance exists"):
            bundled_bytes += os.path.getsize(ppath)
            with open(ppath, encoding="utf-8") as f:
                p = json.load(f)
            check_provenance(c, f"sound {sid}", p, os.path.dirname(ppath), audio, args.fast)

    man_path = os.path.join(content, "remote", "manifest.json")
    if c.ok(os.path.isfile(man_path), "remote: manifest exists"):
        with open(man_path, encoding="utf-8") as f:
            man = json.load(f)
        c.ok(man.get("schema") == 1, "remote: schema 1")
        rs = man.get("sessions", [])
        c.ok(len(rs) >= 3, f"remote: at least 3 sessions (has {len(rs)})")
        for s in rs:
            c.ok(s.get("id") not in {x.get("id") for x in sessions}, f"remote {s.get('id')}: not also bundled")
            check_session(c, content, os.path.dirname(man_path), s, True, args.fast, seen)

    mb = bundled_bytes / 1e6
    c.ok(bundled_bytes <= 40_000_000, f"bundled content {mb:.2f} MB <= 40 MB")
    print(f"bundled content: {bundled_bytes} bytes ({mb:.2f} MB)")
    print(f"{c.passed} passed, {c.failed} failed")
    sys.exit(1 if c.failed else 0)


if __name__ == "__main__":
    main()
