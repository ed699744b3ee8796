"""Process pools that never outlive the command that started them.

Pool workers are forked children. If the parent is killed (SIGKILL, an OOM kill,
a CI timeout), Python cannot clean them up, and forked workers can sit forever on
pipes they inherited. On Linux each worker therefore asks the kernel to kill it
when its parent dies (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

_PR_SET_PDEATHSIG = 1
YOUNGEST = 10_000  # allocations between collections of the youngest generation (Python: 700)


def collect_less() -> None:
    """Run Python's cycle collector less often, and never over what is alive already.

    Checking and laying out lessons allocates millions of short-lived objects (markdown
    tokens, SymPy terms, parsed YAML) that reference counting frees, and few cycles; at
    the default threshold the collector took 2.6 of 20.4 s checking 200 lessons in one
    process, rescanning the imported modules and caches each time. Frozen (`gc.freeze`),
    the objects alive now are left out of every collection; at this threshold the
    collector took 0.5 s (timed with `gc.callbacks`), and peak memory stayed 215 MiB.
    The commands call it, and so does every pool worker as it starts."""
    gc.freeze()
    gc.set_threshold(YOUNGEST, 10, 10)


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when `parent` dies (Linux), and exit at once
    when it is gone already. Pool workers call it; so does the MkDocs child of a build."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return  # not Linux: workers still exit when their queues close
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _started(parent: int | None) -> None:
    """A worker starts: tie it to its parent (the pool's process, or for `forkserver`
    the fork server, which ends with the pool's process) and make the collector lazy."""
    die_with_parent(os.getppid() if parent is None else parent)
    collect_less()


def isolate() -> None:
    """Start every Python process this one starts from now on with a safe import path
    (`PYTHONSAFEPATH`, Python's `-P`): a spawned worker runs `python -c ...` in the
    lesson repository, and would otherwise import a `multiprocessing/` or `json.py` of the
    repository before any of atlas-build's code. The environment is inherited by spawn and
    forkserver workers, their resource tracker and subprocesses alike."""
    os.environ["PYTHONSAFEPATH"] = "1"


def pool(workers: int, start: str = "fork") -> ProcessPoolExecutor:
    """`start` "spawn" for work that needs none of the parent's state: a forked worker of
    a build that holds a thousand lessons' reports shares its memory only until touched,
    and counts it all as its own resident memory. Workers of every start method import
    nothing from the working directory (`isolate`)."""
    isolate()
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context(start),
        initializer=_started,
        initargs=(None if start == "forkserver" else os.getpid(),),
    )
