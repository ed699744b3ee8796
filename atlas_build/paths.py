"""Where outputs may be written: names checked again at every write, paths kept inside a root.

Ids, slugs and file names come from lesson files, records and cache entries, all of which
are untrusted. A name becomes part of an output path only when it is a plain slug
(`[a-z0-9]+(-[a-z0-9]+)*`, the schema's id pattern) or a plain file name, and the joined
path must stay inside the output root after resolving links. Anything else raises
`UnsafePath` instead of writing.
"""

from __future__ import annotations

import errno
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


def first_link(path: str | os.PathLike[str]) -> Path | None:
    """The first name on `path`, as written, that is a symbolic link (None when none is).

    Output folders are named relative to the repository (`build`, `build/docs`, `site`),
    where a pull request can commit a link: every name on the way is checked, `..`
    included (`build/../x` goes through `build`). For an absolute path outside the working
    directory only its last name is: the folders above it are the machine's, not the
    repository's (`/tmp` is a link on some systems)."""
    given = Path(path)
    if given.is_absolute():
        try:
            given = given.relative_to(Path.cwd())
        except ValueError:
            return given if given.is_symlink() else None
    walked = Path()
    for name in given.parts:
        walked /= name
        if walked.is_symlink():
            return walked
    return None


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most `limit + 1` bytes of the regular file at `path`; `UnsafePath` for anything
    else. Repository files are read only this way where nothing else vouches for them: a
    link (to `/proc/self/environ`, `/dev/zero`) is not followed, and a FIFO or a device is
    refused before a read could block or never end (the open does not block either)."""
    try:
        before = os.lstat(path)
    except OSError as error:
        raise UnsafePath(f"{os.fspath(path)}: {error.strerror}") from None
    if kinds.S_ISLNK(before.st_mode):
        raise UnsafePath(f"{os.fspath(path)} is a symbolic link; it is not followed")
    if not kinds.S_ISREG(before.st_mode):
        raise UnsafePath(f"{os.fspath(path)} is not a regular file")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:  # replaced by a link since the lstat
            raise UnsafePath(f"{os.fspath(path)} is a symbolic link; it is not followed") from None
        raise UnsafePath(f"{os.fspath(path)}: {error.strerror}") from None
    with os.fdopen(descriptor, "rb") as handle:
        if not kinds.S_ISREG(os.fstat(descriptor).st_mode):
            raise UnsafePath(f"{os.fspath(path)} is not a regular file")
        return handle.read(limit + 1)
