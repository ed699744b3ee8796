"""Valid LaTeX real authors write (issue "Never cry wolf"): each class parses, with its
relations, and a real defect of the same shape is still refused; what the dialect still
cannot read is a note (A417), a warning (A406) only where KaTeX refuses the LaTeX too.

The classes come from the blind corpus (tests/blind), written here with other names:
subscripts holding commas (`L_{\\mathrm{fs,dB}}`), function words in subscripts
(`\\bar\\eta_{\\cos}`), conditional probabilities with outcome signs (`P(D \\mid +)`),
differentials in integrals, `\\ln 2\\,RC`, and an expression stating no relation.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import sympy as sp
from sympy.core.symbol import Str

from atlas_build.claims.coverage import relations
from atlas_build.diagnostics import Diagnostic, Location
from atlas_build.latex import (
    EvaluationError,
    LatexError,
    evaluate,
    parse_equation,
    parse_expression,
    parse_relations,
)
from atlas_build.latex.functions import Given
from atlas_build.latex.probability import Probability
from atlas_build.lesson import build as build_lesson
from atlas_build.lesson.latexnames import scan

S = sp.Symbol


def _sides(latex: str) -> list[tuple[str, str, str]]:
    return [(str(r.lhs), r.op, str(r.rhs)) for r in parse_relations(latex)]


def _refused(latex: str) -> LatexError:
    with pytest.raises(LatexError) as caught:
        parse_relations(latex)
    return caught.value


# --- subscripts: a comma (or a space in text) is part of the name ----------------------


@pytest.mark.parametrize(
    ("latex", "name"),
    [
        (r"L_{\mathrm{fs,dB}}", "L_fs_dB"),
        (r"\Delta V_{\mathrm{IR,max}}", "DeltaV_IR_max"),
        (r"t_{\mathrm{logic,max}}", "t_logic_max"),
        (r"t_{\mathrm{Elmore,wire}}", "t_Elmore_wire"),
        (r"t_{50,\mathrm{lumped}}", "t_50_lumped"),
        (r"x_{\text{a, b}}", "x_a_b"),
        (r"R_{\mathrm{path,VDD}}", "R_path_VDD"),
    ],
)
def test_a_subscript_with_commas_is_one_name(latex: str, name: str) -> None:
    [relation] = parse_relations(f"{latex} = 1")
    assert relation.lhs == S(name)
    assert scan(latex).names == (name,)  # the glossary reader's convention, the same name


def test_subscript_commas_in_a_relation_and_a_defect_of_the_same_shape() -> None:
    latex = r"R_{\mathrm{loop}}=R_{\mathrm{path,VDD}}+R_{\mathrm{path,GND}}"
    assert _sides(latex) == [("R_loop", "=", "R_path_GND + R_path_VDD")]
    assert _refused(r"R_{\mathrm{loop}}=R_{\mathrm{path,VDD}+R_{\mathrm{path,GND}}").code in (
        "unbalanced-brace",
        "unbalanced-delimiter",
    )
    assert _sides(r"x_{i,j} = 1") == [("x[i, j]", "=", "1")]  # plain letters stay an index


def test_a_function_word_in_a_subscript_is_part_of_the_name() -> None:
    latex = r"\bar\eta_{\cos}=\frac{\eta_{\max}+\eta_{\min}}{2}"
    assert _sides(latex) == [("eta_bar_cos", "=", "eta_max/2 + eta_min/2")]
    assert parse_expression(r"x_{\log}") == S("x_log")
    assert parse_expression(r"e^{\cos\theta}") == sp.exp(sp.cos(S("theta")))  # still a power
    assert parse_expression(r"\log_{10} x") == sp.log(S("x"), 10)
    assert _refused(r"\eta_{\cos = 1").code == "unbalanced-brace"


def test_a_spacing_command_ends_an_unparenthesised_function_argument() -> None:
    R, C, x = S("R"), S("C"), S("x")
    assert parse_relations(r"t = \ln 2\,RC")[0].rhs == R * C * sp.log(2)
    assert parse_expression(r"\ln 2x") == sp.log(2 * x)
    assert parse_expression(r"\sin\omega t") == sp.sin(S("omega") * S("t"))
    assert parse_expression(r"1\,000") == 1000  # a digit group is still one number


# --- probability -------------------------------------------------------------------------


def test_a_conditional_probability_with_outcome_signs_is_one_probability() -> None:
    D, D_bar = S("D"), S("D_bar")
    [ppv, same] = parse_relations(r"\mathrm{PPV}=P(D\mid +)=\frac{S_e\,\pi}{S_e\,\pi+1}")
    assert ppv.lhs == S("PPV") and ppv.rhs == Probability(Str("P"), Given(D, S("plus")))
    assert same.lhs == ppv.rhs
    [odds] = parse_relations(r"\frac{P(D\mid +)}{P(\bar D\mid +)} = \mathrm{LR}^{+}")
    assert odds.lhs.atoms(Probability) == {
        Probability(Str("P"), Given(D, S("plus"))),
        Probability(Str("P"), Given(D_bar, S("plus"))),
    }
    npv = parse_relations(r"\mathrm{NPV}=P(\bar D\mid -)")[0].rhs
    assert npv == Probability(Str("P"), Given(D_bar, S("minus")))
    assert str(npv) == "P(D_bar|minus)"
    assert _refused(r"\mathrm{PPV}=P(D\mid )").code == "syntax"  # nothing after the bar
    assert _refused(r"\mathrm{PPV}=P(D\mid +").code == "unbalanced-delimiter"


def test_bayes_rule_reads_every_p_of_the_equation_as_a_probability() -> None:
    [bayes] = parse_relations(r"P(A \mid B) = \frac{P(B \mid A)\, P(A)}{P(B)}")
    assert all(isinstance(node, Probability) for node in bayes.rhs.atoms(Probability))
    assert len(bayes.rhs.atoms(Probability)) == 3
    assert not bayes.rhs.atoms(sp.core.function.AppliedUndef)
    # without a condition or relation, P(t) is a function (a power in time), p(x|θ) a density
    assert parse_relations(r"P(t) = I(t) V(t)")[0].lhs == sp.Function("P")(S("t"))
    density = parse_expression(r"p(x \mid \theta)")
    assert density == sp.Function("p")(Given(S("x"), S("theta")))
    assert parse_expression(r"\Pr[X \ge a]") == Probability(Str("Pr"), sp.Ge(S("X"), S("a")))


def test_a_probability_evaluates_as_one_opaque_value() -> None:
    ppv = parse_expression(r"\frac{P(D\mid +)}{2}")
    assert evaluate(ppv, {"P(D|plus)": 0.5}) == pytest.approx(0.25)
    with pytest.raises(EvaluationError) as caught:
        evaluate(ppv, {"D": 1.0})
    assert caught.value.name == "P(D|plus)"


# --- differentials -----------------------------------------------------------------------


@pytest.mark.parametrize("d", [r"\mathrm{d}t", "dt", r"\,dt", r"\text{d}t"])
def test_the_differential_closes_an_integral(d: str) -> None:
    latex = r"\bar\eta=\frac{1}{T-T_w}\int_{T_w}^{T}\eta(t)\," + d
    [relation] = parse_relations(latex)
    t, T, T_w = S("t"), S("T"), S("T_w")
    integral = sp.Integral(sp.Function("eta")(t), (t, T_w, T))
    assert relation.rhs == integral / (T - T_w)


def test_an_integral_without_its_differential_is_still_refused() -> None:
    error = _refused(r"y = \int_{0}^{T}\eta(t)")
    assert error.code == "syntax" and "differential" in error.message


# --- an expression that states no relation -------------------------------------------------


def test_an_expression_is_read_as_an_expression_not_a_failure() -> None:
    latex = r"\bar x\pm t_{1-\alpha/2,\;n-1}\,\frac{s}{\sqrt{n}}"
    found = parse_equation(latex)
    assert found.relations == ()
    [part] = found.expressions
    assert part.source == latex and (part.start, part.end) == (0, len(latex))
    assert _refused(latex).code == "no-relation"  # parse_relations keeps its contract
    mixed = parse_equation(r"s_{\bar x}=\frac{s}{\sqrt{n}},\qquad \bar x \pm 2 s_{\bar x}")
    assert [(str(r.lhs), r.op) for r in mixed.relations] == [("s_x_bar", "=")]
    assert [e.source for e in mixed.expressions] == [r"\bar x \pm 2 s_{\bar x}"]
    with pytest.raises(LatexError) as caught:
        parse_equation(r"\bar x \pm \frac{s}{\sqrt{n}")
    assert caught.value.code == "unbalanced-brace"


# --- what check reports ----------------------------------------------------------------------


@dataclass
class _Locator:
    path: str = "lesson.md"

    def pointer(self, pointer: str) -> Location:
        return Location(self.path, pointer=pointer)

    def key(self, pointer: str) -> Location:
        return Location(self.path, pointer=pointer)

    def content(self, offset: int) -> Location:
        return Location(self.path, column=offset + 1)


def _findings(*equations: str, needed: set[int] | None = None) -> list[Diagnostic]:
    body = "## Science\n\n" + "".join(f"$$\n{latex}\n$$\n\nText.\n\n" for latex in equations)
    lesson = build_lesson(body)
    entries, errors = relations.inventory(lesson, {})
    return relations.findings(lesson, _Locator(), errors, needed or set(), set())


def test_valid_latex_outside_the_dialect_is_a_note_malformed_latex_a_warning() -> None:
    found = _findings(
        r"y = a \wr b",  # KaTeX renders \wr; the dialect does not know it
        r"\bar x\pm t_{1-\alpha/2,\;n-1}\,\frac{s}{\sqrt{n}}",
        r"y = \frac{1}{2",
        r"y = \foo{x}",
        r"L_{\mathrm{fs,dB}} = 20\log_{10} d",  # reads: nothing to say
    )
    assert [d.message.split(":")[0] for d in found] == [f"equation {k}" for k in range(4)]
    out_of_dialect, expression, unclosed, unknown = found
    assert (out_of_dialect.code, out_of_dialect.severity.value) == ("A417", "info")
    assert out_of_dialect.message.startswith("equation 0: not checked: outside the dialect:")
    assert "\\wr" in out_of_dialect.message
    assert (expression.code, expression.severity.value) == ("A417", "info")
    assert "states no relation" in expression.message
    for warning in (unclosed, unknown):
        assert (warning.code, warning.severity.value) == ("A406", "warning")
        assert "KaTeX cannot render it either" in warning.message
    assert "\\foo" in unknown.message


def test_an_equation_a_claim_needs_is_an_error_whatever_katex_says() -> None:
    [error] = _findings(r"y = a \wr b", needed={0})
    assert (error.code, error.severity.value) == ("A406", "error")
    [no_relation] = _findings(r"\sqrt{x}", needed={0})
    assert (no_relation.code, no_relation.severity.value) == ("A406", "error")


def test_an_expression_part_gives_no_relation_entry_and_the_others_are_read() -> None:
    lesson = build_lesson("## S\n\n$$\nq = 2 r,\\qquad \\bar x \\pm 2 s\n$$\n\nText.\n")
    entries, errors = relations.inventory(lesson, {})
    assert [(e.status, e.source) for e in entries] == [("unverified", "q = 2 r")]
    assert errors[0].code == "no-relation"
    parsed = entries[0].parsed
    assert parsed is not None and parsed.rhs == 2 * S("r")
