"""Author-facing file operations: import a record, scaffold a lesson, fix stale records
and claims files written for an earlier release (authoring/upgrade.py).

Every write is atomic (atomic.write_*): an interrupted or failing command leaves
the original file as it was, and files whose bytes would not change are not
touched at all.

The files read and the folders written are in a repository a pull request can change:
records and claims files are read only when they are regular files (no link is followed:
a `claims.yaml -> /proc/self/environ` would be copied into the lesson), a lesson folder
that is (or lies under) a link is not written (A507), and no file the author has is
replaced without `--force` (A508). Those refusals are located errors, exit 1.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from atlas_build import paths
from atlas_build.atomic import write_bytes, write_text
from atlas_build.diagnostics import Diagnostic, Location, Severity, at
from atlas_build.load import (
    CLAIMS_FILE,
    LESSON_FILE,
    RECORD_FILE,
    UNREADABLE,
    frontmatter,
    jsonfile,
    records,
)
from atlas_build.model import COMPUTED_FIELDS
from atlas_build.outputcodes import AUTHOR_FILE, OUTPUT_LINK

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class AuthoringError(Exception):
    """A refusal with a message for the author; nothing was written."""


@dataclass
class Outcome:
    messages: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    changed: bool = False


class _Dumper(yaml.SafeDumper):
    """Block style for multi-line strings so evidence paragraphs stay readable."""


BREAKS = ("\x85", "\u2028", "\u2029")  # YAML reads these as line breaks in plain scalars


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if any(mark in value for mark in BREAKS):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    style = "|" if "\n" in value and not value.endswith((" ", "\n")) and "\r" not in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def front_matter(metadata: dict[str, Any]) -> str:
    text = yaml.dump(
        metadata, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, indent=2
    )
    return f"---\n{text}---\n"


def read_record(path: Path, max_bytes: int) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    name = str(path)
    if not os.path.lexists(path):
        raise AuthoringError(f"{path}: no such file")
    try:
        raw = paths.read_regular(path, max_bytes)
    except paths.UnsafePath as error:  # a link, a FIFO, a device: refused, never followed
        return None, [at(UNREADABLE, Location(name, 1, 1), str(error))]
    text, problems = jsonfile.decode(raw, name, max_bytes=max_bytes)
    if text is None:
        return None, problems
    data, problems = jsonfile.parse(text, name)
    if problems:
        return None, problems
    if not isinstance(data, dict) or not isinstance(data.get("content"), str):
        raise AuthoringError(f"{path}: not a lesson record (no string `content`)")
    return data, []


def import_record(record_path: Path, target: Path, *, force: bool, max_bytes: int) -> Outcome:
    """Write `target/lesson.md` whose build reproduces the record's computed fields."""
    data, problems = read_record(record_path, max_bytes)
    if data is None:
        return Outcome(diagnostics=problems)
    refused = _folder_refused(target)
    if refused:
        return Outcome(diagnostics=refused)
    if (target / RECORD_FILE).resolve() == record_path.resolve():
        raise AuthoringError(
            f"{record_path} is the lesson's own source; import it to a new folder, then delete it"
        )
    lesson_path = target / LESSON_FILE
    refused = [*_taken(target / RECORD_FILE, "a lesson folder holds one source")]
    refused += _taken(lesson_path, "pass --force to overwrite it") if not force else []
    if refused:
        return Outcome(diagnostics=refused)
    metadata = {key: value for key, value in data.items() if key not in COMPUTED_FIELDS}
    text = front_matter(metadata) + data["content"]
    rebuilt = frontmatter.read_lesson(text, str(lesson_path))
    if rebuilt.data is None:
        raise AuthoringError(f"cannot represent {record_path} as lesson.md front matter")
    differs = [
        key
        for key in ("content", "contentHash", "contentLength", "sections")
        if rebuilt.data.get(key) != data.get(key)
    ] + [key for key in metadata if rebuilt.data.get(key) != metadata[key]]
    outcome = Outcome(changed=write_text(lesson_path, text))
    outcome.messages.append(f"wrote {lesson_path}")
    if differs:
        outcome.messages.append(
            "note: the record's stored " + ", ".join(differs) + " differ from what its content "
            "gives; the lesson builds with recomputed values"
        )
    outcome.messages += _claims_beside(record_path, target, max_bytes)
    return outcome


def _claims_beside(record_path: Path, target: Path, max_bytes: int) -> list[str]:
    """Carry the record's claims.yaml over, or say why not. The body of lesson.md is the
    record's content unchanged, so its quotes and equation numbers still apply; an existing
    claims.yaml in the target is the author's and is never replaced."""
    source, destination = record_path.parent / CLAIMS_FILE, target / CLAIMS_FILE
    if not os.path.lexists(source) or source.resolve() == destination.resolve():
        return []
    if record_path.name != RECORD_FILE:
        return [
            f"note: {source} was not copied: {record_path.name} is not a lesson folder's "
            f"{RECORD_FILE}, so it may hold another lesson's claims; copy it to {destination} "
            "yourself if they are this lesson's"
        ]
    try:
        raw = paths.read_regular(source, max_bytes)
    except paths.UnsafePath as error:
        return [f"note: {source} was not copied: {error}"]
    if len(raw) > max_bytes:
        return [f"note: {source} was not copied: it is larger than {max_bytes} bytes"]
    if os.path.lexists(destination):  # the author's, whatever it is (a link is not followed)
        with contextlib.suppress(paths.UnsafePath):
            if paths.read_regular(destination, max_bytes) == raw:
                return [f"{destination} is already the same as {source}"]
        return [
            f"note: {destination} exists and differs from {source}; kept it. The lesson's text "
            f"is the record's, so {source}'s claims apply to it too: compare the two files "
            "and keep one"
        ]
    write_bytes(destination, raw)
    return [
        f"copied {source} to {destination}: lesson.md's body is the record's content, so its "
        f"claims apply unchanged; run `atlas-build check {target}`"
    ]


SKELETON = """{topic} · Atlas v{version}

# {title}

{description}

Learning objective State what the reader can do after this lesson.

## The mechanism

Describe the mechanism in a few short paragraphs.

1. First step.
2. Second step.

## Science and assumptions

### Main relation

$$
d=v t
$$

Explain the relation in words: at a constant speed, distance grows in proportion to time.

Symbols and units

d

Distance travelled

m

v

Constant speed

m/s

t

Time elapsed

s

With v = 3 m/s and t = 2 s the distance is d = 6 m.

Assumptions State what the relation assumes: here, a speed that does not change.

## Check your understanding

### What does doubling t do to d?

1. Doubles it
2. Halves it

Answer and reasoning

Doubles it

d is proportional to t.

## Sources

- [Replace with a primary source](https://example.org/)
"""


CLAIMS_SKELETON = """\
# What the build proves about lesson.md (docs/authoring.md; `atlas-build explain formula`).
# The claim below recomputes d from the displayed equation d=v t and the inputs, and checks
# that the sentence quoted states those numbers; every equation and every number of the
# lesson must end up verified, an input, or listed as unchecked with a reason.
claims:
  - id: main-relation
    kind: formula
    quote: "With v = 3 m/s and t = 2 s the distance is d = 6 m."
    bind: [v, t, d]
    params:
      values: {v: 3, t: 2}
      use: [{equation: 0, relation: 0}]

  # The quiz answer "Doubles it" is a ratio: d at twice the time, over d at t = 2 s.
  - id: doubling-t
    kind: formula
    extends: main-relation
    params:
      values: {t: 4}
      expressions: {ratio: "\\\\frac{d}{6}"}

  - id: quiz-doubling
    kind: quiz
    params: {question: "What does doubling t do to d", fact: doubling-t.ratio, ratio: true}
"""


def new_lesson(
    slug: str, content_dir: Path, *, title: str | None, topic: str, force: bool = False
) -> Outcome:
    """Scaffold `content_dir/slug/lesson.md` and its claims.yaml; `force` replaces the
    author's lesson.md and claims.yaml (never a record.json: a folder holds one source)."""
    if not SLUG.match(slug):
        raise AuthoringError(f"{slug!r} is not a slug: use lowercase letters, digits and hyphens")
    if len(f"atlas-lesson-{slug}") > 128:
        raise AuthoringError(f"{slug!r} is too long: lesson ids are at most 128 characters")
    folder = content_dir / slug
    refused = _folder_refused(folder) or _taken(folder / RECORD_FILE, "the folder holds a lesson")
    if not force:
        for name in (LESSON_FILE, CLAIMS_FILE):
            refused += _taken(folder / name, "pass --force to overwrite it")
    if refused:
        return Outcome(diagnostics=refused)
    title = title or slug.replace("-", " ").capitalize()
    description = f"One sentence on what {title.lower()} is."
    metadata: dict[str, Any] = {
        "schemaVersion": 1,
        "id": f"atlas-lesson-{slug}",
        "title": title,
        "category": "learning",
        "format": "Atlas lesson",
        "description": description,
        "canonicalUrl": f"https://atlas.example.org/learn/{slug}/",
        "publishedDate": None,
        "revisionDate": datetime.date.today().isoformat(),
        "author": None,
        "topic": topic,
        "series": None,
        "license": None,
        "rightsUrl": None,
        "version": "0.1.0",
        "status": "Draft",
        "evidenceScope": "State what the lesson's evidence supports and what it does not.",
        "contentCoverage": "published-lesson",
        "artifactUrl": None,
        "interactiveUrl": None,
        "related": [],
        "supersedes": [],
        "supersededBy": [],
        "jsonUrl": None,
        "markdownUrl": None,
        "citations": [{"title": "Replace with a primary source", "url": "https://example.org/"}],
        "contentFormat": "text/markdown",
    }
    body = SKELETON.format(topic=topic, version="0.1.0", title=title, description=description)
    path = folder / LESSON_FILE
    write_text(path, front_matter(metadata) + body)
    claims = folder / CLAIMS_FILE
    write_text(claims, CLAIMS_SKELETON)
    return Outcome([f"created {path}", f"created {claims}"], changed=True)


def _folder_refused(folder: Path) -> list[Diagnostic]:
    """A507 when the lesson folder is, or lies under, a symbolic link, or is not a
    folder: a write there would land wherever the link points."""
    link = paths.first_link(folder)
    if link is not None:
        message = f"{link} is a symbolic link (to {os.readlink(link)}); nothing is written there"
        return [at(OUTPUT_LINK, Location(str(link), 1, 1), message)]
    if os.path.lexists(folder) and not folder.is_dir():
        return [at(OUTPUT_LINK, Location(str(folder), 1, 1), f"{folder} is not a folder")]
    return []


def _taken(path: Path, advice: str) -> list[Diagnostic]:
    """A508 when the author has a file (or a link) at `path`."""
    if not os.path.lexists(path):
        return []
    return [at(AUTHOR_FILE, Location(str(path), 1, 1), f"{path} exists; {advice}")]


def fix_record(path: Path, *, max_bytes: int, dry_run: bool = False) -> Outcome:
    """Recompute computed fields of a record.json; write only when something changed."""
    if path.name == LESSON_FILE:
        return Outcome([f"{path}: computed fields are never stored in lesson.md; nothing to fix"])
    data, problems = read_record(path, max_bytes)
    if data is None:
        return Outcome(diagnostics=problems)
    updated, changes = records.refresh(data)
    outcome = Outcome()
    for key, old, new in changes:
        if key == "sections":
            outcome.messages.append(f"{path}: sections: {_section_change(old, new)}")
        else:
            outcome.messages.append(f"{path}: {key}: {_short(old)} -> {_short(new)}")
    if changes and not dry_run:
        outcome.changed = write_text(path, records.dumps(updated))
    if not changes:
        outcome.messages.append(f"{path}: up to date")
    return outcome


def fix_lesson(path: Path, *, max_bytes: int, dry_run: bool = False) -> Outcome:
    """`atlas-build fix` on one lesson: the record's computed fields (`fix_record`), then
    the claims file beside it, rewritten from the forms earlier releases read to the ones
    this release reads (authoring/upgrade.py), each change said."""
    from atlas_build.authoring import upgrade  # it imports this module

    outcome = fix_record(path, max_bytes=max_bytes, dry_run=dry_run)
    if outcome.diagnostics:  # an unreadable record: its claims' units cannot be judged
        return outcome
    claims = upgrade.upgrade_claims(path, max_bytes=max_bytes, dry_run=dry_run)
    outcome.messages += claims.messages
    outcome.diagnostics += claims.diagnostics
    outcome.changed = outcome.changed or claims.changed
    return outcome


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _section_change(old: Any, new: list[dict[str, Any]]) -> str:
    if not isinstance(old, list):
        return f"recomputed ({len(new)} sections)"
    notes = []
    for index, fresh in enumerate(new):
        stale = old[index] if index < len(old) and isinstance(old[index], dict) else {}
        for key in ("id", "title", "start", "end"):
            if stale.get(key) != fresh[key]:
                notes.append(f"{fresh['id']}.{key} {stale.get(key)!r} -> {fresh[key]!r}")
    if len(old) != len(new):
        notes.append(f"count {len(old)} -> {len(new)}")
    shown = "; ".join(notes[:6]) + (f"; ... ({len(notes) - 6} more)" if len(notes) > 6 else "")
    return shown or "reordered"


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(diagnostic.severity is Severity.ERROR for diagnostic in diagnostics)
