"""Diagnostic codes of the claims stage."""

from __future__ import annotations

from atlas_build.diagnostics import Severity, define

STAGE = "claims"
FILE = define(
    "A400",
    "claims-file-invalid",
    Severity.ERROR,
    "claims.yaml is not readable YAML or breaks schemas/claims.schema.json. An entry that "
    "breaks it (a claim without `kind`, a repeated id) is not run and the rest of the file "
    "is checked; a file with nothing to run (not YAML, no `claims` list) runs no claim.",
    example="claims: {id: x}",
    fix="Repair the file at the reported position.",
    stage=STAGE,
)
MISMATCH = define(
    "A401",
    "claim-value-mismatch",
    Severity.ERROR,
    "A number the lesson states differs from the value atlas-build computes, beyond the "
    "tolerance (half a unit in the last written digit unless the claim says otherwise).",
    example="lesson says `output is 4`, the engine computes 5",
    fix="Correct the number in the lesson (or the claim's parameters if the lesson is right).",
    stage=STAGE,
)
ANCHOR = define(
    "A402",
    "claim-anchor-lost",
    Severity.ERROR,
    "The claim's quote no longer occurs in the lesson (or occurs fewer times than "
    "`occurrences`): the statement it checked was reworded or deleted.",
    example="quote `output is 5.` after the sentence was rewritten",
    fix="Update the claim's quote to the lesson's new wording, or restore the sentence.",
    stage=STAGE,
)
FAILED = define(
    "A403",
    "claim-check-failed",
    Severity.ERROR,
    "A relation or property the claim checks does not hold: a derivation does not simplify "
    "to zero, a sampled equation disagrees with the engine, an invariance is broken.",
    example="`a_j(v_j+o)` where the derivative is `a_j(v_j-o)`",
    fix="Correct the equation or statement in the lesson.",
    stage=STAGE,
)
ERROR = define(
    "A404",
    "claim-error",
    Severity.ERROR,
    "The claim could not be evaluated: bad parameters, an unknown kind or quantity, a "
    "relation in `use` that defines no symbol (`P V = n R T`: solve it for one), a bind's "
    "(or quiz's) `unit` that contradicts the symbol table's unit for the quantity (the "
    "claim computes it in the table's unit, so its numbers would be compared in the wrong "
    "one), or a request too large for the engine.",
    example="kind: softmax_mixture without `scores`; `{value: E, unit: kWh}` for E in Wh",
    fix="Fix the claim's parameters; leave out a bind `unit` the table already gives (a "
    "number written in kWh converts to Wh by itself).",
    stage=STAGE,
)
TIMEOUT = define(
    "A405",
    "claim-timeout",
    Severity.ERROR,
    "The claim did not finish within its time limit (default 10 s per claim).",
    example="a derivation SymPy cannot simplify",
    fix="Simplify the claim or raise `timeout`.",
    stage=STAGE,
)
LATEX = define(
    "A406",
    "latex-unsupported",
    Severity.ERROR,
    "A display equation a claim reads is outside the lesson-LaTeX dialect "
    "(docs/latex-dialect.md lists what is accepted), an error; or a display equation is "
    "malformed LaTeX, which KaTeX cannot render either (an unclosed brace, an unknown "
    "command), a warning. Valid LaTeX the dialect cannot read, with no claim reading it, "
    "is A417 (info).",
    example="`\\frac{1}{2` (a missing closing brace), `\\foo{x}`; `\\wr` in an equation a "
    "claim reads",
    fix="Correct the LaTeX at the reported position; for an equation a claim reads, "
    "rewrite it with whitelisted commands.",
    stage=STAGE,
)
NOT_CHECKED = define(
    "A417",
    "latex-not-checked",
    Severity.INFO,
    "A display equation is valid LaTeX (KaTeX renders it) that the lesson-LaTeX dialect "
    "cannot read, or a part of it states no relation (an expression shown on its own, "
    "such as a confidence interval): there is nothing checked there. The limitation is "
    "the tool's, not the lesson's; said once per equation.",
    example="`\\bar x \\pm t\\,s/\\sqrt{n}` on its own; `a \\wr b`",
    fix="Nothing is required. To have the equation checked, write it in the dialect "
    "(docs/latex-dialect.md), or state the relation (`\\mathrm{CI} = ...`).",
    stage=STAGE,
)
UNCOVERED = define(
    "A407",
    "equation-unchecked",
    Severity.WARNING,
    "A display equation of a lesson with a claims file is neither checked by a claim nor "
    "listed under `unchecked` with a reason.",
    example="a new `$$E=mc^2$$` with no claim",
    fix="Add a claim, or list it as unchecked.",
    stage=STAGE,
)
ARITHMETIC = define(
    "A408",
    "arithmetic-inconsistent",
    Severity.ERROR,
    "Worked arithmetic in the lesson does not evaluate to the result it states (with units:"
    " in the result's unit), or its units' dimensions disagree.",
    example="`0.25×(2−4)=−0.75`; `3 m/s × 2 s = 7 m`",
    fix="Correct the operands, the result or its unit.",
    stage=STAGE,
)
BINDING = define(
    "A409",
    "claim-binding-mismatch",
    Severity.ERROR,
    "The quote has a different number of numbers than the claim's `bind` list.",
    example="quote with 4 numbers, bind with 3 entries",
    fix="Give one bind entry per number.",
    stage=STAGE,
)
UNACCOUNTED = define(
    "A410",
    "number-unaccounted",
    Severity.INFO,
    "A number in the lesson's prose is neither checked by a claim, nor an input a claim fixes, "
    "nor exempt by a documented rule (docs/authoring.md); coverage lists it as unaccounted.",
    example="`the cache holds 12 GiB` with no claim binding 12",
    fix="Bind it in a claim (or rewrite it as an input the claim fixes).",
    stage=STAGE,
)
UNACCOUNTED_STEP = define(
    "A411",
    "worked-step-unchecked",
    Severity.ERROR,
    "With `check --require-accounted`: a sentence states a verified number and also a number "
    "nothing accounts for, i.e. a worked example with an unchecked step.",
    example="`0.9×0.1 = 0.09, so m₂ = 0.171` with only 0.171 bound",
    fix="Bind the other number too, or reword the step.",
    stage=STAGE,
)
QUIZ_UNCHECKED = define(
    "A412",
    "quiz-unchecked",
    Severity.WARNING,
    "A quiz question of a lesson with a claims file is neither checked by a `quiz` claim nor "
    "listed under `unchecked` with a reason, or its `quiz` claim compared the answer with a "
    "fact whose own claim failed or errored, or whose number in the lesson agrees only as a "
    "bare number (A423), so its stated answer is not proved.",
    example="`What does doubling t do to d?` answered `Doubles it` with no quiz claim",
    fix="Add a `quiz` claim whose `fact` the answer states (a ratio for `Doubles it`), or "
    "list the question under `unchecked: [{quiz: ..., reason: ...}]`; when the message names "
    "a fact, correct the claim it comes from.",
    stage=STAGE,
)
INLINE_UNCHECKED = define(
    "A413",
    "inline-relation-unchecked",
    Severity.WARNING,
    "Inline math of a lesson with a claims file relates symbols (`$g_m = I_D/V_{ov}$`), and "
    "no claim can address inline math, so the relation is not proved; the lesson stays "
    "partly verified unless `unchecked` lists it with a reason.",
    example="`Equivalently, $g_m = I_D/V_{ov}$` where the lesson's equation has 2 I_D",
    fix="Write it as a display equation (`$$...$$`) and check it with a claim, or list it "
    "under `unchecked: [{inline: ..., reason: ...}]`.",
    stage=STAGE,
)
CHECKS_NOTHING = define(
    "A414",
    "claim-checks-nothing",
    Severity.WARNING,
    "A claim ran and nothing it compared is a proof: every number it binds is an input it "
    "fixes itself (its `values`, or an expression that restates a number), and it runs no "
    "identity, derivation or sample; so it proves nothing and the lesson stays partly "
    "verified.",
    example="a claim quoting `With v = 3 m/s and t = 2 s, the speed is given.` that binds "
    "only v and t",
    fix="Bind a number the claim computes (`d` from `d = v t`), add `identities` it checks "
    "at its values, or merge it into the claim whose sentence states the result.",
    stage=STAGE,
)
AMBIGUOUS = define(
    "A415",
    "claim-quote-ambiguous",
    Severity.WARNING,
    "The claim's quote of table rows, its numbers read as slots, fits several rows that "
    "write different numbers, and none fits better than the others (none writes the quote's "
    "numbers, and they differ from it in as many): each is checked, so a correct row can "
    "be reported wrong. A row quoted alone fits every row of its shape.",
    example="quote `| 2 | 6 |` where the table has rows `| 2 | 7 |` and `| 4 | 6 |`",
    fix="Correct the number the quote states in the lesson, or quote more of the table "
    "(a neighbouring row, or the whole row with its label) so it fits one row; "
    "`occurrences: N` says the row is meant to occur N times.",
    stage=STAGE,
)
LOOSE_TOLERANCE = define(
    "A416",
    "tolerance-loose",
    Severity.WARNING,
    "A `tolerance` (of a bind entry, a claim or `defaults`) is looser than the digits of a "
    "number it applies to (half a unit in the last written digit, or the precision the "
    "sentence states), or as large as the number itself, so it passes numbers those digits "
    "say are wrong; a number that agrees only within it is not counted as verified, and the "
    "lesson reads partly verified.",
    example="`tolerance: 50` on a claim whose lesson writes `E = 15 Wh` where E is 10.8 Wh",
    fix="Leave `tolerance` out (half a unit in the last written digit), or write the number "
    "to the digits it is known to; a tolerance is absolute, in the unit each number is "
    "written in (0.05 for `16.1 mV`), never a percentage.",
    stage=STAGE,
)
DIMENSION = define(
    "A420",
    "dimension-mismatch",
    Severity.ERROR,
    "The two sides of a relation, the terms of a sum, or the argument of exp/log/sin/softmax "
    "do not have the dimensions the lesson's symbol table gives them, or a °C value is "
    "multiplied or equated with kelvin (docs/units.md). Only a certain disagreement is "
    "an error: units of one dimension and other sizes (ns and µs) agree, and one the "
    "check cannot be sure of is A425.",
    example="`V_T = k_B T` with V_T in V, k_B in J/K and T in K: left side V, right side J",
    fix="Correct the relation (`V_T = k_B T / q`), or the unit in `Symbols and units`.",
    stage=STAGE,
)
UNIT_UNPROVEN = define(
    "A423",
    "unit-unproven",
    Severity.WARNING,
    "A bound number agrees only as a bare number: converted to the unit the claim works out "
    "for its value from the symbols' units, it does not (a wrong prefix or dimension, or an "
    "expression whose bare constants carry units the tool cannot see), or, in a lesson with "
    "a symbol table, nothing gives the computed value a unit at all; or its symbol's table "
    "unit does not read (A421) and the number is written in another, or the claim computed "
    "it from a symbol whose table unit does not read; so the number is not counted as "
    "verified.",
    example='`fcx: "f_c"` with f_c in Hz, bound to `f_c ≈ 1591.5 ms`; `L = 10 µH` with L in `nh`',
    fix="Correct the unit in the lesson, or state the unit the expression gives in the bind: "
    "`{value: read_ms, unit: ms}` (for a difference of temperatures, `ΔT` or a `rise`, "
    "`unit: K`: its °C number is an interval); correct a table unit that does not read (`nH`).",
    stage=STAGE,
)
NO_UNIT = define(
    "A422",
    "symbol-without-unit",
    Severity.INFO,
    "Symbols of display equations have no entry (or no readable unit) in the lesson's symbol "
    "table, so the relations using them are only partly checked for dimensions. Indices "
    "(`k` of `X_k`), variables a sum or product runs over, `i` times π in an exponent and "
    "members `x_i` of a family whose symbol the table gives are not named: they need no "
    "unit; operators are never named.",
    example="`P = I V` with I and V in the table but not P",
    fix="Add the symbols, their meaning and unit to `Symbols and units`.",
    stage=STAGE,
)

UNCERTAIN = define(
    "A425",
    "dimensions-uncertain",
    Severity.INFO,
    "Relations whose dimensions disagree in a way the check cannot be sure of are `not "
    "checked`, never an error: through a descriptive unit (`value units`, `units of f`, `same "
    "units as x`, one singular word such as `record`), a side that is a bare number whose "
    "constant may carry the unit (`V_th = 0.7`), set notation, or the logarithm of a quantity "
    "in a decibel level; said once per lesson, with each relation's reason in the report "
    "(docs/units.md).",
    example="`x_{t+1} = G(x_t, u_t)` with x in `record` and G in `function`",
    fix="Nothing, unless a quantity has a physical unit: then write it (`m`, `V`), and the "
    "relation is checked.",
    stage=STAGE,
)
