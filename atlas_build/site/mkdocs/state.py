"""What a published site was built from, so that a build whose inputs did not change skips MkDocs.

After a successful build, the cache (authenticated, outside the working tree) records,
for that site folder, a digest of everything the site was made from (the docs tree, the
MkDocs configuration and what it inherits or reads from the environment, atlas_build and
the library versions) and, for every file of the site as it was swapped in, its stamp
(inode, size, change time) and sha256 (`tree`). The change time cannot be set back by
anyone but the kernel, so a file edited, replaced or planted in `site/` (a pull request
can commit one) no longer matches, and the site is rebuilt. Nothing is read from `site/`
itself but its stamps.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from atlas_build import __version__
from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.site.mkdocs import tree

NAMESPACE = "site-state"
LIBRARIES = (
    "mkdocs",
    "mkdocs-material",
    "mkdocs-material-extensions",
    "Markdown",
    "pymdown-extensions",
    "Jinja2",
    "MarkupSafe",
    "Pygments",
    "babel",
    "backrefs",
    "PyYAML",
    "pyyaml_env_tag",
    "mergedeep",
)
DRIVER = Path(__file__).resolve().parent  # site/mkdocs/: every module of it shapes a page
MAX_INHERIT = 16


def driver_digest(folder: Path) -> str:
    """Every module under `folder` (the driver, speed-ups included), by path and bytes: a
    module added or changed there keys cached pages anew without being listed anywhere.
    The pages' own modules need not enter: what they make is the markdown, whose bytes
    key each page (`speedups.patches.Session._key`)."""
    modules = sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)
    parts: list[bytes | str] = []
    for module in modules:
        parts += [module.relative_to(folder).as_posix(), module.read_bytes()]
    return digest(*parts)


@cache
def environment() -> str:
    """atlas_build's version and MkDocs driver, Python's version, and the versions of MkDocs,
    the theme and the markdown libraries: what a rendered page depends on besides its files."""
    parts: list[bytes | str] = [__version__, sys.version, driver_digest(DRIVER)]
    for name in LIBRARIES:
        try:
            parts.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{name} absent")
    return digest(*parts)


def _env_names(node: yaml.Node) -> list[str]:
    """Environment variables a config reads with `!ENV NAME` or `!ENV [NAME, ...]`."""
    found: list[str] = []
    todo = [node]
    while todo:
        item = todo.pop()
        if item.tag == "!ENV":
            values = item.value if isinstance(item.value, list) else [item]
            found += [v.value for v in values if isinstance(v, yaml.ScalarNode)]
        elif isinstance(item, yaml.MappingNode):
            todo += [part for pair in item.value for part in pair]
        elif isinstance(item, yaml.SequenceNode):
            todo += item.value
    return found


def _inherit(node: yaml.Node | None) -> str | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "INHERIT":
            return str(value.value) if isinstance(value, yaml.ScalarNode) else None
    return None


def config_digest(config: Path) -> str:
    """The configuration, the files it INHERITs and the environment variables it reads.

    The YAML is composed, not constructed, so tags such as `!!python/name:` are never
    resolved here; MkDocs itself reads the configuration when it runs."""
    parts: list[bytes | str] = []
    current: Path | None = config
    seen: set[Path] = set()
    while current is not None and current not in seen and len(seen) < MAX_INHERIT:
        seen.add(current)
        try:
            data = current.read_bytes()
            node = yaml.compose(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except (OSError, yaml.YAMLError):
            parts.append(f"{current}: unreadable")
            break
        parts += [str(current.resolve()), data]
        if node is not None:
            parts += [f"{name}={os.environ.get(name)}" for name in sorted(_env_names(node))]
        parent = _inherit(node)
        current = (current.parent / parent) if parent else None
    return digest(*parts)


def inputs(sources: dict[str, str], config: Path) -> str:
    """Everything a site is made from: the docs tree, the configuration, the code and libraries."""
    parts: list[bytes | str] = [fingerprint(), environment(), config_digest(config)]
    for path in sorted(sources):
        parts += [path, sources[path]]
    return digest(*parts)


@dataclass
class Recorded:
    """What the cache says about a site folder: what the site in place was built from (None
    when unknown, or when its link check reported problems), its files, and the files of
    the spare folder (the site before it, kept to lay the next site out in)."""

    inputs: str | None = None
    site: tree.Files = field(default_factory=dict)
    spare: tree.Files = field(default_factory=dict)


def _key(site: Path) -> str:
    return digest(NAMESPACE, str(site.resolve()))


def load(store: Cache, site: Path) -> Recorded:
    payload = store.get(NAMESPACE, _key(site)) if store.enabled else None
    try:
        data = json.loads(payload) if payload is not None else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return Recorded()
    inputs = data.get("inputs")
    return Recorded(
        inputs if isinstance(inputs, str) else None,
        tree.valid_files(data.get("site")),
        tree.valid_files(data.get("spare")),
    )


def save(store: Cache, site: Path, recorded: Recorded) -> None:
    data = {"inputs": recorded.inputs, "site": recorded.site, "spare": recorded.spare}
    store.put(NAMESPACE, _key(site), json.dumps(data, ensure_ascii=True).encode("ascii"))


def unchanged(recorded: Recorded, site: Path, wanted: str) -> bool:
    """The site in place was built from `wanted` and no file of it changed since."""
    return recorded.inputs == wanted and bool(recorded.site) and tree.matches(recorded.site, site)
