"""The render pipeline: scenes turned into files, and files into products, in rooms that import downward.

- planning (this folder): plan (render options, scene jobs and their kinds, digests: what is stale,
  without manim), products (the one product model), timings (what each job took), join (one lesson
  video); its tools, used by every room: manifest (up to date, record, hashes, atomic writes, manim
  folders), ffmpeg (encoder settings and helpers), deps (system tools)
- build: the front door, one output folder brought up to date (plan, draw, make)
- drawing/: scene jobs in worker processes, the only ones that import manim
- voice/: who speaks each step, the recordings, loudness, the track
- batch/: a plan's variants on Dask
"""
