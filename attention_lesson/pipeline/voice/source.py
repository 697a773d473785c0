"""A `--voice` value, read in one place: who speaks a step with no recording (the draft voice, the neural
voice, a Piper model, a Kokoro voice), or the teacher's recordings folder. Options keep the value as the
string the teacher gave (resolved: paths absolute), because it is part of a render's identity in the
manifest; every reader asks `VoiceSource.of` what it means.

    draft             espeak-ng                      VoiceSource("draft")
    neural            Kokoro (Piper where it lacks)  VoiceSource("neural")
    piper:PATH.onnx   a Piper model                  VoiceSource("piper", "PATH.onnx")
    kokoro:REF        a Kokoro voice (file or name)  VoiceSource("kokoro", "REF"), REF = PATH[#name]
    DIR               recordings, per step           VoiceSource("folder", "DIR")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["draft", "neural", "piper", "kokoro", "folder"]
DRAFT, NEURAL, PIPER, KOKORO = "draft", "neural", "piper:", "kokoro:"  # the string forms


@dataclass(frozen=True)
class VoiceSource:
    kind: Kind
    ref: str = ""  # piper: the model; kokoro: the voice (PATH, PATH#name or a carried voice's name); folder

    @classmethod
    def of(cls, value: str) -> VoiceSource:
        """What a --voice value means (any string: what is not a keyword or engine: is a folder)."""
        if value == DRAFT:
            return cls("draft")
        if value == NEURAL:
            return cls("neural")
        if value.startswith(PIPER):
            return cls("piper", value[len(PIPER):])
        if value.startswith(KOKORO):
            return cls("kokoro", value[len(KOKORO):])
        return cls("folder", value)

    def __str__(self) -> str:
        """The value back as a --voice string."""
        if self.kind in ("draft", "neural"):
            return self.kind
        return self.ref if self.kind == "folder" else f"{self.kind}:{self.ref}"

    @property
    def neural(self) -> bool:
        """Whether a neural voice speaks every step (neural, a Piper model, a Kokoro voice)."""
        return self.kind in ("neural", "piper", "kokoro")

    @property
    def engine(self) -> bool:
        """Whether the value names an engine's voice (piper: or kokoro:), a file or a name to resolve."""
        return self.kind in ("piper", "kokoro")
