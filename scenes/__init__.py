"""scenes: the lesson's Manim scenes, one file each (`<id>.py`, listed in order in `registry.py`), their
words (`i18n/<lang>/<scene>.toml`) and what they share (`common/`: the LessonScene base, style,
mobjects, layout checks, settings, the catalog reader). Numbers come from `attention_core`; rendering
to files is `attention_lesson`'s. Importing this package does not import manim: the CLI lists and plans
without starting it."""
