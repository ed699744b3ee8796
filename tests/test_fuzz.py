"""Hypothesis fuzzing of `check`: records, markdown bodies, front matter, claims files, LaTeX.

Every generated input is written as a lesson folder and checked in-process with
`atlas_build.pipeline.check(paths, Options(cache_dir=None, jobs=1))`. The properties, for
every input:

- no exception escapes `check` (nothing is caught here: any escape is a failure);
- the exit code is 0 or 1 (2 means an internal error, `A901`), an exit of 1 comes with
  at least one error, and every diagnostic has a line and a column;
- the JSON report, as the CLI prints it, parses and validates against
  schemas/report.schema.json;
- the check finishes within BOUND seconds (10 s; a watchdog interrupts it, and the wall
  time is asserted too).

Budget: the `ci` profile (the default) tries a fixed number of inputs per target (1,250 in
all), about a minute under `make unit` (coverage on) on a 2-core machine.
`ATLAS_FUZZ_PROFILE=long` multiplies it by 20, and `ATLAS_FUZZ_EXAMPLES=N` sets every
target to N inputs. The number of inputs tried is printed at the end of the module and
written to build/fuzz-stats.json.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
SEED: dict[str, Any] = json.loads((REPO / "content/attention/record.json").read_text("utf-8"))
REPORT_SCHEMA = json.loads((REPO / "schemas/report.schema.json").read_text("utf-8"))
STATS_FILE = REPO / "build" / "fuzz-stats.json"
BOUND = float(os.environ.get("ATLAS_FUZZ_BOUND", "10"))

# --- budget ---------------------------------------------------------------------------------

CI_EXAMPLES = {  # ~57 s in all under `make unit` (coverage on), ~25 s without, on 2 cores
    "record_structure": 150,
    "record_text": 300,
    "markdown": 150,
    "front_matter": 400,
    "claims": 120,
    "latex": 130,
}
LONG_FACTOR = 20
PROFILE = os.environ.get("ATLAS_FUZZ_PROFILE", "ci")
if PROFILE not in ("ci", "long"):
    raise ValueError(f"ATLAS_FUZZ_PROFILE must be ci or long, not {PROFILE!r}")

settings.register_profile(
    "atlas-fuzz-ci",
    deadline=None,  # the time bound is enforced per input below, not by Hypothesis
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
    print_blob=True,
)
settings.register_profile("atlas-fuzz-long", settings.get_profile("atlas-fuzz-ci"))


def budget(target: str) -> settings:
    """Hypothesis settings for one target under the active profile (never loaded globally)."""
    override = os.environ.get("ATLAS_FUZZ_EXAMPLES")
    examples = CI_EXAMPLES[target] * (LONG_FACTOR if PROFILE == "long" else 1)
    if override:
        examples = int(override)
    return settings(settings.get_profile(f"atlas-fuzz-{PROFILE}"), max_examples=examples)


TRIED: Counter[str] = Counter()
SECONDS: Counter[str] = Counter()
SLOWEST: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def _fuzz_stats(request: pytest.FixtureRequest) -> Iterator[None]:
    """Report how many inputs each target tried (terminal and build/fuzz-stats.json)."""
    started = time.perf_counter()
    yield
    stats = {
        "profile": PROFILE,
        "bound_seconds": BOUND,
        "inputs": dict(TRIED),
        "total_inputs": sum(TRIED.values()),
        "seconds": {key: round(value, 2) for key, value in SECONDS.items()},
        "slowest_input_seconds": {key: round(value, 3) for key, value in SLOWEST.items()},
        "wall_seconds": round(time.perf_counter() - started, 2),
    }
    STATS_FILE.parent.mkdir(parents=True, exist_ok=True)
    STATS_FILE.write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    line = (
        f"fuzz ({PROFILE}): {stats['total_inputs']} inputs tried ("
        + ", ".join(f"{key} {value}" for key, value in sorted(TRIED.items()))
        + f") in {stats['wall_seconds']} s; written to {STATS_FILE.relative_to(REPO)}"
    )
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture is not None else nullcontext():
        if reporter is not None:
            reporter.write_line("")
            reporter.write_line(line)
        else:  # pragma: no cover - without the terminal plugin
            print(line)


# --- the property ---------------------------------------------------------------------------


class FuzzTimeout(BaseException):
    """Raised in the main thread by the watchdog; a BaseException so no `except Exception`
    inside atlas-build can swallow it."""


_ARMED = threading.Event()


def _expire(signum: int, frame: Any) -> None:
    if _ARMED.is_set():
        _ARMED.clear()
        raise FuzzTimeout("check did not finish within the time bound")


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Interrupt the main thread after `seconds` of wall time (SIGUSR1 from a timer thread).

    SIGALRM is left alone: atlas-build's claim time limits use it.
    """
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover
        yield
        return
    previous = signal.signal(signal.SIGUSR1, _expire)
    main = threading.main_thread().ident
    assert main is not None
    timer = threading.Timer(seconds, signal.pthread_kill, (main, signal.SIGUSR1))
    timer.daemon = True
    _ARMED.set()
    timer.start()
    try:
        yield
    finally:
        _ARMED.clear()
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGUSR1, previous)


_VALIDATOR = jsonschema.Draft202012Validator(REPORT_SCHEMA)


def check_folder(target: str, folder: Path) -> dict[str, Any]:
    """Run check on one lesson folder and assert the fuzzing properties."""
    from atlas_build import pipeline
    from atlas_build.report import render

    TRIED[target] += 1
    started = time.perf_counter()
    with time_bound(BOUND):
        report, _ = pipeline.check([str(folder)], pipeline.Options(cache_dir=None, jobs=1))
        output = render(report, "json")
        text = render(report, "text", verbose=True)
    elapsed = time.perf_counter() - started
    SECONDS[target] += elapsed
    SLOWEST[target] = max(SLOWEST.get(target, 0.0), elapsed)
    assert elapsed <= BOUND, f"check took {elapsed:.1f} s"
    # what the CLI prints: stdout is UTF-8 with backslashreplace (lone surrogates escaped)
    printed = output.encode("utf-8", "backslashreplace").decode("utf-8")
    text.encode("utf-8", "backslashreplace")
    data = json.loads(printed)
    _VALIDATOR.validate(data)
    diagnostics = [d for record in data["records"] for d in record["diagnostics"]]
    shown = [(d["code"], d["line"], d["column"], d["message"][:160]) for d in diagnostics]
    note(f"diagnostics: {shown}")
    assert data["records"], "a lesson folder gave no record report"
    assert report.exit_code() in (0, 1), [d for d in shown if d[0] == "A901"]
    if report.exit_code() == 1:
        assert data["summary"]["errors"] >= 1
    for diagnostic in diagnostics:
        assert isinstance(diagnostic["line"], int) and diagnostic["line"] >= 1, diagnostic
        assert isinstance(diagnostic["column"], int) and diagnostic["column"] >= 1, diagnostic
    return data


@contextmanager
def lesson_folder(files: dict[str, bytes]) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="atlas-fuzz-") as root:
        folder = Path(root) / "content" / "attention"
        folder.mkdir(parents=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        yield folder


def run(target: str, files: dict[str, bytes | str]) -> dict[str, Any]:
    encoded = {
        name: data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
        for name, data in files.items()
    }
    with lesson_folder(encoded) as folder:
        return check_folder(target, folder)


# --- shared material ----------------------------------------------------------------------


def _refreshed(record: dict[str, Any]) -> dict[str, Any]:
    from atlas_build.load import records

    return records.refresh(record)[0]


BASE = _refreshed(copy.deepcopy(SEED))
BASE_TEXT = json.dumps(BASE, ensure_ascii=False, indent=2) + "\n"
METADATA = {
    key: value
    for key, value in SEED.items()
    if key not in {"content", "contentHash", "contentLength", "sections", "recordHash"}
}
CONTENT = SEED["content"]

STRINGS = [
    "",
    " ",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "file:///etc/passwd",
    "vbscript:msgbox",
    "https://",
    "http://[::1",
    "https://example.org/%zz",
    "https://example.org/a b",
    "mailto:someone@example.org",
    "//evil.example/x",
    "../../etc/passwd",
    "..\\..\\x",
    "Atlas-Lesson-Attention",
    "atlas-lesson-attention",
    "atlas-lesson-kv-cache",
    "section-0",
    "section-1",
    "2026-02-30",
    "2026-10-07",
    "1.3.0",
    "01.2.3",
    "text/markdown",
    "\x00",
    "\u202e",
    "\ufeff",
    "\r\n",
    "\u2028",
    "𝔸𝕥𝕝𝕒𝕤 🧠",
    "a" * 3000,
    "<script>alert(1)</script>",
    "$$x = 1$$",
    "# heading",
    "NaN",
    "1e400",
    "0" * 64,
    "f" * 64,
]
URLS = [s for s in STRINGS if ":" in s or s.startswith("/")] + [
    "https://arxiv.org/abs/1706.03762",
    "https://semiaifoundry.com/ai-atlas/#attention",
    "ftp://example.org/x",
]
INTEGERS = st.one_of(
    st.integers(-3, 20_000),
    st.sampled_from([2**53 + 1, 2**63, 2**64 + 7, -(2**63) - 1, 10**30]),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    INTEGERS,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(STRINGS),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["id", "title", "start", "end", "url", "note"]) | st.text(max_size=8),
            inner,
            max_size=4,
        )
    ),
    max_leaves=10,
)

MARKDOWN_TOKENS = [
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "# ",
    "## ",
    "### ",
    "#### Heading",
    "####### too deep",
    "Setext\n===\n",
    "- ",
    "* ",
    "1. ",
    "2) ",
    "> ",
    "    ",
    "\t",
    "```",
    "```python\n",
    "~~~",
    "`",
    "$",
    "$$",
    "$$\n",
    "\\[",
    "\\]",
    "[",
    "]",
    "(",
    ")",
    "](",
    "[link](https://example.org/x)",
    "[js](javascript:alert(1))",
    "[data](data:text/html,x)",
    "[file](file:///etc/passwd)",
    "[ftp](ftp://x)",
    "[next](../kv-cache/)",
    "[broken](../nope/)",
    "[anchor](#section-1)",
    "[anchor](#no-such)",
    "[ref][1]",
    "\n[1]: javascript:alert(1)\n",
    "![img](x.png)",
    "<https://example.org>",
    "<javascript:alert(1)>",
    "<script>alert(1)</script>",
    '<iframe src="javascript:alert(1)">',
    '<img src=x onerror="alert(1)">',
    "<!--",
    "-->",
    "<div>",
    "|",
    "| a | b |\n|---|---|\n",
    "---",
    "***",
    "**",
    "_",
    "~~",
    "\\",
    "&amp;",
    "&#0;",
    "&#x110000;",
    "𝔸",
    "🧠",
    "\u200b",
    "\ufeff",
    "\x00",
    "\u0085",
    "Check your understanding",
    "Answer and reasoning",
    "## Sources",
    "## Check your understanding\n\n### Question?\n\n1. A.\n2. B.\n\nAnswer and reasoning\n\n",
    "Assumptions",
    "Symbols and units",
    "Learning objective",
    "\\frac{1}{2}",
    "e^{x}",
    "\\sum_j a_j",
    "0.25×(2−5)=−0.75",
    "output is 5.",
    "about 3",
    "≈",
    "1e9",
    "10^{9}",
]
MARKDOWN = st.lists(st.sampled_from(MARKDOWN_TOKENS) | st.text(max_size=12), max_size=60).map(
    "".join
)


@st.composite
def splice(draw: st.DrawFn, base: str, insert: st.SearchStrategy[str]) -> str:
    """`base` with 1-3 snippets inserted, or a span replaced, at drawn positions."""
    text = base
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + draw(st.integers(0, 80)))))
        text = text[:start] + draw(insert) + text[end:]
    return text


# --- records -------------------------------------------------------------------------------


def _set_path(record: dict[str, Any], path: list[Any], value: Any) -> None:
    parent: Any = record
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value


@st.composite
def structured_records(draw: st.DrawFn) -> str:
    """The seed with a few structural edits, sometimes re-hashed, serialised in some style."""
    record = copy.deepcopy(SEED)
    for _ in range(draw(st.integers(1, 4))):
        operation = draw(
            st.sampled_from(["set", "delete", "add", "section", "citation", "content", "list"])
        )
        if operation == "set":
            record[draw(st.sampled_from(sorted(SEED)))] = draw(JSON_VALUES)
        elif operation == "delete" and record:
            record.pop(draw(st.sampled_from(sorted(record))))
        elif operation == "add":
            record[draw(st.text(max_size=12))] = draw(JSON_VALUES)
        elif operation == "section" and isinstance(record.get("sections"), list):
            sections = record["sections"]
            if sections and draw(st.booleans()):
                index = draw(st.integers(0, len(sections) - 1))
                if isinstance(sections[index], dict):
                    field = draw(st.sampled_from(["id", "title", "start", "end", "extra"]))
                    value = draw(INTEGERS) if field in ("start", "end") else draw(JSON_VALUES)
                    sections[index][field] = value
            elif sections:
                sections[:] = draw(st.permutations(sections))
        elif operation == "citation" and isinstance(record.get("citations"), list):
            citations = record["citations"]
            if citations:
                index = draw(st.integers(0, len(citations) - 1))
                if isinstance(citations[index], dict):
                    citations[index]["url"] = draw(st.sampled_from(URLS) | st.text(max_size=20))
        elif operation == "content" and isinstance(record.get("content"), str):
            record["content"] = draw(splice(record["content"], MARKDOWN))
        elif operation == "list":
            key = draw(st.sampled_from(["related", "supersedes", "supersededBy"]))
            record[key] = draw(st.lists(st.sampled_from(STRINGS) | st.text(max_size=10)))
    if draw(st.booleans()):
        try:
            record = _refreshed(record)
        except Exception:  # the generator's own helper; only check() is under test
            pass
    indent = draw(st.sampled_from([None, 2, 0]))
    return json.dumps(record, ensure_ascii=draw(st.booleans()), indent=indent)


JSON_TOKENS = [
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b",",
    b":",
    b" ",
    b"\n",
    b"\r\n",
    b"\t",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"1e400",
    b"-0",
    b"9" * 5000,
    b"true",
    b"null",
    b"\\",
    b"\\u0000",
    b"\\ud800",
    b"\\udc00",
    b"\\ud83e\\udde0",
    b"\\x",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xe9",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\x00",
    b"//",
    b"/*",
    b'"id": "x", ',
    b'"id": ',
    b'"content": ',
    b'"sections": [{"id": "section-1", "title": "x", "start": 0, "end": 5}]',
    b"[" * 70,
    b"{" * 70,
    b"]" * 70,
]


@st.composite
def mutated_bytes(draw: st.DrawFn, base: bytes) -> bytes:
    """`base` after 1-5 byte-level edits: insert, delete, replace, duplicate, truncate."""
    data = base
    for _ in range(draw(st.integers(1, 5))):
        operation = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "truncate"]))
        start = draw(st.integers(0, len(data)))
        end = min(len(data), start + draw(st.integers(0, 64)))
        token = draw(st.sampled_from(JSON_TOKENS) | st.binary(max_size=8))
        if operation == "insert":
            data = data[:start] + token + data[start:]
        elif operation == "delete":
            data = data[:start] + data[end:]
        elif operation == "replace":
            data = data[:start] + token + data[end:]
        elif operation == "duplicate":
            data = data[:end] + data[start:end] + data[end:]
        else:
            data = data[:start]
    return data


@budget("record_structure")
@given(text=structured_records())
def test_fuzz_record_structure(text: str) -> None:
    run("record_structure", {"record.json": text})


@budget("record_text")
@given(data=mutated_bytes(BASE_TEXT.encode("utf-8")))
def test_fuzz_record_text(data: bytes) -> None:
    run("record_text", {"record.json": data})


# --- markdown bodies ------------------------------------------------------------------------


def _record_for(body: str) -> dict[str, Any]:
    from atlas_build.load import records

    return records.compose(dict(METADATA), body)


@budget("markdown")
@given(
    body=st.one_of(MARKDOWN, splice(CONTENT, MARKDOWN)),
    as_lesson=st.booleans(),
    crlf=st.booleans(),
)
def test_fuzz_markdown_body(body: str, as_lesson: bool, crlf: bool) -> None:
    if crlf:
        body = body.replace("\n", "\r\n")
    if as_lesson:
        from atlas_build.authoring.sources import front_matter

        run("markdown", {"lesson.md": front_matter(METADATA) + body})
    else:
        run("markdown", {"record.json": json.dumps(_record_for(body), ensure_ascii=False)})


# --- front matter ------------------------------------------------------------------------------


def _front_matter_text() -> str:
    from atlas_build.authoring.sources import front_matter

    return front_matter(METADATA)[len("---\n") : -len("---\n")]


FRONT = _front_matter_text()
YAML_TOKENS = [
    "\n",
    "  ",
    "\t",
    "- ",
    "? ",
    ": ",
    "key: ",
    "id: ",
    "title: ",
    "contentHash: ",
    "sections: ",
    "&a ",
    "*a",
    "&b [*a, *a, *a]",
    "<<: *a",
    "!!python/object/apply:os.system ['true']",
    "!!python/name:os.system",
    "!tag ",
    "!!str ",
    "!!binary ",
    "!!timestamp ",
    "!!bool maybe",
    '!!int ""',
    "!!set ",
    "!!omap ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "|",
    "|-",
    ">",
    "'",
    '"',
    "#",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n",
    "---\n",
    "...\n",
    ".inf",
    "-.inf",
    ".nan",
    "1e999",
    "0x1F",
    "0o17",
    "1_000",
    "null",
    "~",
    "yes",
    "2026-10-07",
    "2026-10-07T12:00:00Z",
    "\x00",
    "\x07",
    "\x85",
    "\x9f",
    "\ufeff",
    "\u2028",
    "𝔸",
    "javascript:alert(1)",
    "../../etc/passwd",
    "Atlas-Lesson",
    "[" * 40,
    "9" * 5000,
]


@st.composite
def front_matters(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        lines = FRONT.split("\n")
        for _ in range(draw(st.integers(1, 4))):
            index = draw(st.integers(0, len(lines) - 1))
            operation = draw(st.sampled_from(["delete", "duplicate", "insert", "edit", "swap"]))
            token = draw(st.sampled_from(YAML_TOKENS) | st.text(max_size=10))
            if operation == "delete" and len(lines) > 1:
                lines.pop(index)
            elif operation == "duplicate":
                lines.insert(index, lines[index])
            elif operation == "insert":
                lines.insert(index, token)
            elif operation == "swap":
                other = draw(st.integers(0, len(lines) - 1))
                lines[index], lines[other] = lines[other], lines[index]
            else:
                line = lines[index]
                at = draw(st.integers(0, len(line)))
                lines[index] = line[:at] + token + line[at:]
        return "\n".join(lines)
    return "".join(draw(st.lists(st.sampled_from(YAML_TOKENS) | st.text(max_size=8), max_size=40)))


@budget("front_matter")
@given(front=front_matters(), closing=st.sampled_from(["\n---\n", "\n...\n", "\n", ""]))
def test_fuzz_front_matter(front: str, closing: str) -> None:
    run("front_matter", {"lesson.md": "---\n" + front + closing + CONTENT})


# --- claims files --------------------------------------------------------------------------------

KINDS = [
    "softmax_mixture",
    "causal_prefix",
    "packed_mask",
    "loss_mask",
    "quiz",
    "shape",
    "softmax",
    "formula",
    "variance",
    "equation",
    "telepathy",
    "",
]
QUOTES = [
    "With allowed scores \\[0,ln3\\] and scalar values \\[2,6\\], attention probabilities are "
    "\\[0.25,0.75\\] and output is 5.",
    "derivative with respect to score one is 0.25×(2−5)=−0.75 and score two is 0.75×(6−5)=0.75.",
    "At the first causal position only value 2 is allowed, so output is 2 regardless of future "
    "score or value.",
    "If the second document begins at block slot5, its query at slot7 can attend to slots5,6,7.",
    "T × T per head",
    "a sum of dₖ independent unit-variance products has variance dₖ",
    "output is 5.",
    "not in the lesson at all 42",
    "",
]
NUMBERS = st.one_of(
    st.integers(-5, 70),
    st.sampled_from([10**9, 2**31, 65_537, 10**30]),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
    st.sampled_from(["0", "ln 3", "1/4", "0.25", "e", "10^{9}", "1e308", "-1e-308", "ln 0", "x"]),
)
PARAM_VALUES = st.one_of(
    NUMBERS,
    st.lists(NUMBERS, max_size=6),
    st.lists(st.lists(st.integers(-2, 30), max_size=6), max_size=4),
    st.sampled_from(STRINGS),
    JSON_VALUES,
)
PARAM_NAMES = [
    "scores",
    "values",
    "docs",
    "block_size",
    "query",
    "position",
    "trials",
    "question",
    "fact",
    "tensor",
    "sequence",
    "width",
    "logits",
    "temperature",
    "shift",
    "equation",
    "relation",
    "relations",
    "sizes",
    "inputs",
    "engine",
    "mask",
    "causal",
    "definitions",
    "indices",
    "samples",
    "widths",
    "identities",
    "expressions",
    "colour",
]
VALID_PARAMS = {
    "softmax_mixture": {"scores": ["0", "ln 3"], "values": [2, 6]},
    "causal_prefix": {"values": [2, 6], "position": 0},
    "packed_mask": {"docs": [[1, 11, 3, 12, 2], [1, 21, 3, 22, 23, 2]], "block_size": 16},
    "loss_mask": {"docs": [[1, 11, 3, 12, 2], [1, 21, 3, 22, 23, 2]], "block_size": 16},
    "quiz": {"question": "Which keys are allowed", "fact": "c0.allowed"},
    "shape": {"tensor": "scores", "sequence": "T"},
    "softmax": {"logits": [1, 2, 3], "temperature": 1},
}


@st.composite
def claim_specs(draw: st.DrawFn, index: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    params = copy.deepcopy(VALID_PARAMS.get(kind, {})) if draw(st.booleans()) else {}
    for _ in range(draw(st.integers(0, 3))):
        params[draw(st.sampled_from(PARAM_NAMES))] = draw(PARAM_VALUES)
    spec: dict[str, Any] = {"id": f"c{index}", "kind": kind, "params": params}
    quote = draw(st.sampled_from(QUOTES) | st.text(max_size=30))
    if quote:
        spec["quote"] = quote
    if draw(st.booleans()):
        spec["bind"] = draw(
            st.lists(
                st.none()
                | st.sampled_from(["output", "probabilities", "scores[0]", "allowed", "x[9]"])
                | st.fixed_dictionaries(
                    {"value": st.sampled_from(["output", "dout_ds[0]"])},
                    optional={"relation": st.sampled_from([">", "<", "=="])},
                ),
                max_size=5,
            )
        )
    if draw(st.booleans()):
        spec["occurrences"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        spec["extends"] = draw(st.sampled_from(["c0", "c1", "c2", "nobody"]))
    return spec


@st.composite
def structured_claims(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 3))
    data: dict[str, Any] = {
        "defaults": {"timeout": 1},
        "claims": [draw(claim_specs(index)) for index in range(count)],
    }
    if draw(st.booleans()):
        data["lesson"] = draw(st.sampled_from(["atlas-lesson-attention", "atlas-lesson-other"]))
    if draw(st.booleans()):
        data["unchecked"] = [{"equation": 0, "reason": "fuzz"}, {"equation": 1, "reason": "fuzz"}]
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def _cheap_claims() -> str:
    """The attention claims without the two SymPy-heavy equation claims, 1 s per claim."""
    data = yaml.safe_load((REPO / "content/attention/claims.yaml").read_text("utf-8"))
    data["defaults"] = {"timeout": 1}
    data["claims"] = [claim for claim in data["claims"] if claim["kind"] != "equation"]
    data["unchecked"] = [{"equation": 0, "reason": "fuzz"}, {"equation": 1, "reason": "fuzz"}]
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


CHEAP_CLAIMS = _cheap_claims()


@budget("claims")
@given(
    claims=st.one_of(
        structured_claims().map(str.encode),
        mutated_bytes(CHEAP_CLAIMS.encode("utf-8")),
        splice(CHEAP_CLAIMS, st.sampled_from(YAML_TOKENS) | st.text(max_size=8)).map(
            lambda text: text.encode("utf-8", "surrogatepass")
        ),
    )
)
def test_fuzz_claims_file(claims: bytes) -> None:
    run("claims", {"record.json": BASE_TEXT, "claims.yaml": claims})


# --- LaTeX -------------------------------------------------------------------------------------

LATEX_TOKENS = [
    "x",
    "y",
    "n",
    "o",
    "a_j",
    "v_j",
    "s_j",
    "a_{j}",
    "x^2",
    "=",
    "=",
    "+",
    "-",
    "\\cdot",
    "\\times",
    "/",
    "^",
    "_",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\\{",
    "\\}",
    "\\left(",
    "\\right)",
    "\\left.",
    "\\frac{",
    "\\frac{1}{2}",
    "\\dfrac",
    "\\sqrt{",
    "\\sqrt[3]{x}",
    "\\sum_{j=1}^{n}",
    "\\sum_j",
    "\\prod_{k}",
    "\\partial",
    "\\frac{\\partial o}{\\partial s_j}",
    "e^{",
    "\\exp",
    "\\log",
    "\\ln",
    "\\operatorname{softmax}",
    "\\operatorname{Var}",
    "\\mathrm{rows}",
    "\\mathsf{T}",
    "\\top",
    "\\mathbb{R}",
    "\\foo",
    "\\",
    "\\\\",
    "&",
    "\\begin{aligned}",
    "\\end{aligned}",
    "\\begin{pmatrix}",
    "\\quad",
    "\\qquad",
    ",",
    "\\approx",
    "\\propto",
    "\\le",
    "\\geq",
    "<",
    ">",
    "\\neq",
    "\\infty",
    "0",
    "1",
    "2",
    "3.5",
    "10^{9}",
    "10^{10^{10}}",
    "!",
    "'",
    "\\alpha",
    "\\delta_{jk}",
    "\\,",
    "\\!",
    "|",
    "\\|",
    "\\text{x}",
    "%",
    "#",
    "$",
    "~",
    " ",
    "\n",
    "𝔸",
]
LATEX = st.lists(st.sampled_from(LATEX_TOKENS) | st.text(max_size=4), min_size=1, max_size=40).map(
    "".join
)


@st.composite
def latex_lessons(draw: st.DrawFn) -> tuple[str, str]:
    latex = draw(LATEX)
    content = CONTENT.rstrip("\n") + "\n\n$$\n" + latex + "\n$$\n"
    record = _record_for(content)
    check = draw(st.sampled_from(["derive", "sample", "definition"]))
    claim: dict[str, Any] = {"id": "fuzz", "kind": "equation"}
    params: dict[str, Any] = {
        "equation": 2,
        "indices": ["j", "k", "m"],
        "relations": [{"relation": draw(st.integers(0, 2)), "check": check}],
    }
    if check == "sample":
        params["values"] = {"x": 0.5, "y": 1.5, "n": 3, "o": 0.25, "alpha": 2.0}
    if draw(st.booleans()):
        params["definitions"] = {draw(st.sampled_from(["a_k", "x", "o"])): draw(LATEX)}
    if draw(st.booleans()):
        claim = {"id": "fuzz", "kind": "formula", "params": {"values": {"x": 2, "n": 3}}}
        claim["params"]["identities"] = [{"equation": 2, "relation": 0}]
    else:
        claim["params"] = params
    claims = {
        "defaults": {"timeout": 1},
        "unchecked": [{"equation": 0, "reason": "fuzz"}, {"equation": 1, "reason": "fuzz"}],
        "claims": [claim],
    }
    return (
        json.dumps(record, ensure_ascii=False),
        yaml.safe_dump(claims, allow_unicode=True, sort_keys=False),
    )


@budget("latex")
@given(lesson=latex_lessons())
def test_fuzz_latex(lesson: tuple[str, str]) -> None:
    record, claims = lesson
    run("latex", {"record.json": record, "claims.yaml": claims})


# --- the harness itself ------------------------------------------------------------------------


def test_time_bound_interrupts_a_hang() -> None:
    """The watchdog really interrupts a busy loop, even under `except Exception`."""
    started = time.perf_counter()
    with pytest.raises(FuzzTimeout):
        with time_bound(0.2):
            while True:
                try:
                    sum(range(1000))
                except Exception:  # must not swallow the timeout
                    pass
    assert time.perf_counter() - started < 2


def test_budget_profiles() -> None:
    assert budget("record_text").max_examples >= 1
    assert settings.get_profile("atlas-fuzz-long").deadline is None
