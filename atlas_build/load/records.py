"""Record emission: the computed fields of a lesson record, in the seed's key order.

Authors write metadata and a body; atlas-build computes `content`, `contentHash`,
`contentLength`, `sections` and `recordHash` with the recipes the spine defines
(canonical form, code points, flat heading sections, JCS + sha256), so emitted
records are byte-for-byte reproducible.
"""

from __future__ import annotations

import json
from typing import Any

from atlas_build.canonical import canonicalize, sections
from atlas_build.model import FIELDS
from atlas_build.recordhash import content_hash, record_hash


def ordered(record: dict[str, Any]) -> dict[str, Any]:
    """Known fields in the seed's order, unknown ones after them, `content` wherever known."""
    known = {key: record[key] for key in FIELDS if key in record}
    unknown = {key: value for key, value in record.items() if key not in known}
    return known | unknown


def compose(metadata: dict[str, Any], content: str) -> dict[str, Any]:
    """The full record for front-matter metadata plus a markdown body."""
    canonical = canonicalize(content)
    record = dict(metadata)
    record.update(
        content=content,
        contentHash=content_hash(canonical),
        contentLength=len(canonical),
        sections=[section.to_json() for section in sections(canonical)],
    )
    return with_record_hash(ordered(record))


def with_record_hash(record: dict[str, Any]) -> dict[str, Any]:
    record = dict(record)
    record["recordHash"] = ""
    try:
        record["recordHash"] = record_hash(record)
    except ValueError:
        pass  # an unencodable value; the schema stage reports it
    return ordered(record)


def refresh(record: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, Any, Any]]]:
    """Recompute the computed fields of an existing record; list (field, old, new) changes."""
    content = record.get("content")
    if not isinstance(content, str):
        raise ValueError("record has no string `content` to compute fields from")
    metadata = {key: value for key, value in record.items()}
    updated = compose(metadata, content)
    changes = [
        (key, record.get(key), updated[key])
        for key in ("contentHash", "contentLength", "sections", "recordHash")
        if record.get(key) != updated[key]
    ]
    return updated, changes


def dumps(record: dict[str, Any]) -> str:
    """The published serialisation: one JSON object, UTF-8, two-space indent, final newline."""
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"
