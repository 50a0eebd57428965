"""Parser for Stillroom's session script markup (documented in docs/content.md).

A script is plain UTF-8 text:

    # a comment
    @title Steady breath            header fields (before the first body line)
    @theme breathe
    ...
    Plain lines are narration.      one line = one paragraph of one or more sentences
    [pause 4]                       bed only for 4 extra seconds
    [breathe in 4 hold 2 out 6 x5 say 2]
    [bell]                          a soft synthesized bell strike

Standard library only, so scripts/content/check.py can use it without the venv.
"""

import re
from dataclasses import dataclass, field
from typing import List, Optional

HEADER_FIELDS = {
    "title", "theme", "description", "ambience", "key", "pace", "length",
    "seed", "leadin", "licence",
}
THEMES = {"breathe", "focus", "unwind"}
BEDS = {"hush", "rain", "waves", "wind", "pad"}
KEYS = {"C", "D", "E", "F", "G", "A"}


class ScriptError(Exception):
    pass


@dataclass
class Say:
    text: str
    sentences: List[str]
    line: int


@dataclass
class Pause:
    seconds: float
    line: int


@dataclass
class Bell:
    line: int
    pitch: str = "low"


@dataclass
class Breathe:
    inhale: float
    hold: float
    exhale: float
    rest: float
    cycles: int
    say: int
    line: int


@dataclass
class Script:
    title: str
    theme: str
    description: str
    ambience: List[str]
    key: str = "D"
    pace: float = 1.15
    length: Optional[float] = None
    seed: int = 1
    leadin: float = 3.0
    licence: str = "CC BY 4.0"
    body: list = field(default_factory=list)


_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=\S)")


def split_sentences(text: str) -> List[str]:
    parts = [p.strip() for p in _SENTENCE_SPLIT.split(text.strip())]
    return [p for p in parts if p]


def _number(token: str, line: int, what: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise ScriptError(f"line {line}: {what} needs a number, got {token!r}")
    if value < 0 or value > 600:
        raise ScriptError(f"line {line}: {what} out of range: {value}")
    return value


def _parse_breathe(words: List[str], line: int) -> Breathe:
    values = {"in": None, "hold": 0.0, "out": None, "rest": 0.0}
    cycles = None
    say = 0
    i = 0
    while i < len(words):
        w = words[i]
        if w in values and i + 1 < len(words):
            values[w] = _number(words[i + 1], line, w)
            i += 2
        elif re.fullmatch(r"x\d+", w):
            cycles = int(w[1:])
            i += 1
        elif w == "say" and i + 1 < len(words):
            say = int(_number(words[i + 1], line, "say"))
            i += 2
        else:
            raise ScriptError(f"line {line}: unknown word {w!r} in [breathe ...]")
    if values["in"] is None or values["out"] is None or cycles is None:
        raise ScriptError(f"line {line}: [breathe] needs 'in N', 'out N' and 'xN'")
    if values["in"] < 1 or values["out"] < 1 or cycles < 1 or cycles > 60:
        raise ScriptError(f"line {line}: [breathe] phases must be >= 1 s and cycles 1..60")
    return Breathe(values["in"], values["hold"], values["out"], values["rest"],
                   cycles, min(say, cycles), line)


def parse(text: str) -> Script:
    header = {}
    body = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            if body:
                raise ScriptError(f"line {n}: header field after the body started")
            name, _, value = line[1:].partition(" ")
            if name not in HEADER_FIELDS:
                raise ScriptError(f"line {n}: unknown header field @{name}")
            if name == "description" and "description" in header:
                header[name] += " " + value.strip()
            else:
                header[name] = value.strip()
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise ScriptError(f"line {n}: directive must end with ]")
            words = line[1:-1].split()
            if not words:
                raise ScriptError(f"line {n}: empty directive")
            kind, args = words[0], words[1:]
            if kind == "pause" and len(args) == 1:
                body.append(Pause(_number(args[0], n, "pause"), n))
            elif kind == "bell" and len(args) <= 1:
                pitch = args[0] if args else "low"
                if pitch not in ("low", "high"):
                    raise ScriptError(f"line {n}: [bell] takes low or high")
                body.append(Bell(n, pitch))
            elif kind == "breathe":
                body.append(_parse_breathe(args, n))
            else:
                raise ScriptError(f"line {n}: unknown directive [{' '.join(words)}]")
            continue
        if re.search(r"[\[\]@<>{}]", line):
            raise ScriptError(f"line {n}: stray markup character in narration")
        sentences = split_sentences(line)
        body.append(Say(line, sentences, n))

    for required in ("title", "theme", "description", "ambience"):
        if required not in header:
            raise ScriptError(f"missing @{required}")
    if header["theme"] not in THEMES:
        raise ScriptError(f"@theme must be one of {sorted(THEMES)}")
    ambience = [a for a in header["ambience"].split("+") if a]
    for a in ambience:
        if a not in BEDS:
            raise ScriptError(f"unknown ambience layer {a!r}; known: {sorted(BEDS)}")
    script = Script(title=header["title"], theme=header["theme"],
                    description=header["description"], ambience=ambience, body=body)
    if "key" in header:
        if header["key"] not in KEYS:
            raise ScriptError(f"@key must be one of {sorted(KEYS)}")
        script.key = header["key"]
    if "pace" in header:
        script.pace = _number(header["pace"], 0, "pace")
    if "length" in header:
        script.length = _number(header["length"], 0, "length")
    if "seed" in header:
        script.seed = int(_number(header["seed"], 0, "seed"))
    if "leadin" in header:
        script.leadin = _number(header["leadin"], 0, "leadin")
    if "licence" in header:
        script.licence = header["licence"]
    if not any(isinstance(b, Say) for b in body):
        raise ScriptError("a script needs at least one narration line")
    return script
