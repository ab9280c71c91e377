"""The client's fine-tuning calls against the real server (tests/server.ts with the tiny chronos-2
checkpoint): fine_tune() on a DataFrame makes a private model that forecast() can use by name, with the
same answer as the raw API; the async client cancels a running job; delete_model removes it."""
from __future__ import annotations

import asyncio

import numpy as np
import pandas as pd

from horizon_client import AsyncHorizon, Horizon


def _frame(n_series: int = 4, length: int = 72) -> pd.DataFrame:
    t = np.arange(length)
    rows = []
    for i in range(n_series):
        y = 50 + 10 * i + 8 * np.sin(2 * np.pi * t / 12 + i)
        rows.append(pd.DataFrame({"unique_id": f"s{i}", "ds": pd.date_range("2015-01-01", periods=length, freq="MS"), "y": np.round(y, 3)}))
    return pd.concat(rows, ignore_index=True)


def test_fine_tune_then_forecast_with_it_and_delete(server):
    with Horizon(server.url, server.key) as h:
        polled: list[dict] = []
        job = h.create_fine_tuning_job({"model": "chronos-2", "model_size": "small", "freq": "MS", "horizon": 6, "steps": 10, "learning_rate": 1e-3,
                                        "name": "client-ft", "series": [{"index": [str(d.date()) for d in g["ds"]], "target": g["y"].tolist()} for _, g in _frame().groupby("unique_id")]})
        assert job["status"] == "queued" and job["name"] == "client-ft"
        done = h.wait_for_fine_tuning_job(job["job_id"], on_poll=polled.append)
        assert done["status"] == "completed" and done["summary"]["steps"] == 10
        assert polled[-1]["status"] == "completed"
        mine = [m for m in h.models()["models"] if m.get("private")]
        assert [m["name"] for m in mine] == ["client-ft"]
        frame = h.forecast(_frame(), h=6, model="client-ft", model_size="small")
        raw = server.raw("POST", "/v1/forecast", {"model": done["model_id"], "model_size": "small", "freq": "MS", "horizon": 6, "quantiles": [0.1, 0.5, 0.9],
                                                  "series": [{"index": [str(d.date()) for d in g["ds"]], "target": g["y"].tolist()} for _, g in _frame().groupby("unique_id")]}).json()
        assert frame["mean"].tolist() == [v for s in raw["series"] for v in s[0]["prediction"]["mean"]]
        h.delete_model("client-ft")
        assert not [m for m in h.models()["models"] if m.get("private")]


def test_fine_tune_dataframe_and_async_cancel(server):
    with Horizon(server.url, server.key) as h:
        job = h.fine_tune(_frame(), h=6, steps=5, learning_rate=1e-3, name="frame-ft")
        assert job["status"] == "completed" and job["name"] == "frame-ft"
        h.delete_model(job["model_id"])

    async def cancel() -> dict:
        async with AsyncHorizon(server.url, server.key) as a:
            body = {"model": "chronos-2", "model_size": "small", "freq": "MS", "horizon": 6, "steps": 10_000,
                    "series": [{"index": [str(d.date()) for d in g["ds"]], "target": g["y"].tolist()} for _, g in _frame().groupby("unique_id")]}
            queued = await a.create_fine_tuning_job(body)
            while True:
                job = await a.get_fine_tuning_job(queued["job_id"])
                if job["status"] == "running" and (job.get("progress") or {}).get("step", 0) > 0:
                    break
                await asyncio.sleep(0.2)
            return await a.cancel_fine_tuning_job(queued["job_id"])

    assert asyncio.run(cancel())["status"] == "cancelled"
