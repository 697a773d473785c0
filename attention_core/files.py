"""Reading a text file a teacher names (a lesson file, a words file): a regular file, at most a size,
UTF-8, and TOML nested at most MAX_NESTING deep. Anything else is a `FileProblem` (what was expected,
what was found, as phrases of messages.py), which the caller says as its own error, one line: never a
read that blocks (a FIFO), never one without end (/dev/zero), never a traceback.
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from pathlib import Path

from .errors import Phrase, ph
from .lines import nesting

MAX_LESSON_BYTES = 1_000_000  # a lesson file is a few kB; docs/reference/lesson-file.md names the limit
MAX_WORDS_BYTES = 1_000_000  # a words file too (the largest built-in catalog is under 10 kB)
# a line of a words file (docs/words.md; the longest built-in one has 375 characters): one of megabytes
# would reach every voice and caption, which would work on it for hours
MAX_LINE_CHARS = 4000
MAX_NESTING = 16  # arrays and tables inside each other: a lesson needs 2 (a matrix), tomllib recurses


class FileProblem(ValueError):
    """A file that cannot be read as text: what was expected and what was found (phrases), and the line
    when it is known (the nesting's)."""

    def __init__(self, expected: Phrase, found: Phrase | None = None, line: int | None = None):
        self.expected, self.found, self.line = expected, found, line
        super().__init__(expected.code, found and found.code)

    def phrase(self) -> Phrase:
        """`expected ..., found ...`, as a file's problem as a whole is said (after `FILE:LINE: `)."""
        if self.found is None:
            return ph("file_problem_no_found", expected=self.expected)
        return ph("file_problem", expected=self.expected, found=self.found)


def _kind(mode: int) -> Phrase:
    return ph("a_folder") if stat.S_ISDIR(mode) else ph("special_file")


def _unreadable(e: OSError) -> FileProblem:
    if isinstance(e, IsADirectoryError):  # (Windows: a folder is not opened at all)
        return FileProblem(ph("regular_file"), ph("a_folder"))
    if e.errno == errno.ELOOP:
        return FileProblem(ph("readable_file"), ph("link_loop"))
    return FileProblem(ph("readable_file"), ph("os_error", text=e.strerror or str(e)))


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. FileNotFoundError as it is (the caller names
    what it wanted); FileProblem for a folder, a device or pipe (opened without waiting for a writer),
    a file too large, or one that cannot be read (a symlink to nothing or a loop, no permission)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        if os.path.islink(path):
            raise FileProblem(ph("readable_file"), ph("dangling_link")) from None
        raise
    except OSError as e:
        raise _unreadable(e) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(ph("regular_file"), _kind(st.st_mode))
        if st.st_size > limit:
            raise FileProblem(ph("bytes_at_most", n=limit), ph("n_bytes", n=st.st_size))
        raw = _read_at_most(fd, limit + 1)
    except OSError as e:
        raise _unreadable(e) from None
    finally:
        os.close(fd)
    if len(raw) > limit:  # grown since it was looked at
        raise FileProblem(ph("bytes_at_most", n=limit), ph("n_bytes", n=len(raw)))
    return raw


def _read_at_most(fd: int, most: int) -> bytes:
    chunks, left = [], most
    while left > 0 and (chunk := os.read(fd, min(left, 1 << 16))):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_text(path: str | Path, limit: int) -> str:
    """read_bytes, decoded as UTF-8; FileProblem for a byte that is not (with its line)."""
    raw = read_bytes(path, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise FileProblem(ph("utf8"), ph("undecodable", n=e.start), line) from None


def within(text: str, limit: int) -> str:
    """The text, when it is at most `limit` bytes in UTF-8, as a file of it would be; FileProblem as
    read_bytes says of a file too large (a text given as it is, an editor's buffer, is held to the
    file's limit: nothing after it reads megabytes)."""
    if len(text) * 4 > limit and (size := len(text.encode("utf-8", "surrogatepass"))) > limit:
        raise FileProblem(ph("bytes_at_most", n=limit), ph("n_bytes", n=size))
    return text


def shallow_toml(text: str) -> dict:
    """The text's TOML, read only when its arrays and tables nest at most MAX_NESTING deep (FileProblem
    at the line where they nest deeper); tomllib.TOMLDecodeError as tomllib raises it."""
    if deep := nesting(text, MAX_NESTING):
        raise FileProblem(ph("shallow_toml", limit=MAX_NESTING), ph("nested", n=deep[1]), deep[0])
    try:
        return tomllib.loads(text)
    except RecursionError:  # nesting the scan did not see (it reads strings and comments as TOML does)
        raise FileProblem(ph("shallow_toml", limit=MAX_NESTING)) from None
