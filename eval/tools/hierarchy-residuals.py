"""Why a reconciliation helps one base model and hurts another (issue 39, eval/README.md "Hierarchies"): offline,
the same hierarchy, models and library as eval/hierarchy.ts, with the residuals MinTrace weighs by looked at.

    runtime/.venv-core/bin/python eval/tools/hierarchy-residuals.py eval/results/hierarchy-nn5-daily-nodes.csv

The grouping is read back from the eval's nodes CSV (its bottom ids are "group/series"); the data from
shared/datasets (NN5 daily, last 56 values held out). Per model (AutoETS, AutoTheta with season 7, statsforecast as
the worker calls it, fitted=True), it prints:
  - the reconciled MASE per level of MinTrace with the model's in-sample one-step residuals (what the API does; the
    numbers equal the eval's), and with the errors of a holdout of the training part instead (the model fitted on
    all but the last 56 training values, its 56-step forecast's errors on them: errors of the kind the test scores);
  - per level, the in-sample residuals' RMS ÷ the test errors' RMS (1 = the residuals are as large as the errors
    the forecasts make), and the mean correlation of the bottom series' in-sample residuals vs their test errors;
  - for AutoTheta, the same with its in-sample fitted values corrected (theta_fitted_corrected: a slip in
    statsforecast 2.1.1's theta.py for additive seasonal decompositions);
  - the shrinkage intensity (lambda) mint_shrink uses and, per level, the weight of the bottom's own forecasts in the
    reconciled bottom (the diagonal of P restricted to the bottom columns).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

H = 56
M = 1  # MASE m, as eval/datasets.ts uses for nn5-daily
DATA = Path("/work/shared/datasets/monash/nn5_daily_dataset_without_missing_values.tsf")


def load_bottom() -> dict[str, np.ndarray]:
    out = {}
    data = False
    for line in DATA.read_text(encoding="latin-1").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower().startswith("@data"):
            data = True
            continue
        if data:
            parts = line.split(":")
            out[parts[0]] = np.asarray([float(v) for v in parts[-1].split(",")])
    return out


def hierarchy(nodes_csv: str):
    """Node ids (total, groups, bottom in input order), S, and the level of each node."""
    with open(nodes_csv) as f:
        rows = list(csv.DictReader(f))
    first = (rows[0]["model"], rows[0]["reconcile"])
    rows = [r for r in rows if (r["model"], r["reconcile"]) == first]
    ids = [r["node"] for r in rows]
    levels = [r["level"] for r in rows]
    bottom = [i for i, lev in zip(ids, levels) if lev == "bottom"]
    S = np.zeros((len(ids), len(bottom)))
    for r, node in enumerate(ids):
        for c, b in enumerate(bottom):
            S[r, c] = node == "total" or node == b or b.startswith(node + "/")
    return ids, np.asarray(levels), S, bottom


def mase(actual: np.ndarray, forecast: np.ndarray, train: np.ndarray) -> np.ndarray:
    scale = np.abs(train[:, M:] - train[:, :-M]).mean(axis=1)
    return np.abs(actual - forecast).mean(axis=1) / scale


def fit(model, y: np.ndarray, h: int, fitted: bool):
    from statsforecast.models import AutoETS, AutoTheta  # noqa: F401  (the classes passed in)

    means, fits = [], []
    for row in y:
        out = model().forecast(y=row, h=h, fitted=fitted)
        means.append(out["mean"])
        if fitted:
            fits.append(out["fitted"])
    return np.vstack(means), (np.vstack(fits) if fitted else None)


def theta_fitted_corrected(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """AutoTheta(7)'s in-sample fitted values with statsforecast 2.1.1's additive-decomposition slip undone, and per node
    whether it decomposed additively. theta.py's auto_theta ends with `residuals + y_decompose` for an additive
    decomposition: the residuals of the seasonally adjusted fit (already y - fitted) get the seasonal component added,
    so its `fitted` (y - residuals) is the seasonally ADJUSTED fit, without the season (a multiplicative decomposition,
    `residuals * y_decompose`, is right). Here the seasonal component is taken off again."""
    from statsforecast.models import AutoTheta
    from statsmodels.tsa.seasonal import seasonal_decompose

    fits, additive = [], []
    for row in y:
        model = AutoTheta(season_length=7).fit(row).model_
        res = np.asarray(model["residuals"], dtype=np.float64)
        add = bool(model.get("decompose")) and model.get("decomposition_type") == "additive"
        if add:
            res = res - seasonal_decompose(row, model="additive", period=7).seasonal
        fits.append(row - res)
        additive.append(add)
    return np.vstack(fits), np.asarray(additive)


def reconcile(S, y_hat, y_ins, y_hat_ins, method="mint_shrink"):
    from hierarchicalforecast.methods import MinTrace

    mt = MinTrace(method=method)
    P, W = mt._get_PW_matrices(S=S, y_hat=y_hat, y_insample=y_ins, y_hat_insample=y_hat_ins)
    return S @ P @ y_hat, P, W


def shrinkage_lambda(residuals: np.ndarray) -> float:
    """Schäfer-Strimmer's lambda for the residuals (nodes, steps), as hierarchicalforecast computes it (no NaNs)."""
    x = residuals[:, np.isfinite(residuals).all(axis=0)]
    n = x.shape[1]
    xs = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, ddof=1, keepdims=True)
    w = np.einsum("it,jt->ijt", xs, xs)
    r = w.mean(axis=2) * n / (n - 1)
    var_r = n / ((n - 1) ** 3) * ((w - w.mean(axis=2, keepdims=True)) ** 2).sum(axis=2)
    off = ~np.eye(x.shape[0], dtype=bool)
    return float(np.clip(var_r[off].sum() / (r[off] ** 2).sum(), 0, 1))


def main() -> None:
    from statsforecast.models import AutoETS, AutoTheta

    ids, levels, S, bottom = hierarchy(sys.argv[1])
    series = load_bottom()
    full = np.vstack([series[b.split("/", 1)[1]] for b in bottom])
    nodes_full = S @ full
    train, test = nodes_full[:, :-H], nodes_full[:, -H:]
    tiers = ["total", "group", "bottom"]
    for name, model in (("auto-ets", lambda: AutoETS(season_length=7)), ("auto-theta", lambda: AutoTheta(season_length=7))):
        y_hat, fitted = fit(model, train, H, True)
        # a holdout inside the training part: fitted on all but its last H values, the H-step forecast's errors
        hold_hat, _ = fit(model, train[:, :-H], H, False)
        base = mase(test, y_hat, train)
        insample, P, W = reconcile(S, y_hat, train, fitted)
        holdout, _, _ = reconcile(S, y_hat, train[:, -H:], hold_hat)
        print(f"\n{name}: MASE per level — base / mint_shrink on in-sample residuals (the API) / mint_shrink on holdout errors")
        for tier in tiers:
            sel = levels == tier
            print(f"  {tier:6s} {base[sel].mean():.4f} / {mase(test, insample, train)[sel].mean():.4f} / {mase(test, holdout, train)[sel].mean():.4f}")
        mean3 = lambda f: np.mean([mase(test, f, train)[levels == t].mean() for t in tiers])  # noqa: E731
        print(f"  mean   {np.mean([base[levels == t].mean() for t in tiers]):.4f} / {mean3(insample):.4f} / {mean3(holdout):.4f}")
        res = train - fitted
        err = test - y_hat
        hold_err = train[:, -H:] - hold_hat
        print("  per level: RMS in-sample residual ÷ RMS test error; RMS holdout error ÷ RMS test error")
        for tier in tiers:
            sel = levels == tier
            ratio = np.sqrt(np.nanmean(res[sel] ** 2, axis=1)) / np.sqrt(np.mean(err[sel] ** 2, axis=1))
            hratio = np.sqrt(np.mean(hold_err[sel] ** 2, axis=1)) / np.sqrt(np.mean(err[sel] ** 2, axis=1))
            print(f"  {tier:6s} median {np.median(ratio):.3f} (range {ratio.min():.3f}–{ratio.max():.3f}); holdout {np.median(hratio):.3f}")
        finite = res[:, np.isfinite(res).all(axis=0)]
        lag1 = [np.corrcoef(r[:-1], r[1:])[0, 1] for r in finite]
        print(f"  in-sample residuals: lag-1 autocorrelation median {np.median(lag1):.3f}; lag-7 "
              f"{np.median([np.corrcoef(r[:-7], r[7:])[0, 1] for r in finite]):.3f}; NaN steps {int((~np.isfinite(res)).any(axis=0).sum())}")
        b = levels == "bottom"
        c_in = np.corrcoef(finite[b])[np.triu_indices(int(b.sum()), 1)]
        c_test = np.corrcoef(err[b])[np.triu_indices(int(b.sum()), 1)]
        print(f"  bottom pairs' residual correlation: in-sample mean {c_in.mean():.3f}, test errors mean {c_test.mean():.3f}")
        if name == "auto-theta":
            corrected, additive = theta_fitted_corrected(train)
            fixed, _, _ = reconcile(S, y_hat, train, corrected)
            print("  additively decomposed nodes per level: "
                  + ", ".join(f"{t} {int(additive[levels == t].sum())}/{int((levels == t).sum())}" for t in tiers))
            print("  MASE per level with the corrected in-sample residuals — base / mint_shrink / wls_var:")
            wls, _, _ = reconcile(S, y_hat, train, corrected, "wls_var")
            for tier in tiers:
                sel = levels == tier
                print(f"  {tier:6s} {base[sel].mean():.4f} / {mase(test, fixed, train)[sel].mean():.4f} / {mase(test, wls, train)[sel].mean():.4f}")
            print(f"  mean   {np.mean([base[levels == t].mean() for t in tiers]):.4f} / {mean3(fixed):.4f} / {mean3(wls):.4f}")
            cres = train - corrected
            print(f"  corrected residuals: lag-7 autocorrelation median "
                  f"{np.median([np.corrcoef(r[:-7], r[7:])[0, 1] for r in cres]):.3f}; RMS ÷ test RMS, bottom median "
                  f"{np.median(np.sqrt(np.mean(cres[b] ** 2, axis=1)) / np.sqrt(np.mean(err[b] ** 2, axis=1))):.3f}")
        print(f"  mint_shrink lambda {shrinkage_lambda(res):.3f}; P's bottom diagonal (weight of a series' own forecast) "
              f"median {np.median(np.diag(P[:, -S.shape[1]:])):.3f}")


if __name__ == "__main__":
    main()
