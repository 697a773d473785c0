"""The manifest of an output folder, and everything that writes into one: the single place that decides
whether an output is up to date, records what was made, forgets what is about to be replaced, hashes
inputs, writes files atomically and hands each process its own manim media folder.

`manifest.json` maps a key (a scene job's: `<id>`, `<id>@slides`, `<id>@frames`, `<id>@steps`; a
product's: `@lesson`, `@html`, ...) to `{"hash": <digest of its inputs>, "files": [<names relative to the
folder>], "stat": {<name>: [size, mtime_ns, sample]}}` (a file truncated or rewritten since is not up
to date). An entry is only ever written after its files are in place, and removed before they are
replaced, so the manifest never claims a file that is not what it says. Used by the local runner, the
products and batch alike; no manim, no Dask.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import stat
import sys
from pathlib import Path

from attention_core import __version__

MANIFEST = "manifest.json"
TMP_PREFIX = ".tmp-"  # a private folder in an output folder: .tmp-<what>-<pid>-<random> (runner.sweep)
LABELS_ENV = "ATTENTION_LESSON_LABELS"  # one folder of stored labels for every build (drawing.worker)


def load(out_dir: Path) -> dict:
    try:
        return json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def save(out_dir: Path, manifest: dict) -> None:
    """Write the manifest atomically: a reader never sees half of it."""
    write_atomically(out_dir / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))


def is_fresh(out_dir: Path, entry: dict | None, digest: str) -> bool:
    """An entry is up to date when it was made from these inputs and every file it names is still what
    was made: there, of the size recorded, and of the same modification time or, when that changed (a
    copied folder), of the same sampled bytes (`unchanged`). An entry of an older manifest, with no
    `stat`, asks only that its files exist."""
    if not (entry and entry.get("hash") == digest and entry.get("files")):
        return False
    known = entry.get("stat") or {}
    return all(unchanged(out_dir / f, known.get(f)) for f in entry["files"])


def record(out_dir: Path, key: str, digest: str, files: list[str] | None) -> None:
    """Record what was made under `key`, with each file's size, modification time and sampled bytes
    (files None: it failed, forget the entry)."""
    manifest = load(out_dir)
    if files is not None:
        stats = {f: fp for f in files if (fp := fingerprint(out_dir / f)) is not None}
        manifest[key] = {"hash": digest, "files": sorted(files), "stat": stats}
    else:
        manifest.pop(key, None)
    save(out_dir, manifest)


SAMPLE = 1 << 16  # bytes read from each end of a file for its sample: a cheap check of its content


def fingerprint(path: Path) -> list | None:
    """[size, mtime_ns, sample] of a regular file (None for anything else): what `unchanged` compares."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return [st.st_size, st.st_mtime_ns, _sample(path, st.st_size)]


def unchanged(path: Path, known: list | None) -> bool:
    """The file is there and, when its fingerprint is known, of that size and, unless its mtime is the
    same, of the same sampled bytes (a file truncated or rewritten outside the tool is changed)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not known:
        return True
    size, mtime_ns, sample = known
    if st.st_size != size:
        return False
    return st.st_mtime_ns == mtime_ns or _sample(path, size) == sample


def _sample(path: Path, size: int) -> str:
    """A hash of the file's size, its first and its last SAMPLE bytes."""
    h = hashlib.sha256(str(size).encode())
    try:
        with open(path, "rb") as f:
            h.update(f.read(SAMPLE))
            if size > SAMPLE:
                f.seek(max(SAMPLE, size - SAMPLE))
                h.update(f.read(SAMPLE))
    except OSError:
        return ""
    return h.hexdigest()[:24]


def forget(out_dir: Path, keys) -> None:
    """Drop these entries before their files are replaced (saved only if one was there)."""
    manifest = load(out_dir)
    if [k for k in keys if manifest.pop(k, None) is not None]:
        save(out_dir, manifest)


def hash_files(h, paths, root: Path) -> None:
    """Feed each file's name (relative to root) and bytes to the hash h. A missing file is an error, not
    an empty file: a digest listing a file that moved would otherwise lose it without a sound."""
    base = os.path.join(os.fspath(root), "")
    names = (str(p) if isinstance(p, Path) else str(Path(p)) for p in paths)  # normalised, as Path has it
    for p in sorted(names, key=lambda name: name.split("/")):  # in the order of the paths' parts
        if not p.startswith(base):  # (relative_to's error, without its cost on every file)
            Path(p).relative_to(root)
        h.update(p[len(base):].encode())
        h.update(file_bytes(p))


_read: dict[str, tuple[tuple[int, int, int], bytes]] = {}  # path -> (its stat when read, its bytes)


def file_bytes(path: str) -> bytes:
    """A file's bytes, read once a process while its size, mtime and inode stay as they were: a scene's
    digest lists some fifty files (the shared code), the same ones for every scene; a long-lived process
    (the studio) reads a file again once it is edited. FileNotFoundError for a missing file."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is None or not stat.S_ISREG(st.st_mode):
        raise FileNotFoundError(f"{path}: an output's digest lists it, but there is no such file")
    key = (st.st_size, st.st_mtime_ns, st.st_ino)
    known = _read.get(path)
    if known is not None and known[0] == key:
        return known[1]
    with open(path, "rb") as f:
        data = f.read()
    _read[path] = (key, data)
    return data


def versions(slides: bool = False) -> dict:
    """The versions every output depends on (manim-slides' too for a deck's clips)."""
    found = {"manim": _version("manim"), "attention-lesson": __version__,
             "jieba": _version("jieba")}  # where Chinese subtitle cues break
    if slides:
        found["manim-slides"] = _version("manim-slides")
    return found


@functools.lru_cache(maxsize=None)
def _version(dist: str) -> str:
    """An installed distribution's version, read once a process (every scene's digest asks): the
    `Version:` of the first `<name>-<version>.dist-info/METADATA` on sys.path, as importlib.metadata
    finds it (importing that, with the email parser it reads the file with, cost a re-run with nothing
    to do a tenth of its time); importlib.metadata itself for anything else (an .egg-info)."""
    wanted = _dist_name(dist)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and _dist_name(name.partition("-")[0]) == wanted:
                found = _metadata_version(Path(entry or ".") / name / "METADATA")
                if found is not None:
                    return found
    from importlib.metadata import version

    return version(dist)


def _dist_name(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _metadata_version(metadata: Path) -> str | None:
    """The Version header of a METADATA file (its headers end at the first empty line)."""
    try:
        with open(metadata, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    return None
                if line.startswith("Version:"):
                    return line[len("Version:"):].strip()
    except OSError:
        return None
    return None


def digest(payload: dict, files=(), root: Path | None = None) -> str:
    """sha256 of some files and a JSON payload: the hash a manifest entry keeps."""
    h = _files_hashed(files, root)
    h.update(json.dumps(payload, sort_keys=True).encode())
    return h.hexdigest()


_frozen: dict | None = None  # within frozen_files(): (files, root) -> the sha256 fed their names and bytes


@contextlib.contextmanager
def frozen_files():
    """Within it, the files a digest lists are taken as they were when first hashed: each list's names
    and bytes are fed to sha256 once, and each digest goes on from a copy (the same digests). A batch
    plans 130,000 jobs of 10,000 variants, each listing the same fifty files: hashed and stat'ed anew,
    they were most of its planning. Outside it (the studio, a long-lived process), every digest reads
    the files' stats again."""
    global _frozen
    outer, _frozen = _frozen, {} if _frozen is None else _frozen
    try:
        yield
    finally:
        _frozen = outer


def kept(key, make):
    """make(), once per key within frozen_files() (what a plan asks of a file again and again, as a
    scene's steps); every time outside it."""
    if _frozen is None:
        return make()
    if key not in _frozen:
        _frozen[key] = make()
    return _frozen[key]


def _files_hashed(files, root: Path | None):
    """A sha256 fed the files' names and bytes (hash_files), from frozen_files' copy when there is one."""
    if not files:
        return hashlib.sha256()
    key = (tuple(map(str, files)), str(root)) if _frozen is not None else None
    if key is None or key not in _frozen:
        h = hashlib.sha256()
        hash_files(h, files, root)
        if key is None:
            return h
        _frozen[key] = h
    return _frozen[key].copy()


def write_atomically(path: Path, data: str | bytes) -> None:
    """data into path via a temporary file beside it and os.replace: never a half-written file. A new
    file gets the mode any new file gets (0666 less the umask: mkstemp's 0600 would lock others out of a
    deck copied to a web server); a replaced one keeps its own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import secrets

    tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the kernel applies the umask
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def private_folder(out_dir: Path, what: str) -> Path:
    """A private folder in out_dir for one piece of work, named so that a later run can tell whether
    the process that made it is still alive (runner.sweep)."""
    import tempfile

    out_dir.mkdir(parents=True, exist_ok=True)
    safe = what.replace("/", "_")
    return Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{safe}-{os.getpid()}-", dir=out_dir))


def shared_labels() -> list[Path]:
    """The folder of stored labels LABELS_ENV names for every build, if it names one."""
    return [Path(os.environ[LABELS_ENV])] if os.environ.get(LABELS_ENV) else []


_slot: tuple[Path, int, int] | None = None  # this process's media folder, the lock's fd, the pid


def media_folder(root: Path) -> Path:
    """This process's own manim media folder, w<k> under root: the first k whose lock no other process
    holds (its formula and text caches are its own: manim's LaTeX, before Typst, deleted another process's
    .dvi mid-compile), kept for
    the process's life and between runs. The local runner's workers and batch's Dask workers alike."""
    import fcntl
    import itertools

    global _slot
    root = Path(root)
    if _slot is not None and _slot[0].parent == root and _slot[2] == os.getpid():
        return _slot[0]  # (a forked child shares its parent's lock: it claims a folder of its own)
    root.mkdir(parents=True, exist_ok=True)
    for k in itertools.count():
        fd = os.open(root / f"w{k}.lock", os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        if _slot is not None and _slot[2] == os.getpid():
            os.close(_slot[1])
        _slot = (root / f"w{k}", fd, os.getpid())
        return _slot[0]


def move_into(files: dict[str, Path], out_dir: Path) -> None:
    """Rename every file (name relative to out_dir -> where it was written) into place: each rename is
    atomic, and every file exists before the first is renamed."""
    for name, src in files.items():
        (out_dir / name).parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, out_dir / name)


def swap_folder(new: Path, dst: Path, ours=None) -> None:
    """Replace the folder dst by new (on the same file system), never leaving a half-written one at
    dst: dst moves aside, new takes its place, the old one is removed. `ours(name)` (a name relative to
    the folder, "/"-separated): whether the tool writes that file there; every other file of dst (the
    teacher's notes beside a page) is carried into new first, so only what the tool writes is replaced
    (None: nothing is carried, dst is the tool's whole)."""
    import shutil

    if ours is not None and dst.is_dir():
        carry_others(dst, new, ours)
    old = new.parent / f"{new.name}.old"
    if dst.exists():
        os.replace(dst, old)
    os.replace(new, dst)
    shutil.rmtree(old, ignore_errors=True)


def carry_others(dst: Path, new: Path, ours) -> list[str]:
    """Every file and folder under dst that the tool does not write (not `ours`) and new lacks, linked
    (else copied; a symbolic link as a link) into new at the same place; their names. An OSError stops
    the swap before anything of dst is removed."""
    import shutil

    carried = []
    for path in sorted(dst.rglob("*")):
        rel = path.relative_to(dst).as_posix()
        target = new / rel
        if ours(rel) or target.exists() or target.is_symlink():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            os.symlink(os.readlink(path), target)
        elif path.is_dir():
            target.mkdir()
        else:
            try:
                os.link(path, target)
            except OSError:
                shutil.copy2(path, target)
        carried.append(rel)
    return carried


def publish(src: Path, dest: Path) -> bool:
    """Copy a made file to where the user asked for it, only if its bytes differ there (a re-run with
    nothing changed leaves dest untouched); True if written."""
    data = Path(src).read_bytes()
    if dest.exists() and dest.read_bytes() == data:
        return False
    write_atomically(dest, data)
    return True
