"""The baseline of bench/statistical-scaling.ts: what a user writes by hand with statsforecast.

Reads {"series": [[...], ...], "horizon": h, "season_length": m, "levels": [80], "n_jobs": k} from the file
given, builds the long DataFrame, and times only StatsForecast(models=[AutoETS(season_length=m)],
freq="MS", n_jobs=k).forecast(df=..., h=h, level=levels) (the import and the frame are not timed).
Prints one JSON line {"seconds": s, "series": n, "n_jobs": k}.
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
    frames = []
    for i, values in enumerate(spec["series"]):
        ds = pd.date_range("2000-01-01", periods=len(values), freq="MS")
        frames.append(pd.DataFrame({"unique_id": f"s{i}", "ds": ds, "y": np.asarray(values, dtype=np.float64)}))
    df = pd.concat(frames, ignore_index=True)
    sf = StatsForecast(models=[AutoETS(season_length=spec["season_length"])], freq="MS", n_jobs=spec["n_jobs"])
    started = time.perf_counter()
    out = sf.forecast(df=df, h=spec["horizon"], level=spec["levels"])
    seconds = time.perf_counter() - started
    assert len(out) == len(spec["series"]) * spec["horizon"]
    print(json.dumps({"seconds": seconds, "series": len(spec["series"]), "n_jobs": spec["n_jobs"]}))


if __name__ == "__main__":
    main()
