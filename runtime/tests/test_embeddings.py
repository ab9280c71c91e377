"""POST /embed through the real worker on tiny random-weight checkpoints (runtime/tests/fixtures): the vectors are the
official libraries' own embedding paths called directly here — `Chronos2Pipeline.embed`, `ChronosBoltPipeline.embed`,
`ChronosPipeline.embed` and tirex-ts' `TiRexEmbedding` — on each series alone (within float32 rounding: the worker pads
a batch to its longest series) and on the request's batch (bitwise). The reference shares no code with the adapters:
it reads each series' rows off the library's output by the layout the library documents."""

from __future__ import annotations

import base64
from functools import cache
from unittest import mock

import numpy as np
import pytest
import torch

from .conftest import model_worker_fixtures
from .helpers import gappy_series

MODELS = {"chronos": "tiny", "chronos-bolt": "tiny", "chronos-2": "small", "tirex": "default"}
CHRONOS = ("chronos", "chronos-bolt", "chronos-2")

weights, model_worker = model_worker_fixtures(MODELS)


def series_values() -> list[list]:
    """Three lengths, leading nulls and a gap in two of them; the third's first patch holds no observed value."""
    short = [None] * 20 + [3.5]
    return [gappy_series(80, seed=1), gappy_series(33, seed=2, gaps=False), short]


def as_array(values: list) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def embed(worker, model: str, series: list[list], granularity: str = "patch", **extra) -> dict:
    status, answer = worker.call("POST", "/embed", {"model": model, "size": MODELS[model], "series": [{"target": s} for s in series],
                                                    "granularity": granularity, **extra})
    assert status == 200, answer
    return answer


@cache
def pipeline(directory: str):
    from chronos import BaseChronosPipeline

    return BaseChronosPipeline.from_pretrained(directory, device_map="cpu", dtype=torch.float32)


def library_rows(weights, model: str, batch: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Per series of `batch` embedded together by the library: its own rows (one per patch; Chronos-T5: per value) and its
    summary token's row. Layouts as documented: Chronos-2 (n_variates, patches + [REG] + masked output patch, d);
    Bolt (batch, patches + [REG], d); Chronos-T5 (batch, values + EOS, d); batches left-padded to the longest."""
    pipe = pipeline(str(weights / model / MODELS[model]))
    if model == "chronos-2":
        out, _ = pipe.embed(batch)
        rows = [o[0].numpy() for o in out]  # the one variate
        tail, size = 2, 16
    else:
        out, _ = pipe.embed([torch.tensor(x) for x in batch])
        rows = list(out.numpy())
        tail, size = 1, (16 if model == "chronos-bolt" else 1)
    own = []
    for x, r in zip(batch, rows):
        count = int(np.ceil(len(x) / size))
        own.append(r[len(r) - tail - count:len(r) - tail])
    return own, [r[len(r) - tail] for r in rows]


def observed_patches(x: np.ndarray, size: int) -> np.ndarray:
    count = int(np.ceil(len(x) / size))
    flags = []
    for k in range(count):  # patch k ends (count - 1 - k) * size values before the last one
        end = len(x) - (count - 1 - k) * size
        flags.append(bool(np.isfinite(x[max(0, end - size):end]).any()))
    return np.array(flags)


def observed_of(x: np.ndarray, model: str) -> np.ndarray:
    return observed_patches(x, {"chronos": 1, "chronos-bolt": 16, "chronos-2": 16}[model])


def mean_vector(rows: np.ndarray, x: np.ndarray, model: str) -> np.ndarray:
    return rows[observed_of(x, model)].astype(np.float64).mean(axis=0).astype(np.float32)


def patch_rows(got: dict, x: np.ndarray, model: str) -> np.ndarray:
    """The answer's patch rows: null (NaN) exactly for the patches without an observed value, which are left out."""
    rows = np.array(got["patches"], dtype=np.float64)
    keep = observed_of(x, model)
    assert np.isnan(rows[~keep]).all() and np.isfinite(rows[keep]).all()
    return rows[keep]


@pytest.mark.parametrize("model", CHRONOS)
def test_chronos_vectors_are_the_pipelines_embed(model_worker, weights, model):
    series = series_values()
    answer = embed(model_worker, model, series)
    xs = [as_array(s) for s in series]
    assert answer["model"] == model and answer["warnings"] == []
    assert answer["patch_size"] == (1 if model == "chronos" else 16) and answer["dimension"] == 16
    # the request's batch through the library: bitwise
    rows, summaries = library_rows(weights, model, xs)
    for x, got, own, summary in zip(xs, answer["embeddings"], rows, summaries):
        np.testing.assert_array_equal(np.float32(patch_rows(got, x, model)), own[observed_of(x, model)])
        np.testing.assert_array_equal(np.array(got["summary"], dtype=np.float32), summary)
        np.testing.assert_array_equal(np.array(got["vector"], dtype=np.float32), mean_vector(own, x, model))
    # each series alone through the library: within float32 rounding (a batch is padded to its longest series)
    for x, got in zip(xs, answer["embeddings"]):
        (own,), (summary,) = library_rows(weights, model, [x])
        np.testing.assert_allclose(patch_rows(got, x, model), own[observed_of(x, model)], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.array(got["summary"]), summary, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.array(got["vector"]), mean_vector(own, x, model), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("model", CHRONOS)
def test_series_granularity_and_base64(model_worker, model):
    """granularity series: the vectors only, the same as with patches; base64: the same float32 values."""
    series = series_values()
    plain = embed(model_worker, model, series, "series")
    assert all(set(e) == {"vector"} for e in plain["embeddings"])
    patched = embed(model_worker, model, series)
    packed = embed(model_worker, model, series, "patch", encoding="base64")
    assert packed["dtype"] == "float32"
    for one, with_patches, encoded in zip(plain["embeddings"], patched["embeddings"], packed["embeddings"]):
        np.testing.assert_array_equal(one["vector"], with_patches["vector"])
        np.testing.assert_array_equal(np.frombuffer(base64.b64decode(encoded["vector"]), "<f4"), np.float32(one["vector"]))
        rows = np.frombuffer(base64.b64decode(encoded["patches"]), "<f4").reshape(-1, packed["dimension"])
        np.testing.assert_array_equal(rows, np.array(with_patches["patches"], dtype=np.float32))  # null and NaN alike


def library_tirex(weights):
    """tirex-ts' TiRexEmbedding on the fixture checkpoint (its constructor loads "NX-AI/TiRex" by name: given ours)."""
    import tirex.models.embedding as library
    from tirex import TiRexZero

    model = TiRexZero.from_pretrained(str((weights / "tirex" / "default" / "model.ckpt").resolve()), backend="torch", device="cpu")
    with mock.patch.object(library, "load_model", lambda **kwargs: model.eval()):
        return library.TiRexEmbedding(device="cpu")


def test_tirex_vectors_are_the_librarys_embedding(model_worker, weights):
    """Each series' vector exactly what TiRexEmbedding gives for it alone, whatever the batch (series of other lengths)."""
    series = series_values()
    answer = embed(model_worker, "tirex", series, "series")
    assert answer["dimension"] == 2 * 64 and answer["patch_size"] == 32  # 2 sLSTM blocks of 64 in the fixture
    library = library_tirex(weights)
    for values, got in zip(series, answer["embeddings"]):
        with torch.inference_mode():
            wanted = library(torch.tensor(as_array(values), dtype=torch.float32)[None, None])[0].numpy()
        np.testing.assert_array_equal(np.array(got["vector"], dtype=np.float32), wanted)


def test_refusals(model_worker):
    """Per-patch vectors from tirex, embeddings from a model without them, a bad granularity: 400 bad_request."""
    for body, words in (
        ({"model": "tirex", "size": "default", "series": [{"target": [1.0, 2.0]}], "granularity": "patch"}, "none per patch"),
        ({"model": "naive", "size": "default", "series": [{"target": [1.0, 2.0]}]}, "gives no embeddings"),
        ({"model": "chronos-2", "size": "small", "series": [{"target": [1.0]}], "granularity": "value"}, "'granularity'"),
        ({"model": "chronos-2", "size": "small", "series": [{"target": [None]}]}, "only missing ones"),
    ):
        status, answer = model_worker.call("POST", "/embed", body)
        assert status == 400 and answer["error"]["code"] == "bad_request" and words in answer["error"]["detail"], answer
