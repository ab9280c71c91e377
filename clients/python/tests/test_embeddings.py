"""The client's embedding calls against the real server (tests/server.ts with the tiny chronos-2 checkpoint): embed()
on value lists and on a long DataFrame answers what the raw POST /v1/embeddings answers; an embedding job's result is
that answer; the async client does the same."""
from __future__ import annotations

import asyncio
import math

import numpy as np
import pandas as pd
import pytest

from horizon_client import AsyncHorizon, Horizon, ValidationError

VALUES = [[112.0, 118.0, 132.0, None, 121.0, 135.0, 148.0, 148.0, 136.0, 119.0], [1.0, 2.0, 3.0, 4.0]]


def _frame() -> pd.DataFrame:
    """The two series as a long frame, rows shuffled (embed sorts each id's rows by ds), the missing value as NaN."""
    rows = [{"unique_id": uid, "ds": pd.Timestamp("2020-01-01") + pd.DateOffset(months=t), "y": math.nan if v is None else v}
            for uid, values in zip(("air", "ramp"), VALUES) for t, v in enumerate(values)]
    return pd.DataFrame(rows).sample(frac=1.0, random_state=3)


def test_embed_lists_and_frames_equal_the_raw_answer(server, client: Horizon):
    raw = server.raw("POST", "/v1/embeddings", {"model": "chronos-2", "model_size": "small", "series": [{"target": v} for v in VALUES]}).json()
    assert client.embed(VALUES, model="chronos-2", model_size="small") == raw
    frame = _frame()
    framed = client.embed(frame, model="chronos-2", model_size="small")
    assert [e["unique_id"] for e in framed["embeddings"]] == list(dict.fromkeys(frame["unique_id"]))  # as they first appear
    by_id = {e["unique_id"]: e["embedding"] for e in framed["embeddings"]}
    assert [by_id["air"], by_id["ramp"]] == [e["embedding"] for e in raw["embeddings"]]
    matrix = np.array([e["embedding"] for e in raw["embeddings"]])
    assert matrix.shape == (2, raw["dimension"])
    patches = client.embed([np.array([np.nan, *VALUES[1]])], model="chronos-2", model_size="small", granularity="patch")
    assert patches["embeddings"][0]["embedded_from"] == 1 and len(patches["embeddings"][0]["patches"]) == 1
    with pytest.raises(ValidationError) as refused:
        client.embed(VALUES, model="naive")
    assert refused.value.errors[0]["field"] == "model"


def test_embedding_job_equals_the_sync_answer(server, client: Horizon):
    body = {"model": "chronos-2", "model_size": "small", "series": [{"target": v} for v in VALUES]}
    job = client.create_embedding_job(body)
    assert job["status"] == "queued" and job["granularity"] == "series"
    done = client.wait_for_embedding_job(job["job_id"], timeout=120)
    assert done["result"] == server.raw("POST", "/v1/embeddings", body).json()
    assert client.get_embedding_job(job["job_id"])["status"] == "completed"


def test_async_embed(server):
    async def run() -> None:
        async with AsyncHorizon(server.url, server.key) as h:
            answer = await h.embed(VALUES, model="chronos-2", model_size="small")
            raw = server.raw("POST", "/v1/embeddings", {"model": "chronos-2", "model_size": "small", "series": [{"target": v} for v in VALUES]}).json()
            assert answer == raw
            job = await h.create_embedding_job({"model": "chronos-2", "model_size": "small", "series": [{"target": v} for v in VALUES]})
            done = await h.wait_for_embedding_job(job["job_id"], timeout=120)
            assert done["result"] == raw

    asyncio.run(run())
