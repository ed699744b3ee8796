"""Putting a built site in place: a staging folder beside `site/`, an atomic swap, a spare.

MkDocs writes into a staging folder in the same parent as `site/` (same filesystem, so
renames are atomic); only when MkDocs and the link check succeed is it swapped in (rename
the old site away, rename the new one in). A failure or an interrupt before that leaves
the previous site exactly as it was.

The old site is not deleted: it is kept as the spare (`.site.old-spare`), and the next
build lays its site out in that folder (`tree`), because creating and deleting a large
site's ~1,000 folders is most of what an incremental build would otherwise cost. A build
that replaced no site (the first one) makes the spare a copy of what it built
(`seed_spare`), so the build after it is as quick as any other. Builds without a cache
(nothing vouches for a spare's files) stage into a fresh folder and delete the old site,
as before.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from atlas_build.site.mkdocs import tree

STALE_AFTER = 6 * 3600.0  # seconds; younger staging folders may belong to a running build


def spare_path(site_dir: Path) -> Path:
    return site_dir.parent / f".{site_dir.name}.old-spare"


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _plain_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def remove_stale(site_dir: Path, *, age: float = STALE_AFTER) -> None:
    """Delete staging folders that a killed build (SIGKILL, power loss) left beside the site."""
    if not site_dir.parent.is_dir():
        return
    now = time.time()
    keep = spare_path(site_dir)
    for pattern in (f".{site_dir.name}.new-*", f".{site_dir.name}.old-*"):
        for leftover in site_dir.parent.glob(pattern):
            with contextlib.suppress(OSError):
                if leftover != keep and leftover.is_dir() and now - leftover.stat().st_mtime > age:
                    shutil.rmtree(leftover, ignore_errors=True)


@contextlib.contextmanager
def staging(site_dir: Path, spare: Path | None = None) -> Iterator[tuple[Path, bool]]:
    """A staging folder beside `site_dir`, and whether it is the recycled `spare`.

    A recycled folder goes back to being the spare if the build does not swap it in; a
    fresh one is deleted."""
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.new-", dir=site_dir.parent))
    recycled = False
    if spare is not None and _plain_dir(spare):
        os.rmdir(staged)
        try:
            os.rename(spare, staged)
            recycled = True
        except OSError:
            staged.mkdir()
    os.chmod(staged, 0o777 & ~_umask())  # mkdtemp makes 0700; a site is as readable as any
    try:
        yield staged, recycled
    finally:
        if _plain_dir(staged):
            if recycled and spare is not None and not os.path.lexists(spare):
                os.rename(staged, spare)
            else:
                shutil.rmtree(staged, ignore_errors=True)


def swap(staged: Path, site_dir: Path, keep: Path | None = None) -> None:
    """Replace `site_dir` by `staged`; the old site becomes `keep` (else it is deleted)."""
    old = None
    if site_dir.exists() or site_dir.is_symlink():
        old = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.old-", dir=site_dir.parent))
        os.rmdir(old)
        os.rename(site_dir, old)
    try:
        os.rename(staged, site_dir)
    except BaseException:
        if old is not None:
            os.rename(old, site_dir)
        raise
    if old is None:
        return
    if keep is not None and _plain_dir(old) and not os.path.lexists(keep):
        with contextlib.suppress(OSError):
            os.rename(old, keep)
            return
    shutil.rmtree(old, ignore_errors=True)


def seed_spare(site_dir: Path, spare: Path, files: tree.Files) -> tree.Files:
    """Copy the site just built to `spare`; the record of the copy's files (their stamps,
    and the sha256 `files` has for each). A first build pays about half a second at
    1,000 lessons for it, the build after it writes 1,500 files and 1,000 folders less."""
    if os.path.lexists(spare):
        return {}
    scratch = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.old-", dir=site_dir.parent))
    try:
        shutil.copytree(site_dir, scratch, symlinks=True, dirs_exist_ok=True)
        os.rename(scratch, spare)
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)
        return {}
    found, plain = tree.scan(spare)
    if not plain:
        return {}
    return {
        name: [*stamp, files[name][3]]
        for name, stamp in found.items()
        if name in files and files[name][1] == stamp[1]
    }
