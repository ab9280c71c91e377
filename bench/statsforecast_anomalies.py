"""The baseline of bench/anomalies-throughput.ts: anomaly detection as a statsforecast user writes it by hand.

Reads {"series": [[...], ...], "season_length": m, "level": 99, "n_jobs": k, "scored_from": s} from the file given, builds the
long DataFrame, and times StatsForecast(models=[AutoETS(season_length=m)], freq="h", n_jobs=k)
.forecast(df=..., h=1, level=[level], fitted=True), then forecast_fitted_values() and the flags (an
observation outside its in-sample interval): statsforecast's own in-sample-interval approach (its anomaly
detection tutorial). The import and the frame are not timed.
Prints one JSON line {"seconds": s, "series": n, "n_jobs": k, "anomalies": a}: a counts the flags from each
series' position `scored_from` on (what POST /v1/anomalies scores at that min_history).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import pandas as pd
from statsforecast import StatsForecast
from statsforecast.models import AutoETS


def main() -> None:
    spec = json.loads(open(sys.argv[1]).read())
    level = spec["level"]
    frames = []
    for i, values in enumerate(spec["series"]):
        ds = pd.date_range("2024-01-01", periods=len(values), freq="h")
        frames.append(pd.DataFrame({"unique_id": f"s{i}", "ds": ds, "y": np.asarray(values, dtype=np.float64)}))
    df = pd.concat(frames, ignore_index=True)
    sf = StatsForecast(models=[AutoETS(season_length=spec["season_length"])], freq="h", n_jobs=spec["n_jobs"])
    started = time.perf_counter()
    sf.forecast(df=df, h=1, level=[level], fitted=True)
    fitted = sf.forecast_fitted_values()
    flags = (fitted["y"] < fitted[f"AutoETS-lo-{level}"]) | (fitted["y"] > fitted[f"AutoETS-hi-{level}"])
    seconds = time.perf_counter() - started
    anomalies = int(flags[fitted.groupby("unique_id").cumcount().to_numpy() >= spec["scored_from"]].sum())
    assert len(fitted) == len(df)
    print(json.dumps({"seconds": seconds, "series": len(spec["series"]), "n_jobs": spec["n_jobs"], "anomalies": anomalies}))


if __name__ == "__main__":
    main()
