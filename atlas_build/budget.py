"""Time and memory budgets: what one claim, one lesson and one run may spend.

Lesson files are untrusted, and a claims file chooses its own per-claim `timeout` (up to
600 s) and sizes, so limits that hold in CI must come from the command line, not from the
lesson. One `Budget` travels with the check options into every worker:

- `memory_bytes` (default 1 GiB, `--memory-budget`): the working memory one step of a
  lesson may allocate (a claim's arrays, an engine call, an evaluated equation, a figure).
  Steps run one after another in the lesson's worker, so this also bounds a lesson's peak
  above the interpreter's baseline. Kinds estimate their allocations before making them
  and refuse with a located A404 instead of allocating.
- `lesson_seconds` (default 120 s, `--lesson-time`): the claims of one lesson together.
- `run_seconds` (default 1800 s, `--run-time`): the claims of the whole run together; with
  a process pool every worker measures against the same monotonic deadline.

A claim runs for the smallest of its own timeout, what is left of its lesson's budget and
what is left of the run's; a claim with nothing left is not run and reported as A405.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

DEFAULT_MEMORY = 1 << 30
DEFAULT_LESSON_SECONDS = 120.0
DEFAULT_RUN_SECONDS = 1800.0


@dataclass(frozen=True)
class Budget:
    memory_bytes: int = DEFAULT_MEMORY
    lesson_seconds: float = DEFAULT_LESSON_SECONDS
    run_seconds: float = DEFAULT_RUN_SECONDS
    run_deadline: float | None = None  # time.monotonic() value; set when a run starts

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
