"""A line's level in this process, with numpy and scipy: resampled to RATE, a gain, and a peak limiter.

It does what `aresample,volume,alimiter` did in one ffmpeg process per pass (up to six a line): the
limiter looks `attack` ahead and releases exponentially (gain_curve, all vectorised: no loop over
samples), so no sample passes the ceiling and the gain moves over milliseconds, not samples.
"""

from __future__ import annotations

import math

import numpy as np

RATE = 48_000  # Hz, every track and clip (loudness.RATE)


def resampled(samples: np.ndarray, rate: int) -> np.ndarray:  # int16 [n] at rate -> float [m] at RATE
    """Samples as floats (full scale 1.0) at RATE, by polyphase filtering (scipy)."""
    from scipy.signal import resample_poly

    x = samples.astype(np.float64) / 32768
    if rate == RATE:
        return x
    g = math.gcd(RATE, rate)
    return resample_poly(x, RATE // g, rate // g)


def gain_curve(x: np.ndarray, ceiling: float, attack: int, release_db: float) -> np.ndarray:  # [n] -> [n]
    """The limiter's gain for each sample, worked in dB of attenuation: each sample takes the most any
    sample up to `attack` samples ahead needs (it looks ahead, so the gain is down before the peak), then
    recovers at `release_db` dB a sample (an exponential release, as a running maximum of a line that
    falls: max over m <= n of a[m] - r (n - m)), averaged over the `attack` samples before it (no click;
    the average still covers each peak, whose attenuation every sample of that window already holds)."""
    from scipy.ndimage import maximum_filter1d, uniform_filter1d

    attack += attack % 2  # odd windows, placed by their origin
    need = np.maximum(0.0, 20 * np.log10(np.maximum(np.abs(x), 1e-12) / ceiling))  # [n] dB to take off
    ahead = maximum_filter1d(need, size=attack + 1, mode="nearest", origin=-(attack // 2))  # [n, n + a]
    slope = release_db * np.arange(len(x))
    held = np.maximum.accumulate(ahead + slope) - slope
    smooth = uniform_filter1d(held, size=attack + 1, mode="nearest", origin=attack // 2)  # [n - a, n]
    return 10 ** (-smooth / 20)


def limited(x: np.ndarray, ceiling: float, attack_s: float = 0.005, release_s: float = 0.05) -> np.ndarray:
    """x (floats at RATE) with every peak under `ceiling` (full scale 1.0): a 5 ms look-ahead, and a
    release of 20 dB in 50 ms."""
    return x * gain_curve(x, ceiling, round(attack_s * RATE), 20.0 / (release_s * RATE))


def as_int16(x: np.ndarray) -> np.ndarray:
    return np.clip(np.round(x * 32768), -32768, 32767).astype(np.int16)
