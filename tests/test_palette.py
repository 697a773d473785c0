"""Every theme of the palette (scenes/common/style.py) reads on its background, stays distinguishable for
colour-blind viewers (simulated with colorspacious) and prints apart in grey; scenes name colours only
through the theme, and only while drawing."""

import ast
import itertools
import re
from dataclasses import replace
from pathlib import Path

import pytest
from colorspacious import cspace_convert, deltaE

from scenes.common import style

THEMES = list(style.THEMES.values())
IDS = [t.name for t in THEMES]
CVD = [None, "deuteranomaly", "protanomaly", "tritanomaly"]
ROLES = ("q", "k", "v", "emphasis", "highlight", "wrong")
TEXTS = ("text", "dim", "x", *ROLES)  # every colour a scene writes text in
MIN_DELTA_E = 12  # CAM02-UCS; about 1 is a just-noticeable difference
MIN_TEXT, MIN_GRAPHICS = 4.5, 3.0  # WCAG 2 AA: text; large text and graphics (grid lines)
MIN_GREY = 10  # L* apart, printed in grey
ROOT = Path(__file__).resolve().parent.parent
SCENE_FILES = sorted({*(ROOT / "scenes").glob("*.py"), *(ROOT / "scenes" / "common").glob("*.py"),
                      *(ROOT / "tests" / "fixtures").glob("*.py")}
                     - {ROOT / "scenes" / "common" / "style.py"})


def simulate(color, cvd):
    rgb = list(style.Color(color).to_rgb())
    if cvd is None:
        return rgb
    return cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1")


def close_pairs(colours: dict, cvd) -> list:
    sim = {k: simulate(c, cvd) for k, c in colours.items()}
    return [(a, b, round(float(deltaE(sim[a], sim[b], input_space="sRGB1")), 1))
            for a, b in itertools.combinations(colours, 2)
            if deltaE(sim[a], sim[b], input_space="sRGB1") < MIN_DELTA_E]


def lightness(color) -> float:
    """CIE L* of the colour (what a colour-managed grey print keeps)."""
    return float(cspace_convert(list(style.Color(color).to_rgb()), "sRGB1", "CIELab")[0])


def luma_lightness(color) -> float:
    """L* of the grey a naive driver prints (poppler's, pdftoppm -gray: 0.299 R + 0.587 G + 0.114 B)."""
    r, g, b = style.Color(color).to_rgb()
    y = 0.299 * r + 0.587 * g + 0.114 * b
    return float(cspace_convert([y, y, y], "sRGB1", "CIELab")[0])


def grey_problems(theme) -> list:
    return [(a, b, round(abs(f(getattr(theme, a)) - f(getattr(theme, b))), 1), f.__name__)
            for f in (lightness, luma_lightness) for a, b in itertools.combinations("qkv", 2)
            if abs(f(getattr(theme, a)) - f(getattr(theme, b))) < MIN_GREY]


def text_problems(theme) -> list:
    return [(name, on, round(style.contrast(getattr(theme, name), getattr(theme, on)), 2))
            for name in TEXTS for on in ("background", "cell")
            if style.contrast(getattr(theme, name), getattr(theme, on)) < MIN_TEXT]


@pytest.mark.parametrize("theme", THEMES, ids=IDS)
def test_every_text_colour_reads_on_the_background_and_the_cells(theme):
    assert text_problems(theme) == []


@pytest.mark.parametrize("theme", THEMES, ids=IDS)
def test_grid_lines_show(theme):
    assert min(style.contrast(theme.grid, theme.background),
               style.contrast(theme.grid, theme.cell)) >= MIN_GRAPHICS


@pytest.mark.parametrize("cvd", CVD)
@pytest.mark.parametrize("theme", THEMES, ids=IDS)
def test_role_colours_stay_apart(theme, cvd):
    assert close_pairs({r: getattr(theme, r) for r in ROLES}, cvd) == []


@pytest.mark.parametrize("theme", THEMES, ids=IDS)
def test_q_k_v_stay_apart_in_grey(theme):
    assert grey_problems(theme) == []


@pytest.mark.parametrize("cvd", CVD)
@pytest.mark.parametrize("theme", THEMES, ids=IDS)
def test_heat_ramp_moves_away_from_the_background(theme, cvd):
    """Weights read by lightness alone: the more weight, the further from the background, for every
    viewer (lighter on the dark theme, darker on the light one)."""
    bg = cspace_convert(simulate(theme.background, cvd), "sRGB1", "CAM02-UCS")[0]
    away = [abs(cspace_convert(simulate(style.heat_color(w / 20, theme=theme), cvd),
                               "sRGB1", "CAM02-UCS")[0] - bg)
            for w in range(21)]
    assert all(b > a for a, b in zip(away, away[1:]))


@pytest.mark.parametrize("theme", THEMES, ids=IDS)
def test_numbers_read_on_every_heat_colour(theme):
    worst = min(style.contrast(style.text_on(c),
                               c) for c in (style.heat_color(w / 100, theme=theme) for w in range(101)))
    assert worst >= MIN_TEXT


@pytest.mark.parametrize("theme", THEMES, ids=IDS)
def test_role_colours_read_on_the_background(theme):
    bg = cspace_convert(list(theme.background.to_rgb()), "sRGB1", "CAM02-UCS")[0]
    for name in ROLES:
        j = cspace_convert(list(getattr(theme, name).to_rgb()), "sRGB1", "CAM02-UCS")[0]
        assert abs(j - bg) > 30, name


def test_the_checks_can_fail():
    """The colours these themes replaced fail them: Okabe–Ito's sky blue and orange are one grey, its
    purple is 4.2:1 on the dark background, its yellow 1.3:1 on white; two nearly equal colours are
    too close."""
    okabe_ito = replace(style.DARK, name="okabe-ito", q=style.Color("#56B4E9"),
                        emphasis=style.Color("#9B59D0"))
    assert ("q", "k", 0.8, "lightness") in grey_problems(okabe_ito)
    assert ("emphasis", "background", 4.19) in text_problems(okabe_ito)
    yellow = replace(style.LIGHT, name="yellow", highlight=style.Color("#F0E442"))
    assert [p[:2] for p in text_problems(yellow)] == [("highlight", "background"), ("highlight", "cell")]
    near = {"a": style.DARK.q, "b": style.DARK.q.interpolate(style.DARK.emphasis, 0.05)}
    assert close_pairs(near, None) != []
    assert style.contrast("#000000", "#FFFFFF") == pytest.approx(21) and style.contrast("#777777",
                                                                                        "#777777") == 1


def test_the_palette_names_read_the_active_theme():
    try:
        assert style.use_theme("light") is style.LIGHT and style.TEXT == style.LIGHT.text
        assert style.HEAT_STOPS == style.LIGHT.heat
        assert style.heat_color(1) == style.LIGHT.heat[-1] and style.theme() is style.LIGHT
        assert style.use_theme("dark") is style.DARK
        assert (style.BACKGROUND, style.Q_COLOR) == (style.DARK.background, style.DARK.q)
        assert style.heat_color(0, theme=style.LIGHT) == style.LIGHT.heat[0]
        with pytest.raises(ValueError, match="the themes are: dark, light"):
            style.use_theme("blue")
        with pytest.raises(AttributeError):
            style.NOT_A_COLOUR  # noqa: B018
    finally:
        style.use_theme(style.DEFAULT_THEME)


def test_the_explorer_stylesheet_defaults_to_the_dark_theme():
    """explorer.css's custom properties (before explorer.js sets the page's theme) are the dark theme's."""
    from attention_lesson.outputs.explorer import palette

    css = (ROOT / "attention_lesson" / "web" / "explorer.css").read_text(encoding="utf-8")
    root = css[css.index(":root {"):css.index("}", css.index(":root {"))]
    found = dict(re.findall(r"--([a-z_]+):\s*([#\w]+);", root))
    expected = {k: v.lower() for k, v in palette("dark").items()
                if isinstance(v, str) and not k.startswith("ink")}
    assert found == expected


# -- scenes name colours only through the theme, only while drawing -----------------------------------

def palette_reads(node):
    for n in ast.walk(node):
        if (isinstance(n, ast.Attribute) and n.attr in style.PALETTE
                and isinstance(n.value, ast.Name) and n.value.id == "style"):
            yield n.lineno, f"style.{n.attr}"


def read_at_import(tree) -> list:
    """Palette names read as the module is imported: in module and class bodies, decorators and default
    arguments (a function's body runs later, in the scene's theme)."""
    found = []

    def visit(stmts):
        for s in stmts:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for d in [*s.args.defaults, *filter(None, s.args.kw_defaults), *s.decorator_list]:
                    found.extend(palette_reads(d))
            elif isinstance(s, ast.ClassDef):
                visit(s.body)
            else:
                found.extend(palette_reads(s))
    visit(tree.body)
    return found


def foreign_colours(tree) -> list:
    """Colours named without the theme: manim's colour constants, "#RRGGBB" literals, imports of the
    palette's names (which would keep the theme of import time)."""
    from manim.utils.color import manim_colors

    manim_names = {n for n in dir(manim_colors) if n.isupper()}
    found = [(n.lineno, n.id) for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in manim_names]
    found += [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant)
              and isinstance(n.value, str) and re.fullmatch(r"#[0-9A-Fa-f]{3,8}", n.value)]
    found += [(n.lineno, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
              for a in n.names if a.name in style.PALETTE or a.name in manim_names]
    return found


@pytest.mark.parametrize("path", SCENE_FILES, ids=[str(p.relative_to(ROOT)) for p in SCENE_FILES])
def test_scenes_read_colours_from_the_theme_while_drawing(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert read_at_import(tree) == [] and foreign_colours(tree) == []


def test_the_colour_checks_can_fail():
    bad = ast.parse("from manim import WHITE\nfrom scenes.common.style import TEXT\n"
                    "ROLES = (style.Q_COLOR,)\n"
                    "def f(c=style.TEXT):\n    return style.DIM, '#FF0000', WHITE\n"
                    "class A:\n    C = style.WRONG\n    def g(self):\n        return style.K_COLOR\n")
    assert read_at_import(bad) == [(3, "style.Q_COLOR"), (4, "style.TEXT"), (7, "style.WRONG")]
    assert sorted(foreign_colours(bad)) == [(1, "WHITE"), (2, "TEXT"), (5, "#FF0000"), (5, "WHITE")]
