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


def inside(root: str | os.PathLike[str], relative: str) -> Path:
    """`root/relative` for a relative path of plain names, refusing `..`, absolute paths,
    hidden names and anything that resolves (through links) outside `root`."""
    parts = relative.split("/")
    if not relative or any(not _FILE.fullmatch(part) or part.startswith(".") for part in parts):
        raise UnsafePath(f"{relative!r} is not a relative path of plain file names")
    base = Path(root)
    target = base.joinpath(*parts)
    resolved_root = base.resolve()
    resolved = target.resolve()
    if resolved != resolved_root and resolved_root not in resolved.parents:
        raise UnsafePath(f"{relative!r} resolves outside {base}")
    return target


def publish_slug(folder: str | None, record_id: str) -> str:
    """The slug a lesson is published under: its folder name when that is a plain slug,
    otherwise its record id (schema-validated, so always one)."""
    return folder if folder is not None and is_slug(folder) else record_id
