"""The glossary check on lesson.md files: symbols used nowhere (A320), equation letters
not defined (A321), glossary blocks not read to their end (A322), located at line:col."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import CONTENT, found, glossary_body, lesson_text

GLOSSARY_CODES = {"A320", "A321", "A322"}


@pytest.fixture
def check(content_dir: Path, diagnose):
    def run(text: str) -> tuple[list, str]:
        folder = content_dir / "probe"
        folder.mkdir(exist_ok=True)
        full = lesson_text(text)
        (folder / "lesson.md").write_text(full, encoding="utf-8")
        diagnostics = [d for d in diagnose(folder) if d.code in GLOSSARY_CODES]
        return diagnostics, full

    return run


def codes(diagnostics) -> list[str]:
    return sorted(d.code for d in diagnostics)


@pytest.mark.parametrize("slug", ["attention", "kv-cache", "softmax-temperature"])
def test_the_repository_lessons_have_no_glossary_findings(diagnose, slug):
    assert codes(d for d in diagnose(CONTENT / slug) if d.code in GLOSSARY_CODES) == []


ENTRIES = [("y", "Output", "units of y"), ("a", "Coefficient", "units"), ("x", "Input", "units")]


def test_a_clean_glossary_has_no_findings(check):
    diagnostics, _ = check(glossary_body(["y=a x"], ENTRIES))
    assert diagnostics == []


def test_a_symbol_used_nowhere_is_a320_at_its_entry(check, locate):
    diagnostics, text = check(
        glossary_body(["y=a x"], [*ENTRIES, ("w_0", "Unused weight", "units")])
    )
    assert found(diagnostics, "A320") == [locate(text, "w_0\n")]
    assert "'w_0'" in diagnostics[0].message


@pytest.mark.parametrize(
    ("entry", "prose"),
    [
        (("N₀", "Donor density", "cm⁻³"), "The density N₀ sets the level."),
        (("N₀", "Donor density", "cm⁻³"), "The density $N_0$ sets the level."),
        (("T_q", "Query count", "count"), "The weights form a T_q × T_q array."),
        (("τ", "Time constant", "s"), "Wait for several $\\tau$."),
    ],
)
def test_prose_and_inline_math_count_as_use(check, entry, prose):
    diagnostics, _ = check(glossary_body(["y=a x"], [*ENTRIES, entry], prose))
    assert diagnostics == []


def test_a_symbol_used_in_another_entrys_unit_counts_as_used(check):
    entries = [*ENTRIES[:2], ("x", "Input", "real d_v array"), ("d_v", "Width", "count")]
    diagnostics, _ = check(glossary_body(["y=a x"], entries))
    assert diagnostics == []


@pytest.mark.parametrize(
    ("equation", "entry"),
    [
        (r"J=q\mu_n n E", ("μₙ", "Electron mobility", "cm²/(V·s)")),
        (r"I=I_0 e^{\Delta V/V_T}", ("ΔV", "Voltage step", "V")),
        (r"\hat{x}_i=x_i", ("x̂_i", "Estimate", "units of x")),
        (r"C=k_{\mathrm{SiO_2}}\varepsilon_0", ("k_SiO₂", "Relative permittivity", "1")),
        (r"B_{\mathrm{Gen5}}=32", ("B_Gen5,one way", "Lane rate", "Gbit/s")),
        (r"p=\operatorname{softmax}_{\mathrm{rows}}(z)", ("softmax", "Row-wise softmax", "—")),
        (r"y=\varepsilon", ("ε", "Small constant", "1")),
    ],
)
def test_glossary_spellings_match_the_latex_names(check, equation, entry):
    diagnostics, _ = check(glossary_body([equation], [entry]))
    assert found(diagnostics, "A320") == []


@pytest.mark.parametrize("value", ["32 × 10⁹ bits/s", "128/130", "1.6 × 10⁻¹⁹ C"])
def test_an_entry_naming_a_value_is_no_symbol_and_the_block_goes_on(check, value):
    entries = [ENTRIES[0], (value, "Line rate", "per lane"), *ENTRIES[1:]]
    diagnostics, _ = check(glossary_body(["y=a x"], entries))
    assert diagnostics == []


@pytest.mark.parametrize("constant", ["ln 2", "log₂ 10", "√2"])
def test_a_constant_the_table_explains_is_no_reason_to_stop(check, constant):
    """`ln 2` with its meaning and unit, last in its block: it names no symbol, and the
    table is as the author wrote it (a blind lesson, `kl-divergence-distributions`)."""
    entries = [*ENTRIES, (constant, "Natural logarithm of 2, nats in one bit", "nats per bit")]
    diagnostics, _ = check(glossary_body(["y=a x"], entries))
    assert diagnostics == []


def test_an_index_pair_the_table_defines_defines_its_base(check):
    """`s_{c,B}^{2}` is read as an indexed s; the table's `s_c,B²` (s_c_B) defines it (a
    blind lesson, `batchnorm-inference`, had a false A321 for `s`)."""
    entries = [("y", "Output", "units"), ("m", "Momentum", "dimensionless"),
               ("s_c,B²", "Batch variance of channel c", "units")]  # fmt: skip
    diagnostics, _ = check(glossary_body([r"y=m\,s_{c,B}^{2}"], entries))
    assert found(diagnostics, "A321") == [] and found(diagnostics, "A320") == []


def test_an_undefined_equation_letter_is_a321_at_the_letter(check, locate):
    diagnostics, text = check(glossary_body(["y=a x+b"], ENTRIES))
    assert found(diagnostics, "A321") == [locate(text, "b\n$$")]
    assert "'b'" in diagnostics[0].message


@pytest.mark.parametrize(
    "equation",
    [
        r"y=\sum_{j=1}^{n} a_j x_j",  # bound index and bound
        r"y=\frac{\mathrm{d}x}{\mathrm{d}a}",  # differential d
        r"y=a x\cdot e^{2}",  # Euler's number
        r"y=a x+\pi",  # the constant pi
        r"y=a x+25.9\,\mathrm{mV}",  # a unit after a number
        r"y=\operatorname{Var}(a x)",  # a function name
        r"y=a\,\max_k x_k",  # the index of an extremum
    ],
)
def test_letters_that_are_no_symbols_are_not_a321(check, equation):
    diagnostics, _ = check(glossary_body([equation], ENTRIES))
    assert found(diagnostics, "A321") == []


def test_imaginary_units_only_where_the_lesson_uses_them_so(check):
    diagnostics, _ = check(glossary_body([r"y=a x e^{j a}"], ENTRIES))
    assert found(diagnostics, "A321") == []
    diagnostics, _ = check(glossary_body([r"y=a x j"], ENTRIES))
    assert [d.message for d in diagnostics if d.code == "A321"] == [
        "equation symbol 'j' is not defined under `Symbols and units`"
    ]
    said, _ = check(glossary_body([r"y=a x j"], ENTRIES, "Here j is the imaginary unit."))
    assert found(said, "A321") == []


def test_an_unreadable_equation_does_not_silence_the_others(check, locate):
    unreadable = r"P=\mathcal{Q}\star\unknowncommand{w_0}"
    entries = [*ENTRIES, ("w_0", "Weight", "units"), ("P", "Power", "W")]
    diagnostics, text = check(glossary_body([unreadable, "y=a x+b"], entries))
    assert found(diagnostics, "A320") == []  # w_0 and P are used by the unreadable one
    assert found(diagnostics, "A321") == [locate(text, "b\n$$")]


def test_a_dangling_symbol_is_a322_at_the_symbol(check, locate):
    text = glossary_body(["y=a x"], ENTRIES).replace(
        "units\n\nAssumptions", "units\n\nw\n\nA weight\n\n## More"
    )
    diagnostics, full = check(text)
    assert found(diagnostics, "A322") == [locate(full, "w\n\nA weight")]
    (note,) = [d for d in diagnostics if d.code == "A322"]
    assert "'w' has no unit" in note.message and "heading" in note.message


def test_a_paragraph_that_cannot_be_a_symbol_is_a322(check, locate):
    text = glossary_body(["y=a x"], ENTRIES).replace(
        "units\n\nAssumptions", "units\n\nQuery heads per layer\n\nAssumptions"
    )
    diagnostics, full = check(text)
    assert found(diagnostics, "A322") == [locate(full, "Query heads per layer")]


def test_prose_after_the_block_ends_it_quietly(check):
    prose = "Each row mixes values. Dividing by the width controls the scale."
    text = glossary_body(["y=a x"], ENTRIES).replace(
        "units\n\nAssumptions", f"units\n\n{prose}\n\nAssumptions"
    )
    diagnostics, _ = check(text)
    assert diagnostics == []


def test_a_short_sentence_after_the_block_ends_it_quietly(check):
    text = glossary_body(["y=a x"], ENTRIES).replace(
        "units\n\nAssumptions", "units\n\nThe relation holds for every input.\n\nAssumptions"
    )
    diagnostics, _ = check(text)
    assert diagnostics == []


def test_words_introducing_what_follows_end_the_block_quietly(check):
    text = glossary_body(["y=a x"], ENTRIES).replace(
        "units\n\nAssumptions", "units\n\nNow the example:\n\nAssumptions"
    )
    diagnostics, _ = check(text)
    assert diagnostics == []


# Issue "Never cry wolf" §2: spellings real glossaries use, each with a lesson that must
# pass clean and the same shape with a real defect that must still warn.
@pytest.mark.parametrize(
    ("equation", "entry"),
    [
        (r"y=a x+V_{DD}", ("VDD", "Supply voltage", "V")),  # a flattened subscript
        (r"y=a x+n_r", ("nr", "Refractive index", "1")),
        (r"y=a x+\mu_{\text{train}}", ("μtrain", "Training mean", "units")),
        (r"y=a x+d_0", ("d,d0", "Distances", "m")),
        (r"y=a x+\bar g_r", ("ḡr", "Mean conductance", "S")),  # accent, then subscript
        (r"y=a x+\bar{\theta}", ("bar theta", "Mean angle", "rad")),  # accent in words
        (r"y=a x+CD_{\text{after etch}}", ("CD_after etch", "Critical dimension", "nm")),
        (r"y=a x+L_{output}", ("Loutput", "Output loss", "1")),
        (r"y=a x+\Delta", ("Delta", "Step", "units")),
        (r"y=\mathrm{Update}(a x)", ("Update", "Optimizer step", "—")),
    ],
)
def test_real_glossary_spellings_match_and_are_read(check, equation, entry):
    diagnostics, _ = check(glossary_body([equation], [*ENTRIES, entry]))
    assert diagnostics == []


def test_a_flattened_spelling_of_nothing_the_lesson_writes_is_still_unused(check):
    diagnostics, _ = check(glossary_body([r"y=a x+V_{DD}"], [*ENTRIES, ("VDD", "Supply", "V")]))
    assert diagnostics == []
    diagnostics, _ = check(
        glossary_body([r"y=a x+V_{DD}"], [*ENTRIES, ("VDD", "S", "V"), ("VSS", "G", "V")])
    )
    assert [d.message for d in diagnostics] == [
        "glossary symbol 'VSS' is used in no equation, formula or text"
    ]


def test_flattened_names_take_the_lessons_spelling():
    from atlas_build import lesson

    model = lesson.build(
        glossary_body(
            [r"y=a x+V_{DD}+\mu_{\text{train}}"],
            [("VDD", "Supply", "V"), ("μtrain", "Mean", "units"), ("a", "Coefficient", "units")],
        )
    )
    assert [entry.names for entry in model.glossaries[0].entries] == [
        ("V_DD",),
        ("mu_train",),
        ("a",),
    ]


def test_a_family_in_unicode_subscripts_defines_its_letter(check):
    entries = [("Cᵢ₊₁", "Next carry", "1"), ("Cᵢ", "Carry", "1"), ("a", "Coefficient", "1")]
    diagnostics, _ = check(glossary_body([r"C_{i+1}=a C_i"], entries))
    assert diagnostics == []
    diagnostics, _ = check(glossary_body([r"D_{i+1}=a D_i"], entries))
    assert sorted(d.message for d in diagnostics) == [
        "equation symbol 'D' is not defined under `Symbols and units`",
        "glossary symbol 'Cᵢ' (C_i) is used in no equation, formula or text",
        "glossary symbol 'Cᵢ₊₁' (C_i+1) is used in no equation, formula or text",
    ]


def test_a_layer_indexed_family_in_a_product_is_used(check):
    """`∏_ℓ n_ℓ W_ℓ` (`n_{\\ell}`) uses the entries `n_ℓ` and `W_ℓ` (two false A320 in
    an initialisation lesson): ℓ runs over layers as i runs over items."""
    entries = [("n\\_ℓ", "Fan-in of layer ℓ", "counts"), ("W\\_ℓ", "Weight", "1"),
               ("ℓ", "Layer index", "1"), ("D", "Depth", "1"), ("y", "Gain", "1")]  # fmt: skip
    diagnostics, _ = check(glossary_body([r"y=\prod_{\ell=1}^{D} n_{\ell}\,W_\ell"], entries))
    assert diagnostics == []


@pytest.mark.parametrize(
    ("equation", "entries"),
    [
        # a subscript pair with a decimal (a Doppler lesson: an A322 at the entry)
        (r"y=a\,x\,T_{c,0.5}", [("T\\_c,0.5", "Lag where R falls to 0.5", "seconds")]),
        # a Greek second index: one symbol, not Φ_e and λ (an LED lesson: an A321 at Φ and
        # two A424 where λ and Φ_e took the spectral unit W/nm)
        (r"y=a\,\Phi_{e,\lambda}(x)", [("Φ\\_e,λ", "Spectral radiant flux", "W/nm")]),
        # an inverse function (a thermocouple lesson: an A320 at the entry)
        (
            r"y=E_{\mathrm{ref}}^{-1}\!\left(a\,E_{\mathrm{ref}}(x)\right)",
            [("E\\_ref⁻¹", "Inverse", "°C"), ("E\\_ref", "Reference function", "mV")],
        ),
        # a sign alone as a subscript, `V_+` against LaTeX's V_plus (an in-amp lesson: two A320)
        (r"y=a\,x\,(V_{+}-V_{-})", [("V₊, V₋", "Input voltages", "V")]),
        # a product the table names as one symbol (two A321 each: a solar-collector lesson's
        # τ and α, a borehole lesson's ρ and c)
        (r"y=a\,x\,(\tau\alpha)", [("τα", "Transmittance–absorptance product", "1")]),
        (r"y=\frac{a\,x}{\rho c}", [("ρc", "Volumetric heat capacity", "J/(m³·K)")]),
    ],
)
def test_an_entry_in_the_tables_notation_is_the_symbol_the_equation_uses(check, equation, entries):
    diagnostics, _ = check(glossary_body([equation], [*ENTRIES, *entries]))
    assert diagnostics == []


def test_an_index_expression_subscript_defines_its_letter(check):
    entries = [*ENTRIES, ("z_1−α/2", "Critical value", "1"), ("α", "Level", "1")]
    diagnostics, _ = check(glossary_body([r"y=a x z_{1-\alpha/2}"], entries))
    assert diagnostics == []


@pytest.mark.parametrize(
    ("equation", "entry", "command"),
    [
        (r"y=a\odot x", ("⊙", "Elementwise product", "operator"), r"\odot"),
        (r"y=a\circ x", ("∘", "One of +, −, ×, ÷", "operator"), r"\circ"),
        (r"y=a\wedge x\oplus a", ("∧, ⊕", "AND, XOR", "logic"), r"\wedge"),
        (r"y=a+x-a", ("+, −", "Positive, negative", "event"), "+"),
        # a phase angle (an LVDT lesson: a false A320 at `∠` where `\angle V` is written)
        (r"y=\angle a+x", ("∠", "Phase angle of a phasor", "degrees"), r"\angle "),
    ],
)
def test_an_operator_entry_is_read_and_must_be_used(check, equation, entry, command):
    diagnostics, _ = check(glossary_body([equation], [entry, *ENTRIES]))
    assert diagnostics == []
    unused = equation.replace(command, r"\times ")
    diagnostics, _ = check(glossary_body([unused], [entry, *ENTRIES]))
    assert {d.code for d in diagnostics} == {"A320"}
    assert all("glossary operator" in d.message for d in diagnostics)


@pytest.mark.parametrize(
    "entry",
    [
        ("μ_n C_ox", "Process transconductance", "A/V²"),  # an implicit product
        ("P(D | +)/P(D̄ | +)", "Posterior odds", "dimensionless"),  # a ratio
        ("η(t), η_max, η_min, T_w, T", "As above", "dimensionless or steps"),  # a list
        ("p", "Percentile level, e.g. 0.95 or 0.99", "dimensionless"),  # an abbreviation
    ],
)
def test_entries_that_stopped_the_reading_are_read_on(check, entry):
    diagnostics, _ = check(glossary_body(["y=a x"], [entry, *ENTRIES]))
    assert found(diagnostics, "A322") == []


def test_a_word_no_formula_writes_is_said_once(check):
    """Among entries it is skipped and the rest is read; at the end it stops the block."""
    among = [*ENTRIES[:2], ("Update", "Step", "—"), ENTRIES[2]]
    diagnostics, _ = check(glossary_body(["y=a x"], among))
    assert [d.message for d in diagnostics] == [
        "glossary symbol 'Update' (a word no formula writes) cannot be read as a symbol; its "
        "entry names nothing and the entries after it are read on"
    ]
    diagnostics, _ = check(glossary_body(["y=a x"], [*ENTRIES, ("Update", "Step", "—")]))
    assert [d.message for d in diagnostics] == [
        "glossary entries stop at 'Update', which cannot be a symbol (a word no formula "
        "writes) (entry 4 of the block); the rest is read as prose"
    ]


@pytest.mark.parametrize(
    "equation",
    [
        r"y=a\,\gamma_k,\qquad \gamma_k=\frac{k x}{1-k x}",  # a family's index
        r"y=f(a),\qquad f(t)=x t^{2}",  # a function's argument
        r"y=a x,\qquad \theta^*=\arg\min_{\theta} f(\theta)",  # an argmin's variable
    ],
)
def test_a_definitions_variable_is_no_undefined_symbol(check, equation):
    entries = [*ENTRIES, ("γ_k", "Factor", "1"), ("f", "Function", "—"), ("θ*", "Best", "1")]
    diagnostics, _ = check(glossary_body([equation], entries))
    assert found(diagnostics, "A321") == []


@pytest.mark.parametrize(
    ("equation", "letter"),
    [
        (r"y=a\,\gamma_k k,\qquad \gamma_k=\frac{x}{1-x}", "k"),  # not what γ_k is over
        (r"y=f(t),\qquad f(a)=x a^{2}", "t"),  # an argument where f is used, not defined
    ],
)
def test_the_same_letter_used_freely_is_still_a321(check, equation, letter):
    entries = [*ENTRIES, ("γ_k", "Factor", "1"), ("f", "Function", "—")]
    diagnostics, _ = check(glossary_body([equation], entries))
    assert [d.message for d in diagnostics if d.code == "A321"] == [
        f"equation symbol {letter!r} is not defined under `Symbols and units`"
    ]


def test_a_letter_with_a_constant_label_is_a_subscripted_name_not_a_letter(check):
    """`η_{8b/10b}` (which the parser reads as `eta[4/5]`) names a labelled quantity, like
    `η_enc`; only a bare `η` is a one-letter symbol the glossary must define."""
    diagnostics, _ = check(glossary_body([r"y=a x+\eta_{8b/10b}"], ENTRIES))
    assert found(diagnostics, "A321") == []
    diagnostics, _ = check(glossary_body([r"y=a x+\eta"], ENTRIES))
    assert [d.message for d in diagnostics] == [
        "equation symbol 'eta' is not defined under `Symbols and units`"
    ]


def test_an_element_of_an_undefined_array_is_still_a321(check):
    diagnostics, _ = check(glossary_body([r"y=a x+X[0]"], ENTRIES))
    assert [d.message for d in diagnostics] == [
        "equation symbol 'X' is not defined under `Symbols and units`"
    ]


def test_an_odd_symbol_among_entries_is_said_once_and_the_rest_is_read(check, locate):
    odd = ("R_☐☐", "Sheet resistance", "Ω per square")  # no symbol reading knows
    entries = [odd, *ENTRIES]
    diagnostics, text = check(glossary_body(["y=a x"], entries))
    assert found(diagnostics, "A322") == [locate(text, "R_☐☐")]
    assert "the entries after it are read on" in diagnostics[0].message
    assert found(diagnostics, "A321") == []  # y, a and x are still defined
    diagnostics, _ = check(glossary_body(["y=a x+b"], entries))
    assert sorted(d.code for d in diagnostics) == ["A321", "A322"]  # b is still undefined


# Second blind batch (issue 30 §2): operators and units are notation, not quantities.


@pytest.mark.parametrize(
    ("equations", "entry"),
    [
        ([r"y=\mathbb{E}[a x]"], ("E", "Expected value", "same units as its argument")),
        ([r"y=\mathbb{E}_{x}\left[a x\right]"], ("E", "Expectation", "same units")),
        (
            [r"y=\mathbb{E}[a x]", r"y=\operatorname{Var}[a x]"],
            ("E, Var", "Expected value and variance", "units, units²"),
        ),
        ([r"y=E[a x]"], ("E", "Expected value", "units")),
        ([r"y=a\exp(x)"], ("exp", "Natural exponential function", "dimensionless")),
        ([r"y=a\tanh(x)"], ("tanh", "Hyperbolic tangent", "dimensionless")),
    ],
)
def test_an_operator_the_glossary_lists_is_used_where_a_formula_writes_it(check, equations, entry):
    """poisson-arrivals and adam-bias-correction list `E` and write `\\mathbb{E}[N]`;
    ssd-write-amplification lists `exp` and writes only `\\exp`: each entry is used."""
    diagnostics, _ = check(glossary_body(equations, [*ENTRIES, entry]))
    assert diagnostics == []


def test_an_operator_entry_no_formula_writes_is_still_a320(check, locate):
    entries = [*ENTRIES, ("E", "Expected value", "units"), ("exp", "Exponential", "1")]
    diagnostics, text = check(glossary_body(["y=a x"], entries))
    assert found(diagnostics, "A320") == [locate(text, "E\n"), locate(text, "exp\n")]


@pytest.mark.parametrize(
    "equation",
    [
        r"y=P\{N(a)=x\}",  # poisson-arrivals: P{N(t) = k}
        r"y=P\{x>a\}",
        r"y=P(x\le a)",
        r"y=\mathbb{P}\left(x \mid a\right)",
        r"y=a\,\mathbb{E}[x]",
    ],
)
def test_probability_and_expectation_are_no_undefined_symbols(check, equation):
    diagnostics, _ = check(glossary_body([equation], ENTRIES))
    assert found(diagnostics, "A321") == []


@pytest.mark.parametrize(
    ("equations", "letter"),
    [
        ([r"y=P\{x>a\}", r"P=a x"], "P"),  # a probability elsewhere does not define P
        ([r"y=P\,(x+a)"], "P"),  # a product: no condition between the brackets
        ([r"y=a\,\mathbb{E}[x]", r"E=a x"], "E"),  # an expectation does not define E
    ],
)
def test_the_same_letter_as_a_quantity_is_still_a321(check, equations, letter):
    diagnostics, _ = check(glossary_body(equations, ENTRIES))
    assert [d.message for d in diagnostics if d.code == "A321"] == [
        f"equation symbol {letter!r} is not defined under `Symbols and units`"
    ]


@pytest.mark.parametrize(
    "equation",
    [
        r"y=\frac{a\,x}{1.2398\ \mu\mathrm{m}}\ \mathrm{A/W}",  # photodiode-responsivity
        r"y=\frac{a}{x}\,\mathrm{W},\qquad x=a",
        r"y\approx a\,x~\mathrm{kg\,m^2}",
    ],
)
def test_a_unit_that_ends_a_side_is_no_symbol(check, equation):
    diagnostics, _ = check(glossary_body([equation], ENTRIES))
    assert found(diagnostics, "A321") == []


@pytest.mark.parametrize(
    ("equation", "letter"),
    [
        (r"y=a\,\mathrm{W}\,x", "W"),  # in the middle of the side: a factor
        (r"y=a x\,\mathrm{K}+x", "K"),  # a term follows
        (r"y=a x\,\mathrm{Q}", "Q"),  # no unit reads `Q`
    ],
)
def test_an_upright_letter_that_is_no_trailing_unit_is_still_a321(check, equation, letter):
    diagnostics, _ = check(glossary_body([equation], ENTRIES))
    assert [d.message for d in diagnostics if d.code == "A321"] == [
        f"equation symbol {letter!r} is not defined under `Symbols and units`"
    ]


def test_a_letter_used_as_the_subscript_of_a_used_name_is_used(check):
    """`p_\\theta(x)` names the model by its parameters θ, which the table lists (a
    cross-entropy lesson): θ is used, not an A320."""
    entries = [*ENTRIES[:2], ("x", "Input", "units"), ("θ", "Model parameters", "units")]
    diagnostics, _ = check(glossary_body([r"y=a\,p_\theta(x)"], entries))
    assert codes(diagnostics) == []


def test_a_norm_with_a_placeholder_is_an_operator_used_where_its_bars_are(check, locate):
    """`‖·‖₂` explains the Euclidean norm a formula writes `\\|g\\|_2`: an operator entry,
    used; it was an A322 (no symbol) in a gradient-clipping lesson."""
    entries = [*ENTRIES, ("‖·‖₂", "Euclidean norm", "same units as its argument")]
    diagnostics, _ = check(glossary_body([r"y=a\,\|x\|_2"], entries))
    assert codes(diagnostics) == []
    unused, text = check(glossary_body(["y=a x"], entries))
    assert found(unused, "A320") == [locate(text, "‖·‖₂\n")]


def test_a_constant_listed_among_an_entrys_symbols_names_none(check):
    """`N, H, ln 2` with `tokens, nats/token, nats/bit`: the constant names no symbol, the
    others are read with their own units, and the table goes on (it stopped there, an
    A322, in a cross-entropy lesson)."""
    entries = [*ENTRIES[:2], ("x, w, ln 2", "As defined above", "units, units, nats/bit")]
    diagnostics, _ = check(glossary_body([r"y=a\,x\,w"], [*entries, ("z", "Spare", "units")]))
    assert found(diagnostics, "A322") == [] and codes(diagnostics) == ["A320"]


@pytest.mark.parametrize(
    ("equation", "entry"),
    [
        (r"y=a\,x\,\Delta\varpi\,q", ("Δϖ", "Permanent pressure loss", "units")),
        (r"y=a\,x\,\frac{\delta q}{q}", ("δq", "Error in q", "units")),
    ],
)
def test_a_change_written_with_delta_is_used_where_a_formula_writes_it(check, equation, entry):
    """An orifice lesson's Δϖ (`\\Delta\\varpi`: the variant letter after Δ) and δq
    (`\\delta q`, which a formula read without the glossary splits) were A320."""
    entries = [*ENTRIES, entry, ("q", "Flow", "units")]
    diagnostics, _ = check(glossary_body([equation], entries))
    assert codes(diagnostics) == []


def test_a_symbol_summed_over_its_subscript_defines_its_family(check):
    """`M_r` summed in `\\sum_r M_r` (a page-table lesson): r is no usual index letter, but
    the sum binds it, so the entry defines the family M the parser reads; without the sum
    an undefined M is still reported."""
    entries = [("M\\_r", "Size of region r", "bytes"), ("T", "Tables", "1"), ("P", "Page", "bytes")]
    diagnostics, _ = check(glossary_body([r"T=\sum_{r}\frac{M_r}{P}"], entries))
    assert diagnostics == []
    diagnostics, _ = check(glossary_body([r"T=\frac{M}{P}"], entries))
    assert "equation symbol 'M' is not defined under `Symbols and units`" in [
        d.message for d in diagnostics
    ]


def test_a_multi_letter_glossary_name_covers_its_italic_letters(check):
    """`NG\\,\\frac{a}{b}`: LaTeX reads the glossary's noise gain NG as N times G; they are
    not undefined symbols, and NG is used (a false A321 pair and A320 in an op-amp lesson).
    A drift written `dV_OS/dT` in the glossary is the derivative an equation writes."""
    entries = [
        ("NG", "Noise gain", "dimensionless"),
        ("y", "Output", "V"),
        ("dV\\_OS/dT", "Offset drift", "µV/K"),
        ("V\\_OS", "Offset", "V"),
        ("T", "Temperature", "K"),
    ]
    diagnostics, _ = check(glossary_body([r"y=NG\,\frac{dV_{OS}}{dT}\,T"], entries))
    assert diagnostics == []


def test_a_script_letter_in_an_equation_is_the_glossarys_plain_letter(check):
    """`\\mathcal T_j` for the glossary's `T_j`: plain text has no script letters, so the
    entry is used (a false A320 in a similarity-search lesson)."""
    entries = [("T\\_j", "Lookup table j", "units"), ("y", "Score", "units")]
    diagnostics, _ = check(glossary_body([r"y=\sum_{j=1}^{4}\mathcal T_j"], entries))
    assert diagnostics == []


def test_a_mean_written_with_a_bar_uses_the_glossarys_plain_symbol(check):
    """`\\overline{\\mathrm{Nu}}_L` for the glossary's `Nu_L` (a heat-sink lesson): the
    entry left off the bar that marks a mean, and was a false A320. An entry that no
    equation writes, with or without an accent, is still reported."""
    entries = [("Nu\\_L", "Mean Nusselt number", "dimensionless"), ("y", "Score", "units")]
    diagnostics, _ = check(glossary_body([r"y=\overline{\mathrm{Nu}}_L"], entries))
    assert diagnostics == []
    diagnostics, _ = check(glossary_body([r"y=\overline{\mathrm{Nu}}_D"], entries))
    assert "A320" in codes(diagnostics)


def test_a_change_written_with_delta_defines_the_letter_it_changes(check):
    """`\\delta d=\\frac{c\\,\\delta t}{2}` with δt and δd in the table (an ultrasonic-ranging
    lesson): LaTeX reads δ times t, and t was an A321 though the table defines δt. A t
    that no δ entry accounts for is still reported."""
    ranging = [*ENTRIES, ("δd", "Range step", "m"), ("c", "Speed", "m/s")]
    entries = [*ranging, ("δt", "Timer tick", "s")]
    diagnostics, _ = check(glossary_body([r"y=a\,x\,\delta d=\frac{c\,\delta t}{2}"], entries))
    assert "A321" not in codes(diagnostics)
    diagnostics, _ = check(glossary_body([r"y=a\,x\,\delta d=\frac{c\,t}{2}"], ranging))
    assert "equation symbol 't' is not defined under `Symbols and units`" in [
        d.message for d in diagnostics
    ]


def test_an_index_of_table_symbols_is_defined_where_its_range_is_written(check):
    """`a_i = b_i + q c_i, i = 0, …, N − 1` (a STREAM lesson): the table defines a_i, b_i
    and c_i, so i is their index, not an undefined symbol (a false A321). A letter that
    indexes nothing (`T`) is still reported."""
    entries = [*ENTRIES, ("a\\_i, b\\_i", "Elements", "bytes"), ("N", "Length", "elements")]
    diagnostics, _ = check(glossary_body([r"y=a\,x\,a_i=b_i,\quad i=0,\dots,N-1"], entries))
    assert "A321" not in codes(diagnostics)
    diagnostics, _ = check(glossary_body([r"y=a\,x\,a_i=b_i\,T"], entries))
    assert "equation symbol 'T' is not defined under `Symbols and units`" in [
        d.message for d in diagnostics
    ]


@pytest.mark.parametrize(
    ("equation", "entry"),
    [
        # blind lesson `ppo-clipped-objective`: θ_old only as the subscript of π
        (r"y=a x\,\pi_{\theta_{\mathrm{old}}}", ("θ_old", "Rollout-time parameters", "values")),
        # blind lesson `rope-position-interpolation`: θ′_i only as θ′_{d/2-1}
        (r"y=a x,\qquad \theta'_{d/2-1}=a", ("θ′_i", "Interpolated frequency", "rad")),
    ],
)
def test_a_nested_subscript_or_a_marked_family_member_is_a_use(check, equation, entry):
    diagnostics, _ = check(glossary_body([equation], [*ENTRIES, entry]))
    assert [d.message for d in found_all(diagnostics, "A320")] == []


def test_a_rows_label_is_no_undefined_symbol(check, locate):
    """`\\mathrm{Y}:\\ … \\qquad \\Delta:\\ …` name the connection each row is about (blind
    lesson `three-phase-power`); a letter used in a relation is still A321."""
    equation = r"\mathrm{Y}:\ y=a x\qquad \Delta:\ y=a\,x"
    diagnostics, _ = check(glossary_body([equation], ENTRIES))
    assert found(diagnostics, "A321") == []
    diagnostics, text = check(glossary_body([r"\mathrm{Y}:\ y=a x+b"], ENTRIES))
    assert found(diagnostics, "A321") == [locate(text, "b\n$$")]


def found_all(diagnostics, code: str) -> list:
    return [d for d in diagnostics if d.code == code]


def test_a_norm_or_bar_subscript_is_no_symbol_and_a_norm_entry_is_read(check):
    """`\\rVert_F^{2}` with a glossary entry `‖·‖\\_F` (a PCA lesson) gave an A321 for F and
    an A322 for the entry; `\\right|_{\\mathrm{dB/K}}` (a link-budget lesson) an A321 each
    for B and K."""
    norm = r"y=a\left\lVert x\right\rVert_F^{2}"
    entries = [*ENTRIES, ("‖·‖\\_F", "Frobenius norm", "same units as x")]
    diagnostics, _ = check(glossary_body([norm], entries))
    assert codes(diagnostics) == []
    bar = r"y=\left.\frac{a}{x}\right|_{\mathrm{dB/K}}"
    diagnostics, _ = check(glossary_body([bar], ENTRIES))
    assert codes(diagnostics) == []
    diagnostics, _ = check(glossary_body([r"y=a\left\lVert x\right\rVert_F+b"], entries))
    assert [d.message for d in found_all(diagnostics, "A321")] == [
        "equation symbol 'b' is not defined under `Symbols and units`"
    ]


def test_an_imaginary_unit_entry_is_used_where_an_equation_writes_it_upright(check):
    """`…+\\mathrm{j}\\,kQ…` with a glossary entry `j`, `Imaginary unit` (an LLC lesson):
    a false A320; an entry `j` no equation writes is still unused."""
    entries = [*ENTRIES, ("j", "Imaginary unit", "dimensionless")]
    diagnostics, _ = check(glossary_body([r"y=a x+\mathrm{j}\,a"], entries))
    assert found_all(diagnostics, "A320") == []
    diagnostics, _ = check(glossary_body([r"y=a x"], entries))
    assert len(found_all(diagnostics, "A320")) == 1


def test_a_step_a_product_starts_from_is_the_index_of_its_family(check):
    """`‖∂h_T/∂h_t‖ ≤ ∏_{k=t+1}^{T} …` with `h_t, h_T` in the table (an RNN lesson): t is
    the step h is indexed by, not an undefined symbol (a false A321). A letter that
    indexes nothing is still reported."""
    entries = [*ENTRIES, ("h\\_t, h\\_T", "Hidden states at steps t and T", "units"),
               ("a\\_k", "Preactivation", "units"), ("T", "Steps", "steps")]  # fmt: skip
    product = r"y=a\,x,\qquad h_T \le \prod_{k=t+1}^{T} a_k\,h_t\,x^{T-t}"
    diagnostics, _ = check(glossary_body([product], entries))
    assert "A321" not in codes(diagnostics)
    diagnostics, _ = check(glossary_body([product + r"\,u"], entries))
    assert "equation symbol 'u' is not defined under `Symbols and units`" in [
        d.message for d in diagnostics
    ]


def test_commas_inside_one_subscript_name_the_symbol_a_formula_writes(check):
    """`V\\_LL,1,rms` for `V_{LL,1,\\mathrm{rms}}` (an inverter lesson): three parts of one
    subscript, neither a list (`R_0,A,B`) nor one index pair; the glossary had stopped
    reading there (a false A322). Not written by a formula, it still cannot be read."""
    entries = [*ENTRIES, ("V\\_LL,1,rms", "Line voltage, fundamental, rms", "V")]
    diagnostics, _ = check(glossary_body([r"y=a\,x\,V_{LL,1,\mathrm{rms}}"], entries))
    assert "A322" not in codes(diagnostics) and "A321" not in codes(diagnostics)
    diagnostics, _ = check(glossary_body([r"y=a\,x"], entries))
    assert "A322" in codes(diagnostics)


def test_a_degree_sign_after_a_number_in_a_subscript_is_left_out(check):
    """`ΔL_90°` for `\\Delta L_{90^\\circ}` (a skew lesson: the 90° turn's extra length):
    both name DeltaL_90 (a false A322, then an A320)."""
    entries = [*ENTRIES, ("ΔL\\_90°", "Extra length of a 90° turn", "mm")]
    diagnostics, _ = check(glossary_body([r"y=a\,x\,\Delta L_{90^\circ}"], entries))
    assert not {"A320", "A321", "A322"} & set(codes(diagnostics))


def test_a_floor_and_its_measured_members_read_as_the_formulas_write_them(check):
    """A learning-curve lesson: `L∞` is the `L_{\\infty}` its formulas write (a false
    A322), its meaning `Assumed or fitted floor` is no Assumptions paragraph (the block
    had ended there, a false A322), and `L_1, L_2` are members of the family `L_i` that
    `r_i = L_i − L_∞` writes (two false A320)."""
    entries = [*ENTRIES, ("L\\_1, L\\_2", "Measured losses", "nats"),
               ("L∞", "Assumed or fitted floor", "nats"),
               ("r\\_i", "Reducible loss", "nats")]  # fmt: skip
    diagnostics, _ = check(glossary_body([r"y=a\,x,\qquad r_{i}=L_{i}-L_{\infty}"], entries))
    assert not {"A320", "A321", "A322"} & set(codes(diagnostics))


def test_a_metric_at_a_cut_off_is_one_name(check):
    """`NR@k` for `\\mathrm{NR@}k` (a retrieval lesson: recall of an approximate index at
    k): the glossary could not read the `@` (a false A322), and the formula read NR@ times
    k. `R@k(q)` is R@k of a query q."""
    entries = [*ENTRIES, ("NR@k", "Nearest-neighbour recall at k", "dimensionless"),
               ("R@k(q)", "Recall at k of one query", "dimensionless"),
               ("q", "A query", "query")]  # fmt: skip
    latex = r"y=a\,x,\qquad \mathrm{NR@}k=\frac{1}{2}\,\mathrm{R@}k(q)"
    diagnostics, _ = check(glossary_body([latex], entries))
    assert not {"A320", "A321", "A322"} & set(codes(diagnostics))


def test_the_element_of_a_line_integral_is_used_where_the_integral_takes_it(check):
    """`dl` for the `\\mathrm{d}\\mathbf{l}` of `\\oint \\mathbf{H}\\cdot\\mathrm{d}\\mathbf{l} = i`
    (a Rogowski-coil lesson): the element of the path a glossary names was unused (a false
    A320). An element of a variable no integral takes is still unused."""
    entries = [*ENTRIES, ("H", "Field strength", "A/m"), ("dl", "Element of the path", "m"),
               ("i", "Enclosed current", "A")]  # fmt: skip
    latex = r"y=a\,x,\qquad \oint \mathbf{H}\cdot\mathrm{d}\mathbf{l}=i"
    diagnostics, _ = check(glossary_body([latex], entries))
    assert not {"A320", "A321", "A322"} & set(codes(diagnostics))
    entries = [*ENTRIES, ("H", "Field strength", "A/m"), ("dl", "Element of the path", "m")]
    diagnostics, _ = check(glossary_body([r"y=a\,x\,H"], entries))
    assert codes(diagnostics) == ["A320"]


def test_the_variable_of_a_set_builder_needs_no_entry(check):
    """`n = \\min\\{d \\in \\mathcal D : d \\ge a\\}` (a CAN FD lesson: the smallest allowed
    length at least a) names d only inside the set it builds: a false A321 at d. A letter
    outside any builder still needs its entry."""
    entries = [*ENTRIES, ("n", "Chosen length", "bytes"), ("𝒟", "Allowed lengths", "bytes")]
    latex = r"y=a\,x,\qquad n=\min\{d\in\mathcal D: d\ge a\}"
    diagnostics, _ = check(glossary_body([latex], entries))
    assert "A321" not in codes(diagnostics)
    unbuilt = r"y=a\,x,\qquad n=\min\{d\in\mathcal D: d\ge b\}"
    diagnostics, _ = check(glossary_body([unbuilt], entries))
    assert codes(diagnostics) == ["A321"]
