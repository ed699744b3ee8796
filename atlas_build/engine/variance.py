"""Monte Carlo check of why attention scales scores by ``1/sqrt(d_k)``.

For ``q, k`` with independent zero-mean unit-variance coordinates, ``q . k`` is a sum of
``d_k`` independent unit-variance products, so ``Var(q . k) = d_k``. The helper estimates it
from samples and states the standard error of the estimate, so a claim can be checked as
"within a few standard errors" rather than against an arbitrary tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["VarianceEstimate", "qk_variance"]

DISTRIBUTIONS = ("normal", "rademacher", "uniform")


@dataclass(frozen=True)
class VarianceEstimate:
    """Sample variance of ``scale * q . k`` with its standard error."""

    estimate: float
    stderr: float
    n_samples: int
    d_k: int
    expected: float

    @property
    def z_score(self) -> float:
        """Distance from the theoretical value ``scale**2 * d_k`` in standard errors."""
        return (self.estimate - self.expected) / self.stderr if self.stderr > 0 else 0.0

    def consistent(self, sigmas: float = 4.0) -> bool:
        """True when the estimate lies within ``sigmas`` standard errors of the theory."""
        return abs(self.z_score) <= sigmas


def _coords(rng: np.random.Generator, shape: tuple[int, int], distribution: str) -> np.ndarray:
    if distribution == "normal":
        return rng.standard_normal(shape)
    if distribution == "rademacher":
        return rng.choice(np.array([-1.0, 1.0]), size=shape)
    return rng.uniform(-math.sqrt(3.0), math.sqrt(3.0), size=shape)


def qk_variance(
    d_k: int,
    *,
    n_samples: int = 100_000,
    seed: int = 0,
    distribution: str = "normal",
    scale: float = 1.0,
    chunk: int = 8192,
) -> VarianceEstimate:
    """Estimate ``Var(scale * q . k)`` from ``n_samples`` independent pairs.

    ``stderr`` is the usual large-sample standard error of the sample variance,
    ``sqrt((m4 - s^4 (n - 3) / (n - 1)) / n)`` with ``m4`` the fourth central moment.
    """
    if isinstance(d_k, bool) or not isinstance(d_k, int) or d_k < 1:
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 4:
        raise ValueError(f"n_samples must be an integer >= 4, got {n_samples!r}")
    if distribution not in DISTRIBUTIONS:
        raise ValueError(f"distribution must be one of {DISTRIBUTIONS}, got {distribution!r}")
    if not math.isfinite(scale):
        raise ValueError(f"scale must be finite, got {scale!r}")
    rng = np.random.default_rng(seed)
    sums = np.zeros(4)
    done = 0
    while done < n_samples:
        m = min(chunk, n_samples - done)
        q = _coords(rng, (m, d_k), distribution)
        k = _coords(rng, (m, d_k), distribution)
        z = scale * np.einsum("ij,ij->i", q, k)
        sums += [z.sum(), (z**2).sum(), (z**3).sum(), (z**4).sum()]
        done += m
    n = float(n_samples)
    mean = sums[0] / n
    m2 = sums[1] / n - mean**2
    m4 = sums[3] / n - 4 * mean * sums[2] / n + 6 * mean**2 * sums[1] / n - 3 * mean**4
    var = m2 * n / (n - 1)
    stderr = math.sqrt(max(m4 - var**2 * (n - 3) / (n - 1), 0.0) / n)
    return VarianceEstimate(
        estimate=float(var),
        stderr=stderr,
        n_samples=n_samples,
        d_k=d_k,
        expected=scale**2 * d_k,
    )
