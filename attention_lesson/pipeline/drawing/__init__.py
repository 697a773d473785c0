"""Drawing and encoding: scene jobs run in worker processes (runner), one job drawn by manim in this
process (worker), in pieces (pieces, skips), held frames and H.264 (holds, h264, patches), as slides (slides).

The only modules that import manim (inside their functions, in the workers); they may use planning and
the voice, and nothing of planning imports them.
"""
