"""Build the site: docs tree -> MkDocs (strict) -> link check -> atomic swap of `site/`.

MkDocs writes into a fresh temporary directory beside `site/`; only when it and
the link check succeed is that directory swapped in (rename the old site away,
rename the new one in, delete the old). A failure or an interrupt at any point
before the swap leaves the previous site exactly as it was.

MkDocs runs in a child process (`python -m atlas_build.site.mkdocs.child`, which is
`mkdocs build --strict` with pages whose inputs did not change taken from the cache)
with a small config that `INHERIT`s the repository's `mkdocs.yml` and points it at the
generated docs tree; every WARNING or ERROR line it prints fails the build. When
nothing the site is made from changed since the site in place was built (`state`),
MkDocs does not run at all and `site/` is left as it is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from atlas_build import outputcodes as codes
from atlas_build import pipeline
from atlas_build.cache import Cache
from atlas_build.diagnostics import Diagnostic, Location, Severity, at
from atlas_build.report import Report
from atlas_build.report.text import line
from atlas_build.site.mkdocs import docsfolder, linkcheck, mkconfig, protocol, state, tree
from atlas_build.site.mkdocs.publish import remove_stale, seed_spare, spare_path, staging, swap
from atlas_build.site.mkdocs.stats import Stats
from atlas_build.site.pages import docs, mutation
from atlas_build.text import plural

DEFAULT_CONFIG = "mkdocs.yml"


class SiteError(Exception):
    """The site could not be built; the message lists why (one finding per line)."""


def _setting(config: Path, keys: tuple[str, ...], depth: int = 0) -> tuple[object, Path] | None:
    """The value at `keys` in `config` or the files it `INHERIT`s, with the file that
    sets it: relative paths in it are relative to that file, while the config MkDocs
    reads inherits it from a scratch folder."""
    import yaml

    try:
        raw = yaml.load(config.read_bytes(), Loader=mkconfig.SafeConfigLoader)
    except (OSError, yaml.YAMLError, ImportError, AttributeError, TypeError):
        return None  # MkDocs reports the file itself
    value: object = raw
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    if value is not None:
        return value, config.resolve().parent
    parent = raw.get("INHERIT") if isinstance(raw, dict) else None
    if isinstance(parent, str) and depth < 8:
        return _setting(config.resolve().parent / parent, keys, depth + 1)
    return None


def _custom_dir(config: Path) -> Path | None:
    """The theme's `custom_dir`, made absolute against the file that sets it."""
    found = _setting(config, ("theme", "custom_dir"))
    if found is None or not isinstance(found[0], str):
        return None
    return (found[1] / found[0]).resolve()


def _hooks(config: Path) -> list[str] | None:
    """`hooks:` (run only with `--trust-config`), made absolute like `custom_dir`."""
    found = _setting(config, ("hooks",))
    if found is None or not isinstance(found[0], list):
        return None
    return [str((found[1] / str(item)).resolve()) for item in found[0]]


THEME_DIR = mkconfig.THEME_DIR


def config_problems(config: Path, trust: bool = False) -> list[Diagnostic]:
    """What in the repository's MkDocs configuration is refused (`mkconfig.check`)."""
    return [
        at(codes.CONFIG, Location(str(p.path), p.line, p.column), p.message)
        for p in mkconfig.check(config, trust=trust)
    ]


def mkdocs_config(config: Path, docs_dir: Path, target: Path) -> str:
    """A config that inherits `config` and builds `docs_dir` into `target`, with the
    theme's `custom_dir` made absolute (the repository's own, or atlas-build's partials
    when it sets none, so any `mkdocs.yml` gets an accessible search dialog)."""
    custom = _custom_dir(config) or THEME_DIR
    hooks = _hooks(config)
    return (
        f"INHERIT: {json.dumps(str(config.resolve()))}\n"
        f"docs_dir: {json.dumps(str(docs_dir.resolve()))}\n"
        f"site_dir: {json.dumps(str(target.resolve()))}\n"
        f"theme:\n  custom_dir: {json.dumps(str(custom))}\n"
        + (f"hooks: {json.dumps(hooks)}\n" if hooks else "")
    )


class MkDocs:
    """MkDocs in a child process (`python -m atlas_build.site.mkdocs.child`), started
    before the site is asked of it: it loads the configuration, compiles the theme's
    templates and reads the page entries of the last build while the parent is still
    checking lessons (a second of the child's start-up, measured at 1,000 lessons, off
    the time an edit takes), then builds when `run` hands it the staging folder.

    They talk in `protocol` messages; `close` ends a child that was never asked to build
    (nothing is left running), and removes the scratch folder."""

    def __init__(
        self,
        config: Path,
        docs_dir: Path,
        site_dir: Path,
        cache_dir: str | None,
        jobs: int = 1,
        trust: bool = False,
    ):
        if not config.is_file():
            raise SiteError(f"{config}: no MkDocs configuration (expected at the repository root)")
        refused = config_problems(config, trust)
        if refused:
            raise SiteError("; ".join(line(d) for d in refused))
        self.key = (config.resolve(), docs_dir.resolve(), cache_dir)
        self.scratch = Path(tempfile.mkdtemp(prefix="atlas-mkdocs-"))
        child = self.scratch / "mkdocs.yml"
        child.write_text(mkdocs_config(config, docs_dir, site_dir), encoding="utf-8")
        command = [sys.executable, "-P", "-m", "atlas_build.site.mkdocs.child"]
        command += ["--parent", str(os.getpid())]
        command += ["--config-file", str(child)]
        command += ["--cache-dir", cache_dir] if cache_dir else []
        command += ["--jobs", str(jobs)] if jobs > 1 else []
        command += ["--trust-config"] if trust else []
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONUNBUFFERED": "1"}
        self.process: subprocess.Popen[str] | None = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env,
        )  # fmt: skip

    def serves(self, config: Path, docs_dir: Path, cache_dir: str | None) -> bool:
        return self.process is not None and self.key == (
            config.resolve(),
            docs_dir.resolve(),
            cache_dir,
        )

    def run(
        self,
        target: Path,
        *,
        stats: Stats | None = None,
        files: tree.Files | None = None,
        sources: dict[str, str] | None = None,
    ) -> list[str]:
        """Build into `target`; MkDocs' warnings and errors (empty on a clean build).
        `files`: what `target` holds (`tree`); `sources`: sha256 of the docs files."""
        assert self.process is not None, "a child builds once"
        process, self.process = self.process, None
        request = protocol.Request(str(target.resolve()), files or {}, sources or {})
        try:
            out, err = process.communicate(protocol.dump(request))
        except BaseException:
            process.kill()
            process.wait()
            raise
        problems, done = _answers(out)
        if done is not None and stats is not None:
            stats.__dict__.update(done.stats.__dict__)
        if process.returncode != 0 and not problems:
            problems = [text for text in err.splitlines() if text.strip()][-5:]
            problems = problems or ["mkdocs build failed"]
        elif done is None and not problems:
            problems = [_SILENT]
        return problems

    def close(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            try:
                process.communicate("", timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)


_SILENT = protocol.Problem("ERROR", "the child ended without saying what it built").text


def _answers(out: str) -> tuple[list[str], protocol.Done | None]:
    """The child's problems as `mkdocs build` prints them, and its `Done`; a line that is
    not one of its messages is a problem too, named as such."""
    problems: list[str] = []
    done = None
    for text in out.splitlines():
        if not text.strip():
            continue
        try:
            message = protocol.parse(text)
        except protocol.ProtocolError as error:
            shown = text if len(text) <= 120 else text[:117] + "..."
            message = protocol.Problem(
                "ERROR", f"malformed message from the child ({error}): {shown}"
            )
        if isinstance(message, protocol.Problem):
            problems.append(message.text)
        elif isinstance(message, protocol.Done):
            done = message
        else:
            problems.append(protocol.Problem("ERROR", "the child sent a request").text)
    return problems, done


def run_mkdocs(
    config: Path,
    docs_dir: Path,
    target: Path,
    *,
    cache_dir: str | None = None,
    stats: Stats | None = None,
    files: tree.Files | None = None,
    sources: dict[str, str] | None = None,
    started: MkDocs | None = None,
    jobs: int = 1,
    trust: bool = False,
) -> list[str]:
    """Build with MkDocs; returns its warnings and errors (empty on a clean build).

    With a `cache_dir`, pages whose inputs did not change are reused (`incremental`);
    `files` says which files `target` already holds, `sources` the sha256 of the docs
    files, and `stats` receives which pages were rendered and the files of the new site.
    `started`: a child started earlier for the same configuration, docs and cache (else
    one is started); `jobs`: processes that lay out pages missing from the cache
    (`prerender`)."""
    child = started if started is not None and started.serves(config, docs_dir, cache_dir) else None
    child = child or MkDocs(config, docs_dir, target, cache_dir, jobs, trust)
    try:
        return child.run(target, stats=stats, files=files, sources=sources)
    finally:
        child.close()


def _link_location(
    problem: linkcheck.Broken,
    tree: docs.DocsTree,
    checked: list[pipeline.Checked],
    site_path: Path,
    options: pipeline.Options | None,
) -> Location:
    """Where the author wrote a broken link: the lesson's line:col when the page is a
    lesson's and the link's text is found in its content, else the built page."""
    fallback = Location(f"{site_path}/{problem.page}")
    parts = problem.page.split("/")
    page = tree.page(parts[1]) if len(parts) == 3 and parts[0] == "lessons" else None
    item = next((c for c in checked if page is not None and c.report is page.report), None)
    if page is None or item is None:
        return fallback
    pipeline.materialize(item, options or pipeline.Options())
    if item.source is None:
        return fallback
    content = page.record.content
    for needle in (f"]({problem.link}", f'="{problem.link}"', f"={problem.link}", problem.link):
        found = content.find(needle)
        if found != -1:
            offset = found + needle.index(problem.link)
            return item.source.locator.content(offset)
    return Location(item.report.path, 1, 1)


def build_site(
    report: Report,
    checked: list[pipeline.Checked],
    *,
    docs_dir: str | os.PathLike[str],
    site_dir: str | os.PathLike[str],
    allow_errors: bool = False,
    config: str | os.PathLike[str] = DEFAULT_CONFIG,
    options: pipeline.Options | None = None,
    stream: TextIO | None = None,
    selftest: str | os.PathLike[str] | None = None,
    child: MkDocs | None = None,
    trust_config: bool = False,
) -> int:
    """Generate the docs tree and build the site; 0 when `site_dir` was replaced, else 1.

    Lessons with errors stop the build unless `allow_errors`; then the pages show
    them, and links the lessons break are reported as warnings. The site stage's own
    findings (LaTeX errors, ...) are added to `report` and printed as
    `path:line:col: severity code message`. `selftest`: a `selftest --format json`
    file for the Selftest page (read as untrusted input, see `pages.mutation`); `child`: a
    MkDocs child started for this build (`run_mkdocs`; the caller closes it);
    `trust_config`: the configuration may run code (`mkconfig`: hooks, plugins).
    """
    out = stream or sys.stderr
    started = time.perf_counter()
    if report.count(Severity.ERROR) and not allow_errors:
        print("atlas-build: site not built: lessons have errors (or --allow-errors)", file=out)
        return 1
    refused = config_problems(Path(config), trust_config) if Path(config).is_file() else []
    for diagnostic in refused:
        print(line(diagnostic), file=out)
    if refused:
        print("atlas-build: site not built: the MkDocs configuration is refused", file=out)
        return 1
    results = mutation.read(selftest)
    for warning in results.warnings if results is not None else []:
        print(line(warning), file=out)
    docs_path, site_path = Path(docs_dir), Path(site_dir)
    tree = docs.generate_docs(
        report, checked, options=options, selftest=results, docs_dir=docs_path
    )
    for diagnostic in tree.diagnostics:
        print(line(diagnostic), file=out)
    if any(d.severity is Severity.ERROR for d in tree.diagnostics) and not allow_errors:
        print("atlas-build: site not built: fix the errors above (or --allow-errors)", file=out)
        return 1
    store = Cache(options.cache_dir if options else None)
    lessons = plural(len(tree.pages), "lesson page")
    stats = Stats()
    try:
        docsfolder.write_tree(tree, docs_path)
        tree.settle()
        recorded = state.load(store, site_path)
        sources = tree.sources()
        built_from = state.inputs(sources, Path(config)) if store.enabled else None
        if built_from is not None and state.unchanged(recorded, site_path, built_from):
            took = time.perf_counter() - started
            print(
                f"site up to date: {lessons} in {site_path}/ ({took:.2f} s, MkDocs not run)",
                file=out,
            )
            return 0
        remove_stale(site_path)
        spare = spare_path(site_path) if store.enabled else None
        with staging(site_path, spare) as (staged, recycled):
            cache_dir = str(store.root) if store.root is not None else None
            problems = run_mkdocs(
                Path(config), docs_path, staged, cache_dir=cache_dir, stats=stats,
                files=recorded.spare if recycled else {}, sources=sources, started=child,
                jobs=options.jobs if options else 1, trust=trust_config,
            )  # fmt: skip
            for problem in problems:
                print(f"{config}: error {codes.MKDOCS.code} {problem}", file=out)
            built = {name: str(item[3]) for name, item in stats.files.items()} or None
            links = linkcheck.Ledger(store, site_path)
            broken = (
                []
                if problems
                else linkcheck.broken_links(
                    staged,
                    cache=store,
                    files=built,
                    ledger=links,
                    jobs=options.jobs if options else 1,
                )
            )
            links.save()
            severity = Severity.WARNING if allow_errors else Severity.ERROR
            for link in broken:
                where = _link_location(link, tree, checked, site_path, options)
                message = f"broken link {link.link} ({link.reason})"
                print(line(at(codes.LINK, where, message, severity=severity)), file=out)
            if problems or broken and not allow_errors:
                print(f"atlas-build: site not built; {site_path}/ left as it was", file=out)
                return 1
            swap(staged, site_path, keep=spare)
        spares = recorded.site  # the site replaced is the spare now
        if spare is not None and not os.path.lexists(spare):  # none was replaced
            spares = seed_spare(site_path, spare, stats.files)
        if store.enabled:
            made = None if broken else built_from
            state.save(store, site_path, state.Recorded(made, stats.files, spares))
    except (SiteError, docsfolder.DocsDirError, OSError) as error:
        print(f"atlas-build: site not built: {error}; {site_path}/ left as it was", file=out)
        return 1
    took = time.perf_counter() - started
    print(f"built {lessons} into {site_path}/ in {took:.2f} s ({rendered(stats)})", file=out)
    return 0


def rendered(stats: Stats) -> str:
    """What MkDocs did, for the build log: which pages it laid out again."""
    total = len(stats.rendered) + stats.reused
    if not total:  # MkDocs of a version the driver does not wrap: a plain build
        return "MkDocs rendered every page"
    if stats.prerendered:
        laid_out = stats.prerendered + len(stats.rendered)
        shown = "all" if laid_out == total else f"{laid_out} of"
        return (
            f"MkDocs rendered {shown} {plural(total, 'page')}, {stats.prerendered} of them "
            f"in {stats.jobs} processes"
        )
    if not stats.reused:
        return f"MkDocs rendered all {plural(total, 'page')}"
    if not stats.rendered:
        return f"MkDocs rendered no page, reused all {total}"
    names = ", ".join(stats.rendered[:5]) + (", ..." if len(stats.rendered) > 5 else "")
    return f"MkDocs rendered {len(stats.rendered)} of {plural(total, 'page')}: {names}"
