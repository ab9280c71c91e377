"""POST /hierarchy/reconcile (docs/runtime-protocol.md "Hierarchies"): base forecasts of every node of a
hierarchy made coherent with hierarchicalforecast's HierarchicalReconciliation.reconcile, called on the
frames its documentation describes (Y_hat_df, S_df, tags, Y_df), so the numbers are the library's.

Quantiles ↔ the library's interval levels: q < 0.5 is the lower bound of the level 100(1−2q), q > 0.5 the
upper bound of the level 100(2q−1), 0.5 the level 0. The base forecast's (q, 1−q) pairs are its lo/hi
columns (normality and permbu read the base spread from them). Reconciled quantiles are sorted per step, so
they never cross.

Fallbacks, each with a warning saying why (the answer's `method` and `intervals` are what was used):
methods and intervals that need in-sample residuals, without usable ones (none given, a node without fitted
values, fewer than 2 residuals) → wls_struct / normality; mint_cov whose residual covariance is singular
(fewer complete in-sample steps than nodes, or a node without variance) → wls_struct; top-down (and
middle-out) forecast proportions, whose intervals the library computes by bootstrap only → bootstrap
intervals where residuals exist, else wls_struct; any other failure of the library (an ill-conditioned
system, a structure a method does not take) or non-finite output → the intervals, then the method, fall
back in turn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .hierarchy import library
from .protocol import _values, bad_request, encode_values, json_object
from .quantiles import interval_level, make_monotone, quantile_key

MINTRACE = ("ols", "wls_struct", "wls_var", "mint_shrink", "mint_cov")
TOP_DOWN = ("forecast_proportions", "average_proportions", "proportion_averages")
METHODS = (
    "bottom_up", "top_down", *(f"top_down_{m}" for m in TOP_DOWN), "middle_out", *(f"middle_out_{m}" for m in TOP_DOWN), *MINTRACE, "erm",
)
NEEDS_RESIDUALS = ("wls_var", "mint_shrink", "mint_cov", "erm")
INTERVALS = ("normality", "bootstrap", "permbu")
FALLBACK = "wls_struct"
# mint_cov's singularity is checked by the rank of the residuals' covariance up to this many nodes
RANK_CHECK_MAX_NODES = 2000
_MODEL = "base"  # the base forecasts' column in the library's frames
NO_IN_SAMPLE = "the model gave no in-sample fitted values"


@dataclass(frozen=True)
class InSample:
    target: np.ndarray
    fitted: np.ndarray | None
    start: int | None


@dataclass(frozen=True)
class Reconcile:
    node_ids: list[str]
    S: np.ndarray  # (nodes, bottom) 0/1
    tags: dict[str, list[str]]
    method: str
    intervals: str
    reconcile_level: str | None
    quantiles: tuple[float, ...]  # as requested
    seed: int
    mean: np.ndarray  # (nodes, horizon)
    base_quantiles: dict[float, np.ndarray]  # level q → (nodes, horizon)
    in_sample: list[InSample] | None
    no_in_sample: str = "the model gave no in-sample fitted values"  # why in_sample is None, for the fallbacks' warnings


def _top_down_kind(method: str) -> str | None:
    """The library's top-down method of a top_down/middle_out method ("top_down": forecast proportions)."""
    for prefix in ("top_down", "middle_out"):
        if method == prefix:
            return "forecast_proportions"
        if method.startswith(prefix + "_"):
            return method[len(prefix) + 1:]
    return None


def reconciler(method: str, reconcile_level: str | None):
    """The hierarchicalforecast reconciler of a method name."""
    m = library().methods
    kind = _top_down_kind(method)
    if method == "bottom_up":
        return m.BottomUp()
    if method.startswith("top_down"):
        return m.TopDown(method=kind)
    if method.startswith("middle_out"):
        return m.MiddleOut(middle_level=reconcile_level, top_down_method=kind)
    if method == "erm":
        return m.ERM(method="closed")
    return m.MinTrace(method=method)


def needs_history(method: str) -> bool:
    return method in NEEDS_RESIDUALS or _top_down_kind(method) in ("average_proportions", "proportion_averages")


def _parse_structure(body: dict) -> tuple[list[str], np.ndarray, dict[str, list[str]]]:
    node_ids = body.get("node_ids")
    if not isinstance(node_ids, list) or not node_ids or not all(isinstance(i, str) for i in node_ids) or len(set(node_ids)) != len(node_ids):
        raise bad_request("'node_ids' must be a non-empty array of distinct strings")
    S = body.get("S")
    if not isinstance(S, list) or len(S) != len(node_ids) or not all(isinstance(row, list) for row in S):
        raise bad_request(f"'S' must be {len(node_ids)} rows, one per node")
    width = len(S[0])
    if width == 0 or width > len(node_ids) or any(len(row) != width or not all(v in (0, 1) for v in row) for row in S):
        raise bad_request("'S' rows must be equally long arrays of 0 and 1, one column per bottom node")
    S = np.asarray(S, dtype=np.float64)
    if not np.array_equal(S[-width:], np.eye(width)):
        raise bad_request(f"the last {width} rows of 'S' must be the identity: the bottom nodes come last, in the columns' order")
    tags = json_object(body.get("tags"), "'tags'")
    known = set(node_ids)
    for level, ids in tags.items():
        if not isinstance(ids, list) or not ids or not set(ids) <= known:
            raise bad_request(f"tags['{level}'] must be a non-empty array of node ids")
    return node_ids, S, tags


def _parse_forecasts(body: dict, nodes: int) -> tuple[np.ndarray, dict[float, np.ndarray]]:
    base = body.get("base")
    if not isinstance(base, list) or len(base) != nodes:
        raise bad_request(f"'base' must be {nodes} forecasts, one per node")
    means, quantiles = [], {}
    for row, entry in enumerate(base):
        entry = json_object(entry, f"base[{row}]")
        means.append(_values(entry.get("mean"), f"base[{row}].mean", len(means[0]) if means else None))
        raw = json_object(entry.get("quantiles", {}), f"base[{row}].quantiles")
        if row and {float(k) for k in raw} != set(quantiles):
            raise bad_request(f"base[{row}].quantiles has other levels than base[0]'s")
        for key, values in raw.items():
            quantiles.setdefault(float(key), []).append(_values(values, f"base[{row}].quantiles['{key}']", len(means[0])))
    mean = np.vstack(means)
    if mean.shape[1] == 0 or not np.isfinite(mean).all() or not all(np.isfinite(q).all() for v in quantiles.values() for q in v):
        raise bad_request("base forecasts must be finite numbers, at least one step")
    return mean, {q: np.vstack(rows) for q, rows in quantiles.items()}


def _parse_in_sample(raw, nodes: int) -> list[InSample] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != nodes:
        raise bad_request(f"'in_sample' must be null or {nodes} entries, one per node")
    out = []
    for row, entry in enumerate(raw):
        entry = json_object(entry, f"in_sample[{row}]")
        target = _values(entry.get("target"), f"in_sample[{row}].target", None)
        fitted = entry.get("fitted")
        fitted = None if fitted is None else _values(fitted, f"in_sample[{row}].fitted", target.size)
        start = entry.get("start")
        if start is not None and type(start) is not int:
            raise bad_request(f"in_sample[{row}].start must be an integer")
        out.append(InSample(target, fitted, start))
    return out


def parse_reconcile(body: dict) -> Reconcile:
    node_ids, S, tags = _parse_structure(body)
    mean, base_quantiles = _parse_forecasts(body, len(node_ids))
    return settings(body, node_ids, S, tags, mean, base_quantiles, _parse_in_sample(body.get("in_sample"), len(node_ids)))


def settings(body: dict, node_ids, S, tags, mean, base_quantiles, in_sample, no_in_sample: str = NO_IN_SAMPLE) -> Reconcile:
    """The request's method, intervals, reconcile_level, quantiles and seed, checked, with the structure and forecasts."""
    method, intervals = body.get("method", "wls_var"), body.get("intervals", "normality")
    if method not in METHODS:
        raise bad_request(f"'method' {method!r} is not one of {', '.join(METHODS)}")
    if intervals not in INTERVALS:
        raise bad_request(f"'intervals' {intervals!r} is not one of {', '.join(INTERVALS)}")
    level = body.get("reconcile_level")
    if method.startswith("middle_out") and level not in tags:
        raise bad_request(f"'reconcile_level' {level!r} must name a level of 'tags' for {method}")
    quantiles = body.get("quantiles", [])
    if not isinstance(quantiles, list) or not all(type(q) in (int, float) and 0 < q < 1 for q in quantiles) or len(set(quantiles)) != len(quantiles):
        raise bad_request("'quantiles' must be distinct levels strictly between 0 and 1")
    seed = body.get("seed", 0)
    if type(seed) is not int or seed < 0:
        raise bad_request("'seed' must be a non-negative integer")
    for q in quantiles:
        if q != 0.5 and not (_has(base_quantiles, q) and _has(base_quantiles, 1 - q)):
            raise bad_request(f"quantile {q}: the base forecasts need both {q} and {round(1 - q, 12)} (the interval's two bounds)")
    return Reconcile(node_ids, S, tags, method, intervals, level, tuple(float(q) for q in quantiles), seed, mean,
                     base_quantiles, in_sample, no_in_sample)


def _has(quantiles: dict[float, np.ndarray], q: float) -> bool:
    return any(abs(k - q) < 1e-12 for k in quantiles)


def _get(quantiles: dict[float, np.ndarray], q: float) -> np.ndarray:
    return next(v for k, v in quantiles.items() if abs(k - q) < 1e-12)


def _aligned(req: Reconcile, values) -> np.ndarray:
    """The nodes' in-sample arrays on one grid (nodes, steps): at their `start`, else aligned at the end."""
    arrays = [values(entry) for entry in req.in_sample]
    starts = [entry.start if entry.start is not None else -a.size for entry, a in zip(req.in_sample, arrays)]
    first, last = min(starts), max(s + a.size for s, a in zip(starts, arrays))
    grid = np.full((len(arrays), last - first), np.nan)
    for row, (s, a) in enumerate(zip(starts, arrays)):
        grid[row, s - first:s - first + a.size] = a
    return grid


def _residual_problem(req: Reconcile) -> str | None:
    """Why the in-sample residuals cannot be used (None: they can)."""
    if req.in_sample is None:
        return req.no_in_sample
    for node, entry in zip(req.node_ids, req.in_sample):
        if entry.fitted is None:
            return f"node '{node}' has no in-sample fitted values"
        if np.isfinite(entry.target - entry.fitted).sum() < 2:
            return f"node '{node}' has fewer than 2 in-sample residuals"
    return None


def _history_problem(req: Reconcile) -> str | None:
    if req.in_sample is None:
        return req.no_in_sample
    empty = next((node for node, entry in zip(req.node_ids, req.in_sample) if not np.isfinite(entry.target).any()), None)
    return None if empty is None else f"node '{empty}' has no in-sample value"


def _singular(req: Reconcile) -> str | None:
    """Why mint_cov's sample covariance of the residuals is singular (None: it is not)."""
    residuals = _aligned(req, lambda e: e.target - e.fitted)
    nodes, complete = residuals.shape[0], int(np.isfinite(residuals).all(axis=0).sum())
    if complete <= nodes:
        return (f"the in-sample residuals' covariance is singular: {nodes} nodes and {complete} steps where every node has a "
                "residual (mint_cov needs more steps than nodes; mint_shrink does not)")
    flat = next((node for node, r in zip(req.node_ids, residuals) if np.nanstd(r) == 0), None)
    if flat is not None:
        return f"the in-sample residuals' covariance is singular: node '{flat}''s residuals do not vary"
    if nodes <= RANK_CHECK_MAX_NODES:  # an SVD of nodes x nodes; above, the library's own failure is the fallback's cue
        rank = int(np.linalg.matrix_rank(np.cov(residuals[:, np.isfinite(residuals).all(axis=0)])))
        if rank < nodes:
            return (f"the in-sample residuals' covariance is singular (rank {rank} for {nodes} nodes: residuals that add up "
                    "like the nodes, as coherent fitted values give)")
    return None


def plan(req: Reconcile) -> tuple[str, str, list[str]]:
    """The method and intervals to run first, and the warnings of the fallbacks decided before running."""
    method, intervals, warnings = req.method, req.intervals, []
    residuals = _residual_problem(req)
    instead = f"; reconciled with {FALLBACK} instead"
    if method in NEEDS_RESIDUALS and residuals:
        warnings.append(f"{method} needs in-sample residuals and {residuals}{instead}")
        method = FALLBACK
    elif needs_history(method) and (problem := _history_problem(req)):
        warnings.append(f"{method} needs the in-sample history and {problem}{instead}")
        method = FALLBACK
    if method == "mint_cov" and (problem := _singular(req)):
        warnings.append(f"mint_cov: {problem}{instead}")
        method = FALLBACK
    if not req.quantiles:
        return method, intervals, warnings
    if intervals in ("bootstrap", "permbu") and residuals:
        warnings.append(f"{intervals} intervals need in-sample residuals and {residuals}; normality intervals instead")
        intervals = "normality"
    if _top_down_kind(method) == "forecast_proportions" and intervals != "bootstrap":
        if residuals is None:
            warnings.append(f"hierarchicalforecast reconciles the intervals of {method} (forecast proportions) by bootstrap only: "
                            f"bootstrap intervals instead of {intervals}")
            intervals = "bootstrap"
        else:
            warnings.append(f"{method}'s intervals are reconciled by bootstrap only, which needs in-sample residuals, and {residuals}"
                            f"{instead} (and {intervals} intervals)")
            method = FALLBACK
    if intervals == "permbu" and not _pairs(req):
        warnings.append("permbu intervals need the base forecasts' spread (a quantile pair q, 1-q); normality intervals instead")
        intervals = "normality"
    return method, intervals, warnings


def _pairs(req: Reconcile) -> list[float]:
    """The base quantiles q < 0.5 whose 1 − q is there too: the lo/hi columns of the level 100(1 − 2q)."""
    return sorted(q for q in req.base_quantiles if q < 0.5 and _has(req.base_quantiles, 1 - q))


def frames(req: Reconcile, levels: list[float] | None, with_history: bool):
    """Y_hat_df, S_df, tags and Y_df (None without history) as hierarchicalforecast takes them."""
    import pandas as pd

    nodes, horizon = req.mean.shape
    Y_hat = {"unique_id": np.repeat(np.asarray(req.node_ids, dtype=object), horizon), "ds": np.tile(np.arange(horizon), nodes),
             _MODEL: req.mean.ravel()}
    if levels is not None:
        for q in _pairs(req):
            Y_hat[f"{_MODEL}-lo-{interval_level(q)}"] = _get(req.base_quantiles, q).ravel()
            Y_hat[f"{_MODEL}-hi-{interval_level(q)}"] = _get(req.base_quantiles, 1 - q).ravel()
    bottom = req.node_ids[-req.S.shape[1]:]
    S_df = pd.DataFrame(req.S, columns=bottom)
    S_df.insert(0, "unique_id", req.node_ids)
    tags = {level: np.asarray(ids, dtype=object) for level, ids in req.tags.items()}
    Y_df = None
    if with_history:
        y = _aligned(req, lambda e: e.target)
        Y_df = pd.DataFrame({"unique_id": np.repeat(np.asarray(req.node_ids, dtype=object), y.shape[1]),
                             "ds": np.tile(np.arange(y.shape[1]), len(req.node_ids)), "y": y.ravel()})
        if all(e.fitted is not None for e in req.in_sample):
            Y_df[_MODEL] = _aligned(req, lambda e: e.fitted).ravel()
    return pd.DataFrame(Y_hat), S_df, tags, Y_df


def temporal_frames(req: Reconcile, levels: list[float] | None):
    """Y_hat_df, S_df and tags of the library's temporal reconciliation (hierarchy_temporal.py): a row per (period, series), `temporal_id` the period;
    `ds` the period's first step, offset per series so that the library's sort by (period, ds) keeps the series' order."""
    import pandas as pd

    periods, count = req.mean.shape
    horizon = req.S.shape[1]
    first_step = req.S.argmax(axis=1)
    Y_hat = {"unique_id": np.tile(np.arange(count), periods).astype(str), "temporal_id": np.repeat(np.asarray(req.node_ids, dtype=object), count),
             "ds": (np.arange(count)[None, :] * horizon + first_step[:, None]).ravel(), _MODEL: req.mean.ravel()}
    if levels is not None:
        for q in _pairs(req):
            Y_hat[f"{_MODEL}-lo-{interval_level(q)}"] = _get(req.base_quantiles, q).ravel()
            Y_hat[f"{_MODEL}-hi-{interval_level(q)}"] = _get(req.base_quantiles, 1 - q).ravel()
    S_df = pd.DataFrame(req.S, columns=req.node_ids[-horizon:])
    S_df.insert(0, "temporal_id", req.node_ids)
    return pd.DataFrame(Y_hat), S_df, {level: np.asarray(ids, dtype=object) for level, ids in req.tags.items()}


def run(req: Reconcile, method: str, intervals: str, temporal: bool = False) -> tuple[np.ndarray, dict[float, np.ndarray]]:
    """One HierarchicalReconciliation.reconcile: the reconciled means (nodes, horizon) and requested quantiles. temporal: the
    library's temporal reconciliation (hierarchy_temporal.py: the nodes are periods, the "horizon" the series)."""
    levels = sorted({interval_level(q) for q in req.quantiles}) or None
    if levels is not None and intervals != "bootstrap" and not _pairs(req):
        levels = None  # only the median, without the base spread: the normal median, which is the mean
    if temporal:
        (Y_hat_df, S_df, tags), Y_df, extra = temporal_frames(req, levels), None, {"temporal": True, "id_time_col": "temporal_id"}
    else:
        with_history = needs_history(method) or (levels is not None and intervals != "normality")
        (Y_hat_df, S_df, tags, Y_df), extra = frames(req, levels, with_history), {}
    hrec = library().core.HierarchicalReconciliation([reconciler(method, req.reconcile_level)])
    # without levels no interval is reconciled, but the library still checks that bootstrap and permbu have Y_df
    out = hrec.reconcile(Y_hat_df=Y_hat_df, tags=tags, S_df=S_df, Y_df=Y_df, level=None if levels is None else list(levels),
                         intervals_method=intervals if levels is not None else "normality", seed=req.seed, **extra)
    name = next(iter(hrec.execution_times))
    shape = req.mean.shape
    mean = out[name].to_numpy(dtype=np.float64).reshape(shape)
    quantiles = {}
    for q in req.quantiles:
        column = f"{name}-{'lo' if q <= 0.5 else 'hi'}-{interval_level(q)}"
        quantiles[q] = mean if levels is None else out[column].to_numpy(dtype=np.float64).reshape(shape)
    return mean, quantiles


def reconcile_cross_sectional(body: dict) -> dict:
    """POST /hierarchy/reconcile with node_ids, S and tags (hierarchy_api.py)."""
    req = parse_reconcile(body)
    mean, quantiles, method, intervals, warnings = reconcile_with_fallbacks(req)
    return answer(req, mean, quantiles, method, intervals, warnings, body.get("encoding") == "base64")


def reconcile_with_fallbacks(req: Reconcile, temporal: bool = False):
    """(mean, quantiles, method, intervals, warnings): `plan`'s method and intervals, then, while the library fails, the
    intervals and the method falling back in turn."""
    method, intervals, warnings = plan(req)
    attempts = [(method, intervals)]
    if req.quantiles and intervals != "normality" and _top_down_kind(method) != "forecast_proportions":
        attempts.append((method, "normality"))
    if method != FALLBACK:
        attempts.append((FALLBACK, "normality" if req.quantiles else intervals))
    for attempt, (method, intervals) in enumerate(attempts):
        try:
            mean, quantiles = run(req, method, intervals, temporal)
            if not (np.isfinite(mean).all() and all(np.isfinite(v).all() for v in quantiles.values())):
                raise ValueError("it gave non-finite values")
            break
        except Exception as exc:  # the library's ValueError, LinAlgError, its bare Exception ("ill-conditioned")
            if attempt == len(attempts) - 1:
                raise bad_request(f"reconciliation with {method} failed: {type(exc).__name__}: {exc}") from exc
            after, after_intervals = attempts[attempt + 1]
            with_ = (lambda i: f" with {i} intervals" if req.quantiles else "")  # noqa: E731
            warnings.append(f"{method}{with_(intervals)} failed ({type(exc).__name__}: {exc}); {after}{with_(after_intervals)} instead")
    return mean, quantiles, method, intervals, warnings


def monotone(req: Reconcile, mean: np.ndarray, quantiles: dict[float, np.ndarray]) -> dict[float, np.ndarray]:
    """The requested quantiles sorted per step across levels: they never cross."""
    ordered = sorted(req.quantiles)
    rows = make_monotone(np.stack([quantiles[q] for q in ordered])) if ordered else np.empty((0, *mean.shape))
    return {q: rows[row] for row, q in enumerate(ordered)}


def answer(req: Reconcile, mean, quantiles, method: str, intervals: str, warnings: list[str], base64: bool) -> dict:
    quantiles = monotone(req, mean, quantiles)
    encode = encode_values if base64 else (lambda a: a)
    reconciled = [
        {"mean": encode(mean[node]), "quantiles": {quantile_key(q): encode(quantiles[q][node]) for q in req.quantiles}}
        for node in range(mean.shape[0])
    ]
    return {"reconciled": reconciled, "method": method, "intervals": intervals, "warnings": warnings}
