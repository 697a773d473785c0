"""What every scene shares: the LessonScene base (base.py), the visual constants (style.py), mobjects
built from arrays (mobjects.py), text and its fitting (labels.py), the layout checks (layout.py), the
render settings read from the environment (settings.py) and the word catalogs' reader (i18n.py)."""
