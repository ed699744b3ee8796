"""Attention engine benchmark: prints a table and writes JSON (not a timed test).

    .venv/bin/python bench/attention.py            # full run, writes bench/results/attention.json
    .venv/bin/python bench/attention.py --quick    # small smoke run

All timings are medians of several repeats in one run on this machine, fp32, causal; every
timed call follows an untimed warm-up call. The quantities that are compared (tiled vs
PyTorch, backward vs forward, packed vs separate) are timed in interleaved rounds, and each
ratio is the median of the per-round ratios, so a drift in machine load (other jobs share
this 2-core machine) affects both sides alike.

PyTorch runs in a persistent child process (its OpenMP threads and OpenBLAS's threads never
share a process), with the ``(B, H, T, d)`` layout its flash-attention CPU kernel needs; a
3-D ``(H, T, d)`` call takes the materialising math kernel instead (about 12x slower here) and
is reported separately for context. Peak memory is measured in a fresh child process per
method (tracemalloc sees NumPy's buffers; ``ru_maxrss`` growth is recorded too).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from atlas_build.engine import (  # noqa: E402
    attention,
    attention_backward,
    tiled_attention,
    tiled_attention_backward,
)
from atlas_build.engine._threads import _blas_setter, default_threads  # noqa: E402


def timed(fn: Any) -> float:
    """Seconds of one call, after an untimed warm-up call (threads awake, caches and the
    allocator primed, and any spinning threads left by the other side have settled)."""
    fn()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def median_time(fn: Any, repeats: int) -> float:
    return statistics.median(timed(fn) for _ in range(repeats))


def rounds(fns: dict[str, Any], repeats: int) -> dict[str, list[float]]:
    """Time every function once per round (``timed``), ``repeats`` interleaved rounds."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            times[name].append(fn() if name.startswith("torch") else timed(fn))
    return times


def median_ratio(a: list[float], b: list[float]) -> float:
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


def qkv(h: int, t: int, d: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((h, t, d), dtype=np.float32) for _ in range(3))


def gflops(h: int, t: int, d: int, seconds: float) -> float:
    """Useful causal FLOPs per second: 2 T^2 d per head (half of QK^T and of PV)."""
    return 2.0 * t * t * d * h / seconds / 1e9


def square_sgemm(n: int) -> Any:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    return lambda: a @ b


def sgemm_ceiling(n: int, repeats: int) -> dict[str, float]:
    """Square fp32 GEMM through ``numpy.matmul`` with BLAS's own threading: the ceiling."""
    square = median_time(square_sgemm(n), repeats)
    return {"n": n, "square_gflops": 2.0 * n**3 / square / 1e9}


def torch_server() -> None:
    """Child loop: read ``h t d layout`` lines, answer with the seconds of one timed call."""
    import torch

    sdpa = torch.nn.functional.scaled_dot_product_attention
    cache: dict[str, Any] = {}
    for line in sys.stdin:
        h, t, d, layout = line.split()
        if line not in cache:
            rng = np.random.default_rng(0)
            shape = (1, int(h), int(t), int(d)) if layout == "4d" else (int(h), int(t), int(d))
            q, k, v = (
                torch.from_numpy(rng.standard_normal(shape, dtype=np.float32)) for _ in "qkv"
            )
            cache.clear()
            cache[line] = (q, k, v)
        q, k, v = cache[line]
        with torch.no_grad():
            seconds = timed(partial(sdpa, q, k, v, is_causal=True))
        info = {
            "seconds": seconds,
            "threads": torch.get_num_threads(),
            "version": torch.__version__,
        }
        print(json.dumps(info), flush=True)


class TorchWorker:
    """Handle on the persistent PyTorch child; ``None`` timings if torch is unavailable."""

    def __init__(self) -> None:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "torch"]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.info: dict[str, Any] = {}

    def time(self, h: int, t: int, d: int, layout: str = "4d") -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{h} {t} {d} {layout}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(
                "torch child failed: " + (self.proc.stderr.read() if self.proc.stderr else "")
            )
        self.info = json.loads(line)
        return float(self.info["seconds"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def memory_child(method: str, t: int, d: int) -> dict[str, Any]:
    q, k, v = qkv(1, t, d)
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    attention(q, k, v, causal=True, method=method)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"traced_peak_bytes": peak, "rss_growth_bytes": (rss - base_rss) * 1024}


def run_child(*args: str) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:] or ["failed"]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_length(
    h: int, t: int, d: int, reps: int, sgemm_n: int, torch: TorchWorker | None
) -> dict[str, Any]:
    q, k, v = qkv(h, t, d)
    dense = median_time(lambda: attention(q, k, v, causal=True, method="dense"), max(3, reps // 2))
    out, lse = tiled_attention(q, k, v, causal=True, return_lse=True)
    dout = np.random.default_rng(5).standard_normal(out.shape, dtype=np.float32)
    fns: dict[str, Any] = {
        "tiled": lambda: attention(q, k, v, causal=True, method="tiled"),
        "online": lambda: tiled_attention(q, k, v, causal=True, force_online=True),
        "bwd": lambda: tiled_attention_backward(q, k, v, dout, causal=True, out=out, lse=lse),
        "api_bwd": lambda: attention_backward(q, k, v, dout, causal=True),
        "sgemm": square_sgemm(sgemm_n),
    }
    if torch is not None:
        fns["torch"] = lambda: torch.time(h, t, d)
    times = rounds(fns, reps)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    torch3 = None
    if torch is not None:
        torch.time(h, t, d, "3d")
        torch3 = statistics.median(torch.time(h, t, d, "3d") for _ in range(max(1, reps // 3)))
    ts = med.get("torch")
    return {
        "T": t,
        "dense_s": dense,
        "tiled_s": med["tiled"],
        "tiled_online_only_s": med["online"],
        "torch_sdpa_s": ts,
        "torch_sdpa_3d_math_s": torch3,
        "dense_gflops": gflops(h, t, d, dense),
        "tiled_gflops": gflops(h, t, d, med["tiled"]),
        "torch_gflops": gflops(h, t, d, ts) if ts else None,
        "tiled_over_torch": median_ratio(times["tiled"], times["torch"]) if ts else None,
        "sgemm_gflops": 2.0 * sgemm_n**3 / med["sgemm"] / 1e9,
        "tiled_fraction_of_sgemm": median_ratio(
            [gflops(h, t, d, x) for x in times["tiled"]],
            [2.0 * sgemm_n**3 / x / 1e9 for x in times["sgemm"]],
        ),
        "backward_s": med["bwd"],
        "backward_over_forward": median_ratio(times["bwd"], times["tiled"]),
        "attention_backward_api_s": med["api_bwd"],
        "rounds": times,
        "torch": None if torch is None else torch.info,
    }


def bench_forward(cfg: dict[str, Any], torch: TorchWorker | None) -> list[dict[str, Any]]:
    rows = []
    for t in cfg["lengths"]:
        rows.append(bench_length(cfg["heads"], t, cfg["d"], cfg["repeats"], cfg["sgemm_n"], torch))
        print(f"  T={t} done", file=sys.stderr)
    return rows


def bench_packed(cfg: dict[str, Any]) -> dict[str, Any]:
    h, d, reps = cfg["heads"], cfg["d"], cfg["repeats"]
    n_docs, length = cfg["packed"]
    t = n_docs * length
    q, k, v = qkv(h, t, d, seed=3)
    doc = np.repeat(np.arange(n_docs), length)
    pieces = [
        tuple(x[:, i * length : (i + 1) * length].copy() for x in (q, k, v)) for i in range(n_docs)
    ]

    def separate() -> None:
        for pq, pk, pv in pieces:
            attention(pq, pk, pv, causal=True, method="tiled")

    times = rounds(
        {
            "packed": lambda: attention(q, k, v, causal=True, doc_ids=doc, method="tiled"),
            "separate": separate,
            "dense": lambda: attention(q, k, v, causal=True, doc_ids=doc, method="dense"),
        },
        reps,
    )
    tiled = statistics.median(times["packed"])
    dense = statistics.median(times["dense"])
    return {
        "docs": n_docs,
        "doc_length": length,
        "T": t,
        "tiled_skipping_s": tiled,
        "dense_doc_mask_s": dense,
        "separate_causal_s": statistics.median(times["separate"]),
        "dense_over_tiled": median_ratio(times["dense"], times["packed"]),
        "tiled_over_separate": median_ratio(times["packed"], times["separate"]),
        "rounds": times,
    }


def bench_memory(cfg: dict[str, Any]) -> dict[str, Any]:
    t, d = cfg["memory_T"], cfg["d"]
    result: dict[str, Any] = {"T": t, "H": 1}
    for method in ("tiled", "dense"):
        result[method] = run_child("memory", method, str(t), str(d))
    try:
        result["tiled_over_dense"] = (
            result["tiled"]["traced_peak_bytes"] / result["dense"]["traced_peak_bytes"]
        )
    except (KeyError, TypeError, ZeroDivisionError):
        result["tiled_over_dense"] = None
    return result


def environment() -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k.startswith(("OPENBLAS", "OMP", "MKL", "ATLAS"))}
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "engine_threads": default_threads(),
        "per_thread_blas_control": _blas_setter() is not None,
        "env": env,
        "loadavg_start": os.getloadavg(),
    }


def targets(fwd: list[dict[str, Any]], packed: dict[str, Any], mem: dict[str, Any]) -> list[Any]:
    last = fwd[-1]
    t, pk, mt = last["T"], f"{packed['docs']}x{packed['doc_length']}", mem["T"]
    checks = [
        (f"tiled fwd <= 0.35x torch SDPA, T={t}", last["tiled_over_torch"], 0.35, "le"),
        (f"tiled fwd >= 50% of sgemm GF/s, T={t}", last["tiled_fraction_of_sgemm"], 0.5, "ge"),
        (f"tiled bwd <= 2.5x tiled fwd, T={t}", last["backward_over_forward"], 2.5, "le"),
        (f"packed {pk} >= 20x faster than dense+doc mask", packed["dense_over_tiled"], 20.0, "ge"),
        (f"packed {pk} <= 1.2x separate causal", packed["tiled_over_separate"], 1.2, "le"),
        (f"tiled peak memory <= 1/10 dense, T={mt}", mem["tiled_over_dense"], 0.1, "le"),
    ]
    out = []
    for name, value, bound, op in checks:
        met = None if value is None else (value <= bound if op == "le" else value >= bound)
        out.append({"target": name, "value": value, "met": met})
    return out


def fmt(x: Any, spec: str = ".3f") -> str:
    return "-" if x is None else format(x, spec)


COLUMNS = [
    ("T", "T", "d"),
    ("dense s", "dense_s", ".4f"),
    ("tiled s", "tiled_s", ".4f"),
    ("online s", "tiled_online_only_s", ".4f"),
    ("torch s", "torch_sdpa_s", ".4f"),
    ("dense GF/s", "dense_gflops", ".0f"),
    ("tiled GF/s", "tiled_gflops", ".0f"),
    ("torch GF/s", "torch_gflops", ".0f"),
    ("tiled/torch", "tiled_over_torch", ".2f"),
    ("sgemm GF/s", "sgemm_gflops", ".0f"),
    ("of sgemm", "tiled_fraction_of_sgemm", ".0%"),
    ("bwd s", "backward_s", ".4f"),
    ("bwd/fwd", "backward_over_forward", ".2f"),
    ("torch 3-D s", "torch_sdpa_3d_math_s", ".3f"),
]


def report(res: dict[str, Any]) -> None:
    c, g = res["config"], res["sgemm"]
    print(
        f"\nAttention engine, fp32, causal, H={c['heads']}, d={c['d']}, medians of "
        f"{c['repeats']}; sgemm ceiling {g['square_gflops']:.0f} GF/s (n={g['n']}, before the "
        "rounds; each row's sgemm column is measured inside its rounds)"
    )
    print(" | ".join(name for name, _, _ in COLUMNS))
    for r in res["forward"]:
        print(" | ".join(fmt(r[key], spec) for _, key, spec in COLUMNS))
    p = res["packed"]
    print(
        f"\npacked {p['docs']}x{p['doc_length']} in T={p['T']}: tiled+skip "
        f"{p['tiled_skipping_s']:.4f}s, dense+doc mask {p['dense_doc_mask_s']:.4f}s "
        f"({p['dense_over_tiled']:.1f}x), separate causal {p['separate_causal_s']:.4f}s "
        f"(tiled/separate {p['tiled_over_separate']:.2f})"
    )
    m = res["memory"]
    mib = [m[x].get("traced_peak_bytes") for x in ("tiled", "dense")]
    mib = [None if b is None else b / 2**20 for b in mib]
    print(
        f"peak memory T={m['T']}, H=1: tiled {fmt(mib[0], '.1f')} MiB, dense "
        f"{fmt(mib[1], '.1f')} MiB (ratio {fmt(m['tiled_over_dense'], '.4f')})"
    )
    print("\ntargets:")
    for t in res["targets"]:
        verdict = {True: "MET", False: "MISSED", None: "n/a"}[t["met"]]
        print(f"  {verdict:6} {t['target']}: {fmt(t['value'], '.3f')}")


CONFIGS = {
    "full": dict(
        heads=8,
        d=64,
        lengths=[1024, 2048, 4096],
        repeats=7,
        packed=(8, 512),
        memory_T=16384,
        sgemm_n=4096,
    ),  # fmt: skip
    "quick": dict(
        heads=2, d=64, lengths=[256, 512], repeats=3, packed=(4, 128), memory_T=2048, sgemm_n=1024
    ),  # fmt: skip
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small smoke run")
    ap.add_argument("--out", type=Path, default=None, help="JSON path")
    ap.add_argument("--repeats", type=int, default=None, help="override repeats per timing")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        kind, *rest = args.child
        if kind == "torch":
            torch_server()
        else:
            print(json.dumps(memory_child(rest[0], int(rest[1]), int(rest[2]))))
        return 0
    cfg: dict[str, Any] = dict(CONFIGS["quick" if args.quick else "full"])
    if args.repeats:
        cfg["repeats"] = args.repeats
    res: dict[str, Any] = {"config": cfg, "environment": environment()}
    res["sgemm"] = sgemm_ceiling(cfg["sgemm_n"], cfg["repeats"])
    worker = TorchWorker()
    torch: TorchWorker | None = worker
    try:
        worker.time(1, 16, 8)
    except RuntimeError as exc:
        print(f"torch unavailable, skipping its columns: {exc}", file=sys.stderr)
        torch = None
    try:
        res["forward"] = bench_forward(cfg, torch)
    finally:
        if torch is not None:
            torch.close()
    res["packed"] = bench_packed(cfg)
    res["memory"] = bench_memory(cfg)
    res["targets"] = targets(res["forward"], res["packed"], res["memory"])
    res["environment"]["loadavg_end"] = os.getloadavg()
    default = (
        ROOT / "bench" / "results" / ("attention-quick.json" if args.quick else "attention.json")
    )
    out = args.out or default
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    report(res)
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
