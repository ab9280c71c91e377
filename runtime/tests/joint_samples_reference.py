"""The libraries' own joint (multivariate) forecasts and sample paths, called plainly: the reference that
runtime/tests/test_joint_and_samples.py and test/api.joint-and-samples.test.ts hold the worker to. It shares no code
with Horizon.

    runtime/.venv-core/bin/python runtime/tests/joint_samples_reference.py < cases.json

stdin: [{"weights": DIR (statistical models: absent), "model": ..., "horizon": H, "quantiles": [...], "kind": "joint" | "samples",
         "series": [{"target": [...], "seed"?: int}], "samples"?: N, "season_length"?: m}]   (null = missing)
stdout: per case, per series {"mean", "quantiles"} (joint) or {"samples": [[...] × N]} (samples)

Joint, each library's documented multivariate call over all the case's series at once:
- chronos-2: `Chronos2Pipeline.predict_quantiles([target, ...], prediction_length=H, quantile_levels=levels,
  cross_learning=True)` (its README's cross-learning mode: every input in one group);
- toto-2: its GluonTS predictor with `target_dim=N` on one ListDataset entry whose target is the (N, T) array of the
  series (equal lengths), as for any multivariate dataset;
- timesfm-3: `TimesFM3Evaluator.predict_batch([(N, T) array], horizon, return_quantiles=True, use_symmetric_averaging=False)`,
  the README's call with a 2-D (multivariate) context.
Samples:
- chronos: `torch.manual_seed(seed)`, then `ChronosPipeline.predict(target, prediction_length=H, num_samples=N)`;
- statistical models: the statsforecast class's `simulate(h=H, n_paths=N, y=target, seed=seed)`.
"""

from __future__ import annotations

import contextlib
import json
import sys

import numpy as np
import pandas as pd

TOTO_TRAINED = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]


def as_array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def at_levels(trained, values: np.ndarray, levels: list[float]) -> np.ndarray:
    """values (len(trained), H) -> (len(levels), H): linear in the level, sorted at each step."""
    ordered = np.sort(np.asarray(values, dtype=np.float64), axis=0)
    return np.sort(np.array([[np.interp(q, trained, step) for step in ordered.T] for q in levels]).reshape(len(levels), -1), axis=0)


def answer(mean, rows, levels) -> dict:
    return {"mean": np.asarray(mean, dtype=np.float64).tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def joint(case: dict) -> list[dict]:
    import torch

    horizon, levels = case["horizon"], sorted(float(q) for q in case["quantiles"])
    targets = [as_array(one["target"]) for one in case["series"]]
    if case["model"] == "chronos-2":
        from chronos import BaseChronosPipeline

        pipeline = BaseChronosPipeline.from_pretrained(case["weights"], device_map="cpu", dtype=torch.float32)
        q, mean = pipeline.predict_quantiles([torch.tensor(t) for t in targets], prediction_length=horizon,
                                             quantile_levels=levels, cross_learning=True)
        return [answer(m[0].numpy(), np.sort(qs[0].numpy().astype(np.float64).T, axis=0), levels) for qs, m in zip(q, mean)]
    if case["model"] in ("toto-2", "toto-2-ft"):
        from gluonts.dataset.common import ListDataset
        from toto2 import Toto2GluonTSModel, Toto2GluonTSModelConfig, Toto2Model

        model = Toto2GluonTSModel(Toto2Model.from_pretrained(case["weights"]).eval(), Toto2GluonTSModelConfig(
            prediction_length=horizon, context_length=4096, target_dim=len(targets), scaler_fallback_min_obs=0, quantile_real_cap_k=0))
        entry = {"start": pd.Period("2001-01-01", freq="D"), "target": np.stack(targets)}
        result = next(iter(model.create_predictor(batch_size=1, device="cpu").predict(ListDataset([entry], freq="D", one_dim_target=False))))
        values = np.stack([np.asarray(result.quantile(q), dtype=np.float64) for q in TOTO_TRAINED])  # (9, N, H)
        out = []
        for i in range(len(targets)):
            ordered = np.sort(values[:, i, :], axis=0)
            out.append(answer(ordered[TOTO_TRAINED.index(0.5)], at_levels(TOTO_TRAINED, ordered, levels), levels))
        return out
    from timesfm3 import ModelConfig, TimesFM3Evaluator

    model = TimesFM3Evaluator(ModelConfig(checkpoint_path=case["weights"], per_core_batch_size=1, device="cpu", local_files_only=True))
    longest = max(len(t) for t in targets)
    context = np.stack([np.concatenate([np.full(longest - len(t), np.nan), t]) for t in targets])
    result = next(iter(model.predict_batch([context], horizon=horizon, return_quantiles=True, use_symmetric_averaging=False)))
    trained = list(model.config.quantiles)
    return [answer(result.forecast[i], at_levels(trained, np.asarray(result.quantiles[i]).T, levels), levels) for i in range(len(targets))]


def statistical(model: str, m: int):
    """The statsforecast class Horizon's model id names, at season length m."""
    from statsforecast.models import AutoARIMA, AutoCES, AutoETS, AutoTheta, Naive, SeasonalNaive

    return {
        "naive": lambda: Naive(), "seasonal-naive": lambda: SeasonalNaive(season_length=m), "auto-ets": lambda: AutoETS(season_length=m),
        "damped-ets": lambda: AutoETS(season_length=m, damped=True), "auto-arima": lambda: AutoARIMA(season_length=m),
        "auto-theta": lambda: AutoTheta(season_length=m), "ces": lambda: AutoCES(season_length=m),
    }[model]()


def samples(case: dict) -> list[dict]:
    horizon, paths = case["horizon"], case["samples"]
    out = []
    for one in case["series"]:
        target = as_array(one["target"])
        if case["model"] == "chronos":
            import torch
            from chronos import BaseChronosPipeline

            pipeline = BaseChronosPipeline.from_pretrained(case["weights"], device_map="cpu", dtype=torch.float32)
            torch.manual_seed(int(one["seed"]))
            drawn = pipeline.predict(torch.tensor(target), prediction_length=horizon, num_samples=paths)[0].numpy()
        else:
            drawn = statistical(case["model"], case["season_length"]).simulate(h=horizon, n_paths=paths, y=target, seed=int(one["seed"]))
        out.append({"samples": np.asarray(drawn, dtype=np.float64).tolist()})
    return out


def reference(cases: list[dict]) -> list[list[dict]]:
    return [joint(case) if case["kind"] == "joint" else samples(case) for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # the libraries print "Loading weights …"
        result = reference(cases)
    json.dump(result, sys.stdout)
