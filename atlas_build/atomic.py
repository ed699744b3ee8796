"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half.

Writes go to a temporary file in the same directory, are flushed to disk, then
renamed over the target (`os.replace` is atomic on POSIX). Unchanged content is
not rewritten, so modification times of untouched files are preserved.

A target that is a symbolic link is replaced by the file, never written through, read or
copied the mode of: a repository can commit a link where a file will be written.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def write_bytes(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    skip_unchanged: bool = True,
    durable: bool = True,
) -> bool:
    """Write `data` atomically; returns False when the file already held exactly `data`.

    `durable` also flushes the data to disk before the rename, so a power loss cannot
    leave an empty file in place of an author's; caches, which verify their entries, and
    generated outputs (records, the docs tree), which the next build checks and rewrites,
    skip that cost (0.3 ms a file here, two thousand files in a 1,000-lesson build).
    """
    target = Path(path)
    try:
        found: os.stat_result | None = os.lstat(target)
    except OSError:
        found = None
    before = found if found is not None and stat.S_ISREG(found.st_mode) else None  # a file
    if skip_unchanged and before is not None and before.st_size == len(data):
        with contextlib.suppress(OSError):
            if target.read_bytes() == data:
                return False
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(temporary, before.st_mode & 0o777 if before is not None else 0o644)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return True


def write_text(path: str | os.PathLike[str], text: str, *, skip_unchanged: bool = True) -> bool:
    return write_bytes(path, text.encode("utf-8"), skip_unchanged=skip_unchanged)
