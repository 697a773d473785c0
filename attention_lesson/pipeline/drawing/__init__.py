"""Drawing and encoding: scene jobs run in worker processes (runner), one job drawn by manim in this
process (worker), in pieces (pieces), as slides (slides); manim's speed-ups behind one gate
(manim_speedups: frames handed over, held frames coded once with h264, skipped animations, copies).

The only modules that import manim (inside their functions, in the workers); they may use planning and
the voice, and nothing of planning imports them.
"""
