"""What the last check of the same paths found, in one authenticated cache entry.

With a warm cache, a check still read two entries per lesson back (its id and its report)
and decoded every report whole: at 1,000 lessons, 2,000 files, 35 MB of JSON and about a
second, for a build in which one lesson changed. The ledger holds, for the lessons of the
last check of the same paths, the id of each lesson file (by the digest of its bytes) and
the head of each report by the lesson's cache key: its findings, coverage and claim counts,
not its claims, which are most of a report's bytes and are read from the report's own
entry only when an output asks for them (`RecordReport.loader`). Keys are content
addressed, so an entry of the ledger never goes stale; it only stops being asked for.

The entry is authenticated like every other; a ledger or head that does not read back
exactly as written is a miss, and the lesson is read the slow way. `Tiers` is the order
the pipeline looks a report or an id up in: its memo, this ledger, the cache entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from atlas_build.cache import Cache, digest
from atlas_build.diagnostics import Diagnostic
from atlas_build.report import RecordReport
from atlas_build.report.model import ClaimsLoader

NAMESPACE = "check-ledger"


@dataclass
class Head:
    """A report without its claims: what a cached lesson contributes to a check."""

    report: RecordReport
    seconds: float
    digest: str  # of the report's full cache entry: what pages are keyed by


def encode(report: RecordReport, seconds: float, payload_digest: str) -> dict[str, Any]:
    return {
        "path": report.path,
        "id": report.id,
        "slug": report.slug,
        "diagnostics": [diagnostic.to_cache() for diagnostic in report.diagnostics],
        "coverage": report.coverage,
        "tally": report.claim_tally(),
        "seconds": seconds,
        "digest": payload_digest,
    }


def decode(data: Any, loader: ClaimsLoader) -> Head:
    """A head as `encode` wrote it, whose claims `loader` reads when asked for; raises
    ValueError (or KeyError, TypeError) otherwise."""
    if not isinstance(data, dict):
        raise ValueError("not a report head")
    tally, coverage = data["tally"], data["coverage"]
    if not isinstance(tally, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in tally.items()
    ):
        raise ValueError("malformed claim counts")
    if coverage is not None and not isinstance(coverage, dict):
        raise ValueError("malformed coverage")
    path, identifier, slug, found = data["path"], data["id"], data["slug"], data["digest"]
    if not (
        isinstance(path, str)
        and (identifier is None or isinstance(identifier, str))
        and (slug is None or isinstance(slug, str))
        and isinstance(found, str)
        and isinstance(data["diagnostics"], list)
    ):
        raise ValueError("malformed report head")
    diagnostics = [Diagnostic.from_cache(item) for item in data["diagnostics"]]
    report = RecordReport(path, identifier, diagnostics, None, coverage, slug, dict(tally), loader)
    return Head(report, float(data["seconds"]), found)


@dataclass
class Ledger:
    """Ids by identity key and report heads by lesson key; `seen` is this check's own."""

    identities: dict[str, str | None] = field(default_factory=dict)
    heads: dict[str, Any] = field(default_factory=dict)  # raw JSON until asked for
    seen_identities: dict[str, str | None] = field(default_factory=dict)
    seen_heads: dict[str, Any] = field(default_factory=dict)
    dirty: bool = False

    @staticmethod
    def key(paths: list[str]) -> str:
        return digest(NAMESPACE, *paths)

    @classmethod
    def load(cls, store: Cache, paths: list[str]) -> Ledger:
        data = store.get_json(NAMESPACE, cls.key(paths))
        if not isinstance(data, dict):
            return cls()
        identities, heads = data.get("identities"), data.get("heads")
        if not isinstance(identities, dict) or not isinstance(heads, dict):
            return cls()
        valid = {
            key: value
            for key, value in identities.items()
            if isinstance(key, str) and (value is None or isinstance(value, str))
        }
        return cls(valid, heads)

    def identity(self, key: str) -> tuple[bool, str | None]:
        """(found, id) for an identity key."""
        if key in self.identities:
            value = self.identities[key]
            self.seen_identities[key] = value
            return True, value
        return False, None

    def remember_identity(self, key: str, value: str | None) -> None:
        self.seen_identities[key] = value
        self.dirty = True

    def head(self, key: str, loader: ClaimsLoader) -> Head | None:
        raw = self.heads.get(key)
        if raw is None:
            return None
        try:
            found = decode(raw, loader)
        except (ValueError, KeyError, TypeError):
            return None
        self.seen_heads[key] = raw
        return found

    def remember(self, key: str, report: RecordReport, seconds: float, made: str) -> None:
        self.seen_heads[key] = encode(report, seconds, made)
        self.dirty = True

    def save(self, store: Cache, paths: list[str]) -> None:
        """Keep what this check used, when that is not what the ledger held already."""
        if not store.enabled:
            return
        same = self.seen_identities.keys() == self.identities.keys()
        if not self.dirty and same and self.seen_heads.keys() == self.heads.keys():
            return
        data = {"identities": self.seen_identities, "heads": self.seen_heads}
        store.put_json(NAMESPACE, self.key(paths), data)


T = TypeVar("T")


@dataclass(frozen=True)
class Tiers(Generic[T]):
    """Where a content-addressed value may already be, fastest first: this process's memo
    (`serve`), the build's ledger (one file for every lesson), then the value's own cache
    entry. `recall` takes it from the first that has it and copies it into the faster
    tiers; the lesson reports and the lesson ids are both looked up this way."""

    memo: Callable[[str], T | None]
    ledger: Callable[[str], T | None]
    entry: Callable[[str], T | None]
    keep_memo: Callable[[str, T], None]
    keep_ledger: Callable[[str, T], None]

    def recall(self, key: str) -> T | None:
        found = self.memo(key)
        if found is None:
            found = self.ledger(key)
            if found is None:
                found = self.entry(key)
                if found is None:
                    return None
                self.keep_ledger(key, found)
        self.keep_memo(key, found)
        return found
