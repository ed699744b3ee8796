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


@pytest.mark.parametrize("start", ["fork", "spawn", "forkserver"])
def test_no_worker_imports_the_working_directory(tmp_path, start: str) -> None:
    """A lesson repository is the working directory of a build: a `multiprocessing/`
    package there must not run in any pool worker, whatever the start method."""
    marker = tmp_path / "imported"
    repo = tmp_path / "repo"
    (repo / "multiprocessing").mkdir(parents=True)
    (repo / "multiprocessing" / "__init__.py").write_text(
        f"open({str(marker)!r}, 'a').write('x')\nraise SystemExit('shadowed')\n", encoding="utf-8"
    )
    script = tmp_path / "probe.py"
    script.write_text(
        "import os\nfrom atlas_build import workers\n"
        "if __name__ == '__main__':\n"
        f"    with workers.pool(2, start={start!r}) as pool:\n"
        "        print(sum(pool.map(abs, [-1, -2, -3])))\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=repo, capture_output=True, text=True, timeout=120,
        env=env,
    )  # fmt: skip
    assert done.stdout.strip() == "6", done.stderr
    assert not marker.exists()
