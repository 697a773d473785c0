"""A line's level in this process, with numpy and scipy: a gain and a true-peak limiter at the line's own
rate, then resampled to RATE once.

It does what `aresample,volume,alimiter` did in one ffmpeg process per pass (up to six a line): the
limiter looks `attack` ahead and releases exponentially (gain_curve, all vectorised: no loop over
samples), so no sample passes the ceiling and the gain moves over milliseconds, not samples. What does
not depend on the gain (each sample's level in dB and the look-ahead's maximum of it) is worked out once
a line (`Peaks`), not once a pass.

It limits true peaks, not samples: a sample's level is the loudest of the waveform between it and the
next one, read at OVERSAMPLE times the rate (BS.1770's true peak, as ffmpeg's ebur128 measures it). A
limiter of samples let a Piper line out at -1.4 dBTP from a -3 dBFS ceiling: between two samples at
22.05 kHz the waveform rose 1.6 dB higher, and resampling it to 48 kHz brought those peaks out.
"""

from __future__ import annotations

import math

import numpy as np

RATE = 48_000  # Hz, every track and clip (loudness.RATE)
OVERSAMPLE = 4  # BS.1770-4's true peak: 4x at 48 kHz (more at lower rates would add under 0.1 dB)


def as_float(samples: np.ndarray) -> np.ndarray:  # int16 [n] -> float [n], full scale 1.0
    return samples.astype(np.float64) / 32768


def resampled(x: np.ndarray, rate: int) -> np.ndarray:  # float [n] at rate -> float [m] at RATE
    """Floats at RATE, by polyphase filtering (scipy)."""
    from scipy.signal import resample_poly

    if rate == RATE:
        return x
    g = math.gcd(RATE, rate)
    return resample_poly(x, RATE // g, rate // g)


def true_peaks(x: np.ndarray) -> np.ndarray:  # float [n] -> [n]
    """Each sample's true level: the largest magnitude of the band-limited waveform from it up to the next
    sample, read at OVERSAMPLE points (polyphase interpolation); never below the sample's own."""
    from scipy.signal import resample_poly

    if len(x) < 2:
        return np.abs(x)
    up = resample_poly(x, OVERSAMPLE, 1)[:len(x) * OVERSAMPLE]  # [n * OVERSAMPLE]
    return np.maximum(np.abs(up).reshape(len(x), OVERSAMPLE).max(axis=1), np.abs(x))


class Peaks:
    """The half of a limiter's work that no gain changes, done once a line: each sample's true level (dB,
    `true_peaks`) and the loudest level from it to `attack` samples ahead (a look-ahead maximum commutes
    with adding a gain in dB, and with taking off nothing below the ceiling)."""

    def __init__(self, x: np.ndarray, rate: int, attack_s: float = 0.005, release_s: float = 0.05):
        from scipy.ndimage import maximum_filter1d

        self.attack = round(attack_s * rate) + round(attack_s * rate) % 2  # odd windows, placed by origin
        level = 20 * np.log10(np.maximum(true_peaks(x), 1e-12))  # [n] dB
        self.ahead = maximum_filter1d(level, size=self.attack + 1, mode="nearest",
                                      origin=-(self.attack // 2))  # [n] dB, the loudest of [n, n + a]
        self.slope = 20.0 / (release_s * rate) * np.arange(len(x))  # [n] dB: 20 dB of release a release_s

    def gain_curve(self, gain_db: float, ceiling_db: float) -> np.ndarray:  # -> [n]
        """The limiter's gain for each sample of the line raised by gain_db, worked in dB of attenuation:
        each sample takes the most any sample up to `attack` ahead needs (it looks ahead, so the gain is
        down before the peak), then recovers 20 dB a release_s (an exponential release, as a running
        maximum of a line that falls: max over m <= n of a[m] - r (n - m)), averaged over the `attack`
        samples before it (no click; the average still covers each peak, whose attenuation every sample
        of that window already holds)."""
        from scipy.ndimage import uniform_filter1d

        need = np.maximum(0.0, self.ahead + (gain_db - ceiling_db))  # [n] dB to take off
        held = np.maximum.accumulate(need + self.slope) - self.slope
        smooth = uniform_filter1d(held, size=self.attack + 1, mode="nearest", origin=self.attack // 2)
        return 10 ** (-smooth / 20)  # [n], from [n - a, n]


def limited(x: np.ndarray, ceiling_db: float, rate: int = RATE) -> np.ndarray:
    """x (floats, full scale 1.0) with every true peak under ceiling_db: a 5 ms look-ahead, and a release of
    20 dB in 50 ms."""
    return x * Peaks(x, rate).gain_curve(0.0, ceiling_db)


def as_int16(x: np.ndarray) -> np.ndarray:
    return np.clip(np.round(x * 32768), -32768, 32767).astype(np.int16)
