"""The render pipeline: scenes turned into files, and files into products.

- plan: render options, scene jobs and their kinds, digests: what is stale, decided without manim
- manifest: the one manifest module (up to date, record, forget, hashes, atomic writes, manim folders)
- products: the one product model (a product's scene jobs, digest, manifest entry, `make`)
- build: one output folder brought up to date (its scene jobs, then its products)
- runner: scene jobs in worker processes (the only processes that import manim); worker: one job
- join (one lesson video), slides (a scene as manim-slides slides), voice (narration), recording (the
  recording workflow), ffmpeg (encoder settings and helpers), deps (system tools)
- batch: a plan's variants on Dask (planfile, graph, tasks, client)
"""
