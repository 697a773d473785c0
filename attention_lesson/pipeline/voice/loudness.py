"""Loudness: every voice normalised on its own to LOUDNESS LUFS as heard in its step (a measured gain,
corrected from a measurement of the result, and a true-peak limiter at PEAK_TARGET for a true peak under
TRUE_PEAK), 48 kHz mono 16-bit WAV, so recordings made on different days match; measured in this process
(ITU-R BS.1770-4), checked by ffmpeg's ebur128 (`measure`).
"""

from __future__ import annotations

import functools
import re
import subprocess
import wave
from pathlib import Path

import numpy as np

from scenes.common.style import VOICE_LEAD, VOICE_TAIL

from .. import ffmpeg
from . import limiter

RATE = limiter.RATE  # Hz, every track and clip
LOUDNESS, TRUE_PEAK, LOUDNESS_RANGE = -16.0, -1.5, 11.0  # LUFS, dBTP, LU: speech for online video
# the limiter's ceiling for true peaks (limiter.true_peaks), below TRUE_PEAK: AAC adds to them (measured
# when it limited samples: a -1.5 ceiling gave -1.2 dBTP in the mp4; a -3 ceiling let Piper's lines out at
# up to -0.5 dBTP, their peaks between samples; limiting true peaks, the lesson's 67 Piper lines measure
# -2.8 to -3.0 dBTP)
PEAK_TARGET = -3.0
EDGE_LEVEL = 0.01  # of a line's peak (-40 dB): quieter than this at its ends is silence
EDGE_KEEP = 0.010  # seconds kept before its first sound and after its last


def k_weighting(rate: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """BS.1770's K-weighting at any sample rate: a +4 dB high shelf at 1500 Hz and a high-pass at
    38 Hz, as biquads (b, a) from the Audio EQ Cookbook (pyloudnorm's derivation)."""
    shelf_gain, w_shelf, w_pass = 10 ** (4.0 / 40), 2 * np.pi * 1500.0 / rate, 2 * np.pi * 38.0 / rate
    A, cs, al = shelf_gain, np.cos(w_shelf), np.sin(w_shelf) / (2 / np.sqrt(2))
    shelf = (np.array([A * ((A + 1) + (A - 1) * cs + 2 * np.sqrt(A) * al), -2 * A * ((A - 1) + (A + 1) * cs),
                       A * ((A + 1) + (A - 1) * cs - 2 * np.sqrt(A) * al)]),
             np.array([(A + 1) - (A - 1) * cs + 2 * np.sqrt(A) * al, 2 * ((A - 1) - (A + 1) * cs),
                       (A + 1) - (A - 1) * cs - 2 * np.sqrt(A) * al]))
    cp, ap = np.cos(w_pass), np.sin(w_pass) / (2 * 0.5)
    high_pass = (np.array([(1 + cp) / 2, -(1 + cp), (1 + cp) / 2]), np.array([1 + ap, -2 * cp, 1 - ap]))
    return [(b / a[0], a / a[0]) for b, a in (shelf, high_pass)]


@functools.cache
def k_sections(rate: int) -> np.ndarray:  # [2, 6]
    """k_weighting as second-order sections, for one sosfilt pass (two lfilter passes took 1.5 times as
    long)."""
    return np.array([np.concatenate([b, a]) for b, a in k_weighting(rate)])


def weighted(samples: np.ndarray, rate: int = RATE) -> np.ndarray:  # [n] -> float [n]
    """Mono samples (int16, or floats at full scale 1.0) K-weighted."""
    from scipy.signal import sosfilt

    x = samples.astype(np.float64) / 32768 if samples.dtype == np.int16 else samples
    # + 1e-20 (-400 dBFS, no change to any digit of the result): on exact zeros (a line's silences) the
    # filter's state decays into subnormal numbers, which took the filtering 3 times as long
    return sosfilt(k_sections(rate), x + 1e-20)


def loudness(samples: np.ndarray, rate: int = RATE) -> float:
    """Integrated loudness (LUFS) of mono samples (int16, or floats at full scale 1.0), ITU-R BS.1770-4:
    K-weighted, 400 ms blocks every 100 ms, gated at -70 LUFS and then 10 LU below the mean of what
    passed; -inf for silence. In this process (ffmpeg's loudnorm was a process per measurement)."""
    return gated(block_power(weighted(samples, rate) ** 2, rate))


def gated(power: np.ndarray) -> float:  # [blocks] -> LUFS
    """BS.1770's gating of the blocks' mean squares: at -70 LUFS, then 10 LU below the mean of what
    passed; -inf for silence."""
    level = -0.691 + 10 * np.log10(np.maximum(power, 1e-20))
    loud = power[level > -70]
    if not len(loud):
        return float("-inf")
    gate = -0.691 + 10 * np.log10(loud.mean()) - 10
    return float(-0.691 + 10 * np.log10(power[(level > -70) & (level > gate)].mean()))


def block_power(squares: np.ndarray, rate: int) -> np.ndarray:  # [n] -> [blocks]
    """The mean of squares over every 400 ms block, one every 100 ms (the last block the last whole one):
    each a sum of four 100 ms hops' sums (a cumulative sum over the whole line took twice as long)."""
    block, hop = round(0.4 * rate), round(0.1 * rate)
    if len(squares) < block:
        squares = np.pad(squares, (0, block - len(squares)))
    if block != 4 * hop:  # a rate whose 400 ms is not four of its 100 ms
        energy = np.concatenate([[0.0], np.cumsum(squares)])
        starts = np.arange(0, len(squares) - block + 1, hop)
        return (energy[starts + block] - energy[starts]) / block
    hops = squares[:len(squares) // hop * hop].reshape(-1, hop).sum(axis=1)  # [n // hop]
    return (hops[:-3] + hops[1:-2] + hops[2:-1] + hops[3:]) / block


def pcm(path: Path) -> tuple[np.ndarray, int] | None:
    """A 16-bit PCM WAV's samples (mono, int16) and rate, read in this process; None for anything else
    (a recording in another format: ffmpeg decodes it)."""
    try:
        with wave.open(str(path), "rb") as w:
            if w.getsampwidth() != 2:
                return None
            x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).reshape(-1, w.getnchannels())
            return x.mean(axis=1).astype(np.int16), w.getframerate()
    except (wave.Error, EOFError):
        return None


def in_step(samples: np.ndarray, rate: int) -> float:
    """A voice's loudness as it will sound in its step: with the step's silence before (VOICE_LEAD) and
    after it (VOICE_TAIL). Gating counts the 400 ms blocks that straddle a short line's edges, so a line
    measured alone reads louder than it then sounds in the scene (measured: Piper's 1.5 s lines made a
    -17.3 LUFS scene from lines at -16.5 measured alone)."""
    return heard_in_step(weighted(samples, rate) ** 2, rate)


def heard_in_step(squares: np.ndarray, rate: int) -> float:
    """in_step of the samples whose K-weighted squares these are."""
    pad = lambda s: np.zeros(round(s * rate))  # noqa: E731
    return gated(block_power(np.concatenate([pad(VOICE_LEAD), squares, pad(VOICE_TAIL)]), rate))


def trimmed(x: np.ndarray, rate: int = RATE) -> np.ndarray:  # [n] -> [m]
    """A line without the silence at its ends (quieter than EDGE_LEVEL of its peak), EDGE_KEEP seconds
    kept each side: its voice then starts VOICE_LEAD into the step, as the subtitles say. Piper's VITS
    voices draw noise inside the model, so each synthesis of a line starts after a different pause
    (measured: 35 to 49 ms of silence first, lines 3.09 to 3.22 s long, over 8 syntheses of one line):
    without this the onset wandered, and a test caught it now and then."""
    level = np.abs(x.astype(np.float64))
    loud = np.flatnonzero(level > EDGE_LEVEL * level.max()) if level.size else level
    if not loud.size:
        return x
    keep = round(EDGE_KEEP * rate)
    return x[max(loud[0] - keep, 0):loud[-1] + keep + 1]


def normalise(src: Path, dst: Path, passes: int = 12) -> None:
    """A voice (any format) `trimmed` and `leveled`, as a RATE Hz mono 16-bit WAV at dst: a line ready
    for its step. In this process but for a recording in a format Python cannot read (one ffmpeg run to
    decode it)."""
    x, rate = decoded(src, dst)
    write_wav(leveled(trimmed(x, rate), rate, passes), dst)


def decoded(src: Path, dst: Path) -> tuple[np.ndarray, int]:  # -> float [n] at its own rate, the rate
    samples = pcm(src)
    if samples is None:
        plain = dst.with_name(f"plain-{dst.name}")
        ffmpeg.run("-i", str(src), "-ac", "1", "-ar", str(RATE), "-c:a", "pcm_s16le", str(plain))
        samples = pcm(plain)
    return limiter.as_float(samples[0]), samples[1]


def leveled(x: np.ndarray, rate: int = RATE, passes: int = 12) -> np.ndarray:  # float [n] -> int16 [m], RATE
    """At LOUDNESS (as heard in its step: `in_step`), peaks limited to PEAK_TARGET: a gain and a peak
    limiter (limiter.py), the gain corrected from a measurement of the result (the limiter takes some
    loudness off a peaky voice: espeak-ng's lines peak about 19 dB above their loudness, Piper's at full
    scale 18 dB above). Levelled at the line's own rate (espeak-ng's and Piper's 22.05 kHz: less than half
    the samples of RATE each pass), then resampled to RATE once. Not loudnorm's second pass: on a line
    shorter than its 3 s window it falls back to dynamic mode and barely raises the level (measured: -31
    LUFS for a 1.5 s line asked for -16)."""
    squares = weighted(x, rate) ** 2  # [n]: K-weighted once; a pass scales them by its gain squared
    measured = heard_in_step(squares, rate)
    if measured == float("-inf"):  # silence: nothing to measure, nothing to raise
        return limiter.as_int16(limiter.resampled(x, rate))
    found, gain = limiter.Peaks(x, rate), LOUDNESS - measured
    tried = [(0.0, measured)]  # (gain, loudness heard): the line as it came is the secant's first point
    for _ in range(passes):  # measured on the floats (their rounding to 16 bits is 90 dB below)
        scale = 10 ** (gain / 20) * found.gain_curve(gain, PEAK_TARGET)  # [n]
        heard = heard_in_step(squares * scale ** 2, rate)  # K(x scale) = K(x) scale, as scale moves slowly
        if abs(LOUDNESS - heard) < 0.25:
            break
        tried.append((gain, heard))
        gain = next_gain(tried)
    return limiter.as_int16(limiter.resampled(x * scale, rate))


def next_gain(tried: list[tuple[float, float]]) -> float:
    """The next gain to try, from the (gain, loudness) pairs tried: the miss added to the last (the first
    time), then the secant through the last two, since the limiter gives back less than a dB of loudness
    for each dB of gain (measured: 5 passes a line with the miss added each time, 2 to 3 this way)."""
    gain, heard = tried[-1]
    miss = LOUDNESS - heard
    if len(tried) < 2:
        return gain + miss
    (g0, h0), (g1, h1) = tried[-2:]
    slope = (h1 - h0) / (g1 - g0) if g1 != g0 else 0.0
    return gain + (miss / slope if 0.1 <= slope <= 1.5 else miss)


def read_wav(path: Path) -> np.ndarray:
    """A normalised WAV's samples, int16 [samples]."""
    return pcm(path)[0]


def write_wav(samples: np.ndarray, path: Path) -> Path:
    """int16 mono samples as a RATE Hz 16-bit WAV file."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.astype(np.int16).tobytes())
    return path


_LUFS = re.compile(r"I:\s+(-?[\d.]+|-inf) LUFS")
_PEAK = re.compile(r"Peak:\s+(-?[\d.]+|-inf) dBFS")


def measure(path: Path) -> tuple[float, float]:
    """(integrated loudness in LUFS, true peak in dBTP) of a file's sound, by ffmpeg's ebur128."""
    err = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", str(path), "-af",
                          "ebur128=peak=true", "-f", "null", "-"], capture_output=True, text=True).stderr
    summary = err[err.rindex("Summary:"):]
    return float(_LUFS.search(summary).group(1)), float(_PEAK.search(summary).group(1))
