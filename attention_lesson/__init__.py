"""attention_lesson: everything that runs manim and writes files, in three layers, each importing only
from those before it (and from `scenes` and `attention_core`):

- `pipeline/`: what to render and whether it is up to date (plan, no manim), one scene in a process
  (worker), many in parallel (runner), a folder brought up to date (build), clips joined (join), ffmpeg;
- `outputs/`: what is made from rendered scenes: slide decks (deck), the contact sheet (sheet);
- `cli/`: the `attention-lesson` command (click): parses options, calls the layers above, prints.
"""
