"""The studio: a local web app where a teacher edits the lesson file and sees its numbers at once and
its frames seconds later, then renders (`attention-lesson studio`).

| module | what |
|---|---|
| `session.py` | the lesson being edited: the editor's text, the last valid one, the file on disk |
| `lines.py` | the line of the TOML text a key or an error is on, for the editor's marks |
| `drawing.py` | the frames, drawn in the background by warm workers, a new edit cancelling the last |
| `renders.py` | the render buttons: the CLI's products, each in a process of its own |
| `guard.py` | token, Host and Origin checks (as Jupyter's) |
| `assets.py` | the page, the shared front end (attention_lesson/web/) and CodeMirror from node_modules |
| `app.py` | the Starlette app: routes, the JSON API, server-sent events, the file watcher |
| `serve.py` | checks, the port, the address printed, uvicorn until Ctrl-C |
"""
