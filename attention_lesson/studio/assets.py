"""The studio page's files: its HTML (with an import map for CodeMirror), the shared front end in
attention_lesson/web/ (the explorer's scripts and view, the studio's script) and CodeMirror's ES
modules from node_modules (installed by the set-up from package.json; never from a CDN).

CodeMirror 6 ships one ES module per package importing the others by bare name ("@codemirror/state");
the import map, made from each package's package.json, lets the browser load them as they are, with no
bundler. Only these packages' .js files are served, and only from inside their folders.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from ..outputs.explorer import SCRIPTS
from ..pipeline.plan import ROOT
from .guard import error_body

WEB = ROOT / "attention_lesson" / "web"
NODE = ROOT / "node_modules"
STATIC = {*SCRIPTS, "explorer.css", "studio.js", "studio-timeline.js", "studio-media.js", "studio-numbers.js",
          "studio-file.js", "studio.css"}
SCOPES = ("@codemirror", "@lezer", "@marijn")  # CodeMirror 6 and what it imports
NAMES = ("codemirror", "style-mod", "w3c-keyname", "crelt")
VENDOR = tuple(f"{n}/" for n in SCOPES + NAMES)  # what /vendor/ serves


def codemirror_missing() -> str | None:
    if (NODE / "codemirror" / "dist" / "index.js").exists():
        return None
    return f"CodeMirror (the studio's editor) is not installed in {NODE}: run ./scripts/setup.sh (or: npm ci)"


def _packages() -> list[Path]:
    scoped = [p for scope in SCOPES if (NODE / scope).is_dir() for p in sorted((NODE / scope).iterdir())]
    return scoped + [NODE / n for n in NAMES if (NODE / n).is_dir()]


def _entry(package: Path) -> str | None:
    meta = json.loads((package / "package.json").read_text(encoding="utf-8"))
    exports = meta.get("exports", {})
    dot = exports.get(".", exports) if isinstance(exports, dict) else exports
    entry = dot.get("import") if isinstance(dot, dict) else dot if isinstance(dot, str) else None
    return (entry or meta.get("module") or "").removeprefix("./") or None


@lru_cache(maxsize=1)
def import_map() -> str:
    """{"imports": {"@codemirror/state": "/vendor/@codemirror/state/dist/index.js", ...,
    "@codemirror/legacy-modes/": "/vendor/@codemirror/legacy-modes/"}}"""
    imports = {}
    for package in _packages():
        name = str(package.relative_to(NODE))
        if (entry := _entry(package)) is not None:
            imports[name] = f"/vendor/{name}/{entry}"
        imports[f"{name}/"] = f"/vendor/{name}/"
    return json.dumps({"imports": imports}, indent=1)


PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>attention-lesson studio</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/explorer.css">
<link rel="stylesheet" href="/static/studio.css">
<script type="importmap">{imports}</script>
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
    return PAGE.format(lang=lang, imports=import_map(), scripts=scripts)


def _inside(root: Path, rel: str) -> Path | None:
    path = (root / rel).resolve()
    return path if path.is_relative_to(root.resolve()) and path.is_file() else None


def _missing(rel: str) -> JSONResponse:
    return JSONResponse(error_body(f"no such file: {rel}"), status_code=404)


async def static(request: Request) -> Response:
    rel = request.path_params["path"]
    return FileResponse(WEB / rel) if rel in STATIC else _missing(rel)


async def vendor(request: Request) -> Response:
    rel = request.path_params["path"]
    if not rel.startswith(VENDOR) or not rel.endswith((".js", ".css")) or (path := _inside(NODE,
                                                                                           rel)) is None:
        return _missing(rel)
    return FileResponse(path, media_type="text/javascript" if rel.endswith(".js") else "text/css")
