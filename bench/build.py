"""Build at scale: a synthetic corpus of N lessons, timed cold, warm, incremental and as a site.

The corpus is made from the lessons in content/: each synthetic lesson is a copy of
one of them with a new slug, id and title, and with worked numbers changed
consistently in the prose, the quiz and the claims file (values of the attention
example, the batch size of the KV-cache example, the logit shift of the softmax
example), so results are not trivially shared between lessons. Every command runs
as a subprocess of the real CLI, in one run: `check` (cold, warm, one lesson edited),
`build` (cold: no cache, no previous site; warm with nothing changed; warm after
editing one lesson), a bare `mkdocs build` of the same docs tree, and `serve` (seconds
from saving a lesson to having fetched the reloaded page). For each build the site
stage's own time (what `build` prints) is kept too, the size of the report page, and
the 1-minute load average before each command (other work on the machine shows there).

    .venv/bin/python bench/build.py                 # 250, 500, 1,000 lessons, medians of 3
    .venv/bin/python bench/build.py --lessons 1000 --no-check
    .venv/bin/python bench/build.py --quick         # 30 lessons, 1 repeat (smoke)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
MINUS = "\u2212"


def decimal(value: Fraction) -> str:
    """An exact terminating fraction written out fully, lessons' minus sign included."""
    sign = MINUS if value < 0 else ""
    value = abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = ""
    while rest and len(digits) < 12:
        rest *= 10
        digit, rest = divmod(rest, value.denominator)
        digits += str(digit)
    return sign + str(whole) + ("." + digits if digits else "")


def vary_attention(record: dict, claims: str, rng: random.Random) -> tuple[dict, str]:
    """New scalar values [a, b] for the worked softmax mixture (scores stay [0, ln3])."""
    a, b = rng.sample(range(1, 10), 2)
    o = Fraction(a + 3 * b, 4)
    d1, d2 = Fraction(1, 4) * (a - o), Fraction(3, 4) * (b - o)
    old = record["content"]
    new = old.replace(
        "scalar values \\[2,6\\], attention probabilities are \\[0.25,0.75\\] and output is 5.",
        f"scalar values \\[{a},{b}\\], attention probabilities are \\[0.25,0.75\\] and output "
        f"is {decimal(o)}.",
    )
    new = new.replace(
        f"0.25×(2{MINUS}5)={MINUS}0.75 and score two is 0.75×(6{MINUS}5)=0.75",
        f"0.25×({a}{MINUS}{decimal(o)})={decimal(d1)} and score two is "
        f"0.75×({b}{MINUS}{decimal(o)})={decimal(d2)}",
    )
    new = new.replace(
        "only value 2 is allowed, so output is 2", f"only value {a} is allowed, so output is {a}"
    )
    quiz_old = f"1.  {MINUS}0.75.\n2.  +0.75."
    quiz_new = f"1.  {decimal(d1)}.\n2.  {decimal(-d1) if d1 < 0 else MINUS + decimal(d1)}."
    new = new.replace(quiz_old.replace("  ", " "), quiz_new.replace("  ", " "))
    new = new.replace(
        f"Answer and reasoning\n\n{MINUS}0.75.\n\n{MINUS}0.75.",
        f"Answer and reasoning\n\n{decimal(d1)}.\n\n{decimal(d1)}.",
    )
    record = dict(record, content=new)
    claims = claims.replace("values: [2, 6]", f"values: [{a}, {b}]")
    return record, claims


def vary_kv(text: str, claims: str, rng: random.Random) -> tuple[str, str]:
    """A different batch size N in the KV-cache example (16 -> n)."""
    n = rng.choice([2, 3, 4, 5, 6, 8, 10, 12, 20, 24, 32])
    text = text.replace(
        "a batch of N = 16 such sequences holds 16 GiB",
        f"a batch of N = {n} such sequences holds {n} GiB",
    )
    text = text.replace("64 GiB for the batch of 16", f"{4 * n} GiB for the batch of {n}")
    claims = claims.replace("N: 16}", f"N: {n}}}")
    return text, claims


SHIFTED = re.compile(r'z: \["(\d+)", "\1\+2\\\\ln 3"\]')
SHIFT_PARAM = re.compile(r"shift: \d+}")
SHIFT_PHRASE = re.compile(r"([Aa])dding \d+ to both logits")


def shift_softmax(text: str, claims: str, shift: int) -> tuple[str, str]:
    """Set the constant added to both logits in the shift-invariance example, in the
    prose, the quiz question and the claims (their quotes and the shifted logits)."""

    def phrase(found: re.Match[str]) -> str:
        return f"{found[1]}dding {shift} to both logits"

    claims, changed = SHIFTED.subn(f'z: ["{shift}", "{shift}+2\\\\\\\\ln 3"]', claims)
    if not changed:
        raise SystemExit("bench: the softmax example's shifted logits were not found")
    claims = SHIFT_PARAM.sub(f"shift: {shift}}}", claims)
    return SHIFT_PHRASE.sub(phrase, text), SHIFT_PHRASE.sub(phrase, claims)


def vary_softmax(text: str, claims: str, rng: random.Random) -> tuple[str, str]:
    """A different constant added to both logits in the shift-invariance example."""
    return shift_softmax(text, claims, rng.randint(6, 999))


VARIATIONS = {"kv-cache": vary_kv, "softmax-temperature": vary_softmax}


def generate(count: int, target: Path, seed: int = 0) -> None:
    """Write `count` lessons under target/ as variants of the lessons in content/."""
    sys.path.insert(0, str(ROOT))
    from atlas_build.load.records import dumps, refresh

    rng = random.Random(seed)
    sources = sorted(path for path in (ROOT / "content").iterdir() if path.is_dir())
    for number in range(count):
        source = sources[number % len(sources)]
        slug = f"{source.name}-{number:05d}"
        folder = target / slug
        folder.mkdir(parents=True)
        claims = (source / "claims.yaml").read_text(encoding="utf-8")
        if (source / "record.json").exists():
            record = json.loads((source / "record.json").read_text(encoding="utf-8"))
            record, claims = vary_attention(record, claims, rng)
            old_id = record["id"]
            record["id"] = f"{old_id}-{number:05d}"
            record["title"] = f"{record['title']} ({number})"
            record["related"], record["supersedes"], record["supersededBy"] = [], [], []
            record, _ = refresh(record)
            (folder / "record.json").write_text(dumps(record), encoding="utf-8")
            claims = claims.replace(f"lesson: {old_id}", f"lesson: {record['id']}")
        else:
            text = (source / "lesson.md").read_text(encoding="utf-8")
            vary = VARIATIONS.get(source.name)
            if vary is not None:
                text, claims = vary(text, claims, rng)
            old_id = re.search(r"^id: (.+)$", text, re.M).group(1)  # type: ignore[union-attr]
            text = text.replace(f"id: {old_id}", f"id: {old_id}-{number:05d}", 1)
            text = re.sub(r"^related:\n(?:  - .*\n)*", "related: []\n", text, count=1, flags=re.M)
            text = re.sub(r"^title: (.+)$", rf"title: \1 ({number})", text, count=1, flags=re.M)
            claims = claims.replace(f"lesson: {old_id}", f"lesson: {old_id}-{number:05d}")
            (folder / "lesson.md").write_text(text, encoding="utf-8")
        (folder / "claims.yaml").write_text(claims, encoding="utf-8")


class PeakMemory:
    """Peak resident memory of a process and all its descendants, sampled from /proc."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak = pid, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _tree(self) -> list[int]:
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as handle:
                        parent = int(handle.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                children.setdefault(parent, []).append(int(entry))
        found, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo.extend(children.get(pid, []))
        return found

    def _rss(self, pid: int) -> int:
        try:
            with open(f"/proc/{pid}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, sum(self._rss(pid) for pid in self._tree()))
            self._stop.wait(0.05)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def timed(command: list[str], cwd: Path, expect: tuple[int, ...] = (0,)) -> tuple[float, int, str]:
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    memory = PeakMemory(process.pid)
    _, stderr = process.communicate()
    elapsed = time.perf_counter() - started
    peak = memory.stop()
    log = stderr.decode("utf-8", "replace")
    if process.returncode not in expect:
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}:\n{log[-2000:]}")
    return elapsed, peak, log


def edit_one(corpus: Path, round_number: int) -> str:
    """Change one worked number of one lesson, consistently, as an author would; the new
    phrase (which then appears on the page and in the search index) is returned."""
    folder = sorted(p for p in corpus.iterdir() if p.name.startswith("softmax"))[0]
    lesson = folder / "lesson.md"
    claims = folder / "claims.yaml"
    shift = 1000 + round_number
    text, rules = shift_softmax(
        lesson.read_text(encoding="utf-8"), claims.read_text(encoding="utf-8"), shift
    )
    lesson.write_text(text, encoding="utf-8")
    claims.write_text(rules, encoding="utf-8")
    return f"Adding {shift} to both logits"


def _fetch(url: str, timeout: float = 120.0) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return str(response.read().decode("utf-8"))


def serve_rounds(corpus: Path, work: Path, cache: Path, rounds: int) -> list[float]:
    """`atlas-build serve`: seconds from saving a lesson to having fetched the reloaded page
    (the live-reload poll answers once the rebuilt site is in place) with the edit on it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    command = [str(BIN / "atlas-build"), "serve", str(corpus), "--dev-addr", f"127.0.0.1:{port}",
               "--cache-dir", str(cache), "--docs-dir", str(work / "serve-docs"),
               "--mkdocs-config", str(ROOT / "mkdocs.yml")]  # fmt: skip
    log = (work / "serve.log").open("wb")
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    folder = sorted(p for p in corpus.iterdir() if p.name.startswith("softmax"))[0]
    base = f"http://127.0.0.1:{port}/"
    url = f"{base}lessons/{folder.name}/"
    seconds: list[float] = []
    try:
        deadline = time.monotonic() + 900
        page = ""
        while not page:
            try:
                page = _fetch(url)
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("serve did not come up") from None
                time.sleep(0.2)
        for number in range(rounds):
            epoch = re.search(r"livereload\((\d+),", page)
            assert epoch, "no live-reload script on the page"
            poll = threading.Thread(target=_fetch, args=(f"{base}livereload/{epoch[1]}/1",))
            poll.start()
            time.sleep(1.0)  # the poll is waiting; the watcher has settled
            saved = time.perf_counter()
            phrase = edit_one(corpus, 500 + number)
            poll.join()
            page = _fetch(url)
            seconds.append(time.perf_counter() - saved)
            if phrase not in page:
                raise SystemExit(f"the reloaded page does not show {phrase!r}")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        log.close()
    return seconds


def _clean(*paths: Path) -> None:
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)


def measure(
    count: int, repeats: int, work: Path, site: bool, check: bool, serve_only: bool = False
) -> dict[str, object]:
    corpus = work / f"content-{count}"
    generate(count, corpus)
    cli = [str(BIN / "atlas-build")]
    cache = work / "cache"
    rows: dict[str, list[float]] = {}
    peaks: dict[str, int] = {}
    loads: dict[str, list[float]] = {}
    stage: dict[str, list[float]] = {}

    def run(name: str, command: list[str], before: object = None) -> str:
        if callable(before):
            before()
        loads.setdefault(name, []).append(round(os.getloadavg()[0], 2))
        elapsed, peak, log = timed(command, ROOT)
        rows.setdefault(name, []).append(elapsed)
        peaks[name] = max(peaks.get(name, 0), peak)
        found = re.search(r"into \S+ in ([0-9.]+) s|site up to date: .*\(([0-9.]+) s", log)
        if found:
            stage.setdefault(name, []).append(float(found[1] or found[2]))
        return log

    if check and not serve_only:
        command = [*cli, "check", str(corpus), "--cache-dir", str(cache), "-q"]
        for round_number in range(repeats):
            run("check cold", command, lambda: _clean(cache))
            run("check warm, no change", command)
            run(
                "check warm, one lesson edited", command, lambda n=round_number: edit_one(corpus, n)
            )  # type: ignore[misc]
    report_bytes = 0
    if site and not serve_only:
        sys.path.insert(0, str(ROOT))
        from atlas_build.site.mkdocs.build import mkdocs_config

        out, site_dir = work / "build", work / "site"
        spare = work / ".site.old-spare"
        config = str(ROOT / "mkdocs.yml")
        build = [*cli, "build", str(corpus), "--cache-dir", str(cache), "-q", "--out", str(out),
                 "--site-dir", str(site_dir), "--mkdocs-config", config]  # fmt: skip
        for round_number in range(repeats):
            run("build cold (full site)", build, lambda: _clean(cache, out, site_dir, spare))
            run("build warm, no change", build)
            run("build warm, one lesson edited", build,
                lambda n=round_number: edit_one(corpus, 100 + n))  # type: ignore[misc]  # fmt: skip
        report_bytes = (site_dir / "report" / "index.html").stat().st_size
        child, bare = work / "mkdocs-bare.yml", work / "bare-site"
        child.write_text(mkdocs_config(ROOT / "mkdocs.yml", out / "docs", bare), encoding="utf-8")
        mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(child)]
        for _ in range(repeats):
            run("mkdocs build (bare, same docs)", mkdocs, lambda: _clean(bare))
    if site or serve_only:  # with --serve-only, serve starts cold and builds the site itself
        loads["serve: save to reloaded page"] = [round(os.getloadavg()[0], 2)]
        rows["serve: save to reloaded page"] = serve_rounds(corpus, work, cache, repeats)
    medians = {name: statistics.median(times) for name, times in rows.items()}
    ratios = {}
    cold = medians.get("build cold (full site)")
    if cold:
        for name in ("build warm, no change", "build warm, one lesson edited"):
            ratios[f"{name} / cold build"] = medians[name] / cold
    return {
        "lessons": count,
        "repeats": repeats,
        "median_seconds": medians,
        "site_stage_median_seconds": {k: statistics.median(v) for k, v in stage.items()},
        "ratios": ratios,
        "report_page_bytes": report_bytes,
        "all_seconds": rows,
        "load_average_before": loads,
        "peak_memory_bytes": peaks,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, nargs="+", default=[250, 500, 1000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="30 lessons, one repeat")
    parser.add_argument("--no-site", action="store_true", help="skip the site build rows")
    parser.add_argument("--no-check", action="store_true", help="skip the check rows")
    parser.add_argument("--serve-only", action="store_true", help="only the serve rounds")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "build.json"))
    args = parser.parse_args()
    counts, repeats = ([30], 1) if args.quick else (args.lessons, args.repeats)
    results = []
    with tempfile.TemporaryDirectory(prefix="atlas-bench-") as temporary:
        for count in counts:
            work = Path(temporary) / str(count)
            work.mkdir()
            site, check = not args.no_site, not args.no_check
            results.append(measure(count, repeats, work, site, check, args.serve_only))
    print(f"{'lessons':>8} {'measurement':<34} {'median s':>9} {'site s':>7} {'peak MiB':>9} load")
    for result in results:
        stage = result["site_stage_median_seconds"]
        for name, seconds in result["median_seconds"].items():  # type: ignore[union-attr]
            peak = result["peak_memory_bytes"].get(name, 0) / 2**20  # type: ignore[attr-defined]
            part = f"{stage[name]:7.2f}" if name in stage else " " * 7  # type: ignore[operator]
            load = result["load_average_before"][name]  # type: ignore[index]
            print(f"{result['lessons']:>8} {name:<34} {seconds:>9.2f} {part} {peak:>9.0f} {load}")
        for name, ratio in result["ratios"].items():  # type: ignore[union-attr]
            print(f"{result['lessons']:>8} {name:<52} {ratio:>6.1%}")
        if result["report_page_bytes"]:
            print(f"{result['lessons']:>8} report page: {result['report_page_bytes']:,} bytes")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"cores": os.cpu_count(), "results": results}, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
