"""The recording script a teacher reads from (pipeline/voice/lines.py's lines): Markdown, a heading per
scene and a numbered item per step, or CSV."""

from __future__ import annotations

import csv
import io

from scenes.registry import available

from ..pipeline.voice.lines import Line
from ..pipeline.voice.speakers import speaker_for

FORMATS = ("md", "csv")
CSV_COLUMNS = ("file", "scene", "step", "line", "seconds", "draft_seconds")


def as_csv(lines: list[Line]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for x in lines:
        w.writerow([x.file, x.scene, x.step, x.line, f"{x.seconds:.2f}",
                    "" if x.draft is None else f"{x.draft:.2f}"])
    return buf.getvalue()


def as_markdown(lines: list[Line], scenes, title: str, lesson, context: str, mode: str, lang: str) -> str:
    out = [f"# {title}: recording script ({lang})", "",
           f"Lesson {lesson.source}, context {context}, mode {mode}. Save each recording under the name "
           "shown, relative to your recordings folder (wav; flac, mp3, m4a or ogg work too), then render "
           "with `--voice FOLDER`. A recording longer than the step's animations makes the step longer; "
           f"a step without a recording gets {speaker_for('recordings', lang).label}."]
    order = {s.id: i for i, s in enumerate(available(lesson), 1)}  # a scene's number in the lesson
    for info in scenes:
        mine = [x for x in lines if x.scene == info.id]
        out += ["", f"## {order.get(info.id, '')}. {info.title(lang)} ({info.id})", ""]
        for x in mine:
            quoted = "\n".join(f"   > {part}" for part in x.line.splitlines() or [""])
            guide = "" if x.draft is None else f"; {x.guide} takes {x.draft:.1f} s"
            out += [f"{x.n}. `{x.file}`: the step's animations last {x.seconds:.1f} s{guide}", "", quoted, ""]
        if out[-1] == "":
            out.pop()
    return "\n".join(out) + "\n"
