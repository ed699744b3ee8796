"""The content-addressed cache (atlas_build/cache.py) on its own.

Proven here: `digest` is length-prefixed; entries round-trip byte for byte per
namespace; a disabled cache stores nothing; every kind of damaged entry (truncated,
flipped payload byte, foreign magic, empty, trailing bytes) is refused, deleted and can
be written afresh; entries are authenticated: an entry made with another key, a
plain-checksum entry, or one moved to another key or namespace is refused; the key comes
from ATLAS_BUILD_CACHE_KEY or a 0600 key file outside the repository; a symbolic link
anywhere in the cache is never followed; writes leave no temporary files, and a write
that fails keeps the previous entry; the environment fingerprint is deterministic and
changes with any library version and with atlas_build's version.
(tests/test_reliability.py covers the plain "damaged entry reads as None" case;
tests/test_cache_security.py a whole repository that commits a crafted cache.)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from support import library_version

from atlas_build import atomic
from atlas_build import cache as caching
from atlas_build.cache import MAGIC, Cache, digest, fingerprint

KEY = "ab" * 32
OTHER_KEY = "cd" * 32
PAYLOAD = b'{"value": 1}\nsecond line\n'


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
    # the tag still matches the payload: only the format version is wrong
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


def _hmac(secret: bytes, namespace: str, key: str, payload: bytes) -> bytes:
    message = digest(namespace, key, payload).encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest().encode()


def test_entry_header_is_an_hmac_of_namespace_key_and_payload(store: Cache) -> None:
    store.put("claim", KEY, PAYLOAD)
    header, _, payload = entry(store, "claim").read_bytes().partition(b"\n")
    assert payload == PAYLOAD
    assert header == MAGIC + _hmac(caching.secret(), "claim", KEY, PAYLOAD)
    assert header != MAGIC + hashlib.sha256(PAYLOAD).hexdigest().encode()


def _forge(store: Cache, header: bytes, namespace: str = "lesson", key: str = KEY) -> Path:
    path = entry(store, namespace, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + b"\n" + PAYLOAD)
    return path


FORGERIES: dict[str, Callable[[], bytes]] = {
    "plain-sha256": lambda: MAGIC + hashlib.sha256(PAYLOAD).hexdigest().encode(),
    "other-secret": lambda: MAGIC + _hmac(b"x" * 32, "lesson", KEY, PAYLOAD),
    "other-namespace": lambda: MAGIC + _hmac(caching.secret(), "claim", KEY, PAYLOAD),
    "other-key": lambda: MAGIC + _hmac(caching.secret(), "lesson", OTHER_KEY, PAYLOAD),
    "old-format": lambda: b"ATLAS-CACHE 1 " + hashlib.sha256(PAYLOAD).hexdigest().encode(),
}


@pytest.mark.parametrize("forge", FORGERIES.values(), ids=FORGERIES.keys())
def test_entries_without_a_valid_tag_are_refused(store: Cache, forge: Callable[[], bytes]) -> None:
    path = _forge(store, forge())
    assert store.get("lesson", KEY) is None
    assert not path.exists()


def test_the_right_tag_is_accepted(store: Cache) -> None:
    _forge(store, MAGIC + _hmac(caching.secret(), "lesson", KEY, PAYLOAD))
    assert store.get("lesson", KEY) == PAYLOAD


def test_key_comes_from_the_environment_when_set(
    store: Cache, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.put("lesson", KEY, PAYLOAD)
    caching.secret.cache_clear()
    try:
        monkeypatch.setenv(caching.KEY_ENV, "a CI secret")
        assert caching.secret() == hashlib.sha256(b"a CI secret").digest()
        assert store.get("lesson", KEY) is None  # written under the file key
        store.put("lesson", KEY, PAYLOAD)
        assert store.get("lesson", KEY) == PAYLOAD
    finally:
        monkeypatch.undo()
        caching.secret.cache_clear()


def test_key_file_is_private_and_outside_the_working_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    caching.secret.cache_clear()
    try:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
        monkeypatch.delenv(caching.KEY_ENV, raising=False)
        first = caching.secret()
        path = tmp_path / "config" / "atlas-build" / "cache-key"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert bytes.fromhex(path.read_text()) == first and len(first) == 32
        caching.secret.cache_clear()
        assert caching.secret() == first  # read back, not regenerated
        assert not str(caching.key_file()).startswith(os.getcwd() + os.sep)
    finally:
        monkeypatch.undo()
        caching.secret.cache_clear()


def test_default_cache_is_outside_the_working_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(caching.DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere/cache")
    assert caching.default_dir() == "/somewhere/cache/atlas-build"
    monkeypatch.setenv(caching.DIR_ENV, "/ci/cache")
    assert caching.default_dir() == "/ci/cache"


def test_symbolic_links_in_the_cache_are_never_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "cache"
    (root / "lesson").mkdir(parents=True)
    (root / "lesson" / KEY[:2]).symlink_to(elsewhere)
    store = Cache(root)
    store.put("lesson", KEY, PAYLOAD)
    assert list(elsewhere.iterdir()) == []  # nothing written through the link
    assert store.get("lesson", KEY) is None
    linked = Cache(tmp_path / "linked-root")
    (tmp_path / "linked-root").symlink_to(elsewhere)
    linked.put("claim", KEY, PAYLOAD)
    assert list(elsewhere.iterdir()) == []
    target = tmp_path / "target"
    target.write_bytes(b"precious")
    plain = Cache(tmp_path / "plain")
    plain.put("lesson", KEY, PAYLOAD)
    entry(plain).unlink()
    entry(plain).symlink_to(target)
    assert plain.get("lesson", KEY) is None
    assert target.read_bytes() == b"precious"


@pytest.mark.parametrize("key", ["../x" * 8, "/etc/passwd", "a", "AB" * 32, "ab\x00" * 20])
def test_keys_that_are_not_digests_are_refused(store: Cache, key: str) -> None:
    store.put("lesson", key, PAYLOAD)
    assert store.get("lesson", key) is None
    assert store.root is not None and not store.root.exists()


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
