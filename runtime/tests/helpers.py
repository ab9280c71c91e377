"""Request builders shared by the HTTP tests, and the measured parity tolerances (parity-tolerances.json)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

# per model id: how far the worker may differ from the library called plainly ("parity") and a series alone from
# the same series inside a batch ("batch"); docs/models.md shows the table
TOLERANCES = json.loads((Path(__file__).parent / "parity-tolerances.json").read_text())["models"]


def seasonal_series(n: int, period: int, seed: int = 0) -> list[float]:
    rng = np.random.default_rng(seed)
    steps = np.arange(n)
    values = 100 + 0.3 * steps + 10 * np.sin(2 * np.pi * steps / period) + rng.normal(0, 2, n)
    return [round(float(v), 4) for v in values]


def infer_body(model="naive", target=None, **overrides) -> dict:
    body = {
        "model": model,
        "size": "default",
        "freq": "Q",
        "horizon": 6,
        "quantiles": [0.1, 0.5, 0.9],
        "series": [{"target": target if target is not None else seasonal_series(40, 4)}],
    }
    body.update(overrides)
    return body


def gappy_series(n: int, seed: int, gaps: bool = True) -> list:
    """seasonal_series(n, 7) with three leading missing values and one in the middle (or none)."""
    values: list = seasonal_series(n, 7, seed=seed)
    if gaps:
        values[:3] = [None] * 3
        values[n // 2] = None
    return values


def model_body(models: dict[str, str], model: str, series: list[dict], horizon: int, quantiles, freq: str = "D") -> dict:
    """An /infer body for `model` at its size in `models` (id -> size)."""
    return {"model": model, "size": models[model], "freq": freq, "horizon": horizon, "quantiles": quantiles, "series": series}


def reference_case(weights, models: dict[str, str], model: str, series: list[dict], horizon: int, quantiles, **extra) -> dict:
    """A case for a runtime/tests/*_reference.py script: the same checkpoint and values as model_body."""
    return {"weights": str(weights / model / models[model]), "model": model, "horizon": horizon, "quantiles": quantiles,
            "series": series, **extra}


def assert_float32_close(actual, wanted, scale: float = 130, rtol: float = 1e-5) -> None:
    """float32 models: the worker and the reference run the same code on the same values, but not always
    in batches of the same size or padding, so sums can round differently in the last bits."""
    np.testing.assert_allclose(np.asarray(actual, dtype=float), np.asarray(wanted, dtype=float), rtol=rtol, atol=rtol * scale)


FLOAT32_ULPS = 2  # "exact" for a float32 model's values: within 2 units in the last place of float32


def assert_within(actual, wanted, tolerance: dict, what: str = "") -> None:
    """|actual - wanted| <= rel * (|wanted| + floor) at every step; rel 0 ("exact"): bitwise equal, or, when every
    wanted value is a float32 (a torch model's output), within FLOAT32_ULPS of float32. The same float32 computation
    in two processes can round its last bit differently: oneMKL without conditional numerical reproducibility
    (MKL_CBWR) may split a product differently with the buffers' alignment and threads, and the parity tests met
    1-ulp differences (7.6e-6 at 101, 7.5e-8 relative) on a heavily loaded 2-core machine; not reproduced alone."""
    actual, wanted = np.asarray(actual, dtype=np.float64), np.asarray(wanted, dtype=np.float64)
    assert actual.shape == wanted.shape, what
    if tolerance["rel"] == 0:
        float32 = np.array_equal(wanted.astype(np.float32).astype(np.float64), wanted, equal_nan=True)
        if float32 and not np.array_equal(actual, wanted, equal_nan=True):
            ulps = FLOAT32_ULPS * np.spacing(np.abs(wanted).astype(np.float32)).astype(np.float64)
            np.testing.assert_array_less(np.abs(actual - wanted), ulps + np.finfo(np.float64).tiny, err_msg=f"{what}: beyond {FLOAT32_ULPS} float32 ulps")
        else:
            np.testing.assert_array_equal(actual, wanted, err_msg=what)
    else:
        np.testing.assert_allclose(actual, wanted, rtol=tolerance["rel"], atol=tolerance["rel"] * tolerance["floor"], err_msg=what)


def assert_prediction_within(actual: dict, wanted: dict, tolerance: dict, what: str = "") -> None:
    """One series' prediction (mean and every quantile) against another within `tolerance`."""
    assert actual["quantiles"].keys() == wanted["quantiles"].keys(), what
    assert_within(actual["mean"], wanted["mean"], tolerance, f"{what} mean")
    for key, values in wanted["quantiles"].items():
        assert_within(actual["quantiles"][key], values, tolerance, f"{what} {key}")


def assert_parity(actual: dict, wanted: dict, model: str) -> None:
    """The worker's prediction against the reference's within the model's measured parity tolerance."""
    assert_prediction_within(actual, wanted, TOLERANCES[model]["parity"], f"{model} parity")


def parity_in_a_batch(model: str) -> dict:
    """A series forecast inside a batch against the library alone: both measured differences together."""
    parity, batch = TOLERANCES[model]["parity"], TOLERANCES[model]["batch"]
    return {"rel": parity["rel"] + batch["rel"], "floor": max(parity["floor"], batch["floor"])}


def with_seeds(series: list[dict], model: str) -> list[dict]:
    """The series with the seed a sampling model (chronos, house-tsfm) draws each with: Horizon's derivation from
    its values, given to the reference, which seeds the library with it."""
    if model == "chronos":
        from horizon_runtime.adapters.chronos_t5 import series_seed
    else:
        from horizon_runtime.adapters.yug import series_seed

    return [{**one, "seed": series_seed(np.array([np.nan if v is None else v for v in one["target"]], dtype=float))} for one in series]
