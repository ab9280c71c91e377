"""Feature contributions of a forecast (an /infer body's "explain": true; docs/runtime-protocol.md "explain").

A series' features are its covariates, one per name (a past covariate with its known future values is one
feature; so is a static covariate). A coalition of features is the series with only those covariates, the
others left out of the model's input; the forecast's mean of every coalition is one model evaluation. Every
coalition of every series of a request goes to the model as ONE batch (2^M series per series of M features),
then `shap`'s exact explainer (ExactExplainer, over the binary coalition vectors, the instance all ones and
the background all zeros) turns them into Shapley values per horizon step. So, per series and step:
base value = the forecast without any covariate, and base + Σ contributions = the forecast with all of them
(SHAP's additivity; exact, as the explainer enumerates every coalition).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
from dataclasses import dataclass, replace

import numpy as np

from .adapters.base import SeriesInput

# 2^M model evaluations per series: the control plane refuses more features (src/forecasting/explain.ts)
MAX_FEATURES = 10


@dataclass(frozen=True)
class Contributions:
    features: tuple[str, ...]
    values: np.ndarray  # (M, horizon): each feature's contribution at each step
    base: np.ndarray  # (horizon,): the forecast with no covariate


def features_of(series: SeriesInput) -> tuple[str, ...]:
    """The series' features: its past covariates (known-future ones are among them) then its static ones."""
    return tuple(series.past_covariates) + tuple(name for name in series.static_covariates if name not in series.past_covariates)


def coalitions(m: int) -> list[tuple[bool, ...]]:
    """Every subset of m features as a presence vector, the full set last."""
    return sorted(itertools.product((False, True), repeat=m), key=lambda z: (sum(z), z))


def with_only(series: SeriesInput, features: tuple[str, ...], present: tuple[bool, ...]) -> SeriesInput:
    """The series with only the present features among its covariates."""
    keep = {name for name, on in zip(features, present) if on}
    return replace(
        series,
        past_covariates={k: v for k, v in series.past_covariates.items() if k in keep},
        future_covariates={k: v for k, v in series.future_covariates.items() if k in keep},
        static_covariates={k: v for k, v in series.static_covariates.items() if k in keep},
    )


def expand(series: list[SeriesInput]) -> tuple[list[SeriesInput], list[tuple[int, int]]]:
    """Every coalition of every series, as one list of series to forecast in one batch, and per series
    the [start, end) of its coalitions there (the full coalition, i.e. the series itself, at end - 1)."""
    batch: list[SeriesInput] = []
    spans: list[tuple[int, int]] = []
    for one in series:
        features = features_of(one)
        start = len(batch)
        batch.extend(with_only(one, features, z) for z in coalitions(len(features)))
        spans.append((start, len(batch)))
    return batch, spans


def shapley(features: tuple[str, ...], means: np.ndarray) -> Contributions:
    """Shapley values of each feature per step, computed by shap's ExactExplainer over the coalitions'
    mean forecasts (`means`: (2^M, horizon) in coalitions() order)."""
    import shap  # imported on the first explanation: numba compiles shap's kernels then (seconds, once per worker)

    m = len(features)
    if m == 0:
        return Contributions(features, np.zeros((0, means.shape[1])), means[-1].copy())
    table = {z: means[k] for k, z in enumerate(coalitions(m))}

    def forecast(rows: np.ndarray) -> np.ndarray:
        # shap asks for coalitions as rows of 0/1 (the background's zeros, the instance's ones): each was forecast already
        return np.stack([table[tuple(bool(v) for v in row)] for row in np.asarray(rows)])

    explainer = shap.explainers.Exact(forecast, shap.maskers.Independent(np.zeros((1, m)), max_samples=1))
    explanation = explainer(np.ones((1, m)), silent=True)
    return Contributions(features, np.asarray(explanation.values[0], dtype=np.float64), np.asarray(explanation.base_values[0], dtype=np.float64))


def plain(c: Contributions) -> dict:
    """{"base": [...], "features": {name: [...]}} as JSON arrays (orjson writes numpy)."""
    return {"base": c.base, "features": dict(zip(c.features, c.values))}


def encoded(c: Contributions) -> dict:
    """The same with every array as base64 little-endian float64 (the base64 encoding's answer)."""
    return {"base": encode_values(c.base), "features": {name: encode_values(v) for name, v in zip(c.features, c.values)}}


def encode_values(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f8").tobytes()).decode("ascii")


async def explained(result, series: list[SeriesInput], spans: list[tuple[int, int]]):
    """The batcher's result for the expanded call → (the result with each series' own prediction, their
    contributions); shap runs in a thread (its first call compiles, seconds)."""
    own = [result.predictions[end - 1] for _, end in spans]

    def compute() -> list[Contributions]:
        return [shapley(features_of(one), np.stack([p.mean for p in result.predictions[start:end]]))
                for one, (start, end) in zip(series, spans)]

    return replace(result, predictions=own), await asyncio.to_thread(compute)
