"""The peer baseline for bench/forecast-throughput.ts: what a user would write instead of deploying
Horizon — a FastAPI app that takes Horizon's request body and answers with statsforecast's Naive, the
way statsforecast's docs show it (a long data frame, `StatsForecast(models=[Naive()], freq=...)`,
`.forecast(df=..., h=..., level=[...])`). No auth, no quota, no per-series validation beyond the
pydantic model, no calendar checks: that is the point of the comparison.

    uvicorn fastapi_statsforecast:app --port 8000             # as a user would start it (1 process)

Quantile q comes from the interval of level 100·|2q−1| (lower bound for q < 0.5, upper for q > 0.5,
the point forecast for q = 0.5), the same mapping Horizon's statistical adapters use, so the answers
can be compared value for value.
"""

from typing import Literal

import pandas as pd
from fastapi import FastAPI
from pydantic import BaseModel, Field
from statsforecast import StatsForecast
from statsforecast.models import Naive


class Series(BaseModel):
    target: list[float] = Field(min_length=1)
    index: list[str] | None = None


class ForecastRequest(BaseModel):
    series: list[Series] = Field(min_length=1)
    horizon: int = Field(ge=1)
    freq: Literal["MS", "D", "W", "H", "Q", "Y"]
    model: Literal["naive"] = "naive"
    quantiles: list[float] = [0.1, 0.5, 0.9]


# Horizon's frequency names → pandas offsets
PANDAS_FREQ = {"MS": "MS", "D": "D", "W": "W", "H": "h", "Q": "QS", "Y": "YS"}

app = FastAPI()


def _level(q: float) -> float | int:
    # statsforecast names its columns after the level as given ("Naive-lo-80"), so keep whole levels int
    lv = round(abs(2 * q - 1) * 100, 10)
    return int(lv) if lv.is_integer() else lv


@app.post("/forecast")
def forecast(req: ForecastRequest) -> dict:
    freq = PANDAS_FREQ[req.freq]
    frames = []
    for i, s in enumerate(req.series):
        ds = pd.to_datetime(s.index) if s.index else pd.date_range("2000-01-01", periods=len(s.target), freq=freq)
        frames.append(pd.DataFrame({"unique_id": i, "ds": ds, "y": s.target}))
    df = pd.concat(frames, ignore_index=True)
    levels = sorted({_level(q) for q in req.quantiles if _level(q) > 0})
    sf = StatsForecast(models=[Naive()], freq=freq)
    fc = sf.forecast(df=df, h=req.horizon, level=levels or None)
    out = []
    for i, _ in enumerate(req.series):
        rows = fc[fc["unique_id"] == i]
        prediction = {"mean": rows["Naive"].tolist()}
        for q in req.quantiles:
            lv = _level(q)
            col = "Naive" if lv == 0 else f"Naive-{'lo' if q < 0.5 else 'hi'}-{lv}"
            prediction[str(q)] = rows[col].tolist()
        out.append([{"prediction": prediction, "index": rows["ds"].dt.strftime("%Y-%m-%d").tolist()}])
    return {"status": "completed", "model": "naive", "series": out}
