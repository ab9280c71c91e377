"""AsyncHorizon: the same calls, awaited, give the sync client's results."""
from __future__ import annotations

import asyncio

import pandas as pd
import pytest

from horizon_client import AsyncHorizon, Horizon, NotFoundError


def test_async_client(server, airpassengers):
    expected = Horizon(server.url, server.key).forecast(airpassengers, h=12)

    async def run():
        async with AsyncHorizon(server.url, server.key) as c:
            # the server's `loaded` lists refresh every 2 s (the forecast above loaded a model), so the client's
            # answer is compared with the raw answers just before and just after it: it must equal one of them
            raw_before = server.raw("GET", "/v1/models").json()
            models = await c.models()
            raw_after = server.raw("GET", "/v1/models").json()
            frame = await c.forecast(airpassengers, h=12)
            via_jobs = await c.forecast_job(airpassengers, h=12)
            job = await c.create_job({"series": [{"target": [1.0, 2.0, 3.0], "index": ["2020-01-01", "2020-02-01", "2020-03-01"]}], "horizon": 2, "freq": "MS", "model": "naive"})
            done = await c.wait_for_job(job["job_id"], timeout=120)
            listed = [j["job_id"] async for j in c.list_jobs(page_size=2)]
            warm = await c.warmup("naive")
            with pytest.raises(NotFoundError):
                await c.get_job("nope")
            return (models, raw_before, raw_after), frame, via_jobs, job, done, listed, warm

    models, frame, via_jobs, job, done, listed, warm = asyncio.run(run())
    assert models[0] in (models[1], models[2]), (models[0], models[1], models[2])
    pd.testing.assert_frame_equal(frame, expected)
    pd.testing.assert_frame_equal(via_jobs, expected)
    assert done["series"][0][0]["prediction"]["mean"] == [3.0, 3.0]
    assert job["job_id"] in listed
    assert warm["status"] == "warm"
