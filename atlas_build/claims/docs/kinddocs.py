"""What each claim kind checks and computes, with a worked example, for authors.

The parameters are documented on the kinds' pydantic models; this module holds what a
model cannot say: what the kind proves, the quantities a `bind` can name, and one example
(a lesson excerpt and the claims that check it). `docgen` renders both into
`schemas/claims.schema.json`, `docs/claim-kinds.md` and `atlas-build explain KIND`, and
the tests run every example through the build, so an example that stops passing, or a
quantity that is renamed, fails there instead of misleading an author.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class KindDoc:
    """`computes`: quantity -> meaning; `dynamic`: names that depend on the parameters
    (the test then requires only that the documented names are computed)."""

    checks: str
    computes: dict[str, str]
    lesson: str
    claims: str
    dynamic: str = ""
    notes: list[str] = field(default_factory=list)


DOCS: dict[str, KindDoc] = {}

DOCS["formula"] = KindDoc(
    checks=(
        "Computes the numbers of a worked example from the lesson's own displayed equations, "
        "exactly, at the values the claim states: the relations named in `use` (or every "
        "relation of `equations`) define symbols, powers (`\\sigma^2`), vector elements "
        "(`\\hat{x}_i`), recurrences (`m_t` from `m_{t-1}`) and functions (`v(t) = ...`, "
        "evaluated wherever `v(...)` is called: `v(2\\tau)` in an expression or another "
        "relation). Each quoted number bound to a "
        "computed quantity must match it. `identities` are further relations the lesson "
        "displays, checked at those values. Editing a displayed equation changes every number "
        "computed from it, so a wrong equation fails where it is written (A403)."
    ),
    computes={
        "<symbol>": "every input in `values` and every symbol the used relations define",
        "<symbol>_squared": "a power a relation defines (`\\sigma^2` gives `sigma_squared`)",
        "<function>": "a function a relation defines (`v(t) = ...` gives `v`), at its "
        "arguments' values when they all have one",
        "<name>": "every entry of `expressions`",
    },
    dynamic="Quantity names follow the lesson's symbols: `H_{\\mathrm{kv}}` is `H_kv`, "
    "`\\beta_1` is `beta_1`, `\\hat{x}` is `x_hat`.",
    lesson="""\
$$
E=\\frac{1}{2} m v^2
$$

A mass of m = 2 kg moving at v = 3 m/s carries E = 9 J; at 6 m/s it carries 36 J.
""",
    claims="""\
claims:
  - id: kinetic-energy
    kind: formula
    quote: "A mass of m = 2 kg moving at v = 3 m/s carries E = 9 J; at 6 m/s it carries 36 J."
    bind: [m, v, E, faster_v, faster]
    params:
      values: {m: 2, v: 3}
      use: [{equation: 0, relation: 0}]
      expressions:
        faster_v: "2 v"
        faster: "\\\\frac{1}{2} m (2 v)^2"
""",
)

DOCS["equation"] = KindDoc(
    checks=(
        "Checks the relations of one display equation, each in the way `relations` says: a "
        "`definition` defines its left side for the others (it is reported `defined`, not "
        "verified); `derive` substitutes the definitions (the equation's own, those in `use` "
        "and the claim's `definitions`) and requires SymPy to simplify left minus right to 0, "
        "for symbolic index ranges; `sample` evaluates both sides on random inputs (`inputs`, "
        "`sizes`), with left-hand symbols bound to the attention engine's tensors when "
        "`engine` says so, and requires them to agree within `tolerance` (or the inequality "
        "to hold); `claim` leaves the relation to another claim (`by`)."
    ),
    computes={},
    notes=["An `equation` claim binds no numbers: it has no `quote` or `bind`."],
    lesson="""\
$$
p_i=\\frac{e^{z_i}}{\\sum_{j=1}^{n} e^{z_j}},\\qquad \\frac{p_i}{p_j}=e^{z_i-z_j},\\qquad \
\\sum_{i=1}^{n} p_i=1
$$
""",
    claims="""\
claims:
  - id: softmax-relations
    kind: equation
    params:
      equation: 0
      indices: [i, j]
      sizes: {n: 4}
      inputs: {z: [n]}
      relations:
        - {relation: 0, check: definition}
        - {relation: 1, check: derive}
        - {relation: 2, check: sample}
""",
)

DOCS["variance"] = KindDoc(
    checks=(
        "For a relation `Var(q^T k) = ...` of a display equation: derives the variance of a "
        "sum of `width` products of independent zero-mean unit-variance coordinates with "
        "sympy.stats (for normal and for Rademacher coordinates), requires the lesson's right "
        "side to equal it, and confirms it with a fixed-seed Monte Carlo run of the engine's "
        "scores at each of `widths`, within `sigmas` standard errors. The relation is then "
        "verified."
    ),
    computes={"variance": "the derived variance, in the lesson's width symbol"},
    lesson="""\
$$
\\operatorname{Var}(q^{\\mathsf T}k)=d_k
$$

A sum of dₖ independent unit-variance products has variance dₖ.
""",
    claims="""\
claims:
  - id: score-variance
    kind: variance
    quote: "A sum of dₖ independent unit-variance products has variance dₖ."
    params: {equation: 0, relation: 0, width: d_k, widths: [4, 16], samples: 20000}
""",
)

DOCS["softmax_mixture"] = KindDoc(
    checks=(
        "One attention query over keys with the given raw `scores` and scalar `values`: the "
        "probabilities, the output and the derivative of the output with respect to each "
        "score, computed exactly with SymPy (the derivative also by symbolic differentiation); "
        "the engine's forward pass, its internals and its backward pass must agree within "
        "`engine_tolerance`, and finite differences of the engine within `fd_tolerance`."
    ),
    computes={
        "scores": "the scores (an input)",
        "values": "the values (an input)",
        "probabilities": "softmax of the scores",
        "output": "the probability-weighted sum of the values",
        "dout_ds": "d output / d score_j = probability_j × (value_j − output), per score",
    },
    lesson="""\
With scores \\[0,ln3\\] and values \\[2,6\\], the probabilities are \\[0.25,0.75\\] and the \
output is 5.
""",
    claims="""\
claims:
  - id: worked-mixture
    kind: softmax_mixture
    quote: "With scores \\\\[0,ln3\\\\] and values \\\\[2,6\\\\], the probabilities are
      \\\\[0.25,0.75\\\\] and the output is 5."
    bind: [scores, values, probabilities, output]
    params: {scores: ["0", "ln 3"], values: [2, 6]}
""",
)

DOCS["causal_prefix"] = KindDoc(
    checks=(
        "Runs causal attention over random queries and keys with the given `values`, then "
        "changes every score and value after `position` at random `trials` times: the "
        "outputs up to `position` must stay bitwise unchanged."
    ),
    computes={
        "position": "the position (an input)",
        "allowed": "the key slots the position may attend to",
        "allowed_values": "the values at those slots",
        "output": "the engine's output at the position",
    },
    lesson="""\
At the first causal position only the value 2 is visible, so the output is 2 whatever the \
later scores and values are.
""",
    claims="""\
claims:
  - id: first-position
    kind: causal_prefix
    quote: "At the first causal position only the value 2 is visible, so the output is 2
      whatever the later scores and values are."
    bind: ["allowed_values[0]", output]
    params: {values: [2, 6, 9], position: 0}
""",
)

DOCS["packed_mask"] = KindDoc(
    checks=(
        "Packs the token `docs` into one block of `block_size` slots with the engine's "
        "packer and reads the attention mask of the `query` slot: it may attend to the "
        "earlier slots of its own document only. The mask row and the slot list must "
        "agree, and padding must neither attend nor be attended to."
    ),
    computes={
        "query": "the query slot (an input)",
        "allowed": "the slots the query may attend to",
        "doc_start": "the first slot of the query's document",
        "prior": "slots of earlier documents",
        "future": "the slots after the query (an open range)",
        "doc_starts": "the first slot of every document",
        "real_tokens": "slots holding tokens",
        "padding_tokens": "padding slots",
    },
    lesson="""\
The second document starts at slot 5, so its query at slot 7 attends to slots 5, 6 and 7 \
and never to slots 0–4.
""",
    claims="""\
claims:
  - id: packed-keys
    kind: packed_mask
    quote: "The second document starts at slot 5, so its query at slot 7 attends to slots 5, 6
      and 7 and never to slots 0–4."
    bind: [doc_start, query, allowed, prior]
    params: {docs: [[1, 11, 12, 13, 2], [1, 21, 2]], block_size: 10, query: 7}
""",
)

DOCS["loss_mask"] = KindDoc(
    checks=(
        "Packs the token `docs` into one block and reads the engine's loss mask: the "
        "prediction from each document's last token to the next document's first is "
        "masked, every prediction inside a document is trained, and padding is never "
        "trained on."
    ),
    computes={
        "masked_boundaries": "the slots whose next-token prediction crosses a document end",
        "doc_starts": "the first slot of every document",
        "real_tokens": "slots holding tokens",
        "padding_tokens": "padding slots",
    },
    lesson="""\
The predictions at slots 4 and 7, where a document ends, are masked: no target crosses into \
the next document or into padding.
""",
    claims="""\
claims:
  - id: boundary-loss
    kind: loss_mask
    quote: "The predictions at slots 4 and 7, where a document ends, are masked"
    bind: [masked_boundaries]
    params: {docs: [[1, 11, 12, 13, 2], [1, 21, 2]], block_size: 10}
""",
)

DOCS["quiz"] = KindDoc(
    checks=(
        "Finds the one quiz question containing `question` (under Check your understanding), "
        "and requires its stated answer to state the value of `fact`, a quantity another "
        "claim computed; with `unique`, no other option may state it too. The answer then "
        "counts as verified, as long as the claim `fact` comes from passed: when that claim "
        "failed or errored, the quiz claim proves nothing (`unchecked`) and the answer is "
        "`unverified`, an A412 naming the fact. With `ratio`, an answer in words states a "
        "ratio (`Doubles it` "
        "is 2, `Halves it` 1/2, `Unchanged` 1), for questions on how one quantity scales "
        "with another. A quantity the question states in words (`three seconds`, `nine "
        "tenths`, `ten percent`) must equal an input of the claim `fact` comes from (of its "
        "dimension), or the claim fails at the question. The fact must be computed: one the "
        "claim fixes itself (its `values`, or an expression that restates a number) is an "
        "A404. For a pure number (a ratio, a level), an option in a unit with a dimension "
        "(`6.02 kHz`) does not state it, and a percentage is read as the fraction it is. "
        "A quiz question no `quiz` claim "
        "checks is an A412 warning and keeps "
        "the lesson partly verified, unless `unchecked` lists it with a reason."
    ),
    computes={"fact": "the referenced quantity"},
    lesson="""\
With scores \\[0,ln3\\] and values \\[2,6\\], the probabilities are \\[0.25,0.75\\] and the \
output is 5.

## Check your understanding

### What is the output of the worked example?

1. 4
2. 5
3. 6

Answer and reasoning

5

The larger value gets three quarters of the weight.
""",
    claims="""\
claims:
  - id: worked-mixture
    kind: softmax_mixture
    quote: "With scores \\\\[0,ln3\\\\] and values \\\\[2,6\\\\], the probabilities are
      \\\\[0.25,0.75\\\\] and the output is 5."
    bind: [scores, values, probabilities, output]
    params: {scores: ["0", "ln 3"], values: [2, 6]}

  - id: quiz-output
    kind: quiz
    params: {question: "output of the worked example", fact: worked-mixture.output}
""",
)

DOCS["shape"] = KindDoc(
    checks=(
        "Measures the per-head shape of an engine tensor (`scores`, `probs` or `output`) at "
        "two different sequence lengths and widths, names each dimension with the lesson's "
        "symbols, and requires the quoted `A × B` to be that shape."
    ),
    computes={"shape": "the per-head shape, in the lesson's symbols"},
    lesson="""\
Dense attention materialises a score matrix of T × T per head.
""",
    claims="""\
claims:
  - id: dense-score-shape
    kind: shape
    quote: "T × T per head"
    params: {tensor: scores, sequence: T}
""",
)

DOCS["softmax"] = KindDoc(
    checks=(
        "softmax(z / τ) of the `logits` at the `temperature`, exactly with SymPy: the "
        "probabilities, their entropy in nats and the Jacobian p_i(δ_ij − p_j)/τ. The "
        "engine's softmax must agree within `engine_tolerance`, central differences of the "
        "engine must give the Jacobian, and every Jacobian row and column must sum to zero."
    ),
    computes={
        "logits": "the logits plus `shift` (an input)",
        "temperature": "τ (an input)",
        "shift": "the shift (an input)",
        "scaled": "z / τ",
        "shifted": "z minus the largest logit",
        "probabilities": "softmax(z / τ)",
        "entropy": "−Σ p ln p, in nats",
        "jacobian": "∂p_i/∂z_j, a matrix",
        "undivided": "the Jacobian times τ",
        "top": "the largest probability",
        "largest": "the largest probability",
        "smallest": "the smallest probability",
        "max_entropy": "ln n",
        "count": "n, the number of logits",
        "exp_top": "e to the largest logit",
        "float64_max": "the largest float64",
    },
    lesson="""\
With logits \\[2,1,0\\] and temperature 1, the probabilities to three decimals are \
\\[0.665,0.245,0.090\\].
""",
    claims="""\
claims:
  - id: three-logits
    kind: softmax
    quote: "With logits \\\\[2,1,0\\\\] and temperature 1, the probabilities to three decimals
      are \\\\[0.665,0.245,0.090\\\\]."
    bind: [logits, temperature, probabilities]
    params: {logits: [2, 1, 0], temperature: 1}
""",
)
