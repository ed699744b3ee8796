"""What the HTML MkDocs makes of a page depends on besides the page's own file.

The configuration (nav included) as MkDocs reads it, a custom theme folder's files, the
files of nav entries given without a title (their titles appear on every page), and the
versions of MkDocs, its theme and the markdown libraries (`state.environment`). `context`
is None when more could enter: no explicit nav (titles would come from every page), or
plugins other than the theme's search (hooks are plugins too), whose state could span pages.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from atlas_build.cache import digest
from atlas_build.site.mkdocs import state

SUPPORTED = {  # major.minor the driver was tested on; pyproject.toml pins the same
    "mkdocs": (1, 6),
    "mkdocs-material": (9, 8),
    "Markdown": (3, 11),
}


def supported() -> bool:
    """MkDocs, the theme and Python-Markdown are versions whose internals the speed-ups were
    written against (`speedups.patches` wraps functions private to `mkdocs.commands.build`,
    `speedups.searchparser` replaces Material's search parser, `speedups.rawblocks` steps
    over Python-Markdown's raw-HTML parser state); others get a plain build."""
    import importlib.metadata

    for name, wanted in SUPPORTED.items():
        try:
            found = tuple(int(part) for part in importlib.metadata.version(name).split(".")[:2])
        except (importlib.metadata.PackageNotFoundError, ValueError):
            return False
        if found != wanted:
            return False
    return True


def untitled(nav: Any) -> list[str]:
    """Nav entries given without a title: their title comes from the page itself."""
    found: list[str] = []
    for item in nav if isinstance(nav, list) else [nav]:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                if isinstance(value, list):
                    found += untitled(value)
    return [path for path in found if not urlsplit(path).scheme]


def context(config: Any, config_file: Path) -> str | None:
    """Digest of everything a page's output depends on besides its own file, or None
    when more could enter (see the module docstring)."""
    from material.plugins.search.plugin import SearchPlugin
    from mkdocs.utils.yaml import yaml_load

    if config.nav is None or any(not isinstance(p, SearchPlugin) for p in config.plugins.values()):
        return None
    with open(config_file, "rb") as handle:
        raw = yaml_load(handle)
    for key in ("docs_dir", "site_dir"):  # where, not what: they never reach a page
        raw.pop(key, None)
    parts: list[bytes | str] = [state.environment(), json.dumps(raw, sort_keys=True, default=repr)]
    for folder in map(Path, config.theme.dirs):
        if not packaged([str(folder)]):  # a custom_dir
            parts += [p.read_bytes() for p in _files(folder)]
    docs = Path(config.docs_dir)
    for path in untitled(config.nav):
        target = docs / path
        parts += [path, target.read_bytes() if target.is_file() else b"missing"]
    return digest(*parts)


def packaged(dirs: list[str]) -> bool:
    """Every theme folder is inside MkDocs' or the theme's package (covered by their versions)."""
    packaged = [Path(sys.modules[name].__file__ or "").parent for name in ("material", "mkdocs")]
    return all(any(Path(d).is_relative_to(base) for base in packaged) for d in dirs)


def listing(payload: bytes | None, dirs: list[str]) -> list[list[str]] | None:
    """A cached theme listing: [path, theme folder] pairs, the folders being the theme's."""
    try:
        data = json.loads(payload) if payload is not None else None
    except ValueError:
        return None
    if not isinstance(data, list) or not all(
        isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[1] in dirs
        for item in data
    ):
        return None
    return data


def theme_key(config: Any) -> str:
    """Cache key of the theme's list of static files: the packaged folders are covered by
    the library versions, a `custom_dir` by the names of the files it holds."""
    from mkdocs import utils

    dirs = [str(folder) for folder in config.theme.dirs]
    held = [
        [] if packaged([folder]) else [str(p.relative_to(folder)) for p in _files(Path(folder))]
        for folder in dirs
    ]
    extensions = sorted(utils.markdown_extensions)
    listed = json.dumps([dirs, held, list(config.theme.static_templates), extensions])
    return digest(state.environment(), listed)


def _files(folder: Path) -> list[Path]:
    """A custom theme folder's files, in order; links to folders are not followed (nor by
    the theme's template loader, whose listing this keys)."""
    return sorted(p for p in folder.rglob("*") if p.is_file())
