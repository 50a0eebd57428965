"""Sound synthesis for Stillroom content: ambience beds, breath pacing swells, bells,
the UI tick, fades and a true-peak limiter. Everything is generated here from
seeded random numbers and sine waves; no recorded samples are used.

All signals are mono float arrays at SR samples per second.
"""

import numpy as np

SR = 44100

NOTE_HZ = {  # octave 2 roots
    "C": 65.406, "D": 73.416, "E": 82.407, "F": 87.307, "G": 97.999, "A": 110.0,
}


# ---------------------------------------------------------------- helpers

def seconds(n):
    return n / SR


def samples(sec):
    return int(round(sec * SR))


def rms(x):
    x = np.asarray(x, dtype=np.float64)
    return float(np.sqrt(np.mean(x * x))) if len(x) else 0.0


def db(x):
    return 20.0 * np.log10(max(x, 1e-12))


def undb(d):
    return 10.0 ** (d / 20.0)


def lowpass(fc, order=2):
    return lambda f: 1.0 / np.sqrt(1.0 + (f / fc) ** (2 * order))


def highpass(fc, order=2):
    def g(f):
        r = (np.maximum(f, 1e-3) / fc) ** order
        return r / np.sqrt(1.0 + r * r)
    return g


def pink(f):
    return 1.0 / np.sqrt(np.maximum(f, 20.0))


def brown(f):
    return 1.0 / np.maximum(f, 20.0)


def shaped_noise(n, rng, *shapes):
    """Gaussian noise shaped in the frequency domain by the product of `shapes`,
    normalised to unit RMS."""
    x = rng.standard_normal(n)
    spec = np.fft.rfft(x)
    del x
    f = np.fft.rfftfreq(n, 1.0 / SR)
    gain = np.ones_like(f)
    for s in shapes:
        gain *= s(f)
    spec *= gain
    del f, gain
    y = np.fft.irfft(spec, n)
    del spec
    y /= max(rms(y), 1e-12)
    return y.astype(np.float32)


def fft_filter(x, *shapes):
    """Zero-phase filter of a whole signal (used on signals that start and end quietly)."""
    n = len(x)
    spec = np.fft.rfft(np.asarray(x, dtype=np.float64))
    f = np.fft.rfftfreq(n, 1.0 / SR)
    for s in shapes:
        spec *= s(f)
    return np.fft.irfft(spec, n).astype(np.float32)


def phase_rotator(corners):
    """Frequency response of a chain of first-order all-pass filters (unit magnitude)."""
    def g(f):
        ph = np.zeros_like(f)
        for fc in corners:
            ph -= 2.0 * np.arctan(f / fc)
        return np.exp(1j * ph)
    return g


def slow_wobble(n, rng, rates, depth):
    """A slowly varying gain in [1-depth, 1] from a few incommensurate sines."""
    t = np.arange(n, dtype=np.float64) / SR
    acc = np.zeros(n)
    for r in rates:
        acc += np.sin(2 * np.pi * r * t + rng.uniform(0, 2 * np.pi))
    acc /= len(rates)               # in [-1, 1]
    return (1.0 - depth * 0.5 * (1.0 - acc)).astype(np.float32)


def raised_cosine(m):
    """0 -> 1 over m samples."""
    if m <= 0:
        return np.zeros(0, dtype=np.float32)
    u = np.arange(m, dtype=np.float64) / m
    return (0.5 - 0.5 * np.cos(np.pi * u)).astype(np.float32)


def fade(x, fade_in_s, fade_out_s):
    y = x.copy()
    a = min(samples(fade_in_s), len(y))
    b = min(samples(fade_out_s), len(y))
    if a:
        y[:a] *= raised_cosine(a)
    if b:
        y[len(y) - b:] *= raised_cosine(b)[::-1]
    return y


def edge_fade(x, ms=8.0):
    """Short fades at both ends so a snippet never starts or stops with a click."""
    m = min(int(SR * ms / 1000.0), len(x) // 2)
    y = x.copy()
    if m:
        r = raised_cosine(m)
        y[:m] *= r
        y[len(y) - m:] *= r[::-1]
    return y


# ---------------------------------------------------------------- ambience beds

def bed_hush(n, rng):
    """Soft, dark room air: pink noise rolled off above ~700 Hz, slowly breathing."""
    y = shaped_noise(n, rng, pink, lowpass(700, 2), highpass(45, 2))
    y *= slow_wobble(n, rng, (0.021, 0.047, 0.089), 0.35)
    return y


def bed_rain(n, rng):
    """Gentle rain on a window: a bright, softly fluctuating hiss, sparse soft patter
    and a faint low rumble."""
    hiss = shaped_noise(n, rng, pink, highpass(1100, 2), lowpass(5500, 2))
    texture = shaped_noise(n, rng, lowpass(5, 2))
    texture = np.clip(1.0 + 0.35 * texture, 0.3, 1.8)
    hiss *= texture
    del texture
    # patter: Poisson impulses, each a short decaying burst of band-limited noise
    rate = 18.0
    count = rng.poisson(rate * n / SR)
    pos = np.sort(rng.integers(0, n, size=count))
    amp = np.exp(rng.normal(-1.2, 0.6, size=count))
    imp = np.zeros(n)
    np.add.at(imp, pos, amp)
    k = np.exp(-np.arange(int(0.03 * SR)) / (0.006 * SR))
    env = np.fft.irfft(np.fft.rfft(imp, n + len(k)) * np.fft.rfft(k, n + len(k)), n + len(k))[:n]
    del imp
    patter = shaped_noise(n, rng, highpass(1800, 2), lowpass(4200, 2)) * env.astype(np.float32)
    patter /= max(rms(patter), 1e-12)
    del env
    rumble = shaped_noise(n, rng, brown, lowpass(180, 2), highpass(35, 2))
    y = 0.55 * hiss + 0.22 * patter + 0.5 * rumble
    y *= slow_wobble(n, rng, (0.017, 0.053), 0.25)
    return y


def _wave_envelope(n, rng):
    env = np.empty(0, dtype=np.float32)
    floor = 0.22
    while len(env) < n:
        rise = samples(rng.uniform(3.0, 5.0))
        fall = samples(rng.uniform(5.0, 8.0))
        peak = rng.uniform(0.7, 1.0)
        up = floor + (peak - floor) * raised_cosine(rise)
        down = floor + (peak - floor) * raised_cosine(fall)[::-1]
        env = np.concatenate([env, up, down])
    return env[:n]


def bed_waves(n, rng):
    """Slow swells of a distant shore: dark noise rising and falling over ~10 s,
    a little brighter at the crest of each swell."""
    env = _wave_envelope(n, rng)
    dark = shaped_noise(n, rng, brown, lowpass(500, 2), highpass(30, 2))
    bright = shaped_noise(n, rng, pink, highpass(250, 2), lowpass(2400, 2))
    return dark * (0.35 + 0.65 * env) + 0.55 * bright * env * env


def bed_wind(n, rng):
    """Soft air moving outside: three noise bands whose balance drifts slowly."""
    y = np.zeros(n, dtype=np.float32)
    for fc, rates in ((260, (0.031, 0.071)), (620, (0.023, 0.059)), (1300, (0.037, 0.083))):
        band = shaped_noise(n, rng, highpass(fc / 1.6, 2), lowpass(fc * 1.6, 2))
        y += band * slow_wobble(n, rng, rates, 0.85)
    return y


def bed_pad(n, rng, key):
    """A low, open drone: root, fifth, octave, ninth and twelfth, each a pair of slightly
    detuned sines with a faint second harmonic, swelling independently and slowly."""
    root = NOTE_HZ[key]
    t = np.arange(n, dtype=np.float64) / SR
    y = np.zeros(n, dtype=np.float64)
    for semis, level in ((0, 1.0), (7, 0.75), (12, 0.6), (14, 0.35), (19, 0.4)):
        f = root * 2.0 ** (semis / 12.0)
        detune = rng.uniform(0.08, 0.18)
        voice = (np.sin(2 * np.pi * (f - detune) * t + rng.uniform(0, 2 * np.pi)) +
                 np.sin(2 * np.pi * (f + detune) * t + rng.uniform(0, 2 * np.pi)) +
                 0.15 * np.sin(2 * np.pi * 2 * f * t + rng.uniform(0, 2 * np.pi)))
        y += level * voice * slow_wobble(n, rng, (rng.uniform(0.013, 0.03), rng.uniform(0.035, 0.06)), 0.6)
    y = y.astype(np.float32)
    y /= max(rms(y), 1e-12)
    return y


def make_bed(layers, n, seed, key):
    """The ambience bed, unit RMS. Layers are mixed with fixed relative levels."""
    rng = np.random.default_rng(seed)
    levels = {"hush": 1.0, "rain": 1.0, "waves": 1.0, "wind": 0.8, "pad": 0.55}
    y = np.zeros(n, dtype=np.float32)
    for layer in layers:
        if layer == "pad":
            part = bed_pad(n, rng, key)
        else:
            part = {"hush": bed_hush, "rain": bed_rain, "waves": bed_waves, "wind": bed_wind}[layer](n, rng)
        part /= max(rms(part), 1e-12)
        y += levels[layer] * part
        del part
    y /= max(rms(y), 1e-12)
    return y


# ---------------------------------------------------------------- breath pacing

def breath_envelope(n, cues):
    """Envelope in [0, 1] following breath cues: rises over each inhale, stays
    (easing slightly) through a hold, falls over each exhale, 0 elsewhere."""
    env = np.zeros(n, dtype=np.float32)
    for cue in cues:
        a, b = samples(cue["start"]), min(samples(cue["end"]), n)
        m = b - a
        if m <= 0:
            continue
        if cue["phase"] == "inhale":
            env[a:b] = raised_cosine(m)
        elif cue["phase"] == "hold":
            env[a:b] = 1.0 - 0.08 * raised_cosine(m)
        else:
            start = env[a - 1] if a > 0 else 1.0
            env[a:b] = start * raised_cosine(m)[::-1]
    return env


def breath_layer(n, cues, seed, key):
    """A soft swell that follows the breath: a warm tone (an octave and a fifth above
    the pad's root) and an airy noise that brightens as the breath fills. Unit-ish RMS
    over the active part."""
    rng = np.random.default_rng(seed + 7919)
    env = breath_envelope(n, cues)
    root = NOTE_HZ[key] * 4.0        # two octaves above the bed root
    t = np.arange(n, dtype=np.float64) / SR
    tone = (np.sin(2 * np.pi * root * t) + 0.5 * np.sin(2 * np.pi * root * 1.5 * t + 1.0) +
            0.25 * np.sin(2 * np.pi * root * 2.0 * t + 2.0))
    tone = (tone / 1.2).astype(np.float32)
    dark = shaped_noise(n, rng, pink, highpass(150, 2), lowpass(700, 2))
    bright = shaped_noise(n, rng, pink, highpass(400, 2), lowpass(2600, 2))
    air = dark * (1.0 - env) + bright * env
    y = 0.55 * tone * env ** 1.5 + 0.5 * air * env
    active = env > 0.05
    level = rms(y[active]) if np.any(active) else 1.0
    return (y / max(level, 1e-12)).astype(np.float32), env


# ---------------------------------------------------------------- bells, chime, tick

BELL_PARTIALS = ((1.0, 1.0, 5.0), (2.0, 0.42, 3.1), (2.76, 0.28, 2.2), (4.07, 0.13, 1.4), (5.4, 0.07, 0.9))


def bell(f0, length_s, attack_ms=6.0):
    """A soft struck bell: a few inharmonic partials with exponential decays."""
    n = samples(length_s)
    t = np.arange(n, dtype=np.float64) / SR
    y = np.zeros(n)
    for ratio, amp, decay in BELL_PARTIALS:
        f = f0 * ratio
        if f > SR / 2.5:
            continue
        y += amp * np.sin(2 * np.pi * f * t) * np.exp(-t / decay * 3.0)
    a = samples(attack_ms / 1000.0)
    y[:a] *= raised_cosine(a)
    y = edge_fade(y.astype(np.float32), 20.0)
    return y / np.max(np.abs(y))


def session_bell(key, pitch):
    f = NOTE_HZ[key] * (8.0 if pitch == "low" else 12.0)   # octave 5 root, or the fifth above
    return bell(f, 7.0)


def chime():
    """The reminder chime: two soft bell notes a fifth apart, falling."""
    n = samples(4.2)
    y = np.zeros(n, dtype=np.float32)
    first = bell(NOTE_HZ["A"] * 8.0 * 1.5, 3.6, attack_ms=12.0)      # E5
    second = bell(NOTE_HZ["A"] * 8.0, 3.6, attack_ms=12.0)           # A4
    y[:len(first)] += first
    off = samples(0.55)
    y[off:off + len(second)] += 0.9 * second[:n - off]
    return fade(y, 0.0, 0.8)


def tick():
    """A quiet UI tick: a 25 ms damped 1.9 kHz blip with a soft attack."""
    n = samples(0.06)
    t = np.arange(n, dtype=np.float64) / SR
    y = np.sin(2 * np.pi * 1900.0 * t) * np.exp(-t / 0.006)
    y += 0.3 * np.sin(2 * np.pi * 950.0 * t) * np.exp(-t / 0.01)
    a = samples(0.0015)
    y[:a] *= raised_cosine(a)
    y = edge_fade(y.astype(np.float32), 2.0)
    return y / np.max(np.abs(y))


# ---------------------------------------------------------------- dynamics

def follow_activity(x, window_s=0.05, threshold_db=-45.0, attack_s=0.25, release_s=1.2):
    """0..1 envelope that is 1 while `x` is active (voice ducking side chain)."""
    w = max(1, samples(window_s))
    nb = (len(x) + w - 1) // w
    pad = np.zeros(nb * w, dtype=np.float32)
    pad[:len(x)] = x
    blocks = np.sqrt(np.mean(pad.reshape(nb, w) ** 2, axis=1))
    on = (20 * np.log10(np.maximum(blocks, 1e-9)) > threshold_db).astype(np.float64)
    # look ahead a little so the bed starts to dip just before speech
    ahead = max(1, int(round(attack_s / window_s)))
    on = np.maximum.reduce([np.roll(on, -k) for k in range(ahead + 1)])
    g = np.zeros(nb)
    rel = 1.0 - np.exp(-window_s / release_s)
    att = 1.0 - np.exp(-window_s / (attack_s / 2))
    level = 0.0
    for i in range(nb):
        target = on[i]
        level += (target - level) * (att if target > level else rel)
        g[i] = level
    centers = (np.arange(nb) + 0.5) * w
    return np.interp(np.arange(len(x)), centers, g).astype(np.float32)


def _oversampled_peaks(x, factor=4, chunk=1 << 16, overlap=256):
    """Per-sample estimate of the true (inter-sample) peak by FFT oversampling."""
    n = len(x)
    out = np.empty(n, dtype=np.float32)
    for start in range(0, n, chunk):
        a = max(0, start - overlap)
        b = min(n, start + chunk + overlap)
        seg = np.asarray(x[a:b], dtype=np.float64)
        m = len(seg)
        spec = np.fft.rfft(seg)
        up = np.fft.irfft(spec, m * factor) * factor
        up = np.abs(up).reshape(m, factor).max(axis=1)
        up = np.maximum(up, np.abs(seg))
        out[start:min(n, start + chunk)] = up[start - a:start - a + min(chunk, n - start)]
    return out


def limit_true_peak(x, ceiling_db, lookahead_s=0.005, release_s=0.2, block=32):
    """Gain-riding limiter on oversampled peaks. Returns (y, max gain reduction in dB)."""
    ceiling = undb(ceiling_db)
    peaks = _oversampled_peaks(x)
    need = np.minimum(1.0, ceiling / np.maximum(peaks, 1e-12))
    nb = (len(x) + block - 1) // block
    padded = np.ones(nb * block)
    padded[:len(x)] = need
    rb = padded.reshape(nb, block).min(axis=1)
    la = max(1, int(np.ceil(lookahead_s * SR / block)))
    target = rb.copy()
    for k in range(1, la + 1):           # look ahead
        target[:-k] = np.minimum(target[:-k], rb[k:])
    target[1:] = np.minimum(target[1:], rb[:-1])   # and one block back
    rel = 1.0 - np.exp(-block / (release_s * SR))
    att = 1.0 - np.exp(-block / (lookahead_s * SR / 3))
    g = np.empty(nb)
    level = 1.0
    for k in range(nb):                  # release (forward)
        level = min(target[k], level + (1.0 - level) * rel)
        g[k] = level
    level = 1.0
    for k in range(nb - 1, -1, -1):      # attack ramp (backward)
        level = min(g[k], level + (1.0 - level) * att)
        g[k] = level
    starts = np.arange(nb) * block
    gain = np.interp(np.arange(len(x)), starts, g)
    # the interpolation between two block gains never exceeds the larger of the two
    # requirements around it; enforce the exact requirement per sample as a last guard
    gain = np.minimum(gain, need)
    return (x * gain).astype(np.float32), float(-db(np.min(g)))


def compress(x, threshold, ratio, attack_s=0.003, release_s=0.1, block=32):
    """Feed-forward peak compressor (threshold as linear amplitude). Returns (y, max
    gain reduction dB). Used on the voice stem to tame the synthesizer's sharp peaks."""
    nb = (len(x) + block - 1) // block
    padded = np.zeros(nb * block, dtype=np.float32)
    padded[:len(x)] = np.abs(x)
    peak = padded.reshape(nb, block).max(axis=1)
    level_db = 20 * np.log10(np.maximum(peak, 1e-9))
    over = np.maximum(0.0, level_db - db(threshold))
    want = over * (1.0 - 1.0 / ratio)           # dB of reduction wanted per block
    att = 1.0 - np.exp(-block / (attack_s * SR))
    rel = 1.0 - np.exp(-block / (release_s * SR))
    gr = np.empty(nb)
    g = 0.0
    for k in range(nb):
        w = want[k]
        g += (w - g) * (att if w > g else rel)
        gr[k] = g
    centers = (np.arange(nb) + 0.5) * block
    gain_db = np.interp(np.arange(len(x)), centers, gr)
    return (x * undb(-gain_db)).astype(np.float32), float(np.max(gr)) if nb else 0.0


def to_int16(x, seed):
    """Float [-1, 1] to 16-bit with seeded TPDF dither."""
    rng = np.random.default_rng(seed + 104729)
    d = (rng.random(len(x)) - rng.random(len(x))) / 32768.0
    y = np.clip(np.round((x + d) * 32767.0), -32767, 32767)
    return y.astype("<i2")
