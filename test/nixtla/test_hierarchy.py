"""Hierarchies and the Nixtla SDK (docs/nixtla.md "Hierarchies"). TimeGPT has no hierarchy parameter (nixtla 0.9.0's
forecast sends none); Nixtla's tutorial forecasts every node of the aggregated frame and reconciles on the user's side
with hierarchicalforecast. Against /nixtla that path forecasts each node exactly as Horizon's own POST /v1/forecast with
`hierarchy` does before reconciling (its `base`), so the reconciliation by hand starts from the same numbers."""
from __future__ import annotations

import numpy as np
import pandas as pd
from nixtla import NixtlaClient

STORES = [("north", "n1"), ("north", "n2"), ("south", "s1")]


def _bottom(airpassengers: pd.DataFrame) -> pd.DataFrame:
    """Three stores on one monthly grid, with their region and store labels."""
    y = airpassengers["y"].to_numpy()
    values = [y, y * 0.5 + 3.0, y[::-1] + 10.0]
    return pd.concat([pd.DataFrame({"region": r, "store": s, "ds": airpassengers["ds"], "y": v}) for (r, s), v in zip(STORES, values)], ignore_index=True)


def _nodes(bottom: pd.DataFrame) -> pd.DataFrame:
    """Every node's series named as hierarchicalforecast's aggregate (and Horizon's hierarchy) names them."""
    total = bottom.groupby("ds", as_index=False)["y"].sum().assign(unique_id="total")
    regions = bottom.groupby(["region", "ds"], as_index=False)["y"].sum().rename(columns={"region": "unique_id"})
    stores = bottom.assign(unique_id=bottom["region"] + "/" + bottom["store"])
    return pd.concat([frame[["unique_id", "ds", "y"]] for frame in (total, regions, stores)], ignore_index=True)


def test_sdk_forecast_of_every_node_is_the_v1_hierarchys_base(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    bottom = _bottom(airpassengers)
    fc = client.forecast(_nodes(bottom), h=6, model="auto-ets", level=[80])
    dates = [d.strftime("%Y-%m-%d") for d in airpassengers["ds"]]
    body = {"model": "auto-ets", "freq": "MS", "horizon": 6, "quantiles": [0.1, 0.9],
            "series": [{"index": dates, "target": bottom.loc[bottom["store"] == s, "y"].tolist()} for _, s in STORES],
            "hierarchy": {"labels": [{"region": r, "store": s} for r, s in STORES], "levels": [["region"], ["region", "store"]]}}
    answer = server.raw("POST", "/v1/forecast", body)
    assert answer.status_code == 200, answer.text
    nodes = answer.json()["hierarchy"]["nodes"]
    assert sorted(n["id"] for n in nodes) == sorted(fc["unique_id"].unique())
    for node in nodes:
        rows = fc[fc["unique_id"] == node["id"]]
        assert list(rows["ds"].dt.strftime("%Y-%m-%d")) == node["index"]
        # the aggregates are summed on each side (pandas here, the control plane there): equal to the last bits of a sum
        np.testing.assert_allclose(rows["TimeGPT"], node["base"]["mean"], rtol=1e-9, err_msg=node["id"])
        np.testing.assert_allclose(rows["TimeGPT-lo-80"], node["base"]["0.1"], rtol=1e-9, err_msg=node["id"])
        np.testing.assert_allclose(rows["TimeGPT-hi-80"], node["base"]["0.9"], rtol=1e-9, err_msg=node["id"])
