"""Time and memory budgets: what one claim, one lesson and one run may spend.

Lesson files are untrusted, and a claims file chooses its own per-claim `timeout` (up to
600 s) and sizes, so limits that hold in CI must come from the command line, not from the
lesson. One `Budget` travels with the check options into every worker:

- `memory_bytes` (default 1 GiB, `--memory-budget`): the working memory one step of a
  lesson may allocate (a claim's arrays, an engine call, an evaluated equation, a figure).
  Steps run one after another in the lesson's worker, so this also bounds a lesson's peak
  above the interpreter's baseline. Kinds estimate their allocations before making them
  and refuse with a located A404 instead of allocating.
- `lesson_seconds` (default 30 s, `--lesson-time`): the claims of one lesson together,
  which is the most any claim of it may run, whatever its claims file asks (a larger
  `timeout` there is a located warning, A418). At 120 s a claims file asking `timeout:
  600` held a check of one lesson for two minutes; the slowest lesson here checks in 8 s,
  claims included.
- `run_seconds` (default 1800 s, `--run-time`): the claims of the whole run together; with
  a process pool every worker measures against the same monotonic deadline.

- `read_seconds` (default 30 s, `--read-time`): everything else one lesson costs: reading,
  parsing, integrity, the lesson model's rules and the coverage of its relations and
  numbers. A lesson that needs more (a megabyte of nested lists or table rows) is reported
  as A108 instead of holding the run up.

A claim runs for the smallest of its own timeout, what is left of its lesson's budget and
what is left of the run's; a claim with nothing left is not run and reported as A405.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

DEFAULT_MEMORY = 1 << 30
DEFAULT_LESSON_SECONDS = 30.0
DEFAULT_RUN_SECONDS = 1800.0
DEFAULT_READ_SECONDS = 30.0
REPEAT = 0.05  # seconds between alarms once a deadline has passed (see `deadline`)


@dataclass(frozen=True)
class Budget:
    memory_bytes: int = DEFAULT_MEMORY
    lesson_seconds: float = DEFAULT_LESSON_SECONDS
    run_seconds: float = DEFAULT_RUN_SECONDS
    run_deadline: float | None = None  # time.monotonic() value; set when a run starts
    read_seconds: float = DEFAULT_READ_SECONDS

    def started(self) -> Budget:
        """This budget with the run's deadline fixed from now (kept if already set)."""
        if self.run_deadline is not None:
            return self
        return replace(self, run_deadline=time.monotonic() + self.run_seconds)


class MemoryBudgetExceeded(ValueError):
    """A step would allocate more than the memory budget."""


def need(budget_bytes: int, estimate: float, what: str) -> None:
    """Refuse before allocating: `estimate` bytes for `what` must fit the budget."""
    if estimate > budget_bytes:
        raise MemoryBudgetExceeded(
            f"{what} needs about {size(estimate)}, over the memory budget of "
            f"{size(budget_bytes)} (--memory-budget)"
        )


def size(count: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:.3g} {unit}"
    return f"{int(count)} bytes"


class OutOfTime(BaseException):
    """A lesson's stages ran past `read_seconds`. A BaseException, so that no
    `except Exception` inside a stage (rules contain their failures) can swallow it."""


@contextmanager
def deadline(seconds: float, make: Callable[[], BaseException]) -> Iterator[None]:
    """Raise `make()` in the main thread after `seconds` of wall time (SIGALRM); elsewhere,
    or where signals are missing, run unbounded. Deadlines do not nest: the inner one
    replaces the outer for its duration.

    The alarm repeats every `REPEAT` seconds until the block exits: an exception raised
    while a garbage-collector callback or a `__del__` runs is printed and dropped by the
    interpreter, and code under the deadline may catch it, so one alarm alone could let a
    block run unbounded."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable or math.isinf(seconds):  # no limit: an infinite timer cannot be set
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise make()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3), REPEAT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class StageClock:
    """`read_seconds` shared by the windows of a lesson's non-claim stages."""

    def __init__(self, seconds: float) -> None:
        self.left = seconds
        self.total = seconds

    @contextmanager
    def running(self) -> Iterator[None]:
        if self.left <= 0:
            raise OutOfTime()
        started = time.monotonic()
        try:
            with deadline(self.left, OutOfTime):
                yield
        finally:
            self.left -= time.monotonic() - started
