"""The MkDocs child process of a build: `python -m atlas_build.site.child`.

`--config-file FILE [--cache-dir DIR] [--jobs N] [--known JSON] [--stats JSON]` runs
`incremental.build` at once; with `--wait` (how `site/build.py` starts it, before the
lessons are checked) it first loads the configuration, compiles the theme's templates
and reads the page entries of the last build (`incremental.prepare`), then reads one
JSON line on stdin (`site_dir`, `files`, `sources`, `stats`) and builds. MkDocs' WARNING
and ERROR lines go to stderr as `mkdocs build` prints them; the parent reads them.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from atlas_build.site import tree
from atlas_build.site.incremental import Prepared, build, log_handler, prepare
from atlas_build.workers import collect_less, die_with_parent


def main(argv: list[str] | None = None) -> int:
    """With `--wait`, the configuration is loaded and the theme prepared first; then one
    JSON line on stdin (`site_dir`, `known`, `stats`) starts the build, and end of input
    without one ends the process quietly: a build starts this while it checks lessons.
    What goes wrong before the request (the docs folder may not exist yet) is tried again
    after it, and only then reported."""
    from mkdocs.exceptions import MkDocsException

    parser = argparse.ArgumentParser(prog="python -m atlas_build.site.child")
    parser.add_argument("--config-file", required=True, type=Path)
    parser.add_argument("--cache-dir")
    parser.add_argument("--known", type=Path, help="JSON: the staging folder's files, sources")
    parser.add_argument("--stats", type=Path, help="write what was rendered and reused here")
    parser.add_argument("--wait", action="store_true", help="prepare, then read the request")
    parser.add_argument("--jobs", type=int, default=1, help="processes laying out new pages")
    parser.add_argument("--parent", type=int, help="process id of the build that started it")
    parser.add_argument("--trust-config", action="store_true", help="allow hooks: (mkconfig)")
    args = parser.parse_args(argv)
    if args.parent is not None:  # a build started it: it must not outlive a SIGKILLed one
        die_with_parent(args.parent)
    prepared, site_dir, stats_path = None, None, args.stats
    try:
        given = json.loads(args.known.read_text(encoding="utf-8")) if args.known else {}
        if args.wait:
            prepared = _early(args.config_file, args.cache_dir, args.trust_config)
            line = sys.stdin.readline()
            if not line.strip():
                return 0
            request = json.loads(line)
            given, site_dir = request, Path(request["site_dir"])
            stats_path = Path(request["stats"]) if request.get("stats") else None
        known, sources = tree.valid_files(given.get("files")), given.get("sources") or {}
        stats = build(args.config_file, args.cache_dir, known=known, sources=sources,
                      prepared=prepared, site_dir=site_dir, jobs=args.jobs,
                      trust=args.trust_config)  # fmt: skip
    except (MkDocsException, OSError) as error:
        print(f"ERROR   -  {error}", file=sys.stderr)
        return 1
    if stats_path:
        stats_path.write_text(json.dumps(stats.to_json()), encoding="utf-8")
    return 0


class _Held(logging.Handler):
    """MkDocs' records while the configuration is loaded ahead of the request."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _early(config_file: Path, cache_dir: str | None, trust: bool) -> Prepared | None:
    """`prepare` ahead of the request; None (and nothing printed) when it fails, so that
    the build prepares again once the docs folder is written, and reports what remains."""
    from mkdocs.exceptions import MkDocsException

    logger = logging.getLogger("mkdocs")
    held = _Held()
    logger.addHandler(held)
    try:
        prepared = prepare(config_file, cache_dir, trust=trust)
    except (MkDocsException, OSError):
        return None
    finally:
        logger.removeHandler(held)
    stream = log_handler(None)
    for record in held.records:
        stream.handle(record)
    return prepared


if __name__ == "__main__":
    collect_less()
    raise SystemExit(main())
