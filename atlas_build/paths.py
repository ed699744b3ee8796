"""Where outputs may be written: names checked again at every write, paths kept inside a root.

Ids, slugs and file names come from lesson files, records and cache entries, all of which
are untrusted. A name becomes part of an output path only when it is a plain slug
(`[a-z0-9]+(-[a-z0-9]+)*`, the schema's id pattern) or a plain file name, and the joined
path must stay inside the output root after resolving links. Anything else raises
`UnsafePath` instead of writing.
"""

from __future__ import annotations

import os
import re
import stat as kinds
from pathlib import Path

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}")


class UnsafePath(ValueError):
    """A name or path that would write outside the allowed folders."""


def is_slug(name: object) -> bool:
    return isinstance(name, str) and len(name) <= 128 and SLUG.fullmatch(name) is not None


def slug(name: object, what: str = "slug") -> str:
    if not is_slug(name):
        raise UnsafePath(f"{what} {name!r} is not a plain slug ([a-z0-9] words joined by -)")
    assert isinstance(name, str)
    return name


def real(path: Path, seen: dict[Path, Path]) -> Path:
    """`path.resolve()`, with one `lstat` per folder not `seen` before (`seen` maps paths to
    what they resolve to, and is filled in): a thousand lessons in one folder resolve that
    folder once, not once each."""
    if path in seen:
        return seen[path]
    if path.parent == path or path.name in ("", ".", "..") or path.is_symlink():
        resolved = path.resolve()
    else:
        resolved = real(path.parent, seen) / path.name
    seen[path] = resolved
    return resolved


class Root:
    """A folder outputs go under. `inside` resolves the root once and each folder on the
    way once (`real`), so a build writing a thousand lessons' files into one tree does not
    resolve every path from the filesystem root again."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.base = Path(root)
        self.resolved = self.base.resolve()
        self._seen: dict[Path, Path] = {self.base: self.resolved}
        self._listed: dict[Path, set[str]] = {}

    def inside(self, relative: str) -> Path:
        """`root/relative` for a relative path of plain names, refusing `..`, absolute
        paths, hidden names and anything that resolves (through links) outside the root."""
        if not is_relative(relative):
            raise UnsafePath(f"{relative!r} is not a relative path of plain file names")
        target = self.base.joinpath(*relative.split("/"))
        resolved = real(target, self._seen)
        if resolved != self.resolved and self.resolved not in resolved.parents:
            raise UnsafePath(f"{relative!r} resolves outside {self.base}")
        return target

    def names(self, folder: Path) -> set[str]:
        """The names in `folder` (one `inside` returned a path in), listed once: the
        caller keeps the set up to date with what it writes and removes. Writing a thousand
        lessons' files into one folder listed it a thousand times (a second at 1,000)."""
        if folder not in self._listed:
            try:
                self._listed[folder] = {entry.name for entry in os.scandir(folder)}
            except OSError:
                self._listed[folder] = set()
        return self._listed[folder]


_RELATIVE = re.compile(rf"{_FILE.pattern}(?:/{_FILE.pattern})*")


def is_relative(relative: str) -> bool:
    """A relative path of plain names (what `Root.inside` accepts before resolving it):
    each starts with a letter or digit, so none is hidden, `.` or `..`."""
    return _RELATIVE.fullmatch(relative) is not None


def inside(root: str | os.PathLike[str], relative: str) -> Path:
    """`Root(root).inside(relative)`, for one path."""
    return Root(root).inside(relative)


def stamp(path: Path) -> list[int] | None:
    """[inode, size, change time (ns)] of a plain file with one name, else None: what a
    build records of a file it wrote, so that it can tell later that nobody touched it
    (only the kernel sets a change time)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not kinds.S_ISREG(info.st_mode) or info.st_nlink != 1:
        return None
    return [info.st_ino, info.st_size, info.st_ctime_ns]


def publish_slug(folder: str | None, record_id: str) -> str:
    """The slug a lesson is published under: its folder name when that is a plain slug,
    otherwise its record id (schema-validated, so always one)."""
    return folder if folder is not None and is_slug(folder) else record_id
