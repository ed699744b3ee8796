"""Load stage: find lesson files under the given paths and read each one strictly.

A PATH is a record file, a lesson folder (`record.json` or `lesson.md`), or a
content directory of `<slug>/` lesson folders. Symbolic links that leave the
directory being checked are refused, so a hostile tree cannot make the build
read arbitrary files.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from atlas_build import safeyaml
from atlas_build.diagnostics import Diagnostic, Location, Severity, at, define
from atlas_build.load import jsonfile
from atlas_build.paths import real
from atlas_build.source import Source

STAGE = "load"
DEFAULT_MAX_BYTES = 1024 * 1024  # lessons are tens of kilobytes; see docs/reliability.md
RECORD_FILE = "record.json"
LESSON_FILE = "lesson.md"
CLAIMS_FILE = "claims.yaml"

AMBIGUOUS = define(
    "A120",
    "ambiguous-lesson-folder",
    Severity.ERROR,
    "A lesson folder holds both record.json and lesson.md; only one may define the lesson.",
    example="content/attention/record.json and content/attention/lesson.md",
    fix="Delete one of them (`atlas-build import` turns a record into lesson.md).",
    stage=STAGE,
)
EMPTY = define(
    "A121",
    "empty-lesson-folder",
    Severity.WARNING,
    "A folder in the content directory holds no record.json or lesson.md.",
    example="content/drafts/ with notes only",
    fix="Add a lesson file or move the folder out.",
    stage=STAGE,
)
SYMLINK = define(
    "A122",
    "symlink-outside",
    Severity.ERROR,
    "A symbolic link points outside the content directory; it is refused, not followed.",
    example="content/x/record.json -> /etc/passwd",
    fix="Copy the file into the content directory instead of linking to it.",
    stage=STAGE,
)
UNREADABLE = define(
    "A123",
    "unreadable-file",
    Severity.ERROR,
    "The file could not be read (permissions, a directory where a file was expected...).",
    example="content/x/record.json is a directory",
    fix="Make the path a readable file.",
    stage=STAGE,
)


TOO_SLOW = define(
    "A108",
    "lesson-too-slow",
    Severity.ERROR,
    "Reading, parsing and checking the lesson (everything but its written claims, the checks "
    "inferred from its prose included) took longer than "
    "the lesson's read time (default 30 s, `--read-time`): it is too large or too dense, for "
    "example a megabyte of nested lists or table rows.",
    example="a lesson.md of 100,000 table rows",
    fix="Split the lesson, or raise --read-time deliberately.",
    stage=STAGE,
)


class UsageError(Exception):
    """A PATH that does not exist or is not a lesson: the CLI exits 2."""


@dataclass(frozen=True)
class Found:
    """A lesson file found by discovery, or a finding about a folder that holds none."""

    path: Path
    root: Path
    diagnostics: tuple[Diagnostic, ...] = ()


def display(path: Path) -> str:
    """Paths as users typed them: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _inside(path: Path, root: Path) -> bool:
    """Whether a path resolves inside root; a link loop or broken chain counts as outside."""
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    return resolved == root or root in resolved.parents


def _lesson_in(folder: Path, root: Path) -> Found | None:
    record, lesson = folder / RECORD_FILE, folder / LESSON_FILE
    present = [candidate for candidate in (record, lesson) if candidate.exists()]
    if not present:
        return None
    if len(present) == 2:
        where = Location(display(lesson), 1, 1)
        found = at(
            AMBIGUOUS, where, f"{display(folder)} holds both {RECORD_FILE} and {LESSON_FILE}"
        )
        return Found(lesson, root, (found,))
    return Found(present[0], root)


def discover(paths: list[str]) -> list[Found]:
    """Lesson files under PATHs in a stable order; raises UsageError for a bad PATH."""
    found: list[Found] = []
    for text in paths:
        path = Path(text)
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"{text}: no such file or directory")
        if path.is_file() or path.is_symlink() and not path.is_dir():
            found.append(Found(path, path.parent.resolve()))
            continue
        root = path.resolve()
        direct = _lesson_in(path, root.parent)
        if direct is not None:
            found.append(direct)
            continue
        for child in sorted(path.iterdir()):
            if child.name.startswith((".", "_")):
                continue
            if child.is_symlink() and not _inside(child, root):
                where = Location(display(child), 1, 1)
                message = f"{display(child)} links outside {display(path)}; refused"
                found.append(Found(child, root, (at(SYMLINK, where, message),)))
                continue
            if not child.is_dir():
                continue
            lesson = _lesson_in(child, root)
            if lesson is not None:
                found.append(lesson)
            else:
                where = Location(display(child), 1, 1)
                message = f"{display(child)} holds no {RECORD_FILE} or {LESSON_FILE}"
                found.append(Found(child, root, (at(EMPTY, where, message),)))
    unique: dict[Path, Found] = {}
    seen: dict[Path, Path] = {}
    for item in found:
        unique.setdefault(real(item.path, seen) if item.path.exists() else item.path, item)
    return list(unique.values())


def neighbours(found: list[Found]) -> list[Path]:
    """Lesson files in the content directories of the checked lessons that are not checked
    themselves: `check content/layer-norm` has `content/` as its content directory, whose
    other lesson folders the lesson's `related` ids may name. Only their ids are read (for
    cross-references); folders and files that link outside the content directory are not
    followed, as in `discover`.

    A plain folder that holds a checked lesson is passed over by name; only the others
    are resolved (with every checked lesson, once), so checking a whole content directory
    of a thousand lessons costs no `resolve` per lesson."""
    roots: dict[Path, set[str]] = {}
    parents: dict[Path, Path] = {}
    for item in found:
        if item.path.name in (RECORD_FILE, LESSON_FILE) and not item.diagnostics:
            folder = item.path.parent
            if folder.parent not in parents:
                parents[folder.parent] = folder.parent.resolve()
            names = roots.setdefault(parents[folder.parent], set())
            if not folder.is_symlink():
                names.add(folder.name)
    checked: set[Path] | None = None
    others: list[Path] = []
    for root, names in roots.items():
        try:
            children = sorted(root.iterdir())
        except OSError:
            continue
        for child in children:
            if child.name.startswith((".", "_")):
                continue
            if child.name in names and not child.is_symlink():
                continue  # a checked lesson's own folder
            if not _inside(child, root) or not child.is_dir():
                continue
            lesson = _lesson_in(child, root)
            if lesson is None or lesson.diagnostics or not _inside(lesson.path, root):
                continue
            if checked is None:
                checked = {item.path.resolve() for item in found if item.path.exists()}
            if lesson.path.resolve() not in checked:
                others.append(lesson.path)
    return others


def unread(found: Found) -> Source:
    """The Source of a lesson that has not been read (yet): path, slug and claims path."""
    path = found.path
    name = display(path)
    failed = Source(name, "record", jsonfile.JsonLocator(name, ""), None, [])
    failed.slug = path.parent.name if path.name in (RECORD_FILE, LESSON_FILE) else path.stem
    return failed


def read(found: Found, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Source:
    """Read one discovered file into a Source: data is None when it cannot be trusted."""
    path = found.path
    name = display(path)
    slug = path.parent.name if path.name in (RECORD_FILE, LESSON_FILE) else path.stem
    claims = path.parent / CLAIMS_FILE
    claims_path = display(claims) if claims.is_file() else None
    failed = Source(name, "record", jsonfile.JsonLocator(name, ""), None, list(found.diagnostics))
    failed.slug = slug
    if any(d.severity is Severity.ERROR for d in found.diagnostics) or not path.is_file():
        if not found.diagnostics:
            failed.diagnostics.append(at(UNREADABLE, Location(name, 1, 1), f"{name}: not a file"))
        return failed
    for candidate in (path, claims):
        if candidate.is_symlink() and not _inside(candidate, found.root):
            message = f"{display(candidate)} links outside the content directory; refused"
            failed.diagnostics.append(at(SYMLINK, Location(display(candidate), 1, 1), message))
            return failed
    try:
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as error:
        failed.diagnostics.append(at(UNREADABLE, Location(name, 1, 1), f"{name}: {error.strerror}"))
        return failed
    text, problems = jsonfile.decode(raw, name, max_bytes=max_bytes)
    if text is None:
        failed.diagnostics.extend(problems)
        return failed
    if path.suffix == ".md":
        from atlas_build.load import frontmatter

        source = frontmatter.read_lesson(text, name)
    else:
        data, problems = jsonfile.parse(text, name)
        if not problems and not isinstance(data, dict):
            from atlas_build.load.schema import WRONG_TYPE  # jsonschema: only when needed

            kind = "null" if data is None else type(data).__name__
            where = Location(name, 1, 1, "")
            problems = [at(WRONG_TYPE, where, f"a record must be a JSON object, not {kind}")]
            data = None
        locator = jsonfile.JsonLocator(name, text)
        source = Source(name, "record", locator, data if not problems else None, problems)
    source.slug = slug
    source.claims_path = claims_path
    source.diagnostics[:0] = found.diagnostics
    return source


_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")


def identity(path: Path, raw: bytes) -> str | None:
    """A lesson's id, read cheaply for cross-references (related ids, lesson links).

    Only the id is needed here; anything unreadable simply has no id, and the full
    strict load reports why. Front matter goes through the same safe reader and size
    cap as the strict load (PyYAML's own loader would build a `1:2:3...` integer of
    any length, in quadratic time); plain `json` is linear and bounded on a record
    (deep nesting is a RecursionError, a huge integer a ValueError).
    """
    try:
        text = raw.decode("utf-8")
        if path.suffix == ".md":
            from atlas_build.load.frontmatter import MAX_FRONT_MATTER, split

            parts = split(text)
            data = safeyaml.load(parts[0], max_bytes=MAX_FRONT_MATTER).data if parts else None
        else:
            data = json.loads(text)
    except MemoryError:
        raise
    except Exception:  # best effort: the strict load of this lesson reports what is wrong
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and is_identifier(value) else None


def is_identifier(value: str) -> bool:
    """A lesson id as `identity` accepts it (lowercase words joined by hyphens)."""
    return _ID.match(value) is not None
