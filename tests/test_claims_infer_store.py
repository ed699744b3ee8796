"""claims/infer/store.py: inferred checks cached by lesson content, never trusted blindly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import QUEUE

from atlas_build import claims, lesson
from atlas_build.cache import Cache
from atlas_build.claims.infer import Found, checks, store
from atlas_build.load.frontmatter import LessonLocator

BODY = QUEUE.replace("L = 4 requests", "L = 5 requests")  # one wrong number: an A430


def _evaluate(body: str, cache: Cache) -> list[dict[str, Any]]:
    model = lesson.build(body)
    locator = LessonLocator("lesson.md", body, 0)
    evaluation = claims.evaluate(None, "probe", model, locator, cache=cache)
    shown = [result.to_json() for result in evaluation.results]
    errors = [(d.code, d.message, d.line, d.column) for d in evaluation.diagnostics]
    return [*shown, {"diagnostics": errors, "coverage": evaluation.coverage}]


def _entries(root: Path) -> list[Path]:
    return sorted((root / store.NAMESPACE).rglob("*")) if (root / store.NAMESPACE).exists() else []


def test_a_cached_lesson_reports_what_a_fresh_one_does(tmp_path: Path) -> None:
    fresh = _evaluate(BODY, Cache(None))
    assert any(r.get("source") == "inferred" and r["status"] == "fail" for r in fresh[:-1])
    cache = Cache(tmp_path)
    first = _evaluate(BODY, cache)
    assert [p for p in _entries(tmp_path) if p.is_file()], "nothing was stored"
    hits = cache.hits
    again = _evaluate(BODY, cache)
    assert cache.hits > hits  # read back, not recomputed
    assert fresh == first == again


def test_an_entry_that_is_not_what_dump_writes_is_recomputed(tmp_path: Path) -> None:
    """Authenticated but wrong in shape (an offset past the lesson, a missing error):
    `load` refuses it and the report is the fresh one."""
    cache = Cache(tmp_path)
    fresh = _evaluate(BODY, Cache(None))
    model = lesson.build(BODY)
    entry = store.key(BODY, {})
    good = store.dump([Found(0, 0, True, False, (10, 12), (), "equation 1", None)])
    bad = [
        {**good, "format": 0},
        {"format": 1, "checks": [{**good["checks"][0], "anchor": [10, len(BODY) + 5]}]},
        {"format": 1, "checks": [{**good["checks"][0], "certain": True, "holds": False}]},
        {"format": 1, "checks": [{**good["checks"][0], "equation": True}]},
        {"format": 1, "checks": [good["checks"][0]] * (checks.MAX_CHECKS + 1)},
    ]
    for forged in bad:
        cache.put_json(store.NAMESPACE, entry, forged)
        assert store.load(cache, entry, model.content) is None, forged
        assert _evaluate(BODY, cache) == fresh
    cache.put_json(store.NAMESPACE, entry, good)
    assert store.load(cache, entry, model.content) is not None


def test_the_key_is_the_content_and_the_declarations(tmp_path: Path) -> None:
    assert store.key(BODY, {}) == store.key(BODY, {})
    assert store.key(BODY, {}) != store.key(BODY.replace("L = 5", "L = 4"), {})
    assert store.key(BODY, {}) != store.key(BODY, {1: [{"functions": ["L"]}]})


def test_a_lesson_stopped_at_the_time_limit_is_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "MAX_SECONDS", -1.0)
    cache = Cache(tmp_path)
    _evaluate(BODY, cache)
    assert not [p for p in _entries(tmp_path) if p.is_file()]


def test_entries_are_plain_json(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    _evaluate(BODY, cache)
    content = lesson.build(BODY).content  # as the lesson reads it: soft breaks are spaces
    stored = cache.get_json(store.NAMESPACE, store.key(content, {}))
    assert stored["format"] == store.FORMAT
    assert json.loads(json.dumps(stored)) == stored
