"""The folder MkDocs writes a site into, and what is known of the files already in it.

Creating and deleting the ~1,000 folders of a large site costs seconds on a disk that
discards freed blocks (measured here: `rmdir` of a 1,000-lesson site's folders took
3.3 s, unlinking its 2,400 files 0.05 s). So a build does not start from an empty
folder: it lays the new site out in the site before the current one (kept beside it
after the previous swap, see `publish.swap`), rewriting only the files whose bytes must
change and deleting those that are no longer part of the site.

That folder is in the working tree, so it is untrusted: links, special files and files
with more than one name are removed before MkDocs writes anything (a write must never
land outside the folder), and a file is taken to hold known bytes only when its stamp
(inode, size, change time: only the kernel sets the change time) is the one recorded,
in the authenticated cache, when atlas-build last wrote it. Every other file is
rewritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
from pathlib import Path
from typing import Any

Stamp = tuple[int, int, int]  # inode, size, change time (ns)
Files = dict[str, list[Any]]  # relative path -> [inode, size, change time, sha256]
_SHA256 = re.compile(r"[0-9a-f]{64}")


def scan(root: Path, *, clean: bool = False) -> tuple[dict[str, Stamp], bool]:
    """Stamps of the plain files under `root`, and whether everything there was a plain
    file or folder. With `clean`, anything else is removed instead."""
    found: dict[str, Stamp] = {}
    plain = True
    todo = [(root, "")]
    while todo:
        folder, prefix = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return found, False
        for entry in entries:
            info = entry.stat(follow_symlinks=False)
            name = prefix + entry.name
            if stat.S_ISDIR(info.st_mode):
                todo.append((Path(entry.path), name + "/"))
            elif stat.S_ISREG(info.st_mode) and info.st_nlink == 1:
                found[name] = (info.st_ino, info.st_size, info.st_ctime_ns)
            else:
                plain = False
                if clean:
                    os.unlink(entry.path)
    return found, plain


def valid_files(data: Any) -> Files:
    """A files record read back from the cache, or {} when it is not one."""
    return data if is_files(data) else {}


def is_files(data: Any) -> bool:
    """`data` is a files record: path -> [inode, size, change time, sha256]."""
    return isinstance(data, dict) and all(
        isinstance(name, str)
        and isinstance(item, list)
        and len(item) == 4
        and all(isinstance(part, int) and not isinstance(part, bool) for part in item[:3])
        and isinstance(item[3], str)
        and _SHA256.fullmatch(item[3])
        for name, item in data.items()
    )


def matches(files: Files, root: Path) -> bool:
    """`root` holds exactly the recorded files, none of them touched since."""
    found, plain = scan(root)
    return (
        plain
        and len(found) == len(files)
        and all(tuple(files.get(name, [])[:3]) == stamp for name, stamp in found.items())
    )


def sha256_file(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


class Tree:
    """A staging folder: which files already hold which bytes, and which ones a build made."""

    def __init__(self, root: Path, known: Files) -> None:
        self.root = root
        self.before, _ = scan(root, clean=True)
        self.valid = {
            name: str(known[name][3])
            for name, stamp in self.before.items()
            if name in known and tuple(known[name][:3]) == stamp
        }
        self.produced: set[str] = set()

    def holds(self, name: str, sha: str | None) -> bool:
        """The file is part of the new site; True when it already holds those bytes."""
        self.produced.add(name)
        return sha is not None and self.valid.get(name) == sha

    def finish(self) -> Files:
        """Delete what the new site no longer has; the record of every file it has."""
        after, _ = scan(self.root, clean=True)
        files: Files = {}
        emptied: set[Path] = set()
        for name, stamp in after.items():
            untouched = self.before.get(name) == stamp
            if untouched and name not in self.produced:
                os.unlink(self.root / name)
                emptied.update((self.root / name).parents)
                continue
            sha = self.valid.get(name) if untouched else None
            files[name] = [*stamp, sha or sha256_file(self.root / name)]
        for folder in sorted(emptied, key=lambda p: len(p.parts), reverse=True):
            if self.root in folder.parents:
                with contextlib.suppress(OSError):  # only empty folders go
                    folder.rmdir()
        return files
