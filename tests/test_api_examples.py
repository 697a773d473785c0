"""The public API reads like manim's: the core's entry points, NumberGrid, WeightBars and
pipeline.build.build have Parameters, Returns (a class: its Parameters) and Examples sections, and every
example runs and prints what its docstring says (the default lesson's numbers: bank looks at river).
The guide's reference renders them (tests/test_docs.py builds it)."""

from __future__ import annotations

import doctest
import importlib

import pytest

# module -> the documented names whose examples must be there and pass
DOCUMENTED = {
    "attention_core.attention": ("softmax", "scale_for", "dot_product_attention", "attend", "hard_lookup"),
    "attention_core.lesson": ("load",),
    "attention_core.numbers": ("numbers_json",),
    "scenes.common.mobjects": ("NumberGrid", "WeightBars"),
    "attention_lesson.pipeline.build": ("build",),
}
CLASSES = {"NumberGrid", "WeightBars"}


def sections(name: str) -> list[str]:
    """The numpy-style sections an object's docstring must have."""
    return ["Parameters", "Examples"] if name in CLASSES else ["Parameters", "Returns", "Examples"]


@pytest.mark.parametrize("module", sorted(DOCUMENTED))
def test_the_documented_names_have_their_sections(module):
    mod = importlib.import_module(module)
    for name in DOCUMENTED[module]:
        doc = getattr(mod, name).__doc__ or ""
        for section in sections(name):
            assert f"\n    {section}\n    {'-' * len(section)}\n" in doc, f"{module}.{name}: no {section}"


@pytest.mark.parametrize("module", sorted(DOCUMENTED))
def test_every_example_runs_and_prints_what_it_says(module, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # build's example is a dry run into ./demo: nothing may be written
    mod = importlib.import_module(module)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tested = set()
    for test in finder.find(mod, mod.__name__):
        if test.examples:
            tested.add(test.name.rsplit(".", 1)[-1])
            runner.run(test)
    results = runner.summarize(verbose=False)
    assert set(DOCUMENTED[module]) <= tested, f"no examples for {set(DOCUMENTED[module]) - tested}"
    assert results.failed == 0 and results.attempted >= 2 * len(DOCUMENTED[module])
    if module.endswith(".build"):
        assert list(tmp_path.iterdir()) == []  # (manim's Text keeps its own cache in ./media)


def test_a_wrong_number_in_an_example_fails():
    from attention_core import attention

    doc = attention.attend.__doc__.replace("[0.11, 0.07, 0.69, 0.14]", "[0.25, 0.25, 0.25, 0.25]")
    test = doctest.DocTestParser().get_doctest(doc, vars(attention).copy(), "attend", None, 0)
    runner = doctest.DocTestRunner()
    assert runner.run(test, out=lambda _: None).failed == 1
