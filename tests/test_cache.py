"""The content-addressed cache (atlas_build/cache.py) on its own.

Proven here: `digest` is length-prefixed; entries round-trip byte for byte per
namespace; a disabled cache stores nothing; every kind of damaged entry (truncated,
flipped payload byte, foreign magic with a valid checksum, empty, trailing bytes) is
refused, deleted and can be written afresh; writes leave no temporary files, and a
write that fails keeps the previous entry; the environment fingerprint is
deterministic and changes with any library version and with atlas_build's version.
(tests/test_reliability.py covers the plain "damaged entry reads as None" case.)
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from atlas_build import atomic
from atlas_build import cache as caching
from atlas_build.cache import MAGIC, Cache, digest, fingerprint

KEY = "ab" * 32
OTHER_KEY = "cd" * 32
PAYLOAD = b'{"value": 1}\nsecond line\n'


@contextlib.contextmanager
def library_version(name: str, version: str | None) -> Iterator[None]:
    """importlib.metadata reports `version` for `name` (None: not installed) while inside.

    fingerprint() is memoised, so its cache is cleared on entry and again after the
    patch is undone: no other test ever sees a fingerprint made under the fake.
    """
    real = importlib.metadata.version

    def fake(distribution: str) -> str:
        if distribution != name:
            return real(distribution)
        if version is None:
            raise importlib.metadata.PackageNotFoundError(distribution)
        return version

    fingerprint.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(caching.importlib.metadata, "version", fake)
            yield
    finally:
        fingerprint.cache_clear()


@pytest.fixture
def store(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "cache")


def entry(store: Cache, namespace: str = "lesson", key: str = KEY) -> Path:
    assert store.root is not None
    return store.root / namespace / key[:2] / key


def test_digest_is_length_prefixed() -> None:
    assert digest("ab", "c") != digest("a", "bc")
    assert digest("abc") != digest("ab", "c")
    assert digest("x") != digest("x", "") != digest("", "x")
    assert digest() != digest("")


def test_digest_treats_str_as_utf8_bytes() -> None:
    assert digest("τ", b"x") == digest("τ".encode(), "x")
    value = digest("a", "b")
    assert value == digest("a", "b")
    assert len(value) == 64 and set(value) <= set("0123456789abcdef")


@pytest.mark.parametrize(
    "payload",
    [PAYLOAD, b"", b"\n\n", bytes(range(256))],
    ids=["text", "empty", "newlines", "binary"],
)
def test_put_get_round_trip(store: Cache, payload: bytes) -> None:
    assert store.enabled
    assert store.get("lesson", KEY) is None
    store.put("lesson", KEY, payload)
    assert store.get("lesson", KEY) == payload
    assert (store.hits, store.misses) == (1, 1)
    assert entry(store).read_bytes().startswith(MAGIC)


def test_namespaces_and_keys_are_separate_and_put_overwrites(store: Cache) -> None:
    store.put("lesson", KEY, b"one")
    assert store.get("claim", KEY) is None
    assert store.get("lesson", OTHER_KEY) is None
    store.put("lesson", KEY, b"two")
    assert store.get("lesson", KEY) == b"two"


def test_disabled_cache_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    disabled = Cache(None)
    assert not disabled.enabled
    disabled.put("lesson", KEY, PAYLOAD)
    assert disabled.get("lesson", KEY) is None
    assert list(tmp_path.iterdir()) == []  # not even the default .atlas-cache/


def _truncate(data: bytes) -> bytes:
    return data[:-1]


def _flip_payload_byte(data: bytes) -> bytes:
    at = data.index(b"\n") + 3
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]


def _foreign_magic(data: bytes) -> bytes:
    # the checksum still matches the payload: only the format version is wrong
    return data.replace(MAGIC, b"ATLAS-CACHE 0 ", 1)


def _empty(data: bytes) -> bytes:
    return b""


def _trailing_bytes(data: bytes) -> bytes:
    return data + b"\x00"


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "truncated": _truncate,
    "flipped-payload-byte": _flip_payload_byte,
    "wrong-magic": _foreign_magic,
    "empty": _empty,
    "trailing-bytes": _trailing_bytes,
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_damaged_entry_is_refused_deleted_and_rewritable(
    store: Cache, damage: Callable[[bytes], bytes]
) -> None:
    store.put("lesson", KEY, PAYLOAD)
    store.put("lesson", OTHER_KEY, b"neighbour")
    path = entry(store)
    damaged = damage(path.read_bytes())
    assert damaged != path.read_bytes()
    path.write_bytes(damaged)

    assert store.get("lesson", KEY) is None
    assert not path.exists()
    assert store.misses == 1 and store.hits == 0
    assert store.get("lesson", OTHER_KEY) == b"neighbour"  # only the bad entry goes

    store.put("lesson", KEY, PAYLOAD)
    assert store.get("lesson", KEY) == PAYLOAD


def test_entry_header_is_the_payload_sha256(store: Cache) -> None:
    store.put("claim", KEY, PAYLOAD)
    header, _, payload = entry(store, "claim").read_bytes().partition(b"\n")
    assert payload == PAYLOAD
    assert header == MAGIC + hashlib.sha256(PAYLOAD).hexdigest().encode()


def test_puts_leave_no_temporary_files(store: Cache) -> None:
    for round_ in range(3):
        for key in (KEY, OTHER_KEY, "ab" + "0" * 62):
            store.put("lesson", key, PAYLOAD + bytes([round_]))
    assert store.root is not None
    names = sorted(p.name for p in (store.root / "lesson").rglob("*") if p.is_file())
    assert names == sorted([KEY, OTHER_KEY, "ab" + "0" * 62])


def test_failed_write_keeps_the_previous_entry(
    store: Cache, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.put("lesson", KEY, b"old")
    refused: list[Path] = []

    def refuse(source: str, target: Path) -> None:
        refused.append(Path(target))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", refuse)
    store.put("lesson", KEY, b"new")  # a full disk only costs speed: no exception
    monkeypatch.undo()
    assert refused == [entry(store)]
    assert store.get("lesson", KEY) == b"old"
    assert [p.name for p in entry(store).parent.iterdir()] == [KEY]  # temporary removed


def test_unwritable_root_only_costs_speed(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_bytes(b"")
    store = Cache(blocker)
    store.put("lesson", KEY, PAYLOAD)
    assert store.get("lesson", KEY) is None


@pytest.mark.parametrize(
    ("name", "version"),
    [("sympy", "0.0.1-test"), ("sympy", None), ("numpy", "0.0.1-test"), ("nh3", "0.0.1-test")],
    ids=["sympy-version", "sympy-absent", "numpy-version", "optional-stage-library"],
)
def test_fingerprint_follows_library_versions(name: str, version: str | None) -> None:
    fingerprint.cache_clear()
    before = fingerprint()
    fingerprint.cache_clear()
    assert fingerprint() == before  # deterministic, so a change below means something
    with library_version(name, version):
        assert fingerprint() != before
    assert fingerprint() == before


def test_fingerprint_follows_atlas_build_version(monkeypatch: pytest.MonkeyPatch) -> None:
    before = fingerprint()
    try:
        monkeypatch.setattr(caching, "__version__", caching.__version__ + ".post1")
        fingerprint.cache_clear()
        assert fingerprint() != before
    finally:
        monkeypatch.undo()
        fingerprint.cache_clear()
    assert fingerprint() == before
