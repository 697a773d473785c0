"""The render pipeline: plan (what is stale, no manim), worker (one scene), runner (many), join."""
