"""A voice's level, worked in this process: the loudness (BS.1770, checked against ffmpeg's), the peak
limiter, the secant to the level, a line's silent ends, its own rate, and the mux of a draft's sound."""

import json
import subprocess
import wave

import numpy as np
import pytest

from attention_lesson.pipeline.voice.loudness import EDGE_KEEP, RATE, loudness, measure, trimmed

FRAME = 1 / 15  # low quality


@pytest.mark.parametrize("rate, seconds, dbfs",
                         [(48_000, 3.0, -20.0), (22_050, 1.5, -9.0), (48_000, 0.8, -30.0)])
def test_loudness_in_process_is_ffmpegs(tmp_path, rate, seconds, dbfs):
    """The in-process BS.1770 measurement against ffmpeg's ebur128 filter, on noise shaped like speech
    (bursts with pauses) at two sample rates; and silence is -inf."""
    rng = np.random.default_rng(int(rate + seconds))
    t = np.arange(int(rate * seconds)) / rate
    envelope = (np.sin(2 * np.pi * 3 * t) > -0.3) * (0.5 + 0.5 * np.sin(2 * np.pi * 0.7 * t) ** 2)
    x = rng.normal(0, 10 ** (dbfs / 20), len(t)) * envelope
    samples = np.clip(x * 32767, -32768, 32767).astype(np.int16)
    path = tmp_path / "noise.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(rate)
        w.writeframes(samples.tobytes())
    ffmpeg_lufs, _ = measure(path)
    assert abs(loudness(samples, rate) - ffmpeg_lufs) < 0.1, (loudness(samples, rate), ffmpeg_lufs)
    assert loudness(np.zeros(rate, np.int16), rate) == float("-inf")


def test_a_lines_silent_ends_are_cut_so_it_starts_on_time():
    """A line's voice starts VOICE_LEAD into its step, whatever silence the engine or the recording put
    first (Piper's varies from one synthesis to the next): trimmed keeps EDGE_KEEP of it each side."""
    x = np.zeros(RATE, dtype=np.int16)
    x[12_000:30_000] = 3000  # 0.25 s of silence, 0.375 s of sound, then silence
    y = trimmed(x)
    keep = round(EDGE_KEEP * RATE)
    assert len(y) == 18_000 + 2 * keep and (y[:keep] == 0).all() and (y[keep:keep + 18_000] == 3000).all()
    quiet = np.full(RATE, 100, dtype=np.int16)  # below EDGE_LEVEL throughout: nothing to cut by
    assert (trimmed(quiet) == quiet).all()


def test_the_in_process_limiter_keeps_every_peak_under_its_ceiling_and_looks_ahead():
    """limiter.Peaks.gain_curve: no sample over the ceiling after it, the gain already down `attack`
    samples before a peak, recovering after it, and untouched far from any peak; a gain in dB moves the
    curve as the same line raised by it would."""
    from attention_lesson.pipeline.voice.limiter import Peaks, limited

    rng = np.random.default_rng(3)
    x = rng.normal(0, 0.05, 48_000)  # under the ceiling by 6 sigma
    x[20_000] = 2.0  # a peak 16 dB over it
    ceiling = 20 * np.log10(0.3)
    y = limited(x, ceiling)
    assert np.abs(y).max() <= 0.3 + 1e-12
    g = Peaks(x, RATE).gain_curve(0.0, ceiling)
    assert g[20_000 - 120] < 0.5 and g[20_000] <= 0.15 + 1e-12  # down before the peak, enough at it
    assert g[20_000 + 1200] > g[20_000] and g[40_000] == pytest.approx(1.0)  # recovers; untouched far off
    raised = Peaks(x * 2, RATE).gain_curve(0.0, ceiling)
    assert Peaks(x, RATE).gain_curve(20 * np.log10(2), ceiling) == pytest.approx(raised, rel=1e-9)


def test_a_drafts_sound_is_encoded_at_a_lower_rate_in_the_same_pass_as_the_title(tmp_path):
    """track.mux: the sound as AAC at 48 kHz, padded to the picture's length, with the container's title,
    in one ffmpeg pass; a draft (quality low) at 64 kb/s, anything else at 96 kb/s (audio_codec)."""
    from attention_lesson.pipeline.voice.track import mux

    t = np.arange(3 * RATE) / RATE  # a voice-like sound: 150 Hz and its harmonics, in syllables
    voiced = sum(np.sin(2 * np.pi * 150 * k * t + k * k) / k for k in range(1, 40))
    sound = (2000 * voiced * (np.sin(2 * np.pi * 4 * t) > 0)).astype(np.int16)
    rates = {}
    for quality in ("low", "high"):
        video = tmp_path / f"{quality}.mp4"
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=15", "-t", "4",
                        "-pix_fmt", "yuv420p", str(video)], check=True)
        mux(video, sound, "mp4", quality, title="A title")
        entries = "stream=codec_name,bit_rate,sample_rate,duration:format_tags=title"
        s = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_entries", entries, "-of", "json",
                                       str(video)], capture_output=True, text=True, check=True).stdout)
        audio = next(x for x in s["streams"] if x["codec_name"] == "aac")
        assert audio["sample_rate"] == str(RATE) and s["format"]["tags"]["title"] == "A title"
        assert float(audio["duration"]) == pytest.approx(4.0, abs=FRAME)
        rates[quality] = int(audio["bit_rate"])
    assert rates["low"] < 0.9 * rates["high"], rates  # the same rate would give the same stream


def test_a_line_is_leveled_at_its_own_rate_and_comes_out_at_48_khz(tmp_path):
    """A 22.05 kHz line (espeak-ng's and Piper's rate) is levelled there and resampled once: it comes
    out at RATE, as long, at LOUDNESS in its step (measured exactly on what comes out, not on the pass's
    estimate), its true peak under TRUE_PEAK as ffmpeg's ebur128 reads it. The line's loudest sound is a
    tone at a quarter of its rate whose samples fall 45 degrees off its crests: they show 3 dB less than
    the waveform reaches between them, which a limiter of samples let out at +0.1 dBTP (Piper's lines:
    up to -0.5 dBTP)."""
    from attention_lesson.pipeline.voice import loudness as lv

    rate = 22_050
    t = np.arange(3 * rate) / rate
    rng = np.random.default_rng(5)
    voice = (np.sin(2 * np.pi * 4 * t) > 0) * rng.normal(0, 0.02, len(t))  # bursts, 30 dB under full scale
    tone = slice(rate, rate + rate // 100)  # 10 ms, 27 dB over them
    voice[tone] = 0.5 * np.sin(2 * np.pi * rate / 4 * t[tone] + np.pi / 4)
    y = lv.leveled(voice, rate)
    assert y.dtype == np.int16 and abs(len(y) - 3 * RATE) <= 1
    assert abs(lv.in_step(y, RATE) - lv.LOUDNESS) < 0.3
    lufs, true_peak = measure(lv.write_wav(y, tmp_path / "line.wav"))
    assert abs(lufs - lv.LOUDNESS) <= 0.5 and true_peak <= lv.TRUE_PEAK, (lufs, true_peak)
    assert true_peak == pytest.approx(lv.PEAK_TARGET, abs=0.5)  # limited to its ceiling, not far under it


def test_the_level_is_found_by_the_secant_in_three_passes():
    """A limiter gives back less loudness than the gain it is given: on a line whose loudness rises 0.7
    dB a dB of gain, the miss added once, then the secant, lands on the gain at once."""
    from attention_lesson.pipeline.voice.loudness import LOUDNESS, next_gain

    heard = lambda gain: -30.0 + 0.7 * gain  # noqa: E731
    tried = [(LOUDNESS + 30.0, heard(LOUDNESS + 30.0))]
    tried.append((next_gain(tried), heard(next_gain(tried))))
    assert next_gain(tried) == pytest.approx((LOUDNESS + 30.0) / 0.7, abs=1e-9)
    flat = [(10.0, -20.0), (12.0, -20.0)]  # the limiter gave nothing back: the miss added, not a leap
    assert next_gain(flat) == pytest.approx(12.0 + LOUDNESS + 20.0)
