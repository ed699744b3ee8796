"""Every claim kind on small lessons written here (not the seed's numbers), and the errors of
the claims stage: parameter validation, unknown kinds, bad claims files, time limits,
oversized engine requests, unsupported LaTeX, and no evaluation of lesson text."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sympy
from support import DOUBLING_BODY, Checked, at, check, position, write_lesson, yaml_string

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def lesson(tmp_path: Path):
    """Write lesson.md + claims.yaml under tmp_path and run the real pipeline on them."""

    def make(body: str, claims: str, slug: str = "probe") -> Checked:
        return check(write_lesson(tmp_path, slug, body, claims))

    return make


def same_file(reported: str, expected: Path) -> bool:
    return Path(reported).resolve() == expected.resolve()


# --- softmax_mixture ------------------------------------------------------------------------

MIXTURE_SENTENCE = (
    "With scores \\[0,ln2,1\\] and values \\[1,4,−2\\], the probabilities to three "
    "decimals are \\[0.175,0.350,{p3}\\] and output is about {out}."
)
MIXTURE_BODY = "## Worked example\n\n" + MIXTURE_SENTENCE + "\n"
MIXTURE_CLAIMS = f"""
claims:
  - id: mix
    kind: softmax_mixture
    quote: {yaml_string(MIXTURE_SENTENCE.format(p3="0.475", out="0.623"))}
    bind: [scores, values, probabilities, output]
    params: {{scores: ["0", "ln 2", 1], values: [1, 4, -2]}}
"""


def test_softmax_mixture_generic_inputs_pass(lesson):
    # probabilities (1, 2, e) / (3 + e) = 0.17488, 0.34975, 0.47537; output 0.62317
    result = lesson(MIXTURE_BODY.format(p3="0.475", out="0.623"), MIXTURE_CLAIMS)
    assert result.status() == {"mix": "pass"}
    assert result.errors() == []
    claim = result.claim("mix")
    assert [v["name"] for v in claim["values"]] == ["scores", "values", "probabilities", "output"]
    assert all(v["ok"] for v in claim["values"])
    checks = {c["name"]: c["ok"] for c in claim["checks"]}
    assert checks == {
        "derivative-by-calculus": True,
        "engine-probabilities": True,
        "engine-output": True,
        "engine-dout_ds": True,
        "engine-backward": True,
        "finite-differences": True,
    }


@pytest.mark.parametrize(
    ("p3", "out", "name", "says"),
    [
        ("0.476", "0.623", "probabilities", "\\[0.175,0.350,0.476\\]"),
        ("0.475", "0.633", "output", "the lesson says 0.633"),
    ],
)
def test_softmax_mixture_wrong_number_fails_at_it(lesson, p3, out, name, says):
    body = MIXTURE_BODY.format(p3=p3, out=out)
    result = lesson(body, MIXTURE_CLAIMS)
    assert result.status() == {"mix": "fail"}
    [mismatch] = result.found("A401")
    assert f"claim mix: {name}: " in mismatch.message and says in mismatch.message
    needle = "\\[0.175" if name == "probabilities" else out
    assert same_file(mismatch.path, result.lesson_path)
    assert at(mismatch) == result.lesson_at(needle)


# --- packed_mask and loss_mask -------------------------------------------------------------

PACKING_BODY = (
    "## Packing\n\nThree documents share one block. If the third document begins at slot7, "
    "its query at slot8 can attend to {slots}. When an EOS is followed by another "
    "document's BOS, the prediction loss is masked.\n"
)
PACKING_CLAIMS = """
claims:
  - id: keys
    kind: packed_mask
    quote: "If the third document begins at slot7, its query at slot8 can attend to slots7,8."
    bind: [doc_start, query, allowed]
    params: {docs: [[1, 5, 2], [1, 6, 7, 2], [1, 8, 9, 2]], block_size: 12, query: 8}
  - id: loss
    kind: loss_mask
    quote: "When an EOS is followed by another document's BOS, the prediction loss is masked."
    params: {docs: [[1, 5, 2], [1, 6, 7, 2], [1, 8, 9, 2]], block_size: 12}
"""


def test_packed_mask_three_documents(lesson):
    result = lesson(PACKING_BODY.format(slots="slots7,8"), PACKING_CLAIMS)
    assert result.status() == {"keys": "pass", "loss": "pass"}
    assert result.errors() == []
    values = {v["name"]: v["computed"] for v in result.claim("keys")["values"]}
    assert values == {"doc_start": "7", "query": "8", "allowed": "{7, 8}"}
    checks = {c["name"]: c["ok"] for c in result.claim("loss")["checks"]}
    assert checks["boundary-predictions-masked"] is True
    # every document end is masked: into the next BOS (2, 6) and into padding (10)
    assert "[2, 6, 10]" in next(
        c["message"] for c in result.claim("loss")["checks"] if c["name"].startswith("boundary")
    )


@pytest.mark.parametrize("slots", ["slots3–8", "slots8", "slots7,8,9"])
def test_packed_mask_wrong_slots_fail(lesson, slots):
    result = lesson(PACKING_BODY.format(slots=slots), PACKING_CLAIMS)
    assert result.status()["keys"] == "fail"
    [mismatch] = result.found("A401")
    assert f"the lesson says {slots}, computed {{7, 8}}" in mismatch.message
    assert at(mismatch) == result.lesson_at(slots)


# --- causal_prefix ------------------------------------------------------------------------

PREFIX_SENTENCE = (
    "With values \\[3,5,7,9\\], the query at position 2 may use positions {allowed} and "
    "ignores later scores and values."
)
PREFIX_BODY = "## Causal prefix\n\n" + PREFIX_SENTENCE + "\n"
PREFIX_CLAIMS = f"""
claims:
  - id: prefix
    kind: causal_prefix
    quote: {yaml_string(PREFIX_SENTENCE.format(allowed="0–2"))}
    bind: [null, position, allowed]
    params: {{values: [3, 5, 7, 9], position: 2, trials: 20}}
"""


def test_causal_prefix_at_position_two(lesson):
    result = lesson(PREFIX_BODY.format(allowed="0–2"), PREFIX_CLAIMS)
    assert result.status() == {"prefix": "pass"}
    claim = result.claim("prefix")
    assert {c["name"]: c["ok"] for c in claim["checks"]} == {"prefix-invariance": True}
    assert {v["name"]: v["computed"] for v in claim["values"]} == {
        "position": "2",
        "allowed": "{0, 1, 2}",
    }


def test_causal_prefix_wrong_allowed_set_fails(lesson):
    result = lesson(PREFIX_BODY.format(allowed="0–3"), PREFIX_CLAIMS)
    assert result.status() == {"prefix": "fail"}
    [mismatch] = result.found("A401")
    assert "allowed: the lesson says positions 0–3, computed {0, 1, 2}" in mismatch.message
    assert at(mismatch) == result.lesson_at("positions 0–3")


# --- formula, quiz and shape --------------------------------------------------------------

DOUBLING_CLAIMS = """
claims:
  - id: double
    kind: formula
    quote: "With x = 3 the output is y = 6."
    bind: [x, y]
    params:
      values: {{x: 3}}
      use: [{{equation: 0, relation: 0}}]
  - id: quiz
    kind: quiz
    params: {{question: "What is y", fact: double.y}}
  - id: shape
    kind: shape
    quote: "T × T per head"
    params: {{tensor: {tensor}}}
"""


def doubling(y: str = "6", option: str = "7", answer: str = "6", tensor: str = "scores"):
    return (
        DOUBLING_BODY.format(y=y, option=option, answer=answer),
        DOUBLING_CLAIMS.format(tensor=tensor),
    )


def test_formula_quiz_and_shape_pass(lesson):
    result = lesson(*doubling())
    assert result.status() == {"double": "pass", "quiz": "pass", "shape": "pass"}
    assert result.errors() == [] and result.found("A407") == []
    [relation] = result.record.coverage["relations"]["items"]
    assert relation["status"] == "verified" and relation["claims"] == ["double"]


def test_formula_wrong_result_fails_at_the_number(lesson):
    result = lesson(*doubling(y="7"))
    assert result.status()["double"] == "fail"
    [mismatch] = result.found("A401")
    assert "claim double: y: the lesson says 7, computed 6" in mismatch.message
    assert at(mismatch) == result.lesson_at("y = 7", shift=4)


def test_formula_follows_the_lessons_equation(lesson):
    """The value comes from the displayed equation, not a copy: edit it and y = 6 fails."""
    body, claims = doubling()
    result = lesson(body.replace("y=2\\cdot x", "y=3\\cdot x"), claims)
    assert result.status()["double"] == "fail"
    assert "the lesson says 6, computed 9" in result.found("A401")[0].message
    # the quiz reads the same computed fact, so its stated answer 6 is now wrong too
    assert result.status()["quiz"] == "fail"


def test_quiz_wrong_answer_fails_at_the_answer(lesson):
    result = lesson(*doubling(answer="5"))
    assert result.status() == {"double": "pass", "quiz": "fail", "shape": "pass"}
    [failed] = result.found("A403")
    assert "claim quiz: answer-agrees: answer '5' should state 6" in failed.message
    assert at(failed) == result.lesson_at("Answer and reasoning\n\n5", shift=22)


@pytest.mark.parametrize("broken", ["kind: formulae", "valeus: {x: 3}"])
def test_a_quiz_on_a_broken_claim_says_which_claim_is_broken(lesson, broken):
    """The referenced claim reports its own error; the quiz names that claim and where its
    error is, in one line, instead of repeating the message as if it were its own."""
    body, claims = doubling()
    if broken.startswith("kind"):
        claims = claims.replace("kind: formula", broken, 1)
    else:
        claims = claims.replace("values: {x: 3}", broken, 1)
    result = lesson(body, claims)
    own, quiz = [d for d in result.found("A404")]
    assert own.message.startswith("claim double: ") and "not evaluated" not in own.message
    assert quiz.message == (
        "claim quiz: not evaluated: it uses claim 'double', whose error is at "
        f"line {own.line}, column {own.column}"
    )
    assert result.status()["quiz"] == "error"


def test_quiz_two_right_options_fail(lesson):
    result = lesson(*doubling(option="6"))
    assert result.status()["quiz"] == "fail"
    [failed] = result.found("A403")
    assert "one-right-option" in failed.message and "found 2" in failed.message


def test_shape_of_output_is_not_t_by_t(lesson):
    result = lesson(*doubling(tensor="output"))
    assert result.status()["shape"] == "fail"
    [failed] = result.found("A403")
    assert "the lesson states T × T; the engine's output per head are T × d" in failed.message
    assert at(failed) == result.lesson_at("T × T per head")


def test_shape_of_probabilities_is_t_by_t(lesson):
    assert lesson(*doubling(tensor="probs")).status()["shape"] == "pass"


# --- equation: derive and sample ----------------------------------------------------------

SQUARE_BODY = """
## Science and assumptions

### Square

$$
f=x^2,\\qquad \\frac{{\\partial f}}{{\\partial x}}={derivative}
$$

The slope of a square.
"""
SQUARE_CLAIMS = """
claims:
  - id: square
    kind: equation
    params:
      equation: 0
      relations:
        - {relation: 0, check: definition}
        - {relation: 1, check: derive}
"""


def test_equation_derive_passes(lesson):
    result = lesson(SQUARE_BODY.format(derivative="2x"), SQUARE_CLAIMS)
    assert result.status() == {"square": "pass"}
    relations = result.record.coverage["relations"]
    assert [r["status"] for r in relations["items"]] == ["defined", "verified"]
    checks = result.claim("square")["checks"]
    assert [(c["name"], c["ok"]) for c in checks] == [("derive-1", True)]


@pytest.mark.parametrize(("derivative", "residue"), [("3x", "-x"), ("2x+1", "-1"), ("x^2", "")])
def test_equation_derive_detects_a_wrong_derivative(lesson, derivative, residue):
    result = lesson(SQUARE_BODY.format(derivative=derivative), SQUARE_CLAIMS)
    assert result.status() == {"square": "fail"}
    [failed] = result.found("A403")
    assert "derive-1" in failed.message and f"={derivative}" in failed.message
    assert f"simplifies to {residue}" in failed.message
    assert at(failed) == result.lesson_at("\\frac{\\partial f}")


ATTENTION_LATEX = (
    "A=\\operatorname{softmax}_{\\mathrm{rows}}\\!\\left(\\frac{QK^{\\mathsf T}}{%s}\\right),"
    "\\qquad Y=AV"
)
ATTENTION_BODY = """
## Science and assumptions

### Attention without a mask

$$
{latex}
$$

Rows of A mix the values.
"""
ATTENTION_CLAIMS = """
claims:
  - id: attention
    kind: equation
    params:
      equation: 0
      matrices: [Q, K, V, A, Y]
      sizes: {{T: {T}, d: 4, e: 2}}
      inputs: {{Q: [T, d], K: [T, d], V: [T, e]}}
      engine: {{A: probs, Y: output}}
      seeds: [0, 1]
      relations:
        - {{relation: 0, check: sample}}
        - {{relation: 1, check: sample}}
"""


def test_equation_sample_against_the_engine(lesson):
    body = ATTENTION_BODY.format(latex=ATTENTION_LATEX % "\\sqrt{d}")
    result = lesson(body, ATTENTION_CLAIMS.format(T=5))
    assert result.status() == {"attention": "pass"}
    checks = {c["name"]: c["ok"] for c in result.claim("attention")["checks"]}
    assert checks == {"sample-0": True, "sample-1": True}


def test_equation_sample_detects_a_wrong_scale(lesson):
    body = ATTENTION_BODY.format(latex=ATTENTION_LATEX % "d")
    result = lesson(body, ATTENTION_CLAIMS.format(T=5))
    assert result.status() == {"attention": "fail"}
    [failed] = result.found("A403")
    assert "sample-0" in failed.message and "sides differ by" in failed.message
    assert at(failed) == result.lesson_at("A=\\operatorname")


# --- variance -----------------------------------------------------------------------------

VARIANCE_BODY = """
## Science and assumptions

### Score scale

$$
\\operatorname{{Var}}(q^{{\\mathsf T}}k)\\approx {stated}
$$

Under independent unit-variance coordinates the variance of a dot product grows with width.
"""
VARIANCE_CLAIMS = """
claims:
  - id: variance
    kind: variance
    params: {equation: 0, relation: 0, width: d_k, widths: [8], samples: 20000}
"""


@pytest.mark.parametrize(
    ("stated", "status"), [("d_k", "pass"), ("2d_k", "fail"), ("d_k^2", "fail")]
)
def test_variance_derived_and_sampled(lesson, stated, status):
    result = lesson(VARIANCE_BODY.format(stated=stated), VARIANCE_CLAIMS)
    assert result.status() == {"variance": status}
    checks = {c["name"]: c["ok"] for c in result.claim("variance")["checks"]}
    assert set(checks) == {"derived-equals-stated", "monte-carlo-8"}
    if status == "pass":
        assert all(checks.values())
        assert result.errors() == []
    else:
        assert not checks["derived-equals-stated"] and not checks["monte-carlo-8"]
        failed = result.found("A403")
        assert len(failed) == 2
        assert all(at(d) == result.lesson_at("\\operatorname{Var}") for d in failed)
        assert "sympy.stats derives d_k" in failed[0].message


# --- errors: parameters, kinds, claims files ----------------------------------------------

PLAIN_BODY = """
## Worked example

With scores \\[0,ln3\\] and values \\[2,6\\] the output is 5.
"""


def test_parameter_errors_are_a404_at_the_claim(lesson):
    claims = """
    claims:
      - id: bad-type
        kind: softmax_mixture
        params: {scores: [0, 1], values: "two"}
      - id: missing
        kind: softmax_mixture
        params: {scores: [0, 1]}
      - id: extra
        kind: causal_prefix
        params: {values: [1, 2], position: 0, colour: red}
      - id: not-a-number
        kind: softmax_mixture
        params: {scores: ["0", "ln(x)"], values: [1, 2]}
      - id: mismatch
        kind: softmax_mixture
        params: {scores: [0, 1, 2], values: [1, 2]}
      - id: weird
        kind: frobnicate
        params: {}
      - id: no-such-fact
        kind: quiz
        params: {question: "anything", fact: "missing.value"}
    """
    result = lesson(PLAIN_BODY, claims)
    assert set(result.status().values()) == {"error"}
    expected = {  # (message, where: the parameter when it is written, else the claim)
        "bad-type": ("`values` must be a list, not str 'two'", 'values: "two"'),
        "missing": ("`values` is required", "params: {scores: [0, 1]}"),
        "extra": ("`colour` is not a parameter of kind causal_prefix", "colour: red"),
        "not-a-number": ("scores[1]", None),
        "mismatch": ("3 scores but 2 values", None),
        "weird": ("unknown claim kind 'frobnicate'", None),
        "no-such-fact": ("quizzes have a question containing", None),
    }
    problems = result.found("A404")
    assert len(problems) == len(expected)
    for claim_id, (text, written) in expected.items():
        [diagnostic] = [d for d in problems if d.message.startswith(f"claim {claim_id}: ")]
        assert text in diagnostic.message
        assert "Input should" not in diagnostic.message
        assert same_file(diagnostic.path, result.claims_path)
        if written is None:
            assert at(diagnostic) == result.claims_at(f"- id: {claim_id}\n", shift=2)
        else:
            assert at(diagnostic)[0] == result.claims_at(written)[0]
    assert "known: causal_prefix, equation, formula" in result.claim("weird")["message"]


def test_unknown_quantity_in_bind_is_a404_at_bind(lesson):
    claims = """
    claims:
      - id: mix
        kind: softmax_mixture
        quote: "With scores \\\\[0,ln3\\\\] and values \\\\[2,6\\\\] the output is 5."
        bind: [scores, values, outptu]
        params: {scores: ["0", "ln 3"], values: [2, 6]}
    """
    result = lesson(PLAIN_BODY, claims)
    assert result.status() == {"mix": "error"}
    [problem] = result.found("A404")
    assert "no quantity 'outptu'" in problem.message and "output" in problem.message
    assert at(problem) == result.claims_at("bind: ", shift=6)


@pytest.mark.parametrize(
    ("claims", "needle", "shift", "says"),
    [
        ("claims:\n  - id: x\n    kind: [unclosed\n  - id: y\n", "[unclosed", 0, "not closed"),
        ("claims:\n  - id: x\n\tkind: quiz\n", "\tkind", 0, "cannot start any token"),
        ("claims:\n  - id: x\n    kind: quiz\n    kind: shape\n", "kind: shape", 0, "duplicate"),
        ("base: &b {kind: quiz}\nclaims:\n  - *b\n", "*b", 0, "alias"),
        ("claims:\n  - id: Bad Id\n    kind: quiz\n", "Bad Id", 0, "does not match"),
        ("claims:\n  - id: x\n    kind: quiz\n    colour: red\n", "colour: red", 0, "'colour'"),
        ("claims:\n  - id: x\n    kind: quiz\n    occurrences: 0\n", "0\n", 0, "minimum"),
        ("claim:\n  - id: x\n", "claim:", 0, "claim"),
        ("unchecked:\n  - {equation: 0, reason: ab}\nclaims: []\n", "ab}", 0, "short"),
        (
            "claims:\n  - {id: x, kind: quiz}\n  - {id: x, kind: shape}\n",
            "x, kind: shape",
            0,
            "twice",
        ),
    ],
)
def test_bad_claims_file_is_a400_with_line_and_column(lesson, claims, needle, shift, says):
    result = lesson(PLAIN_BODY, claims)
    problems = result.found("A400")
    assert problems, result.record.diagnostics
    # nothing is evaluated from a broken entry: it is listed as not run, or not at all
    assert all(claim["status"] == "error" for claim in result.record.claims)
    for diagnostic in problems:
        assert same_file(diagnostic.path, result.claims_path)
    locations = [at(d) for d in problems]
    assert result.claims_at(needle, shift) in locations, locations
    assert any(says.lower() in d.message.lower() for d in problems), [d.message for d in problems]


def test_claims_file_for_another_lesson_is_a400(lesson):
    result = lesson(PLAIN_BODY, "lesson: atlas-lesson-elsewhere\nclaims: []\n")
    [problem] = result.found("A400")
    assert "'atlas-lesson-elsewhere', not 'atlas-lesson-probe'" in problem.message
    assert at(problem) == result.claims_at("atlas-lesson-elsewhere")


# --- time limits and oversized requests ---------------------------------------------------

GRADIENT_BODY = """
## Science and assumptions

### Softmax mixture derivative

$$
o=\\sum_j a_jv_j,\\qquad \\frac{\\partial o}{\\partial s_j}=a_j(v_j-o)
$$

A symbolic derivation.
"""
GRADIENT_CLAIMS = """
claims:
  - id: gradient
    kind: equation
    timeout: {timeout}
    params:
      equation: 0
      indices: [j, k, m]
      definitions:
        a_k: "\\\\frac{{e^{{s_k}}}}{{\\\\sum_{{m=1}}^{{n}} e^{{s_m}}}}"
      relations:
        - {{relation: 0, check: definition}}
        - {{relation: 1, check: derive}}
"""


def test_claim_over_its_time_limit_is_a405(lesson):
    started = time.perf_counter()
    result = lesson(GRADIENT_BODY, GRADIENT_CLAIMS.format(timeout=0.02))
    assert time.perf_counter() - started < 5
    assert result.status() == {"gradient": "error"}
    [late] = result.found("A405")
    assert "claim gradient: did not finish within 0.02 s" in late.message
    assert same_file(late.path, result.claims_path)
    assert at(late) == result.claims_at("- id: gradient", shift=2)
    # an errored claim covers nothing, so its equation is reported as unchecked
    assert len(result.found("A407")) == 1


def test_same_derivation_passes_with_the_default_limit(lesson):
    result = lesson(GRADIENT_BODY, GRADIENT_CLAIMS.format(timeout=30))
    assert result.status() == {"gradient": "pass"}


def test_defaults_timeout_applies_to_every_claim(lesson):
    claims = GRADIENT_CLAIMS.format(timeout=30).replace("    timeout: 30\n", "")
    result = lesson(GRADIENT_BODY, "defaults: {timeout: 0.02}\n" + claims)
    assert result.status() == {"gradient": "error"}
    assert "within 0.02 s" in result.found("A405")[0].message


HUGE_LESSON = (
    """
## Science and assumptions

### Attention and a power

$$
"""
    + ATTENTION_LATEX % "\\sqrt{d}"
    + """
$$

$$
y=x^{x}
$$

If the second document begins at slot3, its query at slot4 can attend to slots3,4.
"""
)
HUGE_CLAIMS = """
claims:
  - id: huge-block
    kind: packed_mask
    params: {docs: [[1, 2, 3], [1, 2]], block_size: 1000000000, query: 4}
  - id: huge-sample
    kind: equation
    params:
      equation: 0
      matrices: [Q, K, V, A, Y]
      sizes: {T: 1000000000, d: 4, e: 2}
      inputs: {Q: [T, d], K: [T, d], V: [T, e]}
      engine: {A: probs, Y: output}
      relations:
        - {relation: 0, check: sample}
  - id: huge-position
    kind: causal_prefix
    params: {values: [1, 2], position: 1000000000}
  - id: huge-power
    kind: formula
    timeout: 1
    params:
      values: {x: 1000000000}
      use: [{equation: 1, relation: 0}]
"""


def run_guarded(folder: Path, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The console script with an 8 GiB address-space cap, so a regression that tries to
    allocate a T = 10^9 tensor fails fast here instead of exhausting the machine."""
    script = Path(sys.executable).with_name("atlas-build")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "atlas_build.cli"]

    def cap() -> None:
        import resource

        limit = 8 << 30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    return subprocess.run(
        [*command, "check", str(folder), "--format", "json", "--no-cache", *extra],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=cap,
        env=env,
        check=False,
    )


def test_engine_claims_with_t_1e9_give_located_errors_quickly(tmp_path):
    folder = write_lesson(tmp_path, "huge", HUGE_LESSON, HUGE_CLAIMS)
    claims_text = (folder / "claims.yaml").read_text(encoding="utf-8")
    started = time.perf_counter()
    completed = run_guarded(folder)
    assert time.perf_counter() - started < 45
    assert completed.returncode == 1, completed.stderr
    assert "Traceback" not in completed.stderr
    [record] = json.loads(completed.stdout)["records"]
    statuses = {claim["id"]: claim["status"] for claim in record["claims"]}
    assert statuses == dict.fromkeys(
        ["huge-block", "huge-sample", "huge-position", "huge-power"], "error"
    )
    expected = {
        "huge-block": ("A404", "block_size"),
        "huge-sample": ("A404", "too large"),
        "huge-position": ("A404", "position 1000000000"),
        "huge-power": ("A404", "too large to compute exactly"),  # refused before computing
    }
    for claim_id, (code, says) in expected.items():
        [diagnostic] = [
            d for d in record["diagnostics"] if d["message"].startswith(f"claim {claim_id}: ")
        ]
        assert diagnostic["code"] == code and says in diagnostic["message"]
        assert "MemoryError" not in diagnostic["message"]
        assert same_file(diagnostic["path"], folder / "claims.yaml")
        line, column = position(claims_text, f"- id: {claim_id}", shift=2)
        if claim_id == "huge-block":  # a refused parameter is reported at the parameter
            line, column = position(claims_text, "1000000000")
        assert (diagnostic["line"], diagnostic["column"]) == (line, column)


def test_variance_with_width_1e9_is_refused_without_allocating(tmp_path):
    body = VARIANCE_BODY.format(stated="d_k")
    claims = """
    claims:
      - id: huge-width
        kind: variance
        params: {equation: 0, relation: 0, width: d_k, widths: [1000000000], samples: 1000}
    """
    folder = write_lesson(tmp_path, "huge-width", body, claims)
    completed = run_guarded(folder, timeout=60)
    [record] = json.loads(completed.stdout)["records"]
    [diagnostic] = [d for d in record["diagnostics"] if d["message"].startswith("claim huge")]
    assert diagnostic["code"] == "A404"
    assert "MemoryError" not in diagnostic["message"]
    assert "allocate" not in diagnostic["message"]


# --- LaTeX outside the dialect ------------------------------------------------------------

REALS_BODY = """
## Science and assumptions

### Two equations

$$
y=2\\cdot x
$$

$$
z=\\foo(x)+y
$$

Some text.
"""


def test_unknown_control_sequence_is_a406_at_its_position(lesson):
    claims = """
    unchecked:
      - {equation: 1, reason: "an expectation, stated for context"}
    claims:
      - id: double
        kind: formula
        params: {values: {x: 1}, use: [{equation: 0, relation: 0}]}
    """
    result = lesson(REALS_BODY, claims)
    assert result.status() == {"double": "unchecked"}  # nothing bound: it checked nothing
    assert result.found("A406") == []  # listed as unchecked: it only has to render
    assert result.found("A407") == []
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses == ["defined", "unchecked"]
    unlisted = lesson(REALS_BODY, claims.split("    claims:")[1].join(["    claims:", ""]),
                      slug="unlisted")  # fmt: skip
    [unreadable] = unlisted.found("A406")
    assert unreadable.severity.value == "warning"  # no claim needs it: it only renders
    assert "\\foo" in unreadable.message and "counted as unreadable" in unreadable.message
    assert at(unreadable) == unlisted.lesson_at("\\foo")


def test_claim_on_unsupported_latex_is_an_error_not_a_pass(lesson):
    claims = """
    claims:
      - id: double
        kind: formula
        params: {values: {x: 1}, use: [{equation: 0, relation: 0}]}
      - id: expectation
        kind: formula
        params: {values: {x: 1}, use: [{equation: 1, relation: 0}]}
    """
    result = lesson(REALS_BODY, claims)
    assert result.status() == {"double": "unchecked", "expectation": "error"}
    codes = sorted(d.code for d in result.errors())
    assert codes == ["A406", "A406"]  # the claim's own, and the equation's at its position
    assert {at(d) for d in result.found("A406")} == {
        result.lesson_at("\\foo"),
        result.claims_at("- id: expectation", shift=2),
    }
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses == ["defined", "unreadable"]
    assert result.record.coverage["verification"] == "failed"


# --- nothing evaluates lesson text --------------------------------------------------------

FORBIDDEN = {"eval", "exec", "sympify", "parse_expr", "parse_latex", "lambdify"}


def _called_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def test_no_eval_like_calls_in_claims_or_latex_sources():
    sources = sorted((REPO / "atlas_build" / "claims").rglob("*.py"))
    sources += sorted((REPO / "atlas_build" / "latex").rglob("*.py"))
    assert len(sources) >= 15
    offenders = []
    imported = []
    for path in sources:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) in FORBIDDEN:
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno} {_called_name(node)}")
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = {alias.name.rsplit(".", 1)[-1] for alias in node.names}
                if names & FORBIDDEN or (
                    isinstance(node, ast.ImportFrom) and "parsing" in (node.module or "")
                ):
                    imported.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []
    assert imported == []


def test_the_ast_scan_would_see_a_forbidden_call():
    tree = ast.parse("import sympy\nx = sympy.sympify(text)\ny = eval(text)\n")
    calls = [_called_name(n) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert set(calls) & FORBIDDEN == {"sympify", "eval"}


def test_lesson_text_that_looks_like_python_is_never_run(lesson, tmp_path):
    """Prose and LaTeX that would do something if evaluated are read as data."""
    marker = tmp_path / "evaluated"
    payload = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    body = PLAIN_BODY + f"\nThe output is {payload} or 5.\n"
    claims = f"""
    claims:
      - id: mix
        kind: softmax_mixture
        quote: "With scores \\\\[0,ln3\\\\] and values \\\\[2,6\\\\] the output is 5."
        bind: [scores, values, output]
        params: {{scores: ["0", "ln 3"], values: [2, 6]}}
      - id: sneaky
        kind: softmax_mixture
        params: {{scores: ["0", {json.dumps(payload)}], values: [1, 2]}}
    """
    result = lesson(body, claims)
    assert result.status() == {"mix": "pass", "sneaky": "error"}
    assert not marker.exists()


def test_string_tolerance_in_claims_file_is_not_evaluated(lesson, tmp_path):
    marker = tmp_path / "evaluated"
    payload = f"__import__('pathlib').Path({str(marker)!r}).touch() or 0"
    claims = f"""
    claims:
      - id: mix
        kind: softmax_mixture
        quote: "With scores \\\\[0,ln3\\\\] and values \\\\[2,6\\\\] the output is 5."
        tolerance: {json.dumps(payload)}
        bind: [scores, values, output]
        params: {{scores: ["0", "ln 3"], values: [2, 6]}}
    """
    result = lesson(PLAIN_BODY, claims)
    assert not marker.exists(), "the tolerance string was executed"
    assert result.status() == {"mix": "error"}


def test_every_registered_kind_is_exercised_here():
    from atlas_build.claims.running.registry import KINDS

    source = Path(__file__).read_text(encoding="utf-8")
    used = set(re.findall(r"kind: (\w+)", source))
    assert set(KINDS) - {"softmax"} <= used  # softmax: test_claims_binding.py and content/


@pytest.mark.parametrize(("words", "holds"), [("nine tenths", True), ("eight tenths", False),
                                              ("ninety percent", True)])  # fmt: skip
def test_a_quiz_question_in_words_must_state_the_facts_inputs(lesson, words, holds):
    """`What is y when x is eight tenths?` answered for x = 0.9 is not verified: the answer
    is proved for the claim's inputs, and the question states other ones."""
    body, claims = doubling(y="1.8", option="2.7", answer="1.8")
    body = body.replace("With x = 3", "With x = 0.9").replace("x is 3?", f"x is {words}?")
    body = body.replace("1. 5\n2. 6", "1. 0.9\n2. 1.8").replace("Doubling 3 gives 6.", "Double.")
    claims = claims.replace("x = 3 the output is y = 6.", "x = 0.9 the output is y = 1.8.")
    result = lesson(body, claims.replace("{x: 3}", "{x: 0.9}"))
    assert result.status()["quiz"] == ("pass" if holds else "fail")
    if not holds:
        [failed] = result.found("A403")
        assert "the question states 'eight tenths'" in failed.message
        assert "x = 9/10" in failed.message
        assert at(failed) == result.lesson_at(words)


def test_words_that_state_a_quantity_are_read_and_others_are_not() -> None:
    from atlas_build.claims.kinds import _words

    said = {q.text: (q.value, q.unit) for q in _words.stated(
        "In the three seconds after nine tenths, ten percent, twenty-five milliseconds: which"
        " one of the two probabilities, in two steps, a hundred times?"
    )}  # fmt: skip
    assert said == {
        "three seconds": (3, "seconds"),
        "nine tenths": (sympy.Rational(9, 10), None),
        "ten percent": (sympy.Rational(1, 10), None),
        "twenty-five milliseconds": (25, "milliseconds"),
    }


def test_an_unmarked_rounding_is_the_numbers_fault_not_the_relations(lesson):
    """y = 6.93 written `6.9` is right to its digits but unmarked: an A401 at the number,
    and the relation it was computed from is not blamed (no A403, not failed)."""
    body, claims = doubling(y="6.9")
    body = body.replace("With x = 3", "With x = 3.465")
    claims = claims.replace("With x = 3 the", "With x = 3.465 the").replace("y = 6.", "y = 6.9.")
    result = lesson(body, claims.replace("{x: 3}", "{x: 3.465}").replace("double.y", "double.x"))
    [mismatch] = result.found("A401")
    assert "is exact and ends" in mismatch.message
    assert not [d for d in result.found("A403") if "disagree with the lesson" in d.message]
    [relation] = result.record.coverage["relations"]["items"]
    assert relation["status"] != "failed"
