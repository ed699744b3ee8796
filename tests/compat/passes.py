"""Whether each lesson of a compatibility release passes with a given atlas-build.

    python tests/compat/passes.py /tmp/compat-<sha>/.venv/bin/atlas-build tests/compat/<release>

A lesson passes when `atlas-build check` exits 0 and every claim of its report is `pass`
(the criterion tests/test_compat.py applies to the current tree). Run it with the release's
own atlas-build before adding a lesson to the corpus, and keep only lessons that pass.
Standard library only, so any release's interpreter can run it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def passes(executable: str, lesson: Path) -> tuple[bool, str]:
    """(passed, a line saying why) for one lesson folder."""
    options = subprocess.run(
        [executable, "check", "--help"], capture_output=True, text=True, check=False
    ).stdout
    command = [executable, "check", "--format", "json", str(lesson)]
    if "--no-cache" in options:  # the earliest releases have no cache option
        command.insert(2, "--no-cache")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return False, f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    [record] = report["records"]
    statuses = [claim.get("status") for claim in record.get("claims", [])]
    failing = [
        f"{claim.get('id')}: {claim.get('status')}"
        for claim in record.get("claims", [])
        if claim.get("status") != "pass"
    ]
    ok = done.returncode == 0 and bool(statuses) and not failing
    return ok, f"exit {done.returncode}, {len(statuses)} claims" + (
        f", not passing: {'; '.join(failing)}" if failing else ""
    )


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    executable, release = argv[0], Path(argv[1])
    worst = 0
    for lesson in sorted(path for path in release.iterdir() if path.is_dir()):
        ok, why = passes(executable, lesson)
        print(f"{'pass' if ok else 'FAIL'} {lesson}: {why}")
        worst = worst if ok else 1
    return worst


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
