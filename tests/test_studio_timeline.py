"""The studio's timeline (web/studio-timeline.js) fed the server's events in the order a first run can
send them: a step's frame before the steps ahead of it (a scene in pieces, two warm workers), then a
`progress` and a new `plan`. Run in node with a stand-in for the page (every element a do-nothing proxy):
the module's own logic, no browser."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

TIMELINE = Path(__file__).resolve().parent.parent / "attention_lesson" / "web" / "studio-timeline.js"
RUN = """
const any = new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => "" : k === "closest" ? () => null : any),
  apply: () => any, set: () => true });
globalThis.window = { AL: { $: () => any, esc: (x) => String(x) } };
globalThis.document = any;
const TL = await import(process.argv[1]);
TL.startStage((key) => key, () => {});
const plan = { run: 1, scenes: [{ id: "a", title: "A", stale: true }] };
TL.onPlan(plan);
TL.onStep({ run: 1, scene: "a", n: 3, step: "three", frame: "a-3.png" });  // steps 1 and 2 not told of yet
TL.onProgress({ run: 1, scene: "a", step: "one" });
TL.onPlan({ ...plan, run: 2 });
console.log(JSON.stringify("ok"));
"""


def test_a_step_told_before_the_steps_ahead_of_it_breaks_nothing(tmp_path):
    if shutil.which("node") is None:
        pytest.fail("node is missing: run ./scripts/setup.sh", pytrace=False)
    r = subprocess.run(["node", "--input-type=module", "-e", RUN, TIMELINE.as_uri()], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and "TypeError" not in r.stderr, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == "ok"


NAMES = """
const any = new Proxy(function () {}, { get: () => any, apply: () => any, set: () => true });
globalThis.window = { AL: { $: () => any, esc: (x) => String(x) } };
globalThis.document = any;
const TL = await import(process.argv[1]);
const scene = { id: "scores", names: { scale_step: "√dₖ で割る" } };
console.log(JSON.stringify([TL.stepName(scene, "scale_step"), TL.stepName(scene, "other"),
                            TL.stepName({ id: "blink" }, "show"), TL.stepName(undefined, "show")]));
"""


def test_a_step_is_named_by_its_catalog_name_else_its_id():
    """The timeline, the preview's caption and its picture's text name a step as the teacher reads it
    (the scene's `names`, from its catalog's steps table), a fixture scene's step by its id."""
    if shutil.which("node") is None:
        pytest.fail("node is missing: run ./scripts/setup.sh", pytrace=False)
    r = subprocess.run(["node", "--input-type=module", "-e", NAMES, TIMELINE.as_uri()], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == ["√dₖ で割る", "other", "show", "show"]
