"""The lessons the lesson points to, from the same lesson file: projections that learn (`training.py`),
positions (`positions.py`), attention in tiles (`tiling.py`); their tables read by `tables.py`. numpy
only, like the rest of the core."""
