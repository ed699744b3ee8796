"""Progress on a terminal (rich), silence in CI or when output is not a terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from atlas_build.pipeline import Progress


def interactive() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


@contextmanager
def progress_bar(*, enabled: bool = True) -> Iterator[Progress | None]:
    """Yields a callback(done, total, path) driving a rich bar, or None when not interactive."""
    if not (enabled and interactive()):
        yield None
        return
    from rich.markup import escape as escape_markup
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from atlas_build.report.escape import text

    with Progress(
        TextColumn("[bold]checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        transient=True,
        console=None,
    ) as bar:
        task = bar.add_task("", total=None)

        def update(done: int, total: int, path: str) -> None:
            shown = escape_markup(text(path))  # a folder name must not drive the terminal
            bar.update(task, completed=done, total=total, description=shown)

        yield update
