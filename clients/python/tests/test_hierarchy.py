"""Hierarchies from a long DataFrame (docs/python-client.md, docs/api.md "Hierarchies") against the real server: label
columns (constant per series) become the request's `hierarchy`; the frame holds every node's base and reconciled
forecast as the raw answer does; cross-validation's windows per node; jobs and the async client answer the same."""
from __future__ import annotations

import asyncio
import math

import numpy as np
import pandas as pd
import pytest

from horizon_client import AsyncHorizon, Horizon, ValidationError

N = 36
STORES = [("north", "n1", 50, 0), ("north", "n2", 30, 3), ("south", "s1", 80, 1), ("south", "s2", 20, 5)]


def _values(level: float, phase: int) -> list[float]:
    return [level + 0.3 * t + level * 0.2 * math.sin(2 * math.pi * (t + phase) / 12) + (t * 7 + phase) % 5 for t in range(N)]


def _frame() -> pd.DataFrame:
    """Four stores in two regions, monthly; ids that are not the labels; rows shuffled."""
    dates = pd.date_range("2021-01-01", periods=N, freq="MS")
    rows = [{"unique_id": f"id-{store}", "ds": d, "y": v, "region": region, "store": store}
            for region, store, level, phase in STORES for d, v in zip(dates, _values(level, phase))]
    return pd.DataFrame(rows).sample(frac=1.0, random_state=7)


def _raw_body(**extra) -> tuple[dict, list[str]]:
    """The same request written by hand: series in the order the ids first appear in the frame."""
    frame = _frame()
    order = list(dict.fromkeys(frame["unique_id"]))
    by_store = {f"id-{s[1]}": s for s in STORES}
    dates = [d.strftime("%Y-%m-%d") for d in pd.date_range("2021-01-01", periods=N, freq="MS")]
    series = [{"target": _values(by_store[uid][2], by_store[uid][3]), "index": dates} for uid in order]
    labels = [{"region": by_store[uid][0], "store": by_store[uid][1]} for uid in order]
    return {"series": series, "freq": "MS", "horizon": 3, "model": "auto-ets", "quantiles": [0.1, 0.5, 0.9],
            "hierarchy": {"labels": labels, "levels": [["region"], ["region", "store"]]}, **extra}, order


def _check_frame_is_answer(frame: pd.DataFrame, answer: dict, order: list[str]) -> None:
    nodes = answer["hierarchy"]["nodes"]
    assert list(dict.fromkeys(frame["node"])) == [n["id"] for n in nodes]
    for node in nodes:
        rows = frame[frame["node"] == node["id"]]
        assert set(rows["level"]) == {node["level"]} and list(rows["parent"].unique()) == [node["parent"]]
        assert list(rows["ds"].dt.strftime("%Y-%m-%d")) == node["index"]
        for key in ("mean", "0.1", "0.5", "0.9"):
            assert rows[key].tolist() == node["reconciled"][key] and rows[f"base_{key}"].tolist() == node["base"][key]
    bottom = frame[frame["unique_id"].notna()]
    assert list(dict.fromkeys(bottom["unique_id"])) == order
    for k, uid in enumerate(order):  # a bottom node's rows are its input series' reconciled forecast (series[k])
        assert bottom[bottom["unique_id"] == uid]["mean"].tolist() == answer["series"][k][0]["prediction"]["mean"]


def _check_coherent(frame: pd.DataFrame) -> None:
    for parent, children in frame[frame["parent"].notna()].groupby("parent"):
        sums = children.groupby("ds")["mean"].sum()
        own = frame[frame["node"] == parent].set_index("ds")["mean"]
        np.testing.assert_allclose(own.loc[sums.index].to_numpy(), sums.to_numpy(), rtol=1e-9, atol=1e-9)


def test_forecast_hierarchy_is_the_raw_answer_as_a_frame(server, client: Horizon):
    fc = client.forecast(_frame(), h=3, freq="MS", model="auto-ets", hierarchy=["region", "store"])
    body, order = _raw_body()
    answer = server.raw("POST", "/v1/forecast", body).json()
    assert list(fc.columns) == ["node", "level", "parent", "unique_id", "ds", "mean", "0.1", "0.5", "0.9",
                                "base_mean", "base_0.1", "base_0.5", "base_0.9"]
    _check_frame_is_answer(fc, answer, order)
    _check_coherent(fc)
    assert fc.attrs["hierarchy"] == {"method": "wls_var", "intervals": "normality", "warnings": []}
    assert fc.attrs["model"] == "auto-ets" and fc.attrs["requests"] == 1
    # the job answers the same frame; a method and an intervals choice go through as given
    job = client.forecast_job(_frame(), h=3, model="auto-ets", hierarchy=[["region"], ["region", "store"]], reconcile="bottom_up", timeout=120)
    raw = server.raw("POST", "/v1/forecast", _raw_body(reconcile="bottom_up")[0]).json()
    _check_frame_is_answer(job, raw, order)
    assert job.attrs["hierarchy"]["method"] == "bottom_up"


def test_series_that_share_their_labels_are_the_bottom_level_by_id(server, client: Horizon):
    frame = _frame().drop(columns="store")  # two series per region, told apart by their ids only
    fc = client.forecast(frame, h=2, model="seasonal-naive", hierarchy=["region"], reconcile="ols", quantiles=[])
    order = list(dict.fromkeys(frame["unique_id"]))  # the bottom nodes come in the input's order
    bottom = [f"{'north' if uid.startswith('id-n') else 'south'}/{uid}" for uid in order]
    assert list(dict.fromkeys(fc["node"])) == ["total", "north", "south", *bottom]
    assert set(fc[fc["node"] == "north/id-n1"]["level"]) == {"region/unique_id"}
    assert list(fc.columns) == ["node", "level", "parent", "unique_id", "ds", "mean", "base_mean"]
    _check_coherent(fc)


def test_bad_hierarchies_are_named(client: Horizon):
    frame = _frame()
    moved = frame.copy()
    moved.loc[moved.index[0], "region"] = "east"  # one row of a series in another region
    with pytest.raises(ValueError, match=r"series 'id-.*' has more than one value in label column 'region'"):
        client.forecast(moved, h=3, hierarchy=["region", "store"])
    with pytest.raises(ValueError, match=r"'city', not a column of df"):
        client.forecast(frame, h=3, hierarchy=["city"])
    with pytest.raises(ValueError, match=r"reconcile= reconciles a hierarchy"):
        client.forecast(frame.drop(columns=["region", "store"]), h=3, reconcile="ols")
    unlabelled = frame.copy()
    unlabelled.loc[unlabelled["unique_id"] == "id-s2", "store"] = None
    with pytest.raises(ValueError, match=r"series 'id-s2' has no 'store' label"):
        client.forecast(unlabelled, h=3, hierarchy=["region", "store"])
    with pytest.raises(ValidationError) as refused:  # the server's 422, e.g. middle_out without reconcile_level
        client.forecast(frame, h=3, model="seasonal-naive", hierarchy=["region", "store"], reconcile="middle_out")
    assert refused.value.errors[0]["field"] == "reconcile_level"


def test_cross_validation_of_a_hierarchy(server, client: Horizon):
    cv = client.cross_validation(_frame(), h=3, models=["seasonal-naive"], n_windows=2, hierarchy=["region", "store"], reconcile="wls_struct")
    body, order = _raw_body()
    raw_body = {k: v for k, v in body.items() if k != "model"} | {"models": ["seasonal-naive"], "n_windows": 2, "reconcile": "wls_struct"}
    answer = server.raw("POST", "/v1/cross-validation", raw_body).json()
    nodes = answer["models"][0]["hierarchy"]["nodes"]
    assert len(cv) == len(nodes) * 2 * 3 and set(cv["model"]) == {"seasonal-naive"}
    total = cv[cv["node"] == "total"]
    windows = nodes[0]["windows"]
    assert total["y"].tolist() == [v for w in windows for v in w["actual"]]
    assert total["mean"].tolist() == [v for w in windows for v in w["reconciled"]["mean"]]
    assert total["base_0.9"].tolist() == [v for w in windows for v in w["base"]["0.9"]]
    # cutoff: the last date before each window, as Nixtla's cross_validation names it
    assert sorted(set(cv["cutoff"].dt.strftime("%Y-%m-%d"))) == ["2023-06-01", "2023-09-01"]
    bottom = cv[cv["unique_id"] == order[0]]
    assert bottom["mean"].tolist() == [v for w in answer["models"][0]["series"][0]["windows"] for v in w["prediction"]["mean"]]
    levels = cv.attrs["hierarchy"]["seasonal-naive"]["levels"]
    assert [lv["level"] for lv in levels] == ["total", "region", "region/store"] and levels == answer["models"][0]["hierarchy"]["levels"]
    assert cv.attrs["leaderboard"] == answer["leaderboard"]


def test_cross_validation_plain_and_as_a_job(server, client: Horizon):
    frame = _frame().drop(columns=["region", "store"])
    cv = client.cross_validation(frame, h=2, models=["naive", "seasonal-naive"], n_windows=2)
    assert list(cv.columns) == ["model", "unique_id", "ds", "cutoff", "y", "mean", "0.1", "0.5", "0.9"]
    assert len(cv) == 2 * 4 * 2 * 2
    assert {r["model"] for r in cv.attrs["leaderboard"]} == set(cv.attrs["scores"]) == {"naive", "seasonal-naive"}
    job = client.cross_validation(frame, h=2, models=["naive", "seasonal-naive"], n_windows=2, as_job=True, timeout=120)
    pd.testing.assert_frame_equal(cv, job)


def test_async_hierarchy(client: Horizon, server):
    sync = client.forecast(_frame(), h=3, model="auto-ets", hierarchy=["region", "store"])

    async def run() -> tuple[pd.DataFrame, pd.DataFrame]:
        async with AsyncHorizon(server.url, server.key) as h:
            fc = await h.forecast(_frame(), h=3, model="auto-ets", hierarchy=["region", "store"])
            cv = await h.cross_validation(_frame(), h=3, models=["seasonal-naive"], hierarchy=["region", "store"], reconcile="bottom_up")
            return fc, cv

    fc, cv = asyncio.run(run())
    pd.testing.assert_frame_equal(fc, sync)
    assert cv.attrs["hierarchy"]["seasonal-naive"]["method"] == "bottom_up"
