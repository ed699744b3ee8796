"""Figures computed from the engine at build time, chosen by a lesson's claims.

A figure is drawn for a claim whose kind has one, from that claim's own params in
`claims.yaml`, so any lesson gets them, not just the seed:

- `packed_mask` / `loss_mask` (docs, block_size): the packed block's attention mask
  from `engine.pack_documents` + `engine.allowed_keys`, slots on both axes;
- `softmax_mixture` (scores, values): scores, probabilities and d output / d score;
- `softmax` claims sharing logits at two or more temperatures: probabilities per
  temperature.

Claims with the same figure params share one figure, placed after the block that
holds the first claim's quote. Output is SVG from matplotlib's object API (no
pyplot, so no GUI backend and no global figure state), made deterministic with a
fixed `svg.hashsalt`, no date metadata and glyphs written as paths.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from atlas_build import engine
from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.claimjson import ClaimJSON
from atlas_build.claims.prose import numbers
from atlas_build.claims.running import file as claims_file

STYLE: dict[str, Any] = {
    "svg.hashsalt": "atlas-build",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 9.0,
    "axes.titlesize": 10.0,
    "figure.dpi": 100.0,
}
DOC_COLORS = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#9d755d")
MASKED, PADDING, QUERY = "#e6e6e6", "#ffffff", "#d62728"
MAX_SLOTS = 64  # a mask figure shows one cell per slot pair; beyond this it is unreadable
MAX_BARS = 64  # bars per softmax figure


@dataclass(frozen=True)
class Figure:
    name: str  # file name in the lesson's folder
    svg: bytes
    alt: str
    caption: str
    claim_ids: tuple[str, ...]
    content_line: int | None  # 1-based content line of the first located claim


@dataclass
class _Group:
    kind: str
    params: dict[str, Any]
    claim_ids: list[str]
    extra: set[Any]


def _merged(specs: dict[str, dict[str, Any]], claim_id: str, seen: frozenset[str]) -> dict:
    spec = specs[claim_id]
    own = dict(spec.get("params") or {})
    base = spec.get("extends")
    if not isinstance(base, str) or base not in specs or base in seen:
        return own
    return {**_merged(specs, base, seen | {claim_id}), **own}


def _groups(listed: list[dict[str, Any]]) -> list[_Group]:
    specs = {str(c["id"]): c for c in listed}
    groups: dict[str, _Group] = {}
    for claim_id, spec in specs.items():
        params = _merged(specs, claim_id, frozenset())
        kind = spec.get("kind")
        if kind in ("packed_mask", "loss_mask"):
            key_params = {"docs": params.get("docs"), "block_size": params.get("block_size")}
            figure, extra = "mask", params.get("query")
        elif kind == "softmax_mixture":
            key_params = {"scores": params.get("scores"), "values": params.get("values")}
            figure, extra = "mixture", None
        elif kind == "softmax":
            key_params = {"logits": params.get("logits"), "shift": params.get("shift", 0)}
            figure, extra = "temperature", params.get("temperature", 1)
        else:
            continue
        key = figure + json.dumps(key_params, sort_keys=True, default=str)
        group = groups.setdefault(key, _Group(figure, key_params, [], set()))
        group.claim_ids.append(claim_id)
        if extra is not None:
            group.extra.add(str(extra))
    return list(groups.values())


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, int | float):
        return float(value)
    return float(numbers.parse_number(str(value)))


def _svg(
    draw: Callable[[Any], None], size: tuple[float, float], margins: dict[str, float]
) -> bytes:
    """Fixed margins per kind of figure, sized for its labels: a layout engine measures
    every text extent and doubled the cost of each figure."""
    import matplotlib.style
    from matplotlib.figure import Figure as MplFigure

    with matplotlib.style.context(["default", STYLE]):
        figure = MplFigure(figsize=size)
        figure.subplots_adjust(**margins)
        draw(figure)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _mask(params: dict[str, Any], queries: set[Any]) -> tuple[bytes, str, str]:
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch, Rectangle

    size = int(params["block_size"])
    if size > MAX_SLOTS:
        raise ValueError(f"a block of {size} slots is more than a mask figure shows ({MAX_SLOTS})")
    docs = [np.asarray(doc, dtype=np.int64) for doc in params["docs"]]
    block = engine.pack_documents(docs, size)
    doc_ids = np.asarray(block.doc_ids)
    allowed = np.asarray(engine.allowed_keys(doc_ids, causal=True), dtype=bool)
    size = block.block_size
    grid = np.where(allowed, doc_ids[:, None] + 1, 0)
    pad = doc_ids < 0
    grid[pad, :] = -1
    grid[:, pad] = np.where(allowed[:, pad], grid[:, pad], -1)
    count = len(block.spans)
    colors = [PADDING, MASKED, *(DOC_COLORS[i % len(DOC_COLORS)] for i in range(count))]
    rows = sorted(int(q) for q in queries if str(q).isdigit() and int(q) < size)

    def draw(figure: Any) -> None:
        ax = figure.subplots()
        norm = BoundaryNorm(np.arange(-1.5, count + 1.5), len(colors))
        ax.imshow(grid, cmap=ListedColormap(colors), norm=norm, interpolation="nearest")
        ax.set_xticks(range(size))
        ax.set_yticks(range(size))
        ax.set_xticks(np.arange(-0.5, size, 1), minor=True)
        ax.set_yticks(np.arange(-0.5, size, 1), minor=True)
        ax.grid(which="minor", color="white", linewidth=0.8)
        ax.tick_params(which="minor", length=0)
        ax.xaxis.set_ticks_position("top")
        ax.xaxis.set_label_position("top")
        ax.set_xlabel("key slot j")
        ax.set_ylabel("query slot i")
        for start, end in block.spans:
            for edge in (start, end):
                ax.axvline(edge - 0.5, color="black", linewidth=1.6)
                ax.axhline(edge - 0.5, color="black", linewidth=1.6)
        for row in rows:
            ax.add_patch(
                Rectangle((-0.5, row - 0.5), size, 1, fill=False, edgecolor=QUERY, lw=2, zorder=5)
            )
        handles = [
            Patch(color=colors[i + 2], label=f"document {i + 1}: slots {s}–{e - 1}")
            for i, (s, e) in enumerate(block.spans)
        ]
        handles.append(Patch(facecolor=MASKED, edgecolor="#999999", label="masked"))
        if pad.any():
            handles.append(Patch(facecolor=PADDING, edgecolor="#999999", label="padding"))
        handles += [Patch(fill=False, edgecolor=QUERY, label=f"query slot {r}") for r in rows]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)

    spans = ", ".join(f"slots {s}–{e - 1}" for s, e in block.spans)
    caption = (
        f"Attention mask of a packed block of {size} slots ({count} documents: {spans}). "
        "A coloured cell (i, j) means query slot i may attend to key slot j: same document "
        "and not in the future. Black lines mark document boundaries."
    )
    alt = f"Heatmap of allowed attention keys for a {size}-slot packed block"
    margins = {"left": 0.09, "right": 0.62, "bottom": 0.04, "top": 0.88}
    return _svg(draw, (7.6, 5.4), margins), alt, caption


def _annotate(ax: Any, bars: Any, values: np.ndarray) -> None:
    for bar, value in zip(bars, values, strict=True):
        height = bar.get_height()
        ax.annotate(
            f"{value:.4g}".replace("-", "−"),
            (bar.get_x() + bar.get_width() / 2, height),
            xytext=(0, 3 if height >= 0 else -11),
            textcoords="offset points",
            ha="center",
        )


def _mixture(params: dict[str, Any]) -> tuple[bytes, str, str]:
    if len(params["scores"]) > MAX_BARS:
        raise ValueError(f"more than {MAX_BARS} scores")
    scores = np.array([_number(s) for s in params["scores"]])
    values = np.array([_number(v) for v in params["values"]])
    if scores.size != values.size:
        raise ValueError(f"{scores.size} scores but {values.size} values")
    n = scores.size
    internals = engine.attention_internals(
        scores.reshape(1, n), np.eye(n), values.reshape(n, 1), scale=1.0
    )
    probs = np.asarray(internals.probs)[0]
    output = float(np.asarray(internals.output)[0, 0])
    grads = np.asarray(internals.d_out_d_scores())[0, :, 0]
    labels = [f"key {j + 1}\nv={values[j]:.4g}" for j in range(n)]
    panels = (
        ("scores s_j", scores, "#4c78a8"),
        ("probabilities a_j", probs, "#54a24b"),
        ("∂o/∂s_j = a_j (v_j − o)", grads, "#e45756"),
    )

    def draw(figure: Any) -> None:
        axes = figure.subplots(1, 3)
        for ax, (title, data, color) in zip(axes, panels, strict=True):
            bars = ax.bar(range(n), data, color=color, width=0.6)
            _annotate(ax, bars, data)
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_title(title)
            ax.set_xticks(range(n), labels)
            ax.margins(y=0.2)
            for side in ("top", "right"):
                ax.spines[side].set_visible(False)
        figure.suptitle(f"output o = Σ a_j v_j = {output:.4g}")

    written = ", ".join(str(s) for s in params["scores"])
    caption = (
        f"Worked softmax example from the engine: scores [{written}] and values "
        f"[{', '.join(f'{v:.4g}' for v in values)}] give probabilities "
        f"[{', '.join(f'{p:.4g}' for p in probs)}], output {output:.4g} and score gradients "
        f"[{', '.join(f'{g:.4g}' for g in grads)}]."
    ).replace("-", "−")
    alt = "Bar charts of scores, softmax probabilities and score gradients"
    margins = {"left": 0.07, "right": 0.99, "bottom": 0.17, "top": 0.8, "wspace": 0.32}
    return _svg(draw, (7.6, 3.0), margins), alt, caption


def _temperature(params: dict[str, Any], temperatures: set[Any]) -> tuple[bytes, str, str]:
    if len(params["logits"]) > MAX_BARS or len(temperatures) > 8:
        raise ValueError(f"more than {MAX_BARS} logits or 8 temperatures")
    shift = _number(params.get("shift", 0))
    logits = np.array([_number(z) for z in params["logits"]]) + shift
    taus = sorted({_number(t) for t in temperatures})
    if len(taus) < 2:
        raise ValueError("one temperature only")
    n = logits.size
    width = 0.8 / len(taus)

    def draw(figure: Any) -> None:
        ax = figure.subplots()
        for index, tau in enumerate(taus):
            probs = np.asarray(engine.softmax(logits / tau))
            offset = (index - (len(taus) - 1) / 2) * width
            ax.bar(np.arange(n) + offset, probs, width=width * 0.95, label=f"τ = {tau:g}")
        ax.set_xticks(range(n), [f"z{j + 1} = {z:.4g}" for j, z in enumerate(logits)])
        ax.set_ylabel("probability")
        ax.set_ylim(0, 1)
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)

    caption = (
        f"softmax(z/τ) from the engine for logits [{', '.join(f'{z:.4g}' for z in logits)}] "
        f"at temperatures {', '.join(f'{t:g}' for t in taus)}: lower τ sharpens, higher τ "
        "flattens."
    )
    margins = {"left": 0.09, "right": 0.8, "bottom": 0.12, "top": 0.95}
    alt = "Grouped bars of softmax probabilities by temperature"
    return _svg(draw, (7.0, 3.2), margins), alt, caption


def _drawn(group: _Group, cache: Cache | None) -> tuple[bytes, str, str] | None:
    """Draw one figure, or reuse it: a figure depends only on its kind and params, so
    lessons with the same worked example share it through the content-addressed cache."""
    key = digest(fingerprint(), "figure", group.kind,
                 json.dumps(group.params, sort_keys=True, default=str),
                 json.dumps(sorted(map(str, group.extra))))  # fmt: skip
    if cache is not None and (payload := cache.get("figure", key)) is not None:
        stored = json.loads(payload)
        return stored["svg"].encode("utf-8"), stored["alt"], stored["caption"]
    if group.kind == "mask":
        drawn = _mask(group.params, group.extra)
    elif group.kind == "mixture":
        drawn = _mixture(group.params)
    elif len(group.extra) >= 2:
        drawn = _temperature(group.params, group.extra)
    else:
        return None
    if cache is not None:
        record = {"svg": drawn[0].decode("utf-8"), "alt": drawn[1], "caption": drawn[2]}
        cache.put("figure", key, json.dumps(record).encode("utf-8"))
    return drawn


def lesson_figures(
    claims_path: str, results: list[ClaimJSON], stem: str, cache: Cache | None = None
) -> tuple[list[Figure], list[str]]:
    """The figures a lesson's claims call for, and a message for each that could not be drawn."""
    found, problems = claims_file.read(claims_path)
    if found is None:
        return [], []  # the claims stage reports an unreadable claims file
    lines = {
        r["id"]: None if r["location"] is None else r["location"]["contentLine"] for r in results
    }
    figures: list[Figure] = []
    messages: list[str] = []
    for group in _groups([claim for _, claim in found.claims]):
        try:
            drawn = _drawn(group, cache)
            if drawn is None:
                continue
            svg, alt, caption = drawn
        except (
            ValueError,
            TypeError,
            KeyError,
            ArithmeticError,
            engine.AttentionTooLarge,
        ) as error:
            messages.append(f"no {group.kind} figure for claim {group.claim_ids[0]}: {error}")
            continue
        digest = hashlib.sha256(svg).hexdigest()[:10]
        located = [lines[c] for c in group.claim_ids if isinstance(lines.get(c), int)]
        figures.append(
            Figure(
                f"{stem}-{group.kind}-{digest}.svg",
                svg,
                alt,
                caption,
                tuple(group.claim_ids),
                located[0] if located else None,
            )
        )
    return figures, messages
