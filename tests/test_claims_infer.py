"""claims.infer: checks a lesson gets with no claims file, from its own equations and prose.

Per pattern of real worked examples: the correct lesson verifies (relations by example,
the numbers they give), the same lesson with one number edited fails at that number, and
a binding that is not certain gives no error."""

from __future__ import annotations

from typing import Any

from support import QUEUE


def _inferred(record: Any) -> list[dict[str, Any]]:
    return [claim for claim in record.claims if claim.get("source") == "inferred"]


def _codes(record: Any) -> list[str]:
    return [d.code for d in record.diagnostics if d.severity.value == "error"]


def test_a_correct_example_verifies_its_relations_and_numbers(authored) -> None:
    record = authored(QUEUE)
    assert _codes(record) == []
    checks = _inferred(record)
    assert checks and all(check["status"] == "pass" for check in checks)
    relations = record.coverage["relations"]
    assert relations["verified"] == 3, relations
    assert record.coverage["numbers"]["verified"] >= 3
    shown = " ".join(check["message"] for check in checks)
    assert "40 ms → W" in shown and "125 → μ" in shown  # as written, with the glossary's symbols


def test_one_edited_number_fails_at_that_number(authored) -> None:
    record = authored(QUEUE.replace("L = 4 requests", "L = 5 requests"))
    errors = [d for d in record.diagnostics if d.code == "A430"]
    assert len(errors) == 1, record.diagnostics
    body = QUEUE.replace("L = 4 requests", "L = 5 requests")
    line = body[: body.index("L = 5")].count("\n") + 1
    assert "L is not 5" in errors[0].message and "computed L = 4" in errors[0].message
    assert errors[0].content_line is None or errors[0].content_line >= line  # at the number


def test_two_scenarios_in_one_paragraph_give_no_error(authored) -> None:
    """`λ = 112.5` after `λ = 100` starts another scenario: mixed values are not certain."""
    body = QUEUE.replace(
        "in the system.",
        "in the system. If λ = 112.5 requests/s, then ρ = 0.8 still reads as before.",
    )
    record = authored(body)
    assert "A430" not in _codes(record)


def test_values_named_earlier_in_the_section_are_as_certain(authored) -> None:
    """Givens in one paragraph, results in the next: an edited result is an error there;
    a given named again with another value starts another scenario, and says nothing."""
    split = QUEUE.replace("requests/s. Its utilization", "requests/s.\n\nIts utilization")
    assert _codes(authored(split)) == []
    record = authored(split.replace("W = 40 ms", "W = 50 ms"))  # W = 1/(μ − λ): μ, λ above
    assert [d.code for d in record.diagnostics if d.code == "A430"] == ["A430"]
    again = split.replace("Its utilization", "At λ = 110 requests/s its utilization")
    assert "A430" not in _codes(authored(again))


def test_a_hedged_statement_names_its_symbol_and_working_is_no_value(authored) -> None:
    """`ρ ≈ 0.8` states ρ as `ρ = 0.8` does (its edit fails); `W ≈ 0.032/ρ` is working
    that goes on past the number, not W = 0.032."""
    hedged = QUEUE.replace("ρ = 0.8", "ρ ≈ 0.8")
    record = authored(hedged)
    assert _codes(record) == []
    assert any("0.8 → ρ" in check["message"] for check in _inferred(record))
    assert "A430" in _codes(authored(hedged.replace("ρ ≈ 0.8", "ρ ≈ 0.9")))
    working = QUEUE.replace("W = 40 ms in the system", "W ≈ 0.032/ρ s in the system")
    assert "A430" not in _codes(authored(working))


def test_a_number_whose_symbol_is_not_certain_gives_no_error(authored) -> None:
    """Two numbers of one dimension for two symbols of it, no words to tell them apart."""
    body = QUEUE.replace(
        "A shard serves μ = 125 requests/s and receives λ = 100 requests/s.",
        "A shard sees 125 requests/s and 90 requests/s.",
    )
    record = authored(body)
    assert "A430" not in _codes(record)


def test_units_convert_and_a_unique_dimension_binds(authored) -> None:
    """`W = 40 ms` is 0.04 in the table's s; a number in requests/s alone in its paragraph
    is not enough for two symbols of that unit, but a time in ms is W's alone."""
    record = authored(QUEUE.replace("W = 40 ms", "the wait is 40 ms"))
    assert _codes(record) == []
    assert any("40 ms → W" in check["message"] for check in _inferred(record))


def test_an_explicit_claim_on_the_same_number_wins(authored) -> None:
    claims = """
    claims:
      - id: wait
        kind: formula
        quote: "a request spends W = 40 ms in the system"
        bind: [W]
        params:
          values: {mu: 125, lambda: 100}
          use: [{equation: 0, relation: 2}]
    unchecked:
      - {equation: 0, relation: 0, reason: inferred elsewhere}
      - {equation: 0, relation: 1, reason: inferred elsewhere}
    """
    record = authored(QUEUE, claims)
    inferred = _inferred(record)
    assert not any("→ W" in check["message"] and "40 ms" in check["message"] for check in inferred)
    assert any(claim["id"] == "wait" and claim["status"] == "pass" for claim in record.claims)


def test_a_relation_is_not_proved_by_a_value_solved_from_itself(authored) -> None:
    """With only μ and λ stated, ρ can be solved from `ρ = λ/μ`; that proves nothing."""
    body = QUEUE.split("## Engineering example")[0] + (
        "## Engineering example\n\nA shard serves μ = 125 requests/s and λ = 100 requests/s.\n"
    )
    record = authored(body)
    assert record.coverage["relations"]["verified"] == 0
    assert _inferred(record) == []


_BY_VALUE = "and a request spends W = 40 ms in the system."


def test_a_result_written_without_its_symbol_is_found_by_its_value(authored) -> None:
    """`takes 40 ms end to end` names no symbol, and 32 ms is a second time in the
    paragraph: the relation `W = 1/(μ − λ)` computes 40 ms from μ and λ, stated by name, and
    the one precise number of W's kind with that value verifies it."""
    body = QUEUE.replace(_BY_VALUE, "and a request takes 40 ms end to end, 32 ms in line.")
    record = authored(body)
    assert _codes(record) == []
    shown = [c["message"] for c in _inferred(record) if "(the value computed)" in c["message"]]
    assert len(shown) == 1 and "40 ms → W (the value computed)" in shown[0], shown


def test_a_number_found_by_its_value_is_never_an_error(authored) -> None:
    """The same paragraph with 41 ms: no number has the computed value, so nothing is
    verified there and nothing is reported (the number is not certain to be W)."""
    body = QUEUE.replace(_BY_VALUE, "and a request takes 41 ms end to end, 32 ms in line.")
    record = authored(body)
    assert _codes(record) == []
    assert not any("→ W" in c["message"] for c in _inferred(record))


def test_a_coarse_number_is_not_found_by_its_value(authored) -> None:
    """`about 40 ms` rounds to the tens (half a unit is 12.5% of it): it could agree with
    the computed value by chance, so it verifies nothing."""
    body = QUEUE.replace(_BY_VALUE, "and a request takes about 40 ms end to end, 32 ms in line.")
    record = authored(body)
    assert not any("→ W" in c["message"] for c in _inferred(record))


_DELAY = r"""
## Science and assumptions

### Lumped delay

$$
t\approx 0.69\,R\,C
$$

Symbols and units

t

Delay to the 50% point

s

R

Driver resistance

Ω

C

Load capacitance

F

## Engineering example

A driver of R = 200 Ω into C = 370 fF gives t = {t}.
"""


def test_an_approximate_relation_in_small_units_holds_only_within_its_own_digits(
    authored,
) -> None:
    """In base units t is 5.1e-11 s: the `≈` relation's 0.5% is relative to that, not to 1
    (which admitted any picosecond value)."""
    right = authored(_DELAY.replace("{t}", "51.1 ps"), slug="right")
    assert right.coverage["relations"]["verified"] == 1
    wrong = authored(_DELAY.replace("{t}", "90 ps"), slug="wrong")
    assert wrong.coverage["relations"]["verified"] == 0
    assert _codes(wrong) == []  # an approximate relation says how close it is nowhere: no error


def test_a_value_is_found_from_inputs_bound_by_their_dimension(authored) -> None:
    """`200 Ω` is R's as the only resistance; `51.1 ps` is found among two times by the
    value `t ≈ 0.69 R C` computes, `90 ps` is not."""
    body = _DELAY.replace("R = 200 Ω", "200 Ω").replace(
        "gives t = {t}.", "switches in 51.1 ps, within a 90 ps budget."
    )
    record = authored(body)
    assert _codes(record) == []
    shown = [c["message"] for c in _inferred(record)]
    assert any("51.1 ps → t (the value computed)" in m and "200 Ω → R" in m for m in shown), shown
    assert not any("90 ps" in m for m in shown)


_SPREAD = r"""
## Science and assumptions

### Spread

$$
\sigma=\sqrt{v},\qquad w=2v
$$

Symbols and units

σ

Standard deviation

dimensionless

v

Variance

dimensionless

w

Twice the variance

dimensionless

## Engineering example

Samples with v = 9 have σ² = 9 and w = 18.
"""


def test_a_power_of_a_symbol_states_no_value_of_the_symbol(authored) -> None:
    """`σ² = 9` is the square of σ: read as σ = 9 it failed `σ = √v` for certain (an A430),
    while `w = 2v` held in the same paragraph."""
    record = authored(_SPREAD)
    assert _codes(record) == []
    assert not any("9 → σ" in c["message"] for c in _inferred(record))
    assert record.coverage["relations"]["verified"] == 1


DUTY = r"""
## Science and assumptions

### Buck duty cycle

$$
D=\frac{V_{\mathrm{out}}}{V_{\mathrm{in}}}
$$

Symbols and units

D

Duty cycle of the switch

dimensionless

V\_out

Output voltage

V

V\_in

Input voltage

V

## Engineering example

A point-of-load converter takes V\_in = 12 V to V\_out = 3.3 V.

The duty cycle is then 0.275.
"""


def test_a_bare_number_binds_a_dimensionless_symbol_by_its_meaning(authored) -> None:
    """`The duty cycle is then 0.275`: the words name D's meaning, so the number is D's
    (bare numbers never bound by meaning when a symbol's kind had no angle, unlike a
    number's); by meaning it verifies and is never an error."""
    record = authored(DUTY)
    assert any("0.275 → D" in check["message"] for check in _inferred(record))
    assert record.coverage["relations"]["verified"] == 1
    assert _codes(authored(DUTY.replace("0.275", "0.375"))) == []


def test_a_relation_whose_symbols_cancel_proves_no_number(authored) -> None:
    """`√(2 ln 2)√N ≈ 1.1774√N` holds at any N: evaluating it at N = 365 proves nothing of
    365, so no inferred check binds it."""
    body = r"""
## Science and assumptions

### Birthday bound

$$
\sqrt{2\ln 2}\,\sqrt{N}\approx 1.1774\sqrt{N}
$$

Symbols and units

N

Number of equally likely values

counts

## Engineering example

For birthdays N = 365, so about 23 people give even odds.
"""
    record = authored(body)
    assert _inferred(record) == []
    assert record.coverage["relations"]["verified"] == 0


AMDAHL = r"""
## Science and assumptions

### Fixed-size speedup

$$
S=\frac{1}{(1-p)+p/N}
$$

Symbols and units

S

Speedup of the run

dimensionless

p

Parallel fraction of the work

dimensionless

N

Number of cores

cores

## Engineering example

A job has p = 0.95.

On 8 cores it runs a 5.93× speedup. On 32 cores the speedup is 12.5×.
"""


def test_each_sentence_of_several_cases_is_read_on_its_own(authored) -> None:
    """Two cases, one sentence each: the paragraph as a whole binds neither (two core
    counts, two speedups); each sentence binds its own, by meaning, so never an error."""
    record = authored(AMDAHL)
    shown = [check["message"] for check in _inferred(record)]
    assert any("8 → N" in m and "5.93 → S" in m for m in shown), shown
    assert any("32 → N" in m and "12.5 → S" in m for m in shown), shown
    assert _codes(authored(AMDAHL.replace("12.5×", "14.5×"))) == []


def test_a_number_found_by_its_value_is_not_one_bound_already(authored) -> None:
    """`R_T = R_F` and one number, 4.35 kΩ: bound to R_T it cannot also be the R_F the
    relation computes, so nothing is proved."""
    body = r"""
## Science and assumptions

### Bridge balance

$$
R_T=R_F
$$

Symbols and units

R\_T

Thermistor resistance

kΩ

R\_F

Fixed resistor

kΩ

## Engineering example

At balance the thermistor reads ≈ 4.35 kΩ.
"""
    assert _inferred(authored(body)) == []


def test_an_angle_takes_no_percent(authored) -> None:
    """θ in degrees is bound to an angle, never to `68%` (a bare number's words)."""
    body = r"""
## Science and assumptions

### Numerical aperture

$$
\mathrm{NA}=n\sin\theta
$$

Symbols and units

NA

Numerical aperture

dimensionless

n

Refractive index of the immersion medium

dimensionless

θ

Half-angle of the cone of light

degrees

## Engineering example

With n = 1.44 and NA = 1.35, about 68% of the cone angle is used.
"""
    assert not any("→ θ" in check["message"] for check in _inferred(authored(body)))


def test_a_check_that_cannot_fail_at_its_number_verifies_nothing(authored) -> None:
    """`20 log₁₀(2^N √1.5) ≈ 6.02N + 1.76` holds at any N, so N = 12 is not verified by
    it (the symbols do not cancel; it is an approximation that holds everywhere); a sum
    that 0.020 ms barely moves (12.7 ms either way) is verified at another of its numbers."""
    body = r"""
## Science and assumptions

### Ideal SQNR

$$
20\log_{10}\!\left(2^{N}\sqrt{1.5}\right)\approx 6.02N+1.76
$$

Symbols and units

N

Resolution

bits

## Engineering example

A converter with N = 12 bits.
"""
    assert _inferred(authored(body)) == []
    access = r"""
## Science and assumptions

### Access time

$$
T_a=T_s+T_r+T_x
$$

Symbols and units

T\_a

Access time

ms

T\_s

Seek time

ms

T\_r

Rotational wait

ms

T\_x

Transfer time

ms

## Engineering example

With T\_s = 8.5 ms, T\_r = 4.17 ms, T\_a ≈ 12.7 ms and T\_x = 0.020 ms.
"""
    record = authored(access)
    (check,) = _inferred(record)
    assert record.coverage["relations"]["verified"] == 1
    assert [end - start for start, end in check["spans"]] != [len("0.020 ms")]  # not at T_x


THERMAL = r"""
## Science and assumptions

### Thermal voltage

$$
V_T=\frac{k\,T}{q},\qquad \Delta V=V_T\ln 2
$$

Symbols and units

V\_T

Thermal voltage

mV

k

Boltzmann constant@

J/K

T

Absolute temperature

K

q

Elementary charge

C

ΔV

Forward-voltage step that doubles a diode's current

mV

## Engineering example

At T = 300 K the thermal voltage is V\_T = 25.85 mV, so a diode current doubles every ΔV = 17.9 mV.
"""


def test_a_constant_the_glossary_names_has_its_value(authored) -> None:
    """`k — Boltzmann constant` and `q — Elementary charge` with no `k = …` in the prose:
    the constants are known, so `V_T = kT/q` is evaluated at T = 300 K and verified; an
    edited temperature is an error (k and q are as certain as a value stated by name); a
    Stefan–Boltzmann constant is no Boltzmann constant, and gives nothing to evaluate."""
    record = authored(THERMAL.replace("@", ""))
    assert _codes(record) == []
    [check] = [c for c in _inferred(record) if "(CODATA)" in c["message"]]
    assert check["status"] == "pass" and "300 K → T" in check["message"]
    assert record.coverage["relations"]["verified"] == 2
    assert "A430" in _codes(authored(THERMAL.replace("@", "").replace("300 K", "310 K")))
    written = authored(THERMAL.replace("@", ", 1.38×10⁻²³"))  # the author's own digits
    assert _codes(written) == [] and written.coverage["relations"]["verified"] == 2
    assert any("1.38×10⁻²³ → k" in c["message"] for c in _inferred(written))
    stefan = THERMAL.replace("@", "").replace("Boltzmann constant", "Stefan–Boltzmann constant")
    assert authored(stefan).coverage["relations"]["verified"] == 1


LOADING = r"""
## Science and assumptions

### Loading

$$
x=\frac{S}{S_r}
$$

Symbols and units

x

Load fraction

dimensionless

S

Apparent power drawn

kVA

S\_r

Nameplate apparent power

kVA

## Engineering example

At x = 0.9 the unit carries 36.7 kVA of its 40.8 kVA.
"""


def test_numbers_no_word_binds_are_found_together_by_their_value(authored) -> None:
    """`36.7 kVA of its 40.8 kVA`: two numbers of one dimension, no word to tell which is
    S and which S_r; only one choice makes x = S/S_r hold at 0.9, so the relation is
    verified by example. A choice that fails says nothing, and two coarse numbers (37 kVA,
    41 kVA) could fit by chance, so they verify nothing."""
    record = authored(LOADING)
    assert record.coverage["relations"]["verified"] == 1
    [check] = _inferred(record)
    assert "36.7 kVA → S" in check["message"] and "40.8 kVA → S_r" in check["message"]
    wrong = authored(LOADING.replace("36.7 kVA", "30.7 kVA"))
    assert wrong.coverage["relations"]["verified"] == 0 and _codes(wrong) == []
    coarse = authored(LOADING.replace("36.7 kVA", "37 kVA").replace("40.8 kVA", "41 kVA"))
    assert coarse.coverage["relations"]["verified"] == 0


BIOT = r"""
## Science and assumptions

### Biot number

$$
\mathrm{Bi}=\frac{h\,L_c}{k_s}
$$

Symbols and units

Bi

Biot number

dimensionless

h

Convection coefficient

W/(m²·K)

L\_c

Characteristic length

m

k\_s

Solid conductivity

W/(m·K)

## Engineering example

Air at h = 40 W/(m²·K) cools an aluminium block, k\_s = 167 W/(m·K).

Then L\_c = V/A\_s ≈ 5.56 mm and Bi = 40 × 0.00556/167 ≈ 0.0013, so the lumped model holds.
"""


def test_a_value_a_working_rounds_is_a_rounded_value(authored) -> None:
    """`Bi = 40 × 0.00556/167 ≈ 0.0013` states a rounded Bi (0.00133 to two digits): solved
    back, it gives L_c = 5.43 mm, within what its rounding admits of the stated 5.56 mm.
    It was read as exactly 0.0013, so the check at L_c failed (a false A430 in a cooling
    lesson, where another check of the paragraph held)."""
    record = authored(BIOT)
    assert _codes(record) == []
    [stated] = [c for c in _inferred(record) if "5.56 mm → L_c" in c["message"]]
    assert stated["status"] == "pass" and "0.0013 → Bi" in stated["message"]


TLB = r"""
## Science and assumptions

### Effective access time

$$
t_{\mathrm{eff}}=t_{\mathrm{mem}}+m\,t_{\mathrm{walk}},\qquad m=1-\frac{R}{W}
$$

Symbols and units

t\_eff

Effective access time

ns

t\_mem

Memory access time

ns

t\_walk

Page-walk time

ns

m

Miss rate

dimensionless

R

TLB reach

GiB

W

Working set

GiB

## Engineering example

""" + (
    "With t\\_mem = 80 ns, t\\_walk = 30 ns and a 2% miss rate, t\\_eff = 80 + 0.02 × 30 = "
    "80.6 ns. @accesses range over W = 12 GiB with R = 3 GiB, m ≈ 1 − 3/12 = 0.75.\n"
)


def test_values_on_both_sides_of_a_sentence_opening_another_case_give_no_error(
    authored,
) -> None:
    """`If accesses range over 12 GiB …, m ≈ 0.75` opens a second case of m: t_eff = 80.6 ns
    was worked at the first (a 2% miss rate, bound by no name), so the relation at m = 0.75
    and t_eff = 80.6 ns fails without a defect (a false A430 in a TLB lesson). Written as one
    case (`Then`), the same numbers are an error."""
    assert "A430" not in _codes(authored(TLB.replace("@", "If ")))
    assert "A430" not in _codes(authored(TLB.replace("@", "Suppose ")))
    assert "A430" in _codes(authored(TLB.replace("@", "Then ")))


def test_a_sentence_that_changes_the_example_opens_another_case(authored) -> None:
    """`Squeezing the same keys into half the slots, 1,048,576, gives α ≈ 0.858` (a cuckoo
    hashing lesson) changes one input without naming it: values on either side of such a
    sentence are two cases (a false A430 at α = n/m with m from the first). A sentence that
    carries on the same case is still read as one."""
    changed = TLB.replace("@accesses range over", "Spreading the accesses over")
    assert "A430" not in _codes(authored(changed))
    assert "A430" not in _codes(authored(TLB.replace("@accesses range over", "Doubling it to")))
    assert "A430" in _codes(authored(TLB.replace("@accesses range over", "Then over")))


MOMENTUM = r"""
## Science and assumptions

### Momentum

$$
m_t=\beta\,m_{t-1}+\left(1-\beta\right)g_t
$$

Symbols and units

m\_t

First moment after step t

gradient units

β

Decay rate

dimensionless

g\_t

Gradient at step t

gradient units

## Engineering example

With β = 0.9 and m₀ = 0, a first gradient g₁ = 0.5 gives m₁ = 0.05.

A second, g₂ = 0.3, gives m₂ = 0.075.
"""


def test_a_recurrence_is_checked_at_the_steps_the_prose_names(authored) -> None:
    """`m₁ = 0.05` is m_t at t = 1, where `m_t = β m_{t−1} + (1 − β) g_t` steps t: the
    relation is taken at each step the prose names a value at (m_{t−1} becomes m₀, g_t g₁)
    and verified there. A step is read off a subscript alone, so an edited value is never
    an error; its check simply fails."""
    record = authored(MOMENTUM)
    assert _codes(record) == []
    assert record.coverage["relations"]["verified"] == 1
    shown = " ".join(check["message"] for check in _inferred(record))
    assert "0.05 → m_1" in shown and "0.075 → m_2" in shown
    edited = authored(MOMENTUM.replace("m₂ = 0.075", "m₂ = 0.085"))
    assert "A430" not in _codes(edited)
    assert not any("0.085" in check["message"] for check in _inferred(edited))


def test_a_number_worked_arithmetic_proves_stays_verified_as_an_input(authored) -> None:
    """`m₁ = 0.1 × 0.5 = 0.05` is proved by its working, and then an input of step two's
    check: it was reported as an input, not verified (65 tests/blind lessons under-counted
    their verified numbers so). Verified are 0.05 and the step-two result 0.075."""
    body = MOMENTUM.replace(
        "With β = 0.9 and m₀ = 0, a first gradient g₁ = 0.5 gives m₁ = 0.05.",
        "With β = 0.9, a first gradient g₁ = 0.5 gives m₁ = 0.1 × 0.5 = 0.05.",
    )
    record = authored(body)
    assert _codes(record) == []
    assert any("0.05 → m_1" in check["message"] for check in _inferred(record))
    assert record.coverage["numbers"]["verified"] == 2


REFLECTION = r"""
## Science and assumptions

### Reflection

$$
\Gamma=\frac{Z_L-Z_0}{Z_L+Z_0}
$$

Symbols and units

Γ

Voltage reflection coefficient at the load

dimensionless

Z\_L

Load impedance

Ω

Z\_0

Characteristic impedance of the line

Ω

## Engineering example

A 75 Ω load on a 50 Ω line gives Γ = 0.2. An open end gives Γ = +1 and a short Γ = −1.
"""


def test_a_sentence_reads_the_values_stated_up_to_its_end(authored) -> None:
    """Each sentence of several is read with the values stated up to its end: the load and
    the line of the first sentence meet its Γ = 0.2, not the short's Γ = −1 stated last in
    the paragraph (which left the relation unverified in a transmission-line lesson)."""
    record = authored(REFLECTION)
    assert _codes(record) == []
    assert record.coverage["relations"]["verified"] == 1
    [check] = _inferred(record)
    assert "75 Ω → Z_L" in check["message"] and "0.2 → Γ" in check["message"]


ROTATION = r"""
## Science and assumptions

### Angles

$$
\phi_i=m\theta_i
$$

Symbols and units

φ\_i

Angle pair i turns by

rad

m

Position

dimensionless

θ\_i

Angle per position of pair i

rad

## Engineering example

At position m = 3 the pairs with θ₀ = 1 rad and θ₁ = 0.01 rad turn by φ₀ = 3 rad and φ₁ = 0.03 rad.
"""


def test_an_elementwise_relation_is_checked_at_the_elements_the_prose_names(authored) -> None:
    """`φ₁ = 0.03 rad` is φ_i at i = 1 for `φ_i = mθ_i`: the relation is taken at each
    element the prose names (a rotary-embedding lesson's pairs); an edited element fails
    there and is no error."""
    record = authored(ROTATION)
    assert _codes(record) == [] and record.coverage["relations"]["verified"] == 1
    shown = " ".join(check["message"] for check in _inferred(record))
    assert "0.03 rad → phi_1" in shown or "0.03 rad → φ_1" in shown
    edited = authored(ROTATION.replace("φ₁ = 0.03 rad", "φ₁ = 0.04 rad"))
    assert "A430" not in _codes(edited)


SYMBOL_RATE = r"""
## Science and assumptions

### Bit rate

$$
R_b=k\,R_s
$$

Symbols and units

R\_b

Bit rate

bit/s

k

Bits per symbol

bits/symbol

R\_s

Symbol rate

baud (symbols/s)

## Engineering example

For 64-QAM, k = 6. In a 28 MHz channel, Rs = 28/1.25 = 22.4 Mbaud and Rb = 6 × 22.4 = 134.4 Mbit/s.
"""


def test_a_unit_only_tables_read_is_the_stated_numbers_unit(authored) -> None:
    """`Rs = 22.4 Mbaud`: prose reads no baud (a word after a number is a counted noun), so
    R_s was 22.4 in the table's baud and R_b = kR_s failed by 10⁶ at a right 134.4 Mbit/s,
    a false A430 in a QAM lesson. A unit the table vocabulary reads is the number's."""
    record = authored(SYMBOL_RATE)
    assert _codes(record) == []
    shown = [check["message"] for check in _inferred(record) if check["status"] == "pass"]
    assert any("22.4 → R_s" in m and "134.4 Mbit/s → R_b" in m for m in shown), shown


MOBILITY = r"""
## Science and assumptions

### Mobility

$$
\mu_n=\frac{q\,\tau_m}{m_c}
$$

Symbols and units

μ\_n

Electron mobility

m²/(V·s)

q

Elementary charge

C

τ\_m

Momentum relaxation time

s

m\_c

Conductivity effective mass

kg

## Engineering example

With μₙ = 0.14 m²/(V·s), q = 1.602×10⁻¹⁹ C and m = 0.26 × 9.109×10⁻³¹ kg, τ\_m ≈ 2.1×10⁻¹³ s.
"""


def test_a_factor_of_unfinished_working_is_no_value(authored) -> None:
    """`m = 0.26 × 9.109×10⁻³¹ kg` multiplies the electron mass: 9.109×10⁻³¹ kg, the only
    mass of the paragraph, was bound to the effective mass m_c (a false A430 in a mobility
    lesson). A factor of working that no relation sign closes binds nothing."""
    assert "A430" not in _codes(authored(MOBILITY))


def test_a_symbol_that_rises_to_a_value_states_it(authored) -> None:
    """`W rises to 8.96 × 10¹¹ FLOP …, so I = 64 FLOP/byte` (a roofline lesson): the new
    value was not read, the relation took W from the paragraph before and I = 64 was a
    false A430. A symbol that rises, falls or grows to a number is stated there (another
    scenario: an edited result is then not certain, and not verified either)."""
    split = QUEUE.replace("requests/s. Its utilization", "requests/s.\n\nIts utilization")
    body = split.replace(
        "in the system.",
        "in the system.\n\nWhen traffic grows, λ rises to 120 requests/s, so ρ = 0.96.",
    )
    record = authored(body)
    assert _codes(record) == []
    assert any("0.96 → ρ" in c["message"] and c["status"] == "pass" for c in _inferred(record))
    wrong = authored(body.replace("ρ = 0.96", "ρ = 0.97"), slug="b")
    assert not any("0.97 → ρ" in c["message"] and c["status"] == "pass" for c in _inferred(wrong))


def test_a_bare_number_of_something_is_no_value_of_the_symbol(authored) -> None:
    """`V_out = 15/16 of that ≈ 125.8 MB` states a fraction of another value, not V_out =
    15/16 (a false A430 in a mixture-of-experts lesson); `ρ = 0.8` on its own still binds."""
    record = authored(QUEUE.replace("ρ = 0.8,", "ρ = 0.9 of the load,"))
    assert _codes(record) == []
    assert "A430" in _codes(authored(QUEUE.replace("ρ = 0.8,", "ρ = 0.9,"), slug="b"))


def test_a_unit_that_rises_states_no_symbol() -> None:
    """`5 W rises to 7 W`: W after a number is the unit, not the symbol W; `W rises to
    70 J` and `P becomes 7 W` state W and P."""
    from atlas_build import lesson
    from atlas_build.claims.infer import statements

    body = (
        "## Power\n\n$$\nW=P\\,t\n$$\n\nSymbols and units\n\nW\n\nEnergy\n\nJ\n\nP\n\nPower\n\n"
        "W\n\nt\n\nTime\n\ns\n\nThe load draws 5 W rises to 7 W over the day. Then W rises to "
        "70 J, and P becomes 7 W.\n"
    )
    stated = [(s.name, s.quantity.text) for s in statements.read(lesson.build(body))]
    assert stated == [("W", "70 J"), ("P", "7 W")]


_NUSSELT = r"""
## Science and assumptions

### Flat-plate convection

$$
\mathrm{Re}_L=\frac{VL}{\nu},\qquad
\overline{\mathrm{Nu}}_L=\frac{\bar h\,L}{k_a}=0.664\,\mathrm{Re}_L^{1/2}\,\mathrm{Pr}^{1/3}
$$

Symbols and units

Re\_L

Reynolds number over L

dimensionless

V

Air velocity

m/s

L

Plate length

m

ν

Kinematic viscosity

m²/s

Nu\_L

Mean Nusselt number

dimensionless

h̄

Mean convection coefficient

W/(m²·K)

k\_a

Thermal conductivity of air

W/(m·K)

Pr

Prandtl number

dimensionless

For air (ν = 1.65×10⁻⁵ m²/s, k\_a = 0.0268 W/(m·K), Pr = 0.71) at V = 3 m/s over
L = 50 mm, Re = 3 × 0.05/1.65×10⁻⁵ ≈ 9,100. Then Nu = 0.664 × 95.3 × 0.892 ≈ 56.5
and h̄ = 56.5 × 0.0268/0.05 ≈ 30.3 W/(m²·K).
"""


def test_a_relation_whose_unit_after_a_number_is_symbols_is_not_inferred(authored) -> None:
    """`0.664\\,\\mathrm{Re}_L^{1/2}\\,\\mathrm{Pr}^{1/3}` reads as 0.664 in a unit `Re_L^1/2
    Pr^1/3` (a heat-sink lesson): the relation computed h without Re and Pr, a false A430.
    A "unit" that is the table's symbols makes the relation one inference does not use."""
    record = authored(_NUSSELT)
    assert _codes(record) == []
    assert not any("h" in c["message"].split("→")[-1] for c in _inferred(record))


_BIMETAL = r"""
## Science and assumptions

### Curvature of a strip

$$
\kappa=\frac{a\,(1+n)}{2h}\qquad (n=1)
$$

Symbols and units

κ

Curvature

1/m

a

Mismatch strain

dimensionless

n

Stiffness ratio

dimensionless

h

Strip thickness

m

With a = 0.002, h = 0.001 m and n = 1.4, κ = 2.4 1/m.
"""


def test_a_case_written_beside_a_form_is_no_certain_relation(authored) -> None:
    """`κ = … (m = n = 1)` (a bimetal lesson): `n = 1` says which case the compact form is,
    and a paragraph with n = 1.4 was a false A430 at it. Such a relation of a symbol and a
    number is never certain; the form itself still verifies."""
    record = authored(_BIMETAL)
    assert _codes(record) == []
    assert record.coverage["relations"]["verified"] >= 1


_DIVIDER = r"""
## Science and assumptions

### Power in a divider

$$
P=\frac{V^2\,R_T}{\left(R_s+R_T\right)^2}\le\frac{V^2}{4R_s}\qquad(\text{equality at }R_T=R_s)
$$

Symbols and units

P

Thermistor power

W

V

Divider supply

V

R\_s

Series resistor

Ω

R\_T

Thermistor resistance

Ω

With V = 3.3 V and R\_s = 10 kΩ, at 60 °C, where R\_T = 2.49 kΩ, the power is P = {} mW.
"""


def test_an_equality_case_of_two_symbols_is_no_certain_relation(authored) -> None:
    """`P ≤ V²/(4R_s)  (equality at R_T = R_s)` (a thermistor lesson): R_T = R_s is the
    case the bound is reached in, and a paragraph at R_T ≈ 2.49 kΩ with R_s = 10 kΩ was a
    false A430 at it. The power relation still verifies, and a wrong power does not."""
    record = authored(_DIVIDER.replace("{}", "0.174"))
    assert _codes(record) == []
    assert record.coverage["relations"]["verified"] == 1
    wrong = authored(_DIVIDER.replace("{}", "0.194"), slug="wrong")
    assert wrong.coverage["relations"]["verified"] == 0


_OSCILLATOR = r"""
## Science and assumptions

### Gain condition

$$
G=\frac{R_f}{R},\qquad R_f=29R{}
$$

Symbols and units

G

Amplifier gain

dimensionless

R\_f

Feedback resistor

Ω

R

Ladder resistor

Ω

With R = 10 kΩ, the chosen R\_f = 300 kΩ gives a gain G = 30.
"""


def test_an_equality_the_same_equation_bounds_is_an_edge_not_a_certain_relation(
    authored,
) -> None:
    """`R_f = 29R, R_f > 29R for start-up` (a phase-shift oscillator lesson): 29R is the
    edge of the range the design sits in, and R_f = 300 kΩ at R = 10 kΩ was a false A430
    at it. The same equality with no bound beside it is still an error."""
    bounded = _OSCILLATOR.replace("{}", r",\qquad R_f>29R\ \text{for start-up}")
    record = authored(bounded)
    assert _codes(record) == []
    assert record.coverage["relations"]["verified"] == 1
    assert "A430" in _codes(authored(_OSCILLATOR.replace("{}", ""), slug="plain"))


def test_a_number_glued_to_a_symbol_states_no_value() -> None:
    """`E_sat = 2v_sat/μ_eff` (a velocity-saturation lesson) read as E_sat = 2 made a
    false A430; the 2 is a coefficient of v_sat. `E_sat = 2 V/µm` still states E_sat."""
    from atlas_build import lesson
    from atlas_build.claims.infer import statements

    body = (
        "## Field\n\n$$\nE=\\frac{2v}{\\mu}\n$$\n\nSymbols and units\n\nE\n\nField\n\nV/cm\n\n"
        "v\n\nVelocity\n\ncm/s\n\nμ\n\nMobility\n\ncm²/(V·s)\n\nChoosing E = 2v/μ makes the "
        "branches meet. Later E = 2 V/cm at the edge.\n"
    )
    stated = [(s.name, s.quantity.text) for s in statements.read(lesson.build(body))]
    assert stated == [("E", "2 V/cm")]


def test_a_series_of_values_states_none_of_them() -> None:
    """`R_T = 3.7, 6.2, 11.2 and 21.2 Ω` (a TLM lesson) was read as R_T = 3.7, one case of
    four, which made a false A430 against a later case of the same relation."""
    from atlas_build import lesson
    from atlas_build.claims.infer import statements

    body = (
        "## Line\n\n$$\nR=r\\,d\n$$\n\nSymbols and units\n\nR\n\nResistance\n\nΩ\n\nr\n\nSlope"
        "\n\nΩ/µm\n\nd\n\nGap\n\nµm\n\nThe gaps give R = 3.7, 6.2 and 11.2 Ω. At the end R = 2 Ω.\n"
    )
    stated = [(s.name, s.quantity.text) for s in statements.read(lesson.build(body))]
    assert stated == [("R", "2 Ω")]


def test_a_paragraph_whose_numbers_written_claims_bind_is_not_searched() -> None:
    """Written claims win over inferred checks on the same numbers, so inference does not
    search a paragraph whose every number a written claim binds (the cost of `check` on
    lessons with claims files); its values still count for the paragraphs after it."""
    from atlas_build import lesson
    from atlas_build.claims import infer, inferable

    body = (
        "## Heat\n\n$$\n\\Delta T=P\\,R\n$$\n\nSymbols and units\n\nΔT\n\nRise\n\nK\n\nP\n\n"
        "Power\n\nW\n\nR\n\nThermal resistance\n\nK/W\n\nWith P = 300 W and R = 0.10 K/W, "
        "ΔT = 30 K.\n\nAt half the power, P = 150 W, ΔT = 15 K.\n"
    )
    built = lesson.build(body)
    entries = inferable(built)
    everything, _ = infer.found(built, entries)
    first = built.content.index("With")
    spans = frozenset(
        (check.anchor[0], check.anchor[1]) for check in everything if check.anchor[0] < first + 60
    ) | frozenset(span for check in everything for span in check.inputs if span[0] < first + 60)
    kept, _ = infer.found(built, entries, spans)
    assert {c.anchor for c in everything} - {c.anchor for c in kept}
    assert all(c.anchor[0] > first + 60 for c in kept) and kept


def test_a_value_from_before_a_paragraph_that_states_its_own_is_not_certain(authored) -> None:
    """Targets in one paragraph, then a paragraph working another case that states its
    own λ after the number a check meets first (an active-filter lesson: `f₀ = 1 kHz,
    Q = 5`, then `R₃ = 158 kΩ … f₀ ≈ 1006 Hz, Q ≈ 4.99`, two false A430): the carried
    λ = 100 is not this paragraph's, so W = 48 ms against it is no error."""
    example = QUEUE[: QUEUE.index("A shard serves")]
    body = example + (
        "A shard is sized for μ = 125 requests/s and λ = 100 requests/s.\n\n"
        "In service a request spends W = 48 ms in the system, since the shard receives "
        "λ = 104.17 requests/s.\n"
    )
    record = authored(body)
    assert _codes(record) == [], record.diagnostics


CASES = r"""
## Science and assumptions

### A model in two cases

$$
M=a\,x^{2}\quad(x\ge 2),\qquad M=3\,a\,x\quad(x<2)
$$

Symbols and units

M

Moment ratio

dimensionless

a

Coefficient

dimensionless

x

Load ratio

dimensionless

With a = 2 and x = 4, M = 32.
"""


def test_an_equality_that_holds_under_a_condition_is_one_case(authored) -> None:
    """`M_0 = 10⁻⁷ f₀ (νn)^{2/3} d_m³ (νn ≥ 2000), M_0 = 160×10⁻⁷ f₀ d_m³ (νn < 2000)`: the
    prose works one case, and the other is no error there (a bearing lesson's false A430).
    The case that holds still verifies."""
    record = authored(CASES)
    assert _codes(record) == [], record.diagnostics
    assert any(c["status"] == "pass" for c in _inferred(record))


def test_a_number_in_a_unit_prose_does_not_read_states_no_value(authored) -> None:
    """`R_s = 20/1.25 = 16 Msymbol/s` (a coding lesson's false A430): the 16 is in a unit
    the prose reader does not read, not 16 of the table's symbols/s."""
    body = QUEUE.replace("serves μ = 125 requests/s", "serves μ = 0.125 kreq/s")
    assert _codes(authored(body)) == []


def test_a_number_far_from_what_its_relation_gives_is_no_error(authored) -> None:
    """`ρ = 3.2` where λ/μ gives 0.8: no one number of the statement, moved by a slip
    (a digit, or a decimal point), makes a relation hold, so the binding is more likely
    wrong than the number (blind lessons: `2 → E_sat`, `16 → R_s` for 16 Msymbol/s). A
    decimal point slipped (`ρ = 8`) is an error."""
    assert "A430" not in _codes(authored(QUEUE.replace("ρ = 0.8", "ρ = 3.2")))
    assert "A430" in _codes(authored(QUEUE.replace("ρ = 0.8", "ρ = 8")))


SPACING = r"""
## Science and assumptions

### Numerology

$$
\Delta f=2^{\mu}\cdot 15\ \mathrm{kHz}
$$

Symbols and units

Δf

Subcarrier spacing

Hz

μ

Numerology index

dimensionless

## Engineering example

For μ = 1 the spacing is Δf = @ kHz.
"""


def test_a_constant_with_its_unit_is_in_base_units_where_values_are(authored) -> None:
    """`Δf = 2^μ · 15 kHz` with Δf in Hz (an OFDM lesson): 30 kHz is 30000 Hz, and so is
    2 × 15 kHz; the constant was taken as 15, a false A430."""
    record = authored(SPACING.replace("@", "30"))
    assert _codes(record) == [] and record.coverage["relations"]["verified"] == 1
    assert authored(SPACING.replace("@", "35")).coverage["relations"]["verified"] == 0
