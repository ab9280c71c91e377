"""The baseline of bench/hierarchy.ts: a hierarchical forecast written by hand with the libraries, as
hierarchicalforecast's documentation does it.

Reads {"series": [[...], ...], "start": "1996-03-18", "freq": "D", "labels": [{"group": .., "series": ..}, ...],
"horizon": h, "season_length": m, "model": "auto-ets", "levels": [20, 40, 60, 80], "method": "mint_shrink",
"n_jobs": k, "rounds": r} from the file given; r times (after one untimed warm-up on a tiny hierarchy, so that
nothing is compiled or imported inside the timing):

    Y_df, S_df, tags = aggregate(df, [["total"], ["total", "group"], ["total", "group", "series"]])
    sf = StatsForecast(models=[AutoETS(season_length=m)], freq=freq, n_jobs=k)
    Y_hat_df = sf.forecast(df=Y_df, h=h, level=levels, fitted=True)
    Y_fitted_df = sf.forecast_fitted_values()
    HierarchicalReconciliation([MinTrace(method)]).reconcile(Y_hat_df=Y_hat_df, Y_df=Y_fitted_df, S_df=S_df, tags=tags, level=levels)

Prints one JSON line: the seconds of each step and of all three, per round, and the reconciled means of the last
round per node id (without the "total/" prefix, so that they name the nodes as Horizon does).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import pandas as pd
from hierarchicalforecast.core import HierarchicalReconciliation
from hierarchicalforecast.methods import BottomUp, MinTrace
from hierarchicalforecast.utils import aggregate
from statsforecast import StatsForecast
from statsforecast.models import AutoETS, AutoTheta, SeasonalNaive

FREQ = {"D": "D", "W": "W-MON", "MS": "MS", "H": "h", "Q": "QS", "Y": "YS"}
SPEC = [["total"], ["total", "group"], ["total", "group", "series"]]


def model_of(name: str, m: int):
    return {"auto-ets": AutoETS, "auto-theta": AutoTheta, "seasonal-naive": SeasonalNaive}[name](season_length=m)


def reconciler(method: str):
    return BottomUp() if method == "bottom_up" else MinTrace(method=method)


def bottom_frame(series, labels, start: str, freq: str) -> pd.DataFrame:
    ds = pd.date_range(start, periods=len(series[0]), freq=FREQ[freq])
    return pd.DataFrame({
        "total": "total",
        "group": np.repeat([lab["group"] for lab in labels], len(ds)),
        "series": np.repeat([lab["series"] for lab in labels], len(ds)),
        "ds": np.tile(ds, len(series)),
        "y": np.concatenate([np.asarray(s, dtype=np.float64) for s in series]),
    })


def by_hand(spec: dict, df: pd.DataFrame) -> tuple[dict, pd.DataFrame]:
    t0 = time.perf_counter()
    Y_df, S_df, tags = aggregate(df, SPEC)
    t1 = time.perf_counter()
    sf = StatsForecast(models=[model_of(spec["model"], spec["season_length"])], freq=FREQ[spec["freq"]], n_jobs=spec["n_jobs"])
    Y_hat_df = sf.forecast(df=Y_df, h=spec["horizon"], level=spec["levels"], fitted=True)
    Y_fitted_df = sf.forecast_fitted_values()
    t2 = time.perf_counter()
    hrec = HierarchicalReconciliation(reconcilers=[reconciler(spec["method"])])
    out = hrec.reconcile(Y_hat_df=Y_hat_df, Y_df=Y_fitted_df, S_df=S_df, tags=tags, level=spec["levels"])
    t3 = time.perf_counter()
    return {"aggregate": t1 - t0, "forecast": t2 - t1, "reconcile": t3 - t2, "total": t3 - t0}, out


def main() -> None:
    spec = json.loads(open(sys.argv[1]).read())
    df = bottom_frame(spec["series"], spec["labels"], spec["start"], spec["freq"])
    # warm-up: two groups of two series, the same calls (imports, numba compilation, the process pool's first start)
    small = bottom_frame([s[-8 * spec["season_length"]:] for s in spec["series"][:4]],
                         [{"group": f"w{i // 2}", "series": f"w{i}"} for i in range(4)], spec["start"], spec["freq"])
    by_hand(spec, small)
    rounds = []
    for _ in range(spec.get("rounds", 1)):
        seconds, out = by_hand(spec, df)
        rounds.append(seconds)
    column = next(c for c in out.columns if "/" in c and "-lo-" not in c and "-hi-" not in c)  # "AutoETS/MinTrace_method-mint_shrink"
    means = {uid.removeprefix("total/"): g[column].to_numpy().tolist() for uid, g in out.groupby("unique_id", sort=False)}
    print(json.dumps({"rounds": rounds, "nodes": int(out["unique_id"].nunique()), "column": column, "mean": means}))


if __name__ == "__main__":
    main()
