"""Measurements with the real tools: ffmpeg's ebur128 and loudnorm filters for loudness
and true peak, mpg123 for decoding and its own stream test. Standard library only."""

import json
import re
import subprocess

SR = 44100


def _ffmpeg_input(path, raw):
    if raw:
        return ["-f", "f32le", "-ar", str(SR), "-ac", "1", "-i", path]
    return ["-i", path]


def loudness(path, raw=False, loudnorm=True):
    """Integrated loudness (LUFS), loudness range (LU) and true peak (dBTP) by
    ffmpeg's ebur128 filter (one decimal), plus loudnorm's two-decimal I and TP."""
    cmd = ["ffmpeg", "-hide_banner", "-nostats", "-nostdin"] + _ffmpeg_input(path, raw) + [
        "-af", "ebur128=peak=true", "-f", "null", "-"]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    summary = err[err.rfind("Summary:"):]
    if not summary.startswith("Summary:"):
        raise RuntimeError(f"no ebur128 summary for {path}")
    i = float(re.search(r"I:\s+(-?[\d.]+|-inf) LUFS", summary).group(1))
    lra = float(re.search(r"LRA:\s+(-?[\d.]+) LU", summary).group(1))
    tp = float(re.search(r"Peak:\s+(-?[\d.]+|-inf) dBFS", summary).group(1))
    if not loudnorm:
        return {"integratedLUFS": i, "loudnessRangeLU": lra, "truePeakDBTP": tp}
    cmd = ["ffmpeg", "-hide_banner", "-nostats", "-nostdin"] + _ffmpeg_input(path, raw) + [
        "-af", "loudnorm=I=-18:TP=-1.5:print_format=json", "-f", "null", "-"]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    block = json.loads(err[err.rfind("{"):err.rfind("}") + 1])
    return {
        "integratedLUFS": i,
        "loudnessRangeLU": lra,
        "truePeakDBTP": tp,
        "loudnormIntegratedLUFS": float(block["input_i"]),
        "loudnormTruePeakDBTP": float(block["input_tp"]),
    }


def decode_s16(path):
    """Decoded 16-bit samples (mono) as bytes, gapless, via mpg123."""
    out = subprocess.run(["mpg123", "-q", "-e", "s16", "-m", "-s", path],
                         capture_output=True, check=True)
    if out.stderr.strip():
        raise RuntimeError(f"mpg123 said something decoding {path}: {out.stderr!r}")
    return out.stdout


def mpg123_test(path):
    """Run `mpg123 -t` (decode, no output). Returns (exit code, lines that look like
    warnings or errors)."""
    p = subprocess.run(["mpg123", "-t", path], capture_output=True, text=True)
    text = p.stdout + p.stderr
    bad = [ln for ln in text.splitlines()
           if re.search(r"warn|error|junk|illegal|can't|cannot|big_values|skipping|problem|resync",
                        ln, re.I)]
    return p.returncode, bad


def mp3_header_info(path):
    """Find the Xing/Info tag and LAME encoder delay/padding in the first frame."""
    with open(path, "rb") as f:
        data = f.read(4096)
    start = 0
    if data[:3] == b"ID3":
        size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
        start = 10 + size
        with open(path, "rb") as f:
            f.seek(start)
            data = f.read(4096)
        start = 0
    for tag in (b"Xing", b"Info"):
        pos = data.find(tag, start, start + 200)
        if pos >= 0:
            info = {"tag": tag.decode()}
            flags = int.from_bytes(data[pos + 4:pos + 8], "big")
            q = pos + 8
            if flags & 1:
                info["frames"] = int.from_bytes(data[q:q + 4], "big")
                q += 4
            if flags & 2:
                info["bytes"] = int.from_bytes(data[q:q + 4], "big")
                q += 4
            if flags & 4:
                q += 100
            if flags & 8:
                q += 4
            if data[q:q + 4] == b"LAME":
                d = data[q + 21:q + 24]
                info["encoderDelay"] = (d[0] << 4) | (d[1] >> 4)
                info["encoderPadding"] = ((d[1] & 0x0F) << 8) | d[2]
                info["encoder"] = data[q:q + 9].decode("latin-1")
            return info
    return None
