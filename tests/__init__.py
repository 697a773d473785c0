"""The tests: the core (test_core, test_lesson_errors), the layers (test_layers), every scene against
its layout, numbers and golden frames (test_scenes, test_layout, test_palette), the CLI and the render
pipeline with real renders (test_cli_numbers, test_render, test_slides)."""
