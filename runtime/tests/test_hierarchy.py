"""Hierarchies (docs/runtime-protocol.md "Hierarchies"): /hierarchy/aggregate and /hierarchy/reconcile.

Parity: the reconciled numbers equal hierarchicalforecast called here directly, on frames built by hand in
this file (nothing shared with horizon_runtime.hierarchy*), for every method and interval method; coherence
of the means to 1e-9; quantiles that never cross; the fallbacks; and both endpoints over real HTTP.
"""

from __future__ import annotations

import base64

import numpy as np
import orjson
import pandas as pd
import pytest
from hierarchicalforecast.core import HierarchicalReconciliation
from hierarchicalforecast.methods import ERM, BottomUp, MiddleOut, MinTrace, TopDown
from hierarchicalforecast.utils import aggregate

from horizon_runtime.errors import ProtocolError
from horizon_runtime.hierarchy_api import aggregate_payload, reconcile_payload
from horizon_runtime.hierarchy_reconcile import answer, parse_reconcile

# total → 2 regions → 5 stores; the input series are the stores
LABELS = [{"region": "north", "store": "n1"}, {"region": "north", "store": "n2"}, {"region": "south", "store": "s1"},
          {"region": "south", "store": "s2"}, {"region": "south", "store": "s3"}]
NODES = ["total", "north", "south", "north/n1", "north/n2", "south/s1", "south/s2", "south/s3"]
S = np.array([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [0, 0, 1, 1, 1], *np.eye(5, dtype=int).tolist()])
TAGS = {"total": ["total"], "region": ["north", "south"], "region/store": NODES[3:]}
T, H = 60, 6
QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9]
Z = {0.1: -1.2815515655446004, 0.25: -0.6744897501960817, 0.5: 0.0, 0.75: 0.6744897501960817, 0.9: 1.2815515655446004}


def _case(seed: int = 0):
    """History, in-sample fitted values (each node's own, so the residuals are not coherent), base forecasts."""
    rng = np.random.default_rng(seed)
    steps = np.arange(T + H)
    bottom = np.stack([20 + 5 * i + 4 * np.sin(steps / 3 + i) + rng.normal(0, 1 + i / 2, T + H) for i in range(5)])
    y = S @ bottom[:, :T]
    fitted = y + rng.normal(0, 1, y.shape) * (1 + np.arange(len(NODES)))[:, None]
    fitted[:, 0] = np.nan  # nothing fitted at the first step, as the statistical models answer
    mean = S @ bottom[:, T:] + rng.normal(0, 2, (len(NODES), H))
    sd = np.nanstd(y - fitted, axis=1)[:, None] * np.sqrt(1 + np.arange(H))[None, :]
    quantiles = {q: mean + Z[q] * sd for q in QUANTILES}
    return y, fitted, mean, quantiles


Y, FITTED, MEAN, BASE_Q = _case()


def _values(a) -> list:
    return [None if np.isnan(v) else float(v) for v in a]


def body(method="mint_shrink", intervals="normality", quantiles=QUANTILES, in_sample=True, **extra) -> dict:
    return {
        "node_ids": NODES, "S": S.tolist(), "tags": TAGS, "method": method, "intervals": intervals, "reconcile_level": "region",
        "quantiles": quantiles, "seed": 7,
        "base": [{"mean": _values(MEAN[i]), "quantiles": {str(q): _values(BASE_Q[q][i]) for q in QUANTILES}} for i in range(len(NODES))],
        "in_sample": [{"target": _values(Y[i]), "fitted": _values(FITTED[i])} for i in range(len(NODES))] if in_sample else None,
    } | extra


def library_reconcile(reconciler, intervals: str, quantiles=QUANTILES, with_history: bool = True, seed: int = 7):
    """hierarchicalforecast on frames built by hand: {q or 'mean': (nodes, H)}."""
    Y_hat = pd.DataFrame({"unique_id": np.repeat(NODES, H), "ds": np.tile(np.arange(H), len(NODES)), "m": MEAN.ravel()})
    for lo, hi in ((0.1, 0.9), (0.25, 0.75)):
        level = round(100 * (hi - lo))
        Y_hat[f"m-lo-{level}"], Y_hat[f"m-hi-{level}"] = BASE_Q[lo].ravel(), BASE_Q[hi].ravel()
    S_df = pd.DataFrame(S, columns=NODES[3:]).assign(unique_id=NODES)[["unique_id", *NODES[3:]]]
    Y_df = pd.DataFrame({"unique_id": np.repeat(NODES, T), "ds": np.tile(np.arange(T), len(NODES)), "y": Y.ravel(), "m": FITTED.ravel()})
    levels = sorted({round(abs(200 * q - 100)) for q in quantiles}) or None
    hrec = HierarchicalReconciliation([reconciler])
    out = hrec.reconcile(Y_hat_df=Y_hat, tags={k: np.array(v) for k, v in TAGS.items()}, S_df=S_df, Y_df=Y_df if with_history else None,
                         level=levels, intervals_method=intervals, seed=seed)
    name = [c for c in out.columns if c.startswith("m/") and "-lo-" not in c and "-hi-" not in c][0]
    got = {"mean": out[name].to_numpy().reshape(len(NODES), H)}
    for q in quantiles:
        column = f"{name}-lo-{round(100 - 200 * q)}" if q <= 0.5 else f"{name}-hi-{round(200 * q - 100)}"
        got[q] = out[column].to_numpy().reshape(len(NODES), H)
    return got


def reconciled(answer_: dict, key) -> np.ndarray:
    field = (lambda r: r["mean"]) if key == "mean" else (lambda r: r["quantiles"][repr(float(key))])
    return np.array([field(r) for r in answer_["reconciled"]], dtype=np.float64)


LIBRARY = {
    "bottom_up": lambda: BottomUp(),
    "top_down_forecast_proportions": lambda: TopDown("forecast_proportions"),
    "top_down_average_proportions": lambda: TopDown("average_proportions"),
    "top_down_proportion_averages": lambda: TopDown("proportion_averages"),
    "middle_out": lambda: MiddleOut("region", "forecast_proportions"),
    "middle_out_average_proportions": lambda: MiddleOut("region", "average_proportions"),
    "ols": lambda: MinTrace("ols"), "wls_struct": lambda: MinTrace("wls_struct"), "wls_var": lambda: MinTrace("wls_var"),
    "mint_shrink": lambda: MinTrace("mint_shrink"), "mint_cov": lambda: MinTrace("mint_cov"), "erm": lambda: ERM("closed"),
}
FORECAST_PROPORTIONS = ("top_down_forecast_proportions", "middle_out")


@pytest.mark.parametrize("intervals", ["normality", "bootstrap", "permbu"])
@pytest.mark.parametrize("method", list(LIBRARY))
def test_parity_with_hierarchicalforecast_called_directly(method, intervals):
    got = reconcile_payload(body(method, intervals))
    # the library reconciles forecast proportions' intervals by bootstrap only: Horizon says so and uses it
    used = "bootstrap" if method in FORECAST_PROPORTIONS else intervals
    assert (got["method"], got["intervals"]) == (method, used), got["warnings"]
    assert bool(got["warnings"]) == (used != intervals), got["warnings"]
    wanted = library_reconcile(LIBRARY[method](), used)
    for key in ["mean", *QUANTILES]:
        np.testing.assert_allclose(reconciled(got, key), wanted[key], rtol=1e-12, atol=1e-9, err_msg=f"{method} {used} {key}")


@pytest.mark.parametrize("method", list(LIBRARY))
def test_means_are_coherent_and_quantiles_never_cross(method):
    for intervals in ("normality", "bootstrap"):
        got = reconcile_payload(body(method, intervals))
        mean = reconciled(got, "mean")
        bottom = mean[-5:]
        np.testing.assert_allclose(mean, S @ bottom, rtol=0, atol=1e-9)  # every parent is the sum of its children
        rows = np.stack([reconciled(got, q) for q in QUANTILES])
        assert (np.diff(rows, axis=0) >= 0).all(), f"{method} {intervals}: quantiles cross"


def test_crossing_quantiles_are_sorted_per_step():
    req = parse_reconcile(body("bottom_up", quantiles=[0.1, 0.5, 0.9]))
    mean = np.zeros((len(NODES), H))
    crossing = {0.1: mean + 1.0, 0.5: mean, 0.9: mean - 1.0}  # upside down
    got = answer(req, mean, crossing, "bottom_up", "normality", [], False)
    assert reconciled(got, 0.1).max() == -1.0 and reconciled(got, 0.5).max() == 0.0 and reconciled(got, 0.9).min() == 1.0


def test_only_the_requested_quantiles_come_back():
    got = reconcile_payload(body("wls_struct", quantiles=[0.9, 0.1]))
    assert list(got["reconciled"][0]["quantiles"]) == ["0.9", "0.1"]
    wanted = library_reconcile(MinTrace("wls_struct"), "normality", quantiles=[0.1, 0.9])
    np.testing.assert_allclose(reconciled(got, 0.9), wanted[0.9], rtol=1e-12)
    assert reconcile_payload(body("ols", quantiles=[]))["reconciled"][0]["quantiles"] == {}


@pytest.mark.parametrize("method", ["mint_shrink", "mint_cov", "wls_var", "erm"])
def test_without_in_sample_values_methods_needing_residuals_fall_back_to_wls_struct(method):
    got = reconcile_payload(body(method, in_sample=False))
    assert (got["method"], got["intervals"]) == ("wls_struct", "normality")
    assert len(got["warnings"]) == 1 and method in got["warnings"][0] and "no in-sample fitted values" in got["warnings"][0]
    wanted = library_reconcile(MinTrace("wls_struct"), "normality", with_history=False)
    np.testing.assert_allclose(reconciled(got, "mean"), wanted["mean"], rtol=1e-12)
    np.testing.assert_allclose(reconciled(got, 0.9), wanted[0.9], rtol=1e-12)


@pytest.mark.parametrize("intervals", ["bootstrap", "permbu"])
def test_sampled_intervals_without_residuals_fall_back_to_normality(intervals):
    got = reconcile_payload(body("ols", intervals, in_sample=False))
    assert (got["method"], got["intervals"]) == ("ols", "normality") and intervals in got["warnings"][0]
    np.testing.assert_allclose(reconciled(got, 0.1), library_reconcile(MinTrace("ols"), "normality", with_history=False)[0.1], rtol=1e-12)


def test_a_node_without_fitted_values_falls_back_and_says_which():
    raw = body("mint_shrink")
    raw["in_sample"][2]["fitted"] = None
    got = reconcile_payload(raw)
    assert got["method"] == "wls_struct" and "node 'south' has no in-sample fitted values" in got["warnings"][0]


def test_singular_covariance_falls_back_to_wls_struct():
    raw = body("mint_cov")
    for entry in raw["in_sample"]:  # 5 steps for 8 nodes: the sample covariance has rank 4 at most
        entry["target"], entry["fitted"] = entry["target"][-5:], entry["fitted"][-5:]
    got = reconcile_payload(raw)
    assert got["method"] == "wls_struct" and "singular" in got["warnings"][0], got["warnings"]
    # coherent fitted values (naive ones: every node's residual the sum of its children's) are singular too
    raw = body("mint_cov")
    for i, entry in enumerate(raw["in_sample"]):
        entry["fitted"] = [None] + entry["target"][:-1]
    got = reconcile_payload(raw)
    assert got["method"] == "wls_struct" and "singular" in got["warnings"][0], got["warnings"]
    np.testing.assert_allclose(reconciled(got, "mean"), library_reconcile(MinTrace("wls_struct"), "normality")["mean"], rtol=1e-12)


@pytest.mark.parametrize("intervals", ["bootstrap", "permbu"])
def test_no_quantiles_with_sampled_intervals_and_a_fallback_reconciles_the_means(intervals):
    """Found by Schemathesis: quantiles [], permbu, and a method that falls back to wls_struct (no history): the library
    still asks permbu for Y_df though no interval is reconciled; the means are wls_struct's."""
    raw = body("mint_cov", intervals, quantiles=[])
    for entry in raw["in_sample"]:  # a singular covariance: mint_cov falls back after its run
        entry["target"], entry["fitted"] = entry["target"][-5:], entry["fitted"][-5:]
    got = reconcile_payload(raw)
    assert got["method"] == "wls_struct", got["warnings"]
    np.testing.assert_allclose(reconciled(got, "mean"), library_reconcile(MinTrace("wls_struct"), "normality")["mean"], rtol=1e-12)


def test_bootstrap_and_permbu_follow_the_seed():
    for intervals in ("bootstrap", "permbu"):
        first, again = reconcile_payload(body("ols", intervals)), reconcile_payload(body("ols", intervals))
        other = reconcile_payload(body("ols", intervals, seed=8))
        np.testing.assert_array_equal(reconciled(first, 0.1), reconciled(again, 0.1))
        assert not np.array_equal(reconciled(first, 0.1), reconciled(other, 0.1))
        np.testing.assert_allclose(reconciled(other, 0.1), library_reconcile(MinTrace("ols"), intervals, seed=8)[0.1], rtol=1e-12)


def test_bad_reconcile_bodies_are_400():
    for bad, words in [
        (body("magic"), "'method'"), (body(intervals="conformal"), "'intervals'"), (body("middle_out", reconcile_level=None), "reconcile_level"),
        (body(quantiles=[0.3]), "0.7"), (body(S=S[::-1].tolist()), "identity"), (body(node_ids=NODES[:-1]), "'S'"),
    ]:
        with pytest.raises(ProtocolError) as error:
            reconcile_payload(bad)
        assert error.value.status == 400 and words in error.value.detail, error.value.detail


def _series(seed: int = 1) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(5):
        target = [float(v) for v in rng.integers(0, 50, 12)]
        target[3 + i % 2] = None  # gaps in some series
        out.append({"target": target, "start": i % 3})  # series starting at different steps
    return out


def test_aggregate_labels_equals_the_library_aggregate():
    series = _series()
    got = aggregate_payload({"series": series, "labels": LABELS, "levels": [["region"], ["region", "store"]]})
    assert [n["id"] for n in got["nodes"]] == NODES and got["tags"] == TAGS and np.array_equal(got["S"], S)
    assert [n["parent"] for n in got["nodes"]] == [None, "total", "total", "north", "north", "south", "south", "south"]
    assert [n["level"] for n in got["nodes"]] == ["total", "region", "region", *["region/store"] * 5]
    assert [n["series"] for n in got["nodes"]] == [[0, 1, 2, 3, 4], [0, 1], [2, 3, 4], [0], [1], [2], [3], [4]]
    rows = [(LABELS[i]["region"], LABELS[i]["store"], s["start"] + k, v) for i, s in enumerate(series) for k, v in enumerate(s["target"]) if v is not None]
    frame = pd.DataFrame(rows, columns=["region", "store", "ds", "y"])
    Y_df, S_df, tags = aggregate(frame, [["region"], ["region", "store"]])
    end = max(s["start"] + len(s["target"]) - 1 for s in series)
    for node in got["nodes"]:
        mine = pd.Series(node["target"], index=range(node["start"], end + 1), dtype=float).dropna()
        if node["id"] == "total":
            wanted = frame.groupby("ds")["y"].sum()
        else:
            wanted = Y_df[Y_df["unique_id"] == node["id"]].set_index("ds")["y"]
        pd.testing.assert_series_equal(mine, wanted.astype(float), check_names=False, check_index_type=False)
        assert len(node["target"]) == end - node["start"] + 1  # every node's target runs to the grid's last step
    for row, node in enumerate(NODES[1:], 1):
        assert S_df.set_index("unique_id").loc[node, [f"{l['region']}/{l['store']}" for l in LABELS]].tolist() == S[row].tolist()


def test_aggregate_explicit_sums_the_named_series():
    series = _series()
    got = aggregate_payload({"series": series, "aggregates": {"north": [0, 1], "all": [0, 1, 2, 3, 4], "south": [2, 3, 4]},
                             "names": [f"{l['store']}" for l in LABELS]})
    assert [n["id"] for n in got["nodes"]] == ["all", "north", "south", "n1", "n2", "s1", "s2", "s3"]
    assert [n["parent"] for n in got["nodes"]] == [None, "all", "all", "north", "north", "south", "south", "south"]
    assert got["tags"] == {"depth_0": ["all"], "depth_1": ["north", "south"], "series": ["n1", "n2", "s1", "s2", "s3"]}
    assert np.array_equal(got["S"], S)
    dense = np.full((5, 14), np.nan)
    for i, s in enumerate(series):
        dense[i, s["start"]:s["start"] + 12] = [np.nan if v is None else v for v in s["target"]]
    for node, row in zip(got["nodes"], S):
        members = dense[row.astype(bool)]
        wanted = np.where(np.isfinite(members).any(axis=0), np.nansum(members, axis=0), np.nan)[node["start"]:]
        np.testing.assert_array_equal(np.array(node["target"], dtype=float), wanted)


def test_bad_aggregate_bodies_are_400():
    series = _series()
    levels = [["region"], ["region", "store"]]
    twice = [dict(label) for label in LABELS]
    twice[1]["store"] = "n1"
    for bad, words in [
        ({"series": series, "labels": twice, "levels": levels}, "series 0 and 1 have the same labels"),
        ({"series": series, "labels": LABELS, "levels": [["region"], ["store"]]}, "nested"),
        ({"series": series, "labels": LABELS[:4], "levels": levels}, "5 objects"),
        ({"series": series, "labels": [{"region": "north"}] + LABELS[1:], "levels": levels}, "labels[0].store"),
        ({"series": series, "labels": [{"region": "total", "store": "x"}] + LABELS[1:], "levels": levels}, "node 'total'"),
        ({"series": series, "labels": LABELS, "levels": levels, "aggregates": {"a": [0]}}, "exactly one"),
        ({"series": series, "aggregates": {"a": [0, 9]}}, "indices"),
        ({"series": series, "aggregates": {"series[1]": [0, 1]}}, "unique"),
        ({"series": series[:1] + [{"target": [None, None]}], "aggregates": {"a": [0, 1]}}, "no value"),
    ]:
        with pytest.raises(ProtocolError) as error:
            aggregate_payload(bad)
        assert error.value.status == 400 and words in error.value.detail, error.value.detail


def as_json(payload: dict) -> dict:
    """A payload as the worker writes it (numpy arrays as lists, NaN as null)."""
    return orjson.loads(orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY))


def b64(values) -> str:
    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode()


def unb64(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f8")


def test_both_endpoints_over_http(worker):
    series = _series()
    status, agg = worker.call("POST", "/hierarchy/aggregate", {"series": series, "labels": LABELS, "levels": [["region"], ["region", "store"]]})
    assert status == 200, agg
    assert agg == as_json(aggregate_payload({"series": series, "labels": LABELS, "levels": [["region"], ["region", "store"]]}))
    # base64 both ways (what the control plane sends): the same numbers
    encoded = {"series": [{"target": b64([np.nan if v is None else v for v in s["target"]]), "start": s["start"]} for s in series],
               "labels": LABELS, "levels": [["region"], ["region", "store"]], "encoding": "base64"}
    status, agg64 = worker.call("POST", "/hierarchy/aggregate", encoded)
    assert status == 200, agg64
    for plain, coded in zip(agg["nodes"], agg64["nodes"]):
        np.testing.assert_array_equal(np.array(plain["target"], dtype=float), unb64(coded["target"]))
    status, got = worker.call("POST", "/hierarchy/reconcile", body("mint_shrink", "permbu"))
    assert status == 200, got
    assert got == as_json(reconcile_payload(body("mint_shrink", "permbu")))
    coded = body("mint_shrink", "permbu", encoding="base64")
    coded["base"] = [{"mean": b64(MEAN[i]), "quantiles": {str(q): b64(BASE_Q[q][i]) for q in QUANTILES}} for i in range(len(NODES))]
    status, got64 = worker.call("POST", "/hierarchy/reconcile", coded)
    assert status == 200, got64
    np.testing.assert_array_equal(np.stack([unb64(r["mean"]) for r in got64["reconciled"]]), reconciled(got, "mean"))
    status, error = worker.call("POST", "/hierarchy/reconcile", body("magic"))
    assert status == 400 and error["error"]["code"] == "bad_request" and "'method'" in error["error"]["detail"]
    status, error = worker.call("POST", "/hierarchy/aggregate", {"series": series})
    assert status == 400 and error["error"]["code"] == "bad_request"


# temporal: hourly series with days (k=24) and 3-day periods (k=72); a 144-step horizon is 2 of those, 6 days
TEMPORAL = [{"name": "D", "k": 24}, {"name": "D3", "k": 72}]


def _temporal_case(count: int = 3, seed: int = 3):
    rng = np.random.default_rng(seed)
    base = []
    for _ in range(count):
        for k in (72, 24, 1):  # coarsest first, then the series itself
            mean = rng.normal(10 * k, k, 144 // k)
            spread = np.abs(rng.normal(2 * np.sqrt(k), 1, 144 // k))
            base.append({"mean": mean, "quantiles": {0.1: mean + Z[0.1] * spread, 0.9: mean + Z[0.9] * spread}})
    return base


def temporal_body(base, method="wls_struct", intervals="normality", quantiles=(0.1, 0.5, 0.9)) -> dict:
    return {"temporal": TEMPORAL, "method": method, "intervals": intervals, "quantiles": list(quantiles), "reconcile_level": "D",
            "base": [{"mean": b["mean"].tolist(), "quantiles": {str(q): v.tolist() for q, v in b["quantiles"].items()}} for b in base]}


def library_temporal(base, series: int, reconciler) -> dict:
    """hierarchicalforecast's temporal reconciliation of one series, on frames built by hand: {q or 'mean': [3 levels' arrays]}."""
    from hierarchicalforecast.utils import aggregate_temporal

    _, S_df, tags = aggregate_temporal(pd.DataFrame({"unique_id": "s", "ds": np.arange(144), "y": 0.0}), {"D3": 72, "D": 24, "hour": 1})
    rows = []
    for level, k in (("D3", 72), ("D", 24), ("hour", 1)):
        forecast = base[series * 3 + [72, 24, 1].index(k)]
        for p in range(144 // k):
            rows.append({"unique_id": "s", "temporal_id": f"{level}-{p + 1}", "ds": p * k, "m": forecast["mean"][p],
                         "m-lo-80": forecast["quantiles"][0.1][p], "m-hi-80": forecast["quantiles"][0.9][p]})
    out = HierarchicalReconciliation([reconciler]).reconcile(
        Y_hat_df=pd.DataFrame(rows), S_df=S_df, tags=tags, level=[0, 80], temporal=True, id_time_col="temporal_id")
    name = [c for c in out.columns if c.startswith("m/") and "-lo-" not in c and "-hi-" not in c][0]
    by_level = lambda column: [out[out["temporal_id"].str.startswith(f"{lv}-")][column].to_numpy() for lv in ("D3", "D", "hour")]  # noqa: E731
    return {"mean": by_level(name), 0.1: by_level(f"{name}-lo-80"), 0.5: by_level(f"{name}-lo-0"), 0.9: by_level(f"{name}-hi-80")}


@pytest.mark.parametrize("method", ["bottom_up", "ols", "wls_struct"])
def test_temporal_parity_with_hierarchicalforecast(method):
    base = _temporal_case()
    got = reconcile_payload(temporal_body(base, method))
    assert (got["method"], got["intervals"], got["warnings"]) == (method, "normality", [])
    assert len(got["reconciled"]) == len(base)
    reconciler = {"bottom_up": BottomUp, "ols": lambda: MinTrace("ols"), "wls_struct": lambda: MinTrace("wls_struct")}[method]()
    for series in range(3):
        wanted = library_temporal(base, series, reconciler)
        for level in range(3):
            entry = got["reconciled"][series * 3 + level]
            np.testing.assert_allclose(entry["mean"], wanted["mean"][level], rtol=1e-12, atol=1e-9)
            for q in (0.1, 0.5, 0.9):
                np.testing.assert_allclose(entry["quantiles"][str(q)], wanted[q][level], rtol=1e-12, atol=1e-9)
        hours, days, periods = (np.asarray(got["reconciled"][series * 3 + level]["mean"]) for level in (2, 1, 0))
        np.testing.assert_allclose(days, hours.reshape(6, 24).sum(axis=1), rtol=0, atol=1e-9)  # coherent in time
        np.testing.assert_allclose(periods, hours.reshape(2, 72).sum(axis=1), rtol=0, atol=1e-9)


def test_temporal_fallbacks_and_400s():
    base = _temporal_case(count=1)
    got = reconcile_payload(temporal_body(base, "mint_shrink", "bootstrap"))
    assert (got["method"], got["intervals"]) == ("wls_struct", "normality") and len(got["warnings"]) == 2, got["warnings"]
    assert all("no in-sample values" in w for w in got["warnings"])
    short = temporal_body(base)
    short["base"][2]["mean"] = short["base"][2]["mean"][:100]
    for bad, words in [(short, "whole periods"), (temporal_body(base) | {"temporal": [{"name": "D", "k": 1}]}, "temporal[0]"),
                       (temporal_body(base) | {"base": temporal_body(base)["base"][:2]}, "3 forecasts per series")]:
        with pytest.raises(ProtocolError) as error:
            reconcile_payload(bad)
        assert error.value.status == 400 and words in error.value.detail, error.value.detail


def test_temporal_aggregate_counts_periods_back_from_the_last_step():
    hours = [float(v) for v in range(1, 151)]  # 150 steps: 6 whole days back from the end (6 steps before them left out)
    other = [None] * 4 + [1.0] * 146
    other[100] = None  # a missing hour: its day and its 3-day period are missing
    got = as_json(aggregate_payload({"series": [{"target": hours}, {"target": other, "start": 0}], "temporal": TEMPORAL}))
    nodes = {n["id"]: n for n in got["nodes"]}
    assert [n["id"] for n in got["nodes"]] == ["series[0]/D3", "series[0]/D", "series[0]", "series[1]/D3", "series[1]/D", "series[1]"]
    assert got["S"] is None and got["tags"] is None
    assert (nodes["series[0]/D"]["start"], nodes["series[0]/D"]["k"], nodes["series[0]/D"]["parent"]) == (6, 24, "series[0]/D3")
    assert nodes["series[0]/D"]["target"] == [float(sum(range(7 + 24 * d, 31 + 24 * d))) for d in range(6)]
    assert nodes["series[0]/D3"]["target"] == [float(sum(range(7 + 72 * p, 79 + 72 * p))) for p in range(2)]
    assert (nodes["series[0]"]["parent"], nodes["series[0]"]["k"], nodes["series[0]"]["target"]) == ("series[0]/D", 1, hours)
    assert nodes["series[1]/D"]["target"] == [24.0, 24.0, 24.0, None, 24.0, 24.0] and nodes["series[1]/D3"]["target"] == [72.0, None]
    assert nodes["series[1]"]["start"] == 4 and len(nodes["series[1]"]["target"]) == 146
    with pytest.raises(ProtocolError) as error:
        aggregate_payload({"series": [{"target": hours[:50]}], "temporal": TEMPORAL})
    assert "fewer than one period of temporal level 'D3'" in error.value.detail


def test_temporal_reconcile_over_http(worker):
    base = _temporal_case(count=2)
    status, got = worker.call("POST", "/hierarchy/reconcile", temporal_body(base, "ols"))
    assert status == 200, got
    assert got == as_json(reconcile_payload(temporal_body(base, "ols")))
