"""workers: pool processes die with their parent and collect cyclic garbage less often."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from atlas_build import workers


def _collector() -> tuple[tuple[int, int, int], int, int]:
    return gc.get_threshold(), gc.get_freeze_count(), os.getppid()


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_a_pool_worker_freezes_what_it_starts_with_and_collects_less(start: str) -> None:
    with workers.pool(1, start=start) as pool:
        threshold, frozen, parent = pool.submit(_collector).result(timeout=60)
    assert threshold == (workers.YOUNGEST, 10, 10)
    assert frozen > 1000  # at least the modules a worker imports
    assert parent == os.getpid()


def test_the_command_collects_less_and_the_library_leaves_the_collector_alone() -> None:
    """`console` (the `atlas-build` command) tunes the collector; importing atlas_build or
    calling `cli.main`, as a program embedding it would, does not."""
    before = gc.get_threshold()
    from atlas_build import cli  # noqa: F401

    assert gc.get_threshold() == before
    code = (
        "import gc, sys; from atlas_build import cli; sys.argv = ['atlas-build', '--version'];"
        "cli.main = lambda: print(gc.get_threshold(), gc.get_freeze_count() > 0) or 0;"
        "cli.console()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == f"({workers.YOUNGEST}, 10, 10) True"
