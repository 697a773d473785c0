"""The studio page's files: its HTML, the shared front end in attention_lesson/web/ (the explorer's
scripts and view, the studio's modules) and CodeMirror, one ES module built into the package
(web/vendor/codemirror.js, made by scripts/vendor.sh from the npm packages; never from a CDN).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from ..outputs.explorer import SCRIPTS, WEB
from .guard import error_body

STATIC = {*SCRIPTS, "explorer.css", "studio.js", "studio-timeline.js", "studio-media.js", "studio-numbers.js",
          "studio-file.js", "studio-line.js", "studio-render.js", "studio.css", "vendor/codemirror.js"}


PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>attention-lesson studio</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/explorer.css">
<link rel="stylesheet" href="/static/studio.css">
</head>
<body>
<div id="studio"></div>
{scripts}
<script type="module" src="/static/studio.js"></script>
</body>
</html>
"""


def page(lang: str) -> str:
    """The page: the explorer's classic scripts (core.js for its normalizers' names only: the numbers are
    the server's), then the studio's module."""
    scripts = "\n".join(f'<script src="/static/{name}"></script>' for name in SCRIPTS)
    return PAGE.format(lang=lang, scripts=scripts)


async def static(request: Request) -> Response:
    rel = request.path_params["path"]
    if rel not in STATIC:
        return JSONResponse(error_body(f"no such file: {rel}"), status_code=404)
    return FileResponse(WEB / rel, media_type="text/javascript" if rel.endswith(".js") else None)
