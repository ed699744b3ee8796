"""`atlas-build` command line: parse arguments, run a command, map the result to an exit code.

Exit codes: 0 clean, 1 findings, 2 usage or internal error. No input may
produce a Python traceback: anything unexpected prints one line and exits 2.

Long module: every subcommand's argument parsing and exit-code mapping sit together so the
exit-code contract (0/1/2, never a traceback) can be read and tested in one place.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from atlas_build import __version__, budget, load, pipeline, workers
from atlas_build import cache as caching
from atlas_build.report import FORMATS, Report, render
from atlas_build.text import plural

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
DEFAULT_PATH = "content/"
MAX_BYTES_LIMIT = 1 << 40  # 1 TiB: larger caps are typos, and overflow file reads


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"atlas-build: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _byte_size(text: str) -> int:
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    text = text.strip().lower().removesuffix("ib").removesuffix("b")
    scale = units.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in units else text
    try:
        value = int(float(number) * scale)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 5MiB)") from None
    if not 0 < value <= MAX_BYTES_LIMIT:
        raise argparse.ArgumentTypeError(f"size must be between 1 byte and {MAX_BYTES_LIMIT}")
    return value


def _add_check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help=f"record file, lesson folder or content directory (default {DEFAULT_PATH})",
    )
    parser.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    parser.add_argument(
        "--require-record-hash",
        action="store_true",
        help="an unverifiable recordHash is an error, not a warning",
    )
    parser.add_argument(
        "--require-accounted",
        action="store_true",
        help="an unaccounted number in a sentence with a verified one is an error (A411)",
    )
    parser.add_argument(
        "--max-bytes",
        type=_byte_size,
        default=load.DEFAULT_MAX_BYTES,
        metavar="SIZE",
        help="largest lesson file accepted (default 1MiB)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="lessons checked in parallel (default: the number of cores)",
    )
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    parser.add_argument(
        "--cache-dir",
        default=None,
        metavar="DIR",
        help=f"where results are cached (default ${caching.DIR_ENV}, else "
        "$XDG_CACHE_HOME/atlas-build; entries are authenticated, see docs/reliability.md)",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar, even on a terminal"
    )
    limits = parser.add_argument_group("budgets (docs/reliability.md)")
    limits.add_argument(
        "--memory-budget",
        type=_byte_size,
        default=budget.DEFAULT_MEMORY,
        metavar="SIZE",
        help="working memory one claim, figure or equation may allocate (default 1GiB)",
    )
    limits.add_argument(
        "--lesson-time",
        type=_seconds,
        default=budget.DEFAULT_LESSON_SECONDS,
        metavar="SECONDS",
        help="time the claims of one lesson may take together (default 30)",
    )
    limits.add_argument(
        "--read-time",
        type=_seconds,
        default=budget.DEFAULT_READ_SECONDS,
        metavar="SECONDS",
        help="time reading, parsing and checking one lesson may take, claims aside (default 30)",
    )
    limits.add_argument(
        "--run-time",
        type=_seconds,
        default=budget.DEFAULT_RUN_SECONDS,
        metavar="SECONDS",
        help="time the claims of the whole run may take together (default 1800)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 7 * 24 * 3600:  # NaN fails this too
        raise argparse.ArgumentTypeError("seconds must be between 0 and one week")
    return value


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of jobs: {text!r}") from None
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError("jobs must be between 1 and 256")
    return value


def _options(args: argparse.Namespace) -> pipeline.Options:
    return pipeline.Options(
        strict=args.strict,
        require_record_hash=args.require_record_hash,
        require_accounted=args.require_accounted,
        max_bytes=args.max_bytes,
        jobs=args.jobs or pipeline.default_jobs(),
        cache_dir=None if args.no_cache else (args.cache_dir or caching.default_dir()),
        budget=budget.Budget(
            memory_bytes=args.memory_budget,
            lesson_seconds=args.lesson_time,
            run_seconds=args.run_time,
            read_seconds=args.read_time,
        ),
    )


def _check(
    args: argparse.Namespace, after: pipeline.After | None = None
) -> tuple[Report, list[pipeline.Checked]]:
    """Run the pipeline with a progress bar on a terminal, quietly elsewhere."""
    from atlas_build.progress import progress_bar

    paths = args.paths or [DEFAULT_PATH]
    with progress_bar(enabled=not getattr(args, "quiet", False)) as progress:
        report, checked = pipeline.check(paths, _options(args), progress, after)
    if progress is not None and checked:
        slowest = max(checked, key=lambda item: item.seconds)
        from atlas_build.report.escape import text as plain

        path = plain(slowest.report.path)
        print(f"slowest lesson: {path} ({slowest.seconds:.2f} s)", file=sys.stderr)
    return report, checked


def cmd_check(args: argparse.Namespace) -> int:
    report, _ = _check(args)
    codes = None
    if args.format == "sarif":  # only SARIF describes the codes: the catalog imports every
        from atlas_build import catalog  # stage, most of a check whose lessons are cached

        codes = catalog.codes()
    output = render(report, args.format, verbose=args.verbose, codes=codes)
    if args.output:
        from atlas_build.atomic import write_bytes

        write_bytes(args.output, output.encode("utf-8", "backslashreplace"))
    else:
        sys.stdout.write(output)
    return report.exit_code()


def cmd_build(args: argparse.Namespace) -> int:
    """Check, then write outputs, holding a lock so concurrent builds take turns. An output
    folder that is a link is refused before anything is written (`outputs.refused`)."""
    from filelock import FileLock, Timeout

    from atlas_build import outputs
    from atlas_build.report.text import line
    from atlas_build.site import cli as site_cli

    out = Path(args.out)
    refused = outputs.refused(site_cli.output_folders(args))
    for diagnostic in refused:
        print(line(diagnostic), file=sys.stderr)
    if refused:
        print("atlas-build: build stopped: nothing was written", file=sys.stderr)
        return EXIT_FINDINGS
    out.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(outputs.lock_file(out)))
    try:
        lock.acquire(timeout=0.1)
    except Timeout:
        print(f"atlas-build: another build holds {lock.lock_file}; waiting", file=sys.stderr)
        try:
            lock.acquire(timeout=args.lock_timeout)
        except Timeout:
            print("atlas-build: error: gave up waiting for the other build", file=sys.stderr)
            return EXIT_USAGE
    try:
        from atlas_build.site.mkdocs import uptodate

        seen = uptodate.inputs(args)
        replayed = uptodate.replay(args, sys.stderr, seen)
        if replayed is not None:
            return replayed
        return _build(args, out, seen)
    finally:
        lock.release()


def _build(args: argparse.Namespace, out: Path, seen: str | None = None) -> int:
    """check -> records and lesson data -> docs tree -> MkDocs site (atomic swap)."""
    import functools

    from atlas_build import outputs
    from atlas_build.site import cli as site_cli

    after = functools.partial(
        outputs.make, site=not getattr(args, "no_site", False), allow_errors=args.allow_errors
    )
    options = _options(args)
    started = site_cli.start_mkdocs(args, options)
    try:
        report, checked = _check(args, after)
        text = render(report, "text", verbose=False)
        sys.stderr.write(text)
        status = report.exit_code()
        if status == EXIT_USAGE or status and not args.allow_errors:
            print(
                "atlas-build: build stopped: fix the errors above (or --allow-errors)",
                file=sys.stderr,
            )
            return status
        written = outputs.write_records(checked, options, out)
        print(f"wrote {plural(written, 'record')} to {out / 'records'}")
        site_status = site_cli.run_build(args, report, checked, options, started)
    finally:
        if started is not None:
            started.close()
    final = max(status, site_status)
    if not site_status:
        from atlas_build.site.mkdocs import uptodate

        uptodate.record(args, text, final, seen)  # a next build with nothing changed replays it
    return final


def cmd_serve(args: argparse.Namespace) -> int:
    from atlas_build.site import cli as site_cli

    return site_cli.run_serve(args)


def cmd_import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from atlas_build.authoring import sources

    outcome = sources.import_record(
        Path(args.record), Path(args.to), force=args.force, max_bytes=args.max_bytes
    )
    return _finish(outcome)


def cmd_new(args: argparse.Namespace) -> int:
    from pathlib import Path

    from atlas_build.authoring import sources

    outcome = sources.new_lesson(
        args.slug, Path(args.dir), title=args.title, topic=args.topic, force=args.force
    )
    return _finish(outcome)


def cmd_fix(args: argparse.Namespace) -> int:
    from atlas_build.authoring import sources

    status = EXIT_OK
    for found in load.discover(args.paths or [DEFAULT_PATH]):
        if found.diagnostics:
            continue
        try:
            outcome = sources.fix_lesson(found.path, max_bytes=args.max_bytes, dry_run=args.dry_run)
        except sources.AuthoringError as error:  # one bad record must not stop the others
            print(f"atlas-build: {error}", file=sys.stderr)
            status = max(status, EXIT_FINDINGS)
            continue
        status = max(status, _finish(outcome))
    return status


def cmd_infer(args: argparse.Namespace) -> int:
    """The checks inferred from each lesson, as claims.yaml entries: printed, or with
    `--write` added to the lesson's claims file for an author who wants to pin them."""
    import yaml

    from atlas_build import atomic, claims
    from atlas_build.claims import infer
    from atlas_build.claims.infer import emit
    from atlas_build.diagnostics import Severity
    from atlas_build.report.text import line

    options = pipeline.Options(jobs=1, cache_dir=None)
    _, checked = pipeline.check(args.paths or [DEFAULT_PATH], options)
    status = EXIT_OK
    for item in checked:
        errors = [d for d in item.report.diagnostics if d.severity is Severity.ERROR]
        if errors:  # a lesson that does not load, or whose claims file is refused
            for diagnostic in errors:
                print(line(diagnostic), file=sys.stderr)
            status = EXIT_FINDINGS
            continue
        pipeline.materialize(item, options)
        if item.lesson is None or item.source is None:
            continue
        entries = claims.inferable(item.lesson)
        inferred, pins = infer.offered(item.lesson, entries)
        found = _passing(item, emit.entries(item.lesson, inferred, pins), options)
        written = yaml.safe_dump(
            found, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
        )
        if not args.write:
            print(f"# {item.report.path}: {len(found)} inferred checks")
            print("claims:" if found else "claims: []")
            if found:
                print("\n".join("  " + row if row else row for row in written.splitlines()))
            continue
        if not found:
            print(f"{item.report.path}: nothing inferred to write")
            continue
        target = Path(item.report.path).parent / load.CLAIMS_FILE
        problem = _claims_appendable(target)
        if problem:
            print(f"atlas-build: {target}: {problem}", file=sys.stderr)
            status = EXIT_FINDINGS
            continue
        before = target.read_text(encoding="utf-8") if target.exists() else "claims:\n"
        added = "\n".join("  " + row if row else row for row in written.splitlines())
        note = "  # inferred by `atlas-build infer --write`: edit or remove freely\n"
        atomic.write_text(target, before.rstrip("\n") + "\n" + note + added + "\n")
        print(f"{target}: {len(found)} inferred checks added")
    return status


def _passing(
    item: pipeline.Checked, found: list[dict[str, object]], options: pipeline.Options
) -> list[dict[str, object]]:
    """The entries that pass as claims: inference allows for rounded values the way the
    claims language does not everywhere, so each entry is run, in a copy of the lesson,
    before it is offered."""
    import shutil
    import tempfile

    import yaml

    if not found:
        return []
    source = Path(item.found.path)
    with tempfile.TemporaryDirectory(prefix="atlas-infer-") as temporary:
        folder = Path(temporary) / "content" / source.parent.name
        folder.mkdir(parents=True)
        shutil.copyfile(source, folder / source.name)
        claims = {"claims": found}
        (folder / load.CLAIMS_FILE).write_text(
            yaml.safe_dump(claims, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
        _, [checked] = pipeline.check([str(folder)], options)
        passed = {c["id"] for c in checked.report.claims if c.get("status") == "pass"}
    return [entry for entry in found if entry["id"] in passed]


def _claims_appendable(target: Path) -> str:
    """Why entries cannot be appended to `target` ("" when they can): only a regular file
    whose last top-level key is `claims:` takes them at its end, comments kept."""
    from atlas_build import paths

    if paths.first_link(target) is not None:
        return "is or sits under a link; not written through"
    if not target.exists():
        return ""
    if not target.is_file():
        return "is not a regular file"
    keys = [line.split(":", 1)[0] for line in target.read_text(encoding="utf-8").splitlines()
            if line and not line[0].isspace() and not line.startswith(("#", "-"))]  # fmt: skip
    if not keys or keys[-1] != "claims":
        return "its last top-level key is not `claims:`; add the printed entries by hand"
    return ""


def _finish(outcome: object) -> int:
    from atlas_build.authoring.sources import Outcome
    from atlas_build.report.text import line

    assert isinstance(outcome, Outcome)
    for message in outcome.messages:
        print(message)
    for diagnostic in outcome.diagnostics:
        print(line(diagnostic), file=sys.stderr)
    return EXIT_FINDINGS if outcome.diagnostics else EXIT_OK


def cmd_selftest(args: argparse.Namespace) -> int:
    from atlas_build import selftest

    options = _options(args)
    results = selftest.selftest(
        args.paths or [DEFAULT_PATH],
        options,
        all_numbers=getattr(args, "all_numbers", False),
        section=getattr(args, "section", None),
    )
    render = selftest.render_json if args.format == "json" else selftest.render_text
    sys.stdout.write(render(results))
    if any(result.baseline_errors for result in results):
        return EXIT_FINDINGS
    if args.fail_under is not None and any(
        100 * result.rate < args.fail_under for result in results
    ):
        return EXIT_FINDINGS
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    """Document diagnostic codes (`A201`, `content-hash-mismatch`) and claim kinds
    (`formula`); with no name, every code, then the claim kinds' names."""
    from atlas_build.catalog import codes as registry
    from atlas_build.claims.docs.kinddocs import DOCS

    codes = registry()
    status = EXIT_OK
    for name in args.codes or list(codes):
        entry = codes.get(name.upper()) or next(
            (c for c in codes.values() if c.name == name.lower()), None
        )
        kind = name.lower().replace("-", "_")
        if entry is not None:
            print(f"{entry.code} {entry.name} ({entry.severity.value}, {entry.stage})")
            print(f"  {entry.summary}\n  Example: {entry.example}\n  Fix: {entry.fix}")
        elif kind in DOCS:
            from atlas_build.claims.docs import docgen

            sys.stdout.write(docgen.kind_text(kind))
        else:
            print(
                f"atlas-build: {name!r} is neither a diagnostic code (`atlas-build explain` lists "
                f"them) nor a claim kind ({', '.join(sorted(DOCS))})",
                file=sys.stderr,
            )
            status = EXIT_USAGE
    if not args.codes:
        print(f"Claim kinds (atlas-build explain KIND): {', '.join(sorted(DOCS))}")
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="atlas-build", description="Build and validate technical lessons.")
    parser.add_argument("--version", action="version", version=f"atlas-build {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    check = commands.add_parser("check", help="validate lessons and report findings")
    _add_check_options(check)
    check.add_argument(
        "--format",
        "--output-format",
        dest="format",
        choices=FORMATS,
        default="text",
        help="output format (every format is a view of the same findings)",
    )
    check.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    check.add_argument("-v", "--verbose", action="store_true", help="show info findings too")
    check.set_defaults(run=cmd_check)

    build = commands.add_parser("build", help="check, then emit records and lesson data")
    _add_check_options(build)
    build.add_argument("--out", default="build", metavar="DIR", help="output directory")
    build.add_argument(
        "--lock-timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="how long to wait for a concurrent build to finish",
    )
    build.add_argument(
        "--allow-errors", action="store_true", help="publish even when lessons have errors"
    )
    from atlas_build.site import cli as site_cli

    site_cli.add_build_arguments(build)
    build.set_defaults(run=cmd_build)

    serve = commands.add_parser("serve", help="preview the site with live reload")
    site_cli.add_serve_arguments(serve)
    serve.set_defaults(run=cmd_serve)

    importer = commands.add_parser("import", help="turn a published record into lesson.md")
    importer.add_argument("record", metavar="RECORD.json")
    importer.add_argument("--to", required=True, metavar="DIR", help="lesson folder to write")
    importer.add_argument("--force", action="store_true", help="overwrite an existing lesson.md")
    importer.add_argument("--max-bytes", type=_byte_size, default=load.DEFAULT_MAX_BYTES)
    importer.set_defaults(run=cmd_import)

    new = commands.add_parser("new", help="scaffold content/<slug>/lesson.md")
    new.add_argument("slug")
    new.add_argument("--dir", default=DEFAULT_PATH, help="content directory (default content/)")
    new.add_argument("--title", help="lesson title (default from the slug)")
    new.add_argument("--topic", default="Transformer computation", help="topic to file it under")
    new.add_argument(
        "--force", action="store_true", help="overwrite an existing lesson.md and claims.yaml"
    )
    new.set_defaults(run=cmd_new)

    infer = commands.add_parser(
        "infer", help="print the checks inferred from each lesson as claims.yaml entries"
    )
    infer.add_argument("paths", nargs="*", metavar="PATH")
    infer.add_argument("--write", action="store_true", help="add them to each lesson's claims.yaml")
    infer.set_defaults(run=cmd_infer)

    fix = commands.add_parser(
        "fix",
        help="rewrite stale computed fields of record.json files, and claims files written "
        "for an earlier release",
    )
    fix.add_argument("paths", nargs="*", metavar="PATH")
    fix.add_argument("--dry-run", action="store_true", help="report changes, write nothing")
    fix.add_argument("--max-bytes", type=_byte_size, default=load.DEFAULT_MAX_BYTES)
    fix.set_defaults(run=cmd_fix)

    selftest = commands.add_parser("selftest", help="mutation-test lessons' checks")
    _add_check_options(selftest)
    selftest.add_argument("--format", choices=("text", "json"), default="text")
    selftest.add_argument(
        "--fail-under", type=float, metavar="PERCENT", help="exit 1 below this kill rate"
    )
    selftest.add_argument(
        "--all-numbers",
        action="store_true",
        help="a typo in every prose number of every lesson, with and without its claims file",
    )
    selftest.add_argument(
        "--section",
        metavar="TITLE",
        help='only edits in the top-level section of this title (e.g. "Engineering example")',
    )
    selftest.set_defaults(run=cmd_selftest)

    explain = commands.add_parser("explain", help="document diagnostic codes and claim kinds")
    explain.add_argument(
        "codes",
        nargs="*",
        metavar="NAME",
        help="diagnostic codes (A201) or their names, or claim kinds (formula); default: all codes",
    )
    explain.set_defaults(run=cmd_explain)
    return parser


def _authoring_error() -> type[Exception]:
    from atlas_build.authoring.sources import AuthoringError

    return AuthoringError


class Terminated(BaseException):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C, so temporary folders and children go too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, frame: object) -> None:
    raise Terminated(signum)


def main(argv: Sequence[str] | None = None) -> int:
    # Lesson text can hold lone surrogates (escaped in JSON); print them escaped, never crash.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            if hasattr(signal, name):
                number = getattr(signal, name)
                previous[number] = signal.signal(number, _terminate)
    try:
        return _main(argv)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (load.UsageError, _authoring_error()) as error:
        print(f"atlas-build: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("atlas-build: interrupted", file=sys.stderr)
        return 130
    except Terminated as stopped:
        print(f"atlas-build: stopped by signal {stopped.signum}", file=sys.stderr)
        return 128 + stopped.signum
    except BrokenPipeError:
        return EXIT_OK
    except Exception as error:  # the promise: one line, exit 2, never a traceback
        print(f"atlas-build: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return EXIT_USAGE


def console() -> None:
    """The `atlas-build` command: `main`, then exit without tearing the interpreter down.
    By then every file is written and closed and every child process waited for; freeing
    the objects of a thousand lessons one by one took 0.15-0.3 s of a build in which one
    lesson changed (measured at 1,000 lessons, bench/README.md)."""
    workers.collect_less()
    workers.isolate()
    code = main()
    with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    console()
