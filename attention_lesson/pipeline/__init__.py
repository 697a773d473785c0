"""The render pipeline: plan (what is stale, without manim), worker (one scene in this process),
runner (many, in worker processes), build (a folder brought up to date), join (one lesson video),
slides (a scene as manim-slides slides), deps (system tools), ffmpeg (encoder settings and helpers)."""
