"""Rendered lesson pages as cache JSON: plain data in, validated data out, nothing executed.

A page is its markdown text, its figure files, the ids it defines, where each claim is
anchored, its headings and the site stage's own findings; the record is re-validated by
the pydantic model on the way back. The report is not stored: the caller attaches the
lesson's current report. Anything malformed reads as a miss (`None`).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from pydantic import ValidationError

from atlas_build.diagnostics import Diagnostic
from atlas_build.model import LessonRecord
from atlas_build.report import RecordReport
from atlas_build.site.pages.lesson import LessonPage
from atlas_build.site.pages.markup import Heading


def dump(page: LessonPage) -> bytes:
    data = {
        "slug": page.slug,
        "record": page.record.model_dump(mode="json"),
        "text": page.text,
        "files": {
            name: base64.b64encode(blob).decode("ascii") for name, blob in page.files.items()
        },
        "ids": sorted(page.ids),
        "claimAnchor": page.claim_anchor,
        "headings": [[h.id, h.level, h.text, h.slug, h.html, h.line] for h in page.headings],
        "added": [diagnostic.to_cache() for diagnostic in page.added],
    }
    return json.dumps(data, ensure_ascii=True).encode("ascii")


def load(payload: bytes, report: RecordReport) -> LessonPage | None:
    try:
        return _load(json.loads(payload), report)
    except (ValueError, TypeError, KeyError, ValidationError, RecursionError):
        return None


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("expected a list of strings")
    return value


def _load(data: Any, report: RecordReport) -> LessonPage:
    if not isinstance(data, dict):
        raise ValueError("not a page")
    slug, text, files, anchors = data["slug"], data["text"], data["files"], data["claimAnchor"]
    if not (isinstance(slug, str) and isinstance(text, str) and isinstance(files, dict)):
        raise ValueError("malformed page")
    if not isinstance(anchors, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in anchors.items()
    ):
        raise ValueError("malformed claim anchors")
    record = LessonRecord.model_validate(data["record"])
    page = LessonPage(slug, record, report, text=text, claim_anchor=dict(anchors))
    for name, blob in files.items():
        if not isinstance(name, str) or not isinstance(blob, str):
            raise ValueError("malformed page file")
        page.files[name] = base64.b64decode(blob, validate=True)
    page.ids = set(_strings(data["ids"]))
    for entry in data["headings"]:
        ident, level, heading, anchor, html, line = entry
        if not (
            isinstance(ident, str)
            and isinstance(level, int)
            and isinstance(heading, str)
            and (anchor is None or isinstance(anchor, str))
            and isinstance(html, str)
            and isinstance(line, int)
        ):
            raise ValueError("malformed heading")
        page.headings.append(Heading(ident, level, heading, anchor, html, line))
    page.added = [Diagnostic.from_cache(item) for item in data["added"]]
    return page
