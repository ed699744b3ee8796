"""Command-line wiring of the site stage for `atlas-build build` and `atlas-build serve`.

`atlas_build.cli` owns the commands and their shared options (PATHs, `--out`,
`--allow-errors`, check options); this module adds the site's own options and
runs the site part. `run_build` takes the check result `cmd_build` already has,
so lessons are checked once per build.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from atlas_build import pipeline
from atlas_build.report import Report

if TYPE_CHECKING:
    from atlas_build.site.mkdocs.build import MkDocs

DEFAULT_CONFIG = "mkdocs.yml"  # kept here so building the CLI parser imports nothing heavy

DEFAULT_SITE = "site"
DEFAULT_CONTENT = "content/"


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    """Site options of `build` (it already has PATHs, --out and --allow-errors)."""
    site = parser.add_argument_group("site")
    site.add_argument(
        "--site-dir", default=DEFAULT_SITE, metavar="DIR", help="where the site goes (site/)"
    )
    site.add_argument(
        "--docs-dir", metavar="DIR", help="generated MkDocs docs tree (default OUT/docs)"
    )
    site.add_argument(
        "--mkdocs-config", default=DEFAULT_CONFIG, metavar="FILE", help="MkDocs configuration"
    )
    site.add_argument("--no-site", action="store_true", help="emit records only, no site")
    site.add_argument(
        "--trust-config",
        action="store_true",
        help="let mkdocs.yml run code: hooks, other plugins and extensions, extra_javascript",
    )
    site.add_argument(
        "--selftest",
        metavar="FILE",
        help="`atlas-build selftest --format json` output for the Selftest page",
    )


def output_folders(args: argparse.Namespace) -> list[Path]:
    """The folders `build` writes: `--out`, and the docs tree and the site unless
    `--no-site` (the site's staging folders and spare sit beside it)."""
    folders = [Path(args.out)]
    if not getattr(args, "no_site", False):
        folders += [_docs_dir(args), Path(args.site_dir)]
    return folders


def _docs_dir(args: argparse.Namespace) -> Path:
    return Path(args.docs_dir) if args.docs_dir else Path(getattr(args, "out", "build")) / "docs"


def _trusted(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "trust_config", False))


def start_mkdocs(args: argparse.Namespace, options: pipeline.Options) -> MkDocs | None:
    """The MkDocs child of a build about to check its lessons, started now so that it has
    loaded MkDocs and its configuration when the site is built (None: no site, no cache,
    or no configuration to load)."""
    if getattr(args, "no_site", False) or options.cache_dir is None:
        return None
    from atlas_build.site.mkdocs.build import MkDocs, SiteError

    try:
        return MkDocs(Path(args.mkdocs_config), _docs_dir(args), Path(args.site_dir),
                      options.cache_dir, options.jobs, _trusted(args))  # fmt: skip
    except (SiteError, OSError):
        return None  # the site stage reports it


def run_build(
    args: argparse.Namespace,
    report: Report | None = None,
    checked: list[pipeline.Checked] | None = None,
    options: pipeline.Options | None = None,
    started: MkDocs | None = None,
) -> int:
    """Build the site from a check result (run the check first when none is given).

    0 when `site/` was replaced (or `--no-site`), 1 when the site was not built.
    """
    if getattr(args, "no_site", False):
        return 0
    from atlas_build.site.mkdocs.build import build_site

    options = options or pipeline.Options()
    if report is None or checked is None:
        report, checked = pipeline.check(getattr(args, "paths", None) or [DEFAULT_CONTENT], options)
    return build_site(
        report,
        checked,
        docs_dir=_docs_dir(args),
        site_dir=args.site_dir,
        allow_errors=bool(getattr(args, "allow_errors", False)),
        config=args.mkdocs_config,
        options=options,
        selftest=getattr(args, "selftest", None),
        child=started,
        trust_config=_trusted(args),
    )


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="lessons (default content/)")
    parser.add_argument(
        "-a", "--dev-addr", default="127.0.0.1:8000", metavar="HOST:PORT", help="where to serve"
    )
    parser.add_argument(
        "--docs-dir", default="build/docs", metavar="DIR", help="generated docs tree"
    )
    parser.add_argument(
        "--mkdocs-config", default=DEFAULT_CONFIG, metavar="FILE", help="MkDocs configuration"
    )
    parser.add_argument(
        "--cache-dir", metavar="DIR", help="cache (default $XDG_CACHE_HOME/atlas-build)"
    )
    parser.add_argument("--no-cache", action="store_true", help="check and render everything")
    parser.add_argument(
        "--trust-config",
        action="store_true",
        help="let mkdocs.yml run code: hooks, other plugins and extensions, extra_javascript",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help="check, and lay out many new pages, in N processes (default: cores)",
    )


def serve_options(args: argparse.Namespace) -> pipeline.Options:
    """The check options of a preview: the cache on (a save re-checks what it touched)."""
    from atlas_build import cache

    jobs = getattr(args, "jobs", None) or pipeline.default_jobs()
    chosen = None if getattr(args, "no_cache", False) else args.cache_dir or cache.default_dir()
    return pipeline.Options(jobs=max(1, min(jobs, 256)), cache_dir=chosen)


def run_serve(args: argparse.Namespace, options: pipeline.Options | None = None) -> int:
    from atlas_build.site.mkdocs.serve import serve

    try:
        return serve(
            args.paths or [DEFAULT_CONTENT],
            docs_dir=Path(args.docs_dir),
            config=Path(args.mkdocs_config),
            address=args.dev_addr,
            trust=_trusted(args),
            options=options or serve_options(args),
        )
    except KeyboardInterrupt:
        print("atlas-build: serve stopped", file=sys.stderr)
        return 0
