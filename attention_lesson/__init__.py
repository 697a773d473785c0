"""attention_lesson: everything that runs manim and writes files, in three layers, each importing only
from those before it (and from `scenes` and `attention_core`):

- `pipeline/`: what to render and whether it is up to date (plan, no manim), one scene in a process
  (worker), many in parallel (runner), a folder brought up to date (build), clips joined (join), ffmpeg;
- `outputs/`: what is made from rendered scenes: slide decks (deck), the contact sheet (sheet);
- `cli/`: the `attention-lesson` command (click): parses options, calls the layers above, prints.

Below them `messages/`, their words (the commands', the studio's, batch's), joined into the core's tables
when this package is imported: whatever module of it runs finds them.
"""

from . import messages  # noqa: F401  (joins attention_lesson's words into the core's tables)
