"""A `build` whose inputs did not change since the last one answers before checking anything.

With a warm cache, `build` still reads every lesson's report, record and page back from the
cache, and importing what that needs (SymPy above all) costs about a second on its own,
before the site stage finds that nothing changed. `replay` answers first: it hashes the
lesson folders, and when they, the options, atlas_build and its libraries, the MkDocs
configuration and the `--selftest` file are what the last successful build of these
outputs recorded, and none of its outputs (the records, lesson data and docs tree under
`--out`, and `site/`) was touched since (their stamps, see `tree`), it prints that
build's report again and returns its exit status. `record` is called after a build that
left a clean site (no broken link).

The record lives in the authenticated cache like every other entry; `--no-cache` turns
the shortcut off. Only light modules are imported here.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any, TextIO

from atlas_build.cache import Cache, default_dir, digest, fingerprint
from atlas_build.site.mkdocs import state, tree

NAMESPACE = "build-state"
IGNORED = {"run", "quiet", "jobs", "lock_timeout"}  # change how a build runs, not what it makes
LOCK = ".atlas-build.lock"


def _cache(args: argparse.Namespace) -> Cache:
    if getattr(args, "no_cache", False):
        return Cache(None)
    return Cache(getattr(args, "cache_dir", None) or default_dir())


def _options(args: argparse.Namespace) -> str:
    chosen = {}
    for name, value in sorted(vars(args).items()):
        if name not in IGNORED:
            try:
                chosen[name] = json.loads(json.dumps(value))
            except (TypeError, ValueError):
                chosen[name] = repr(value)
    return json.dumps(chosen, sort_keys=True)


def _lessons(paths: list[str]) -> list[bytes | str]:
    """Every file under the lesson paths (a file path stands for its whole folder)."""
    parts: list[bytes | str] = []
    for root in paths:
        base = Path(root)
        folder = base.parent if base.is_file() else base
        parts.append(str(folder.resolve()))
        for here, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = Path(here) / name
                parts.append(str(path.relative_to(folder)))
                try:
                    parts.append(path.read_bytes() if path.is_file() else b"not a file")
                except OSError:
                    parts.append(b"unreadable")
    return parts


def _outputs(args: argparse.Namespace) -> list[Path]:
    found = [Path(args.out)]
    if not getattr(args, "no_site", False):
        found.append(Path(args.site_dir))
    if getattr(args, "docs_dir", None):
        found.append(Path(args.docs_dir))
    return found


def _inputs(args: argparse.Namespace) -> str:
    config = Path(getattr(args, "mkdocs_config", "mkdocs.yml"))
    paths = list(getattr(args, "paths", None) or ["content/"])
    parts: list[bytes | str] = [
        fingerprint(),
        state.environment(),
        _options(args),
        state.config_digest(config),
    ]
    selftest = getattr(args, "selftest", None)
    if selftest:  # the Selftest page is made from it
        try:
            parts.append(Path(selftest).read_bytes())
        except OSError:
            parts.append("unreadable")
    return digest(*parts, *_lessons(paths))


def _stamps(folder: Path) -> dict[str, list[int]] | None:
    found, plain = tree.scan(folder) if folder.is_dir() else ({}, False)
    if not plain:
        return None
    return {name: list(stamp) for name, stamp in found.items() if name != LOCK}


def _key(args: argparse.Namespace) -> str:
    return digest(NAMESPACE, *(str(p.resolve()) for p in _outputs(args)))


def inputs(args: argparse.Namespace) -> str | None:
    """The digest of what a build is made from, taken before it starts (so an edit made
    while it runs is not recorded as built); None when there is no cache to remember it."""
    return _inputs(args) if _cache(args).enabled else None


def replay(args: argparse.Namespace, stream: TextIO, seen: str | None = None) -> int | None:
    """The last build's exit status (its report printed again) when nothing changed; None
    when the build has to run. `seen`: `inputs(args)`, when the caller has it."""
    store = _cache(args)
    payload = store.get(NAMESPACE, _key(args)) if store.enabled else None
    try:
        data: Any = json.loads(payload) if payload is not None else None
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("inputs") != (seen or _inputs(args)):
        return None
    outputs = data.get("outputs")
    if not isinstance(outputs, list) or len(outputs) != len(_outputs(args)):
        return None
    pairs = zip(_outputs(args), outputs, strict=True)
    if any(_stamps(folder) != recorded for folder, recorded in pairs):
        return None
    text, status = data.get("report"), data.get("status")
    if not isinstance(text, str) or not isinstance(status, int):
        return None
    stream.write(text)
    where = ", ".join(f"{p}/" for p in _outputs(args))
    print(
        f"atlas-build: nothing changed since the last build; {where} left as they are", file=stream
    )
    return status


def record(
    args: argparse.Namespace, report_text: str, status: int, seen: str | None = None
) -> None:
    """Remember a build whose site stage succeeded (or that was asked for no site): its
    report text and exit status. A site published with broken links is not remembered, so
    the next build reports them again. `seen`: `inputs(args)` taken when the build began."""
    store = _cache(args)
    if not store.enabled or status not in (0, 1):
        return
    if not getattr(args, "no_site", False):
        site = Path(args.site_dir)
        if state.load(store, site).inputs is None:  # not built, or a broken link was reported
            return
    outputs = [_stamps(folder) for folder in _outputs(args)]
    if any(found is None for found in outputs):
        return
    made_from = seen or _inputs(args)
    data = {"inputs": made_from, "outputs": outputs, "report": report_text, "status": status}
    store.put(NAMESPACE, _key(args), json.dumps(data, ensure_ascii=True).encode("ascii"))
