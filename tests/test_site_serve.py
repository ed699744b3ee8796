"""`atlas-build serve`: the preview serves the site and regenerates it when a lesson changes."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from pathlib import Path

from test_site_render import write_lesson

from atlas_build import pipeline
from atlas_build.site import serve

REPO = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _fetch(url: str, wanted: str, deadline: float) -> str:
    text = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                text = response.read().decode("utf-8")
            if wanted in text:
                return text
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} never showed {wanted!r}; last: {text[:200]!r}")


def test_serve_regenerates_on_content_change(tmp_path: Path) -> None:
    content = tmp_path / "content"
    lesson = write_lesson(content, "live", "# Live\n\nFirst version of the text.\n")
    port = _free_port()
    stopping = threading.Event()
    result: list[int] = []
    worker = threading.Thread(
        target=lambda: result.append(
            serve.serve(
                [str(content)],
                docs_dir=tmp_path / "docs",
                config=REPO / "mkdocs.yml",
                address=f"127.0.0.1:{port}",
                options=pipeline.Options(),
                poll=0.2,
                stop=stopping.is_set,
            )
        ),
        daemon=True,
    )
    worker.start()
    try:
        url = f"http://127.0.0.1:{port}/lessons/live/"
        _fetch(url, "First version of the text.", time.monotonic() + 60)
        lesson.write_text(
            lesson.read_text(encoding="utf-8").replace("First version", "Second version"),
            encoding="utf-8",
        )
        _fetch(url, "Second version of the text.", time.monotonic() + 60)
        docs_page = tmp_path / "docs" / "lessons" / "live" / "index.md"
        assert "Second version" in docs_page.read_text(encoding="utf-8")
    finally:
        stopping.set()
        worker.join(timeout=30)
    assert result == [0]
