"""Temporal hierarchies (docs/runtime-protocol.md "Hierarchies"): each series with its sums over k consecutive steps
(hourly → daily k=24 → weekly k=168), reconciled with hierarchicalforecast's temporal reconciliation
(`aggregate_temporal`'s summing matrix of the horizon's periods, `reconcile(temporal=True)`).

The periods are counted back from the grid's last step, so that the horizon's periods follow the history's: a series'
k-level value sums steps (end − k·m, end − k·(m−1)], missing when any of them is. The library's temporal reconciliation
takes no in-sample values: methods that need them fall back to wls_struct, bootstrap and permbu to normality (warnings).
"""

from __future__ import annotations

import numpy as np

from .hierarchy import SERIES_LEVEL, Node, Series, grid_end, library
from .hierarchy_reconcile import monotone, reconcile_with_fallbacks, settings
from .protocol import _values, bad_request, encode_values, json_object
from .quantiles import quantile_key

NO_IN_SAMPLE = "hierarchicalforecast's temporal reconciliation takes no in-sample values"


def parse_spec(raw) -> list[tuple[str, int]]:
    """The temporal levels [(name, k)], coarsest first; k ≥ 2, names and k distinct, none named like the series' level."""
    if not isinstance(raw, list) or not raw:
        raise bad_request("'temporal' must be a non-empty array of {\"name\", \"k\"}")
    spec = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"] or type(entry.get("k")) is not int or entry["k"] < 2:
            raise bad_request(f"temporal[{i}] must be {{\"name\": a non-empty string, \"k\": an integer >= 2}}")
        spec.append((entry["name"], entry["k"]))
    names, ks = [n for n, _ in spec], [k for _, k in spec]
    if len(set(names)) != len(names) or len(set(ks)) != len(ks) or SERIES_LEVEL in names or any("/" in n for n in names):
        raise bad_request(f"temporal levels need distinct names (not '{SERIES_LEVEL}', no '/') and distinct k")
    return sorted(spec, key=lambda level: -level[1])


def aggregate_temporal(series: list[Series], body: dict) -> list[Node]:
    """Per series: a node per temporal level (coarsest first), then the series itself."""
    spec = parse_spec(body.get("temporal"))
    end = grid_end(series)
    nodes = []
    for i, s in enumerate(series):
        values = np.full(end - int(s.positions[0]) + 1, np.nan)
        values[s.positions - s.positions[0]] = s.values
        name, parent = f"series[{i}]", None
        for level, k in spec:
            periods = values.size // k
            if periods == 0:
                raise bad_request(f"series {i} has {values.size} steps, fewer than one period of temporal level '{level}' ({k} steps)")
            sums = values[values.size - periods * k:].reshape(periods, k).sum(axis=1)  # NaN where a step is missing
            nodes.append(Node(f"{name}/{level}", level, parent, [i], end - periods * k + 1, sums, k))
            parent = f"{name}/{level}"
        first = int(np.flatnonzero(np.isfinite(values))[0])
        nodes.append(Node(name, SERIES_LEVEL, parent, [i], int(s.positions[0]) + first, values[first:], 1))
    return nodes


def temporal_structure(spec: list[tuple[str, int]], horizon: int) -> tuple[list[str], np.ndarray, dict[str, list[str]]]:
    """The horizon's periods as the library's aggregate_temporal names and sums them: (temporal ids, S, tags)."""
    import pandas as pd

    for level, k in spec:
        if horizon % k:
            raise bad_request(f"a horizon of {horizon} steps is not whole periods of temporal level '{level}' ({k} steps)")
    frame = pd.DataFrame({"unique_id": "x", "ds": np.arange(horizon), "y": 0.0})
    _, S_df, tags = library().utils.aggregate_temporal(frame, dict(spec) | {SERIES_LEVEL: 1})
    ids = S_df["temporal_id"].tolist()
    return ids, S_df.drop(columns="temporal_id").to_numpy(dtype=np.float64), {level: list(tags[level]) for level in tags}


def reconcile_temporal(body: dict) -> dict:
    """POST /hierarchy/reconcile with `temporal`: `base` one forecast per node of the temporal aggregate answer, in its order
    (per series: its temporal levels, coarsest first, then the series); the answer's `reconciled` in the same order."""
    spec = parse_spec(body.get("temporal"))
    per_series = len(spec) + 1
    base = body.get("base")
    if not isinstance(base, list) or not base or len(base) % per_series:
        raise bad_request(f"'base' must be {per_series} forecasts per series (its {len(spec)} temporal levels, then itself)")
    count = len(base) // per_series
    horizon = _values(json_object(base[per_series - 1], f"base[{per_series - 1}]").get("mean"), f"base[{per_series - 1}].mean", None).size
    ids, S, tags = temporal_structure(spec, horizon)
    # the library's nodes are the periods (rows, in `ids` order), its "horizon" the series (columns)
    rows_of = [[row for row, node in enumerate(ids) if node.rsplit("-", 1)[0] == level] for level in [*dict(spec), SERIES_LEVEL]]
    mean, quantiles = _stack(base, count, rows_of, len(ids))
    req = settings(body, ids, S, tags, mean, quantiles, None, NO_IN_SAMPLE)
    mean, reconciled, method, intervals, warnings = reconcile_with_fallbacks(req, temporal=True)
    reconciled = monotone(req, mean, reconciled)
    encode = encode_values if body.get("encoding") == "base64" else (lambda a: a)
    out = [
        {"mean": encode(mean[rows, i]), "quantiles": {quantile_key(q): encode(reconciled[q][rows, i]) for q in req.quantiles}}
        for i in range(count) for rows in rows_of
    ]
    return {"reconciled": out, "method": method, "intervals": intervals, "warnings": warnings}


def _stack(base: list, count: int, rows_of: list[list[int]], periods: int) -> tuple[np.ndarray, dict[float, np.ndarray]]:
    """(mean, {q: values}), each (periods, series): each series' level forecasts in its column at its level's periods."""
    mean = np.full((periods, count), np.nan)
    quantiles: dict[float, np.ndarray] = {}
    for i in range(count):
        for level, rows in enumerate(rows_of):
            index = i * len(rows_of) + level
            entry = json_object(base[index], f"base[{index}]")
            mean[rows, i] = _values(entry.get("mean"), f"base[{index}].mean", len(rows))
            raw = json_object(entry.get("quantiles", {}), f"base[{index}].quantiles")
            if index and {float(k) for k in raw} != set(quantiles):
                raise bad_request(f"base[{index}].quantiles has other levels than base[0]'s")
            for key, values in raw.items():
                quantiles.setdefault(float(key), np.full((periods, count), np.nan))[rows, i] = _values(
                    values, f"base[{index}].quantiles['{key}']", len(rows))
    if not (np.isfinite(mean).all() and all(np.isfinite(q).all() for q in quantiles.values())):
        raise bad_request("base forecasts must be finite numbers")
    return mean, quantiles
