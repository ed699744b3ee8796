"""The MkDocs child process of a build: `python -m atlas_build.site.mkdocs.child`.

`build.MkDocs` starts it before the lessons are checked. It first loads the
configuration, compiles the theme's templates and reads the page entries of the last
build (`prepared.prepare`), then reads one `protocol.Request` on stdin and builds
(`incremental.build`); end of input without one ends it quietly. It answers in
`protocol` messages on stdout: a `Problem` per MkDocs warning or error, then `Done`.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TextIO

from atlas_build.site.mkdocs import protocol
from atlas_build.site.mkdocs.incremental import build
from atlas_build.site.mkdocs.prepared import Prepared, prepare
from atlas_build.workers import collect_less, die_with_parent


def main(argv: list[str] | None = None) -> int:
    """The configuration is loaded and the theme prepared first; then one request on stdin
    starts the build, and end of input without one ends the process quietly: a build
    starts this while it checks lessons. What goes wrong before the request (the docs
    folder may not exist yet) is tried again after it, and only then reported."""
    from mkdocs.exceptions import MkDocsException

    parser = argparse.ArgumentParser(prog="python -m atlas_build.site.mkdocs.child")
    parser.add_argument("--config-file", required=True, type=Path)
    parser.add_argument("--cache-dir")
    parser.add_argument("--jobs", type=int, default=1, help="processes laying out new pages")
    parser.add_argument("--parent", type=int, help="process id of the build that started it")
    parser.add_argument("--trust-config", action="store_true", help="allow hooks: (mkconfig)")
    args = parser.parse_args(argv)
    if args.parent is not None:  # a build started it: it must not outlive a SIGKILLed one
        die_with_parent(args.parent)
    channel = _messages_only()
    reporter = protocol.Reporter(channel)
    try:
        prepared = _early(args.config_file, args.cache_dir, args.trust_config, reporter)
        line = sys.stdin.readline()
        if not line.strip():
            return 0
        request = protocol.parse(line)
        if not isinstance(request, protocol.Request):
            raise protocol.ProtocolError(f"a {request.TYPE} message is not a request")
        stats = build(args.config_file, args.cache_dir, known=request.files,
                      sources=request.sources, handler=reporter, prepared=prepared,
                      site_dir=Path(request.site_dir), jobs=args.jobs,
                      trust=args.trust_config)  # fmt: skip
    except protocol.ProtocolError as error:
        protocol.send(channel, protocol.Problem("ERROR", f"malformed request: {error}"))
        return 1
    except (MkDocsException, OSError) as error:
        protocol.send(channel, protocol.Problem("ERROR", str(error)))
        return 1
    protocol.send(channel, protocol.Done(stats))
    return 0


def _messages_only() -> TextIO:
    """Standard output for the messages alone: a stream on a copy of its descriptor, and
    descriptor 1 (`print`, a plugin's output) pointed at standard error."""
    sys.stdout.flush()
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return channel


class _Held(logging.Handler):
    """MkDocs' records while the configuration is loaded ahead of the request."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _early(
    config_file: Path, cache_dir: str | None, trust: bool, reporter: logging.Handler
) -> Prepared | None:
    """`prepare` ahead of the request; None (and nothing reported) when it fails, so that
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
    for record in held.records:
        reporter.handle(record)
    return prepared


if __name__ == "__main__":
    collect_less()
    raise SystemExit(main())
