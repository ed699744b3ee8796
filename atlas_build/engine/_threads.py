"""A small worker pool for the NumPy backend.

NumPy's ufuncs and BLAS release the GIL, so running independent tiles on ``os.cpu_count()``
Python threads keeps every core busy during the elementwise work (``exp``), which NumPy runs on
one core. BLAS must then use one thread per caller, or the two levels of threading
oversubscribe the cores; OpenBLAS (the BLAS NumPy wheels ship) offers a per-thread setting,
``openblas_set_num_threads_local``, that each worker calls once. Where that symbol cannot be
found the pool is not used and the tiles run serially with BLAS's own threading.

``ATLAS_ENGINE_THREADS`` overrides the worker count (1 disables the pool).
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_pool_pid = 0
_blas_local: Any = None
_blas_probed = False


def _find_blas_local() -> Any:
    """Return ``openblas_set_num_threads_local`` from the loaded OpenBLAS, or None."""
    paths: list[str] = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                name = line.rsplit(" ", 1)[-1].strip()
                if "openblas" in os.path.basename(name).lower() and name not in paths:
                    paths.append(name)
    except OSError:
        return None
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
            fn = lib.openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        fn.argtypes = [ctypes.c_int]
        fn.restype = ctypes.c_int
        return fn
    return None


def _blas_setter() -> Any:
    global _blas_local, _blas_probed
    if not _blas_probed:
        _blas_local = _find_blas_local()
        _blas_probed = True
    return _blas_local


def default_threads() -> int:
    """Worker count: ``ATLAS_ENGINE_THREADS`` if set, else the CPUs this process may use."""
    env = os.environ.get("ATLAS_ENGINE_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError as exc:
            raise ValueError(f"ATLAS_ENGINE_THREADS must be an integer, got {env!r}") from exc
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _init_worker() -> None:
    setter = _blas_setter()
    if setter is not None:
        setter(1)


def _get_pool(size: int) -> ThreadPoolExecutor:
    """The shared pool, rebuilt if the size changed or this is a forked child (whose copy of
    the pool has no live threads)."""
    global _pool, _pool_size, _pool_pid
    with _lock:
        if _pool is None or _pool_size != size or _pool_pid != os.getpid():
            if _pool is not None and _pool_pid == os.getpid():
                _pool.shutdown(wait=True)
            _pool = ThreadPoolExecutor(
                max_workers=size, thread_name_prefix="atlas-engine", initializer=_init_worker
            )
            _pool_size, _pool_pid = size, os.getpid()
        return _pool


def _workers(parallel: bool, n_tasks: int) -> int:
    size = default_threads()
    if not parallel or size <= 1 or n_tasks <= 1 or _blas_setter() is None:
        return 1
    return size


def worker_count() -> int:
    """Workers a parallel ``run_tasks`` would use (1 when the pool is not used)."""
    return _workers(True, 2)


def run_tasks(fn: Callable[[T], None], tasks: Iterable[T], parallel: bool) -> None:
    """Run ``fn`` on every task, on the pool when ``parallel`` and a pool is worthwhile.

    Tasks are handed out dynamically, so they must not depend on which worker runs them.
    """
    items = list(tasks)
    size = _workers(parallel, len(items))
    if size == 1:
        for item in items:
            fn(item)
        return
    for _ in _get_pool(size).map(fn, items):
        pass


def run_groups(
    fn: Callable[[int, T], None], tasks: Sequence[tuple[float, T]], parallel: bool
) -> int:
    """Run ``fn(group, task)`` with tasks split into fixed groups, one worker per group.

    ``tasks`` are ``(cost, task)``; groups are filled greedily by cost (largest first), so the
    split depends only on the tasks and the worker count, never on timing. A caller that keeps
    one accumulator per group and sums them in group order gets run-to-run identical bits.
    Returns the number of groups.
    """
    size = _workers(parallel, len(tasks))
    groups: list[list[T]] = [[] for _ in range(size)]
    loads = [0.0] * size
    for cost, task in sorted(tasks, key=lambda ct: -ct[0]):
        g = loads.index(min(loads))
        groups[g].append(task)
        loads[g] += cost

    def run(g: int) -> None:
        for task in groups[g]:
            fn(g, task)

    if size == 1:
        run(0)
    else:
        for _ in _get_pool(size).map(run, range(size)):
            pass
    return size
