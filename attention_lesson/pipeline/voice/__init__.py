"""The voice: who speaks a step (speakers), the teacher's recordings and the lines to record
(recordings, lines), every voice at one loudness (loudness), and the scene's track muxed in (track).

Uses the pipeline's tools (ffmpeg, manifest) and nothing of planning, drawing or batch.
"""
