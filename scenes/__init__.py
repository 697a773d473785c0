"""Manim scenes of the attention lesson and the `attention-lesson` CLI.

Importing this package does not import manim: the CLI's light commands stay fast.
"""
