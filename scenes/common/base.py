"""LessonScene: the base of every lesson scene.

setup() loads the lesson and runs the core once; a scene's construct() is a short list of steps.
step(key) starts a manim section named after the step and attaches the step's narration line (from the
catalog) as a subcaption spanning the whole step, so every render has an .srt and every step can be cut
into its own clip. A step lasts at least as long as its line takes to read.

The pipeline hands a scene its parsed lesson and settings (`lesson=`, `settings=`); plain `manim render`
reads them from the ATTENTION_* variables (scenes/common/settings.py). Whoever builds a scene can watch
its steps through two constructor arguments: `on_step(scene_id, step)`
as a step starts (the pipeline's progress bars) and `after_step(scene, step)` when a step ends, with the
frame complete (the tests' layout checks and golden frames). A third, `voice(scene_id, n, step, line)`,
returns how long the step's spoken line lasts (seconds, or None for none; or a future of the seconds,
which the scene waits for only where the step ends, so the voice is made while the step draws): the
step then lasts at least
VOICE_LEAD + that + VOICE_TAIL, the voice starting VOICE_LEAD into it. The scene itself never touches
audio; `self.steps` records when each step ran and how long its voice is, for whoever lays the track.
The subtitles follow the voice: the line in cues of at most two lines, spread over the voice (or the
whole step when there is none), each long enough to read, running on into the step around the voice
where that is too short (scenes/common/captions.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from manim import DOWN, RIGHT, UL, UP, FadeIn, FadeOut, Group, Mobject, Scene, VGroup, config

from attention_core import Lesson, hard_lookup, load
from attention_core.claims import Facts, said

from ..registry import FRAME_BODY, FRAME_MIN_CAP, step_file
from . import style
from .captions import least_step, spoken, timed
from .i18n import Token, catalog
from .labels import fit, frame_box, label, mixed_line, wrapped
from .languages import font
from .layout import _grid_numbers as grid_numbers
from .layout import body_mobjects, cap_height, ink_box, largest_text, print_box, px_1080, safe_area
from .settings import Settings
from .words import use_words

FILL_AIR = 0.05  # place_best: a way fills the screen when it fills FILL_SHARE and this much more
REFRAME_MIN = 0.005  # a reframe smaller than this (a share of the scale, scene units of shift) is skipped
KEYFRAMES_ENV = "ATTENTION_KEYFRAMES"  # a folder: save a PNG at the end of every step (plain manim)


@dataclass
class Step:
    """One step as rendered: its narration, when it ran in the scene (seconds), its voice's length."""

    step: str
    narration: str
    start: float
    end: float = 0.0
    voice: float | None = None  # (a future of it until the step ends)
    key: str = ""  # the catalog key of the line said (attention_core.claims chose it), "" for none


class LessonScene(Scene):
    scene_id = ""  # the catalog table and CLI id of the scene
    contexts = "current"  # "all": the scene shows every context of the lesson (read by the registry)
    one_head = True  # it shows the focus head alone (a lesson of several heads: its heading names it)

    def __init__(self, *args, lesson: Lesson | None = None, settings: Settings | None = None,
                 on_step: Callable[[str, str], None] | None = None,
                 after_step: Callable[["LessonScene", str], None] | None = None,
                 voice: Callable[[str, int, str, str], float | None] | None = None, **kwargs):
        self.set_data(lesson, settings)
        self.set_hooks(on_step, after_step, voice)
        super().__init__(*args, **kwargs)

    def set_data(self, lesson: Lesson | None = None, settings: Settings | None = None) -> None:
        """What to show: a parsed lesson and its settings (context, mode, language), as the pipeline
        hands them over. Without them (plain `manim render`) both come from the ATTENTION_* variables."""
        self._given = (lesson, settings)

    def set_hooks(self, on_step=None, after_step=None, voice=None) -> None:
        """Callbacks as each step starts (scene id, step) and once it ends (scene, step); the voice of
        a step (scene id, step number from 1, step, line) -> its length in seconds or None."""
        self.on_step, self.after_step, self.voice = on_step, after_step, voice

    def setup(self):
        lesson, settings = self._given
        self.settings = settings or Settings.from_env()
        style.use_theme(self.settings.theme)  # every colour this scene draws is this theme's
        self.lesson = lesson if lesson is not None else load(self.settings.lesson)
        self.context_name = self.lesson.context_name(self.settings.context)
        self.facts = Facts(self.lesson, self.context_name, self.settings.mode)  # what the lines may claim
        self.att = self.facts.att  # the pass the claims read is the one shown
        self.hard = hard_lookup(self.att)
        self.facts = Facts(self.lesson, self.context_name, self.settings.mode)  # what the lines may claim
        self.lang = self.settings.lang
        use_words(self.settings.words)  # every line of this scene, and the titles and lists it borrows
        style.use_font(font(self.lang))  # the language's own glyphs (Noto Sans CJK JP for ja)
        self.tr = catalog(self.lang)
        self.focus = self.att.index(self.lesson.focus)  # the query the step-by-step scenes expand
        self.dims = self.lesson.dim_names(self.lang)
        self.camera.background_color = style.BACKGROUND
        self._step: Step | None = None
        self._pending_heading = None
        self.step_keys: list[str] = []
        self.steps: list[Step] = []

    # -- text ----------------------------------------------------------------------------------
    def t(self, key: str, **fields) -> str:
        """A catalog entry of this scene ("key") or of another table ("table.key"); a line that claims
        something of the numbers only where they make it true, else its alternative, else ""."""
        own = f"{self.scene_id.replace('-', '_')}.{key}"
        chosen = self.said_key(own if own in self.tr else key)
        return self.tr(chosen, **fields) if chosen else ""

    def said_key(self, key: str) -> str | None:
        """The catalog key said for `key` (attention_core.claims: itself, its alternative, or None)."""
        return said(key, self.facts)

    def variants(self) -> list[str]:
        """Narration variants that fit this render's data, most specific first (e.g. "uniform"):
        a step's line `say.<step>_<variant>` replaces `say.<step>` where the catalog has one."""
        return []

    def narration_key(self, step: str) -> str | None:
        """The catalog key of the step's line: its variant's or its own, then as the claims allow."""
        own = self.scene_id.replace("-", "_")
        keys = [f"{own}.say.{step}_{v}" for v in self.variants()] + [f"{own}.say.{step}"]
        return self.said_key(next(k for k in keys if k in self.tr or k == keys[-1]))

    def narration(self, step: str) -> str:
        key = self.narration_key(step)
        return self.tr(key, **self.fields()) if key else ""

    def fields(self) -> dict:
        """Values a catalog line may name: {focus}, {context}, ... Scenes add their own."""
        return {"focus": self.tr.token(self.lesson.focus), "sentence": " ".join(self.att.tokens),
                "context": self.lesson.context_label(self.context_name, self.lang),
                "n": self.att.n, "d_k": self.att.d_k}

    def token(self, j: int) -> Token:
        """The context's token j, to name in a line: marked as a token (`{top}`: “the”), `{top!s}` bare."""
        return self.tr.token(self.att.tokens[j])

    def note(self, text: str, under: Mobject | None = None, size: float = style.BODY_SIZE,
             color=None) -> VGroup:
        """A note (centred lines) as wide as what it goes under, NOTE_MIN_W at the least: it wraps
        rather than widening the picture, which would shrink everything else to fit (labels.wrapped)."""
        width = max(under.width if under is not None else 0.0, style.NOTE_MIN_W)
        return wrapped(text, width, self.lang, size, color or style.TEXT)

    def paragraph(self, key: str, size: float = style.BODY_SIZE, color=None) -> VGroup:
        """A catalog entry of this scene (a string or a list of lines) as centred lines; `$...$` parts
        are Typst math (`sqrt(d_k)`; a brace, rare there, the catalog doubles: every entry is formatted
        with the scene's fields)."""
        lines = self.tr.lines(f"{self.scene_id.replace('-', '_')}.{key}", **self.fields())
        return VGroup(*(mixed_line(s, size, color or style.TEXT) for s in lines)).arrange(DOWN,
                                                                                          buff=style.GAP / 2)

    # -- steps -----------------------------------------------------------------------------------
    def step(self, key: str, loop: bool = False) -> None:
        """Close the previous step and start the step `key`: a section (a slide when rendered as
        slides) plus its narration line. A `loop` step replays on its own in a slide deck, so its
        animations should end where they started (a pulse, say)."""
        self._close_line()
        line = self.narration(key)
        self.step_keys.append(key)
        voice = self.voice(self.scene_id, len(self.step_keys), key, line) if self.voice else None
        self.open_step(key, line, loop and voice is None)  # a spoken step plays once, at its voice's pace
        self._step = Step(key, line, self.renderer.time, voice=voice, key=self.narration_key(key) or "")
        if self.on_step is not None:
            self.on_step(self.scene_id, key)
        if self._pending_heading is not None:  # the heading opens the first step
            self.play(FadeIn(self._pending_heading, shift=DOWN * style.GAP), run_time=style.FAST)
            self._pending_heading = None

    def open_step(self, key: str, line: str, loop: bool) -> None:
        """Where a step starts: a manim section here; the slide deck's variant starts a slide."""
        self.next_section(key)

    def _close_line(self) -> None:
        step, self._step = self._step, None
        if step is None:
            return
        if hasattr(step.voice, "result"):  # a voice made while the step drew: its seconds now
            step.voice = step.voice.result()
        need = least_step(step.narration, self.lang, step.voice, 1 / config.frame_rate)
        frames = round((need - (self.renderer.time - step.start)) * config.frame_rate)  # whole frames:
        if frames >= 1:  # manim warns about a wait shorter than one frame
            self.wait(frames / config.frame_rate)
        step.end = self.renderer.time
        self.steps.append(step)
        span = spoken(step.start, step.end, step.voice)
        for text, start, end in timed(step.narration, self.lang, *span, within=(step.start, step.end)):
            self.add_subcaption(text, duration=end - start, offset=start - step.end)
        if self.after_step is not None:
            self.after_step(self, self.step_keys[-1])
        if os.environ.get(KEYFRAMES_ENV):
            self.save_keyframe(Path(os.environ[KEYFRAMES_ENV]))

    def save_keyframe(self, folder: Path, measured: bool = True) -> Path:
        """The frame as it stands at the end of a step, as <scene>-<nn>-<step>.png, with what a page
        printing it needs in its text chunks (registry.FRAME_BODY, FRAME_MIN_CAP): the box of its body,
        the heading left out, and the cap height of its smallest text, in pixels (unless not `measured`:
        the studio's frames, which no page prints; measuring is 12 ms a frame)."""
        from PIL.PngImagePlugin import PngInfo

        folder.mkdir(parents=True, exist_ok=True)
        path = folder / step_file(self.scene_id, len(self.step_keys), self.step_keys[-1], "png")
        self.renderer.static_image = None  # a wait leaves the still mobjects' image: not drawn twice
        self.renderer.update_frame(self)
        image = self.camera.get_image()
        px = image.size[0] / config.frame_width  # pixels a scene unit
        box, cap = print_box(self) if measured else (None, None)
        info = PngInfo()
        if box is not None:
            info.add_text(FRAME_BODY, ",".join(f"{v * px:.1f}" for v in box))
        if cap is not None:
            info.add_text(FRAME_MIN_CAP, f"{cap * px:.2f}")
        image.save(path, pnginfo=info, compress_level=1)  # 12 ms a 480p frame, not 19; 4 % larger
        return path

    def tear_down(self):
        self._close_line()

    # -- shared pieces ---------------------------------------------------------------------------
    def heading(self, key: str = "title", text: str | None = None) -> VGroup:
        """The scene's title (or `text`) at the top left; at the top right the sentence, unless the scene
        shows every context. The sentence gets the room the title leaves (scaled down, never over it)."""
        w, _ = frame_box()
        title = label(text or self.t(key), style.TITLE_SIZE, style.TEXT)
        fit(title, w * style.TITLE_SHARE, title.height).to_corner(UL, buff=style.MARGIN)
        tags = self.heading_tags()
        if self.contexts == "all" and not tags:
            return VGroup(title)
        lines = ([" ".join(self.att.tokens)] if self.contexts != "all" else []) + \
            ([self.t("common.tag_sep").join(tags)] if tags else [])  # the sentence; what it is read with
        sentence = VGroup(*(label(t, style.LABEL_SIZE, style.DIM) for t in lines)).arrange(DOWN,
                                                                                           buff=style.GAP / 3,
                                                                                   aligned_edge=RIGHT)
        room, tall = min(w * style.SENTENCE_SHARE, w - title.width - style.BIG_GAP), title.height
        least = sentence.width * 1.01 * style.MIN_FONT_SIZE / style.LABEL_SIZE  # the sentence, smallest
        if room < least:  # a long title (a translation) gives way to the sentence, down to its own least
            fit(title, max(w - least - style.BIG_GAP,
                           title.width * 1.01 * style.MIN_FONT_SIZE / style.TITLE_SIZE), tall)
            title.to_corner(UL, buff=style.MARGIN)
            room = min(w * style.SENTENCE_SHARE, w - title.width - style.BIG_GAP)
        fit(sentence, room, tall * len(lines))
        sentence.align_to(title, UP if len(lines) > 1 else DOWN).to_edge(RIGHT, buff=style.MARGIN)
        return VGroup(title, sentence)

    def heading_tags(self) -> list[str]:
        """What the heading says of the lesson besides its sentence: the head a scene of one head shows
        (a lesson of several heads), the causal mask (a lesson with one), and "without positions" where
        a lesson has positions but the scene's numbers are those without (every scene but positions)."""
        heads = self.lesson.heads if self.one_head else ()
        focus = next((h for h in heads if h.key == self.lesson.focus_head), None)
        unplaced = self.lesson.positions is not None and self.scene_id != "positions"  # its numbers: none
        return ([self.t("common.head_tag", head=focus.name(self.lang))] if focus else []) + \
            ([self.t("common.mask_tag")] if self.lesson.mask == "causal" else []) + \
            ([self.t("common.positions_tag")] if unplaced else [])

    def show_heading(self, key: str = "title", text: str | None = None) -> VGroup:
        """Show the heading; called before the first step, it fades in as that step begins."""
        self.header = self.heading(key, text)
        if self.step_keys:
            self.play(FadeIn(self.header, shift=DOWN * style.GAP), run_time=style.FAST)
        else:
            self._pending_heading = self.header
        return self.header

    def body_box(self) -> tuple[float, float]:
        """Width and height available below the heading, MARGIN from the frame's edges (what a scene
        sizes its parts by; place_body fills `fill_area`, GAP lower, as the fill check measures)."""
        w, h = frame_box()
        return w, h - self.header.height - style.GAP if hasattr(self, "header") else h

    def fill_area(self) -> tuple[float, float, float, float]:
        """Where a step's body goes (x0, y0, x1, y1): the safe area below the heading (layout.safe_area,
        what the fill check measures against), MARGIN from the frame's edges."""
        return safe_area(self, style.MARGIN - style.SAFE_MARGIN)

    def fill_transform(self, m) -> tuple[float, np.ndarray, np.ndarray]:
        """How to make m fill the body area, centred: (scale, about which point, then what shift). The
        scale makes m as large as the area allows (up or down), but no text in it larger than the
        title (style.FILL_MAX_TEXT): a short line of text does not become a banner."""
        return self._fill_transform(m, self.fill_area(), ink_box([m]))

    @staticmethod
    def _fill_transform(m, area, box) -> tuple[float, np.ndarray, np.ndarray]:
        """fill_transform, given the fill area and m's ink box (room needs them too)."""
        x0, y0, x1, y1 = area
        if box is None:  # nothing drawn: nothing to fill
            return 1.0, np.zeros(3), np.zeros(3)
        w, h = max(box[2] - box[0], 1e-9), max(box[3] - box[1], 1e-9)
        k = min((x1 - x0) / w, (y1 - y0) / h)
        largest = largest_text(m)
        if largest > 0:
            k = min(k, max(style.FILL_MAX_TEXT / largest, 1.0))  # (never forced smaller by the cap)
        about = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 0.0])
        return k, about, np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0]) - about

    def place_body(self, m):
        """Scale m (up or down) to fill the body area and centre it there: the frame fills the screen.
        Call it before m is shown: whatever is placed with m (parts shown later) is scaled with it."""
        k, about, shift = self.fill_transform(m)
        return m.scale(k, about_point=about).shift(shift)

    def place_best(self, *layouts: Callable[[], Mobject],
                   shown: Callable[[Mobject], list[Mobject]] | None = None,
                   fallbacks: tuple[Callable[[], Mobject], ...] = (),
                   last: tuple[Callable[[], Mobject], ...] = ()):
        """Arrange the same parts each of the ways given (functions that arrange them and return the
        group), keep the way that lets them be largest in the body, and place it: two charts side by
        side for four tokens may read better one above the other for eight. `shown(group)`: what each
        step will end with, when the steps show the group part by part; a way is as good as its worst
        step. `fallbacks`: more ways, weighed with the others only when the best of those fails the
        fill check at some step (`passes`): the lessons they fail (many dimensions) get them, every
        other lesson keeps its way. `last`: more ways still, weighed against the way chosen only when
        that one does not pass (what gives way to longer words: whatever fits keeps its way)."""

        weighed = {}  # each way arranged once and weighed at once (arranging is most of a scene's time;
        # ways may share parts, so a way is measured before the next one moves them)

        def weigh(arrange):
            if arrange not in weighed:
                arranged = arrange()
                ends = shown(arranged) if shown else [arranged]
                weighed[arrange] = (bool(fallbacks or last) and all(self.passes(m) for m in ends),
                                    min(self.room(m) for m in ends))
            return weighed[arrange]

        best = max(layouts, key=lambda a: weigh(a)[1])  # the first of equals
        if fallbacks and not weigh(best)[0]:  # a way that passes first, then the largest
            best = max((*layouts, *fallbacks), key=weigh)
        if last and not weigh(best)[0]:  # the way chosen does not fit: a last way that does, if any
            best = max((best, *last), key=weigh)
        return self.place_body(best())  # arranged again: what arranging sets on the scene is the best's

    def passes(self, m) -> bool:
        """Whether m, placed by place_body, passes the fill check with some air: it fills FILL_SHARE of
        the body (room), its main tables' numbers at least TABLE_CAP_PX tall at 1080p."""
        fills, k, _ = self.room(m)
        numbers = []
        grid_numbers(m, numbers)
        cap = min((px_1080(cap_height(t)) * k for t in numbers), default=None)
        return fills >= round(style.FILL_SHARE + FILL_AIR, 3) and (cap is None or cap >= style.TABLE_CAP_PX)

    def numbers_fit(self, m) -> bool:
        """Whether m's main tables' numbers, m placed by place_body, are TABLE_CAP_PX tall at 1080p at
        least (a layout whose longer words would shrink them gives way: wraps them, moves them)."""
        k = self.fill_transform(m)[0]
        numbers = []
        grid_numbers(m, numbers)
        return all(px_1080(cap_height(t)) * k >= style.TABLE_CAP_PX - 0.05 for t in numbers)  # (as fill's)

    def room(self, m) -> tuple[float, float, float]:
        """How well m fills the body: first whether it fills FILL_SHARE of it (with some air to spare),
        then how large it can be (its scale, to 0.1 %), then how much it fills (a share of the width or
        the height, whichever is more). A way that fills the screen beats one that does not; of two that
        do, the one whose parts can be larger."""
        area, box = self.fill_area(), ink_box([m])
        k, _, _ = self._fill_transform(m, area, box)
        x0, y0, x1, y1 = area
        if box is None:
            return 0.0, k, 0.0
        share = k * max((box[2] - box[0]) / (x1 - x0), (box[3] - box[1]) / (y1 - y0))
        return round(min(share, style.FILL_SHARE + FILL_AIR), 3), round(k, 3), share

    def reframe(self, *ends_with: Mobject, layout: Mobject | None = None, run_time: float = style.FAST):
        """The camera, for a picture shown part by part: scale and move the whole body so that what
        this step ends with (`ends_with`: mobjects on screen or about to be shown) fills the body area,
        centred. What is on screen moves there in one animation; the rest of `layout` (what was laid out
        with it and is still to come) and of `ends_with` moves at once, before it is shown."""
        k, about, shift = self.fill_transform(Group(*dict.fromkeys(ends_with)))  # each once: no warning
        if abs(k - 1) < REFRAME_MIN and np.abs(shift).max() < REFRAME_MIN:
            return
        shown = self.on_screen()
        on = {id(m) for top in self.mobjects for m in top.get_family()}
        hidden = {id(m): m for root in (*ends_with, *([layout] if layout is not None else []))
                  for m in root.get_family() if id(m) not in on and m.has_points()}
        for m in hidden.values():  # each drawn piece once, whatever groups it is in
            m.points = (m.points - about) * k + about + shift
        if shown:
            self.play(*(m.animate.scale(k, about_point=about).shift(shift) for m in shown),
                      run_time=run_time)

    def on_screen(self) -> list[Mobject]:
        """The body's mobjects on screen: everything but the heading."""
        return body_mobjects(self)

    def clear_body(self, *keep):
        """Fade out everything but the heading (and `keep`)."""
        keep_set = {id(k) for k in keep}
        if hasattr(self, "header"):
            keep_set.add(id(self.header))
        gone = [m for m in self.mobjects if id(m) not in keep_set]
        if gone:
            self.play(*(FadeOut(m) for m in gone), run_time=style.FAST)
