"""The official TimesFM 1.0 API (timesfm 1.3.0) called directly on one series at a time: the reference
that test/models.timesfm1.test.ts holds the worker to. Runs in the timesfm1 group's venv:

    runtime/.venv-timesfm1/bin/python runtime/tests/timesfm1_reference.py < cases.json

stdin: [{"weights": DIR, "architecture": {"num_layers": L, "num_heads": N, "model_dims": D},
         "freq": "MS", "horizon": H, "quantiles": [...], "series": [{"target": [...]}]}]
         (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

Only the official API: `timesfm.TimesFm(hparams=TimesFmHparams(...), checkpoint=TimesFmCheckpoint(path=
DIR/torch_model.ckpt))` built for exactly this horizon (horizon_len=H) and one series
(per_core_batch_size=1), `forecast([target], freq=[timesfm.freq_map(freq)])` with the library's
defaults otherwise (context 512, normalize=False, point_forecast_mode="median"), on the raw series (the
library drops leading NaN, interpolates the others and keeps the last 512 values). The architecture
comes from the case (the fixture's recipe), not from the adapter's reading of the state dict, so the
parity test also checks that reading. It shares no code with Horizon (runtime/tests/parity-tolerances.json
says how far the worker may differ). The nine trained levels are sorted at each step (the API's monotone
promise) and the requested ones taken from them (the test asks only for trained levels).
"""

from __future__ import annotations

import contextlib
import json
import sys

import numpy as np

with contextlib.redirect_stdout(sys.stderr):  # timesfm's __init__ prints to stdout
    import timesfm


def _values(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def forecast(case: dict, series: dict) -> dict:
    with contextlib.redirect_stdout(sys.stderr):
        tfm = timesfm.TimesFm(
            hparams=timesfm.TimesFmHparams(
                backend="cpu", per_core_batch_size=1, horizon_len=case["horizon"], context_len=512, **case["architecture"]
            ),
            checkpoint=timesfm.TimesFmCheckpoint(path=f"{case['weights']}/torch_model.ckpt"),
        )
    point, full = tfm.forecast([_values(series["target"])], freq=[timesfm.freq_map(case["freq"])])
    trained = list(tfm.quantiles)
    levels = sorted(case["quantiles"])
    # column 0 is the mean head, then the trained levels; sorted across all of them at each step
    ordered = np.sort(full[0][:, 1:].astype(np.float64).T, axis=0)
    rows = ordered[[trained.index(level) for level in levels]]
    return {
        "mean": point[0].astype(np.float64).tolist(),
        "quantiles": {repr(float(level)): rows[i].tolist() for i, level in enumerate(levels)},
    }


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    json.dump(reference(json.load(sys.stdin)), sys.stdout)
