"""The palette stays distinguishable for colour-blind viewers (simulated with colorspacious)."""

import itertools

import pytest
from colorspacious import cspace_convert, deltaE

from scenes.common import style as S

CVD = [None, "deuteranomaly", "protanomaly", "tritanomaly"]
ROLES = {"Q": S.Q_COLOR, "K": S.K_COLOR, "V": S.V_COLOR, "emphasis": S.EMPHASIS,
         "highlight": S.HIGHLIGHT, "wrong": S.WRONG}
MIN_DELTA_E = 12  # CAM02-UCS; about 1 is a just-noticeable difference


def simulate(color, cvd):
    rgb = list(color.to_rgb())
    if cvd is None:
        return rgb
    return cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1")


@pytest.mark.parametrize("cvd", CVD)
def test_role_colours_stay_apart(cvd):
    sim = {k: simulate(c, cvd) for k, c in ROLES.items()}
    close = [(a, b, round(float(deltaE(sim[a], sim[b], input_space="sRGB1")), 1))
             for a, b in itertools.combinations(ROLES, 2)
             if deltaE(sim[a], sim[b], input_space="sRGB1") < MIN_DELTA_E]
    assert close == []


@pytest.mark.parametrize("cvd", CVD)
def test_heat_ramp_lightness_increases(cvd):
    """Weights read by lightness alone: the ramp gets lighter for every viewer."""
    j = [cspace_convert(simulate(S.heat_color(w / 10), cvd), "sRGB1", "CAM02-UCS")[0]
         for w in range(11)]
    assert all(b > a for a, b in zip(j, j[1:]))


def test_role_colours_read_on_the_background():
    bg = cspace_convert(list(S.BACKGROUND.to_rgb()), "sRGB1", "CAM02-UCS")[0]
    for name, c in ROLES.items():
        j = cspace_convert(list(c.to_rgb()), "sRGB1", "CAM02-UCS")[0]
        assert j - bg > 30, name


def test_check_can_fail():
    near = {"a": S.Q_COLOR, "b": S.Q_COLOR.interpolate(S.EMPHASIS, 0.05)}
    a, b = (simulate(c, None) for c in near.values())
    assert deltaE(a, b, input_space="sRGB1") < MIN_DELTA_E
