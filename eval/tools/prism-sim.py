"""Offline design study for prism's statistical combiner (not the service; used to choose the design).

Fits each statistical member with statsforecast exactly as the runtime adapters do (season from the
catalog, the same fallbacks), once for the official test horizon and once per validation origin
(the last `w` observations of the training part held out, w = min(h, n // 3); origin k holds out
k*w), caches the forecasts under /tmp/prism-sim/<dataset>.<member>.<origins>.pkl, and scores
candidate combiners with the harness' MASE and WQL definitions. The forecasts are the adapters' to
the printed digits (the member and prism scores equal the API runs' to 4 decimals).

v2 combiners (`--methods`; `medinv` with shrink 0.5 and 1 origin is prism v2). v3 (`--v3`, `--grid`,
class Study): the member losses over up to `origins` rolling origins, scale-free (÷ Σ|actual| of the
windows), mixed with the mean over the series of the same request (batches of 64 consecutive series,
as eval/run.ts sends them), weights ∝ (min loss / loss)^power, alpha · median + the rest weighted,
levels made monotone around 0.5. src/forecasting/prism.ts is `--v3 2:0.5:8:0.5` (origins 2, pool 0.5, power 8,
median share 0.5).

  runtime/.venv-core/bin/python eval/tools/prism-sim.py m3-yearly,tourism-yearly --origins 3        # builds the cache (v2 table)
  runtime/.venv-core/bin/python eval/tools/prism-sim.py m3-yearly,tourism-yearly --origins 3 --v3 2:0.5:8:0.5,1:0:1:0.5:series:sort
  runtime/.venv-core/bin/python eval/tools/prism-sim.py m3-yearly --origins 3 --grid --grid-only "origins=1,2;power=1,8,inf"
"""

from __future__ import annotations

import argparse
import functools
import os
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "runtime"))

from statsforecast.models import (  # noqa: E402
    AutoCES, AutoETS, AutoTheta, DynamicOptimizedTheta, Naive, RandomWalkWithDrift, SeasonalNaive,
)

DATA = Path(os.environ.get("HORIZON_EVAL_DATA", "/work/shared/datasets"))
LEVELS = [round(0.1 * i, 1) for i in range(1, 10)]
CACHE = Path("/tmp/prism-sim")

# key: (file(s), h, MASE m, runtime season length)
DATASETS = {
    "m3-yearly": ("monash/m3_yearly_dataset.tsf", 6, 1, 1),
    "m3-quarterly": ("monash/m3_quarterly_dataset.tsf", 8, 4, 4),
    "m3-monthly": ("monash/m3_monthly_dataset.tsf", 18, 12, 12),
    "tourism-yearly": ("monash/tourism_yearly_dataset.tsf", 4, 1, 1),
    "tourism-quarterly": ("monash/tourism_quarterly_dataset.tsf", 8, 4, 4),
    "tourism-monthly": ("monash/tourism_monthly_dataset.tsf", 24, 12, 12),
    "m4-hourly": ("m4/Hourly", 48, 24, 24),
    "m4-weekly": ("m4/Weekly", 13, 1, 52),
    # not one of the eight: the one daily set (two seasons, 7 and 365, for mstl), Monash's horizon
    "nn5-daily": ("monash/nn5_daily_dataset_without_missing_values.tsf", 56, 7, 7),
    # and the other weekly set (one season, 52, longer than AutoETS models), Monash's horizon
    "nn5-weekly": ("monash/nn5_weekly_dataset.tsf", 8, 1, 52),
}
FREQ_OF_SEASON = {1: "Y", 4: "Q", 7: "D", 12: "MS", 24: "H", 52: "W"}  # the runtime's freq of each set's season


@functools.lru_cache(maxsize=None)
def load(key: str) -> list[tuple[np.ndarray, np.ndarray]]:
    path, h, _, _ = DATASETS[key]
    if path.startswith("m4/"):
        def wide(p):
            rows = []
            for line in open(DATA / p).read().splitlines()[1:]:
                cells = [c.strip('"') for c in line.strip().split(",")]
                rows.append(np.array([float(c) for c in cells[1:] if c != ""]))
            return rows
        tr, te = wide(path + "-train.csv"), wide(path + "-test.csv")
        return [(a[-2500:], b) for a, b in zip(tr, te)]
    out = []
    data = False
    for line in open(DATA / path, encoding="latin-1").read().splitlines():
        if not data:
            data = line.strip().lower() == "@data"
            continue
        if not line.strip():
            continue
        vals = np.array([float(v) for v in line.split(":")[-1].split(",")])
        out.append((vals[:-h][-2500:], vals[-h:]))
    return out


def make(member: str, n: int, m: int):
    if member == "naive":
        return Naive()
    if member == "seasonal-naive":
        return SeasonalNaive(season_length=m) if n >= m else Naive()
    mm = m if (m <= 1 or n >= 2 * m) else 1
    if member == "auto-ets":
        return AutoETS(season_length=mm) if n >= 7 else Naive()
    if member == "auto-theta":
        return AutoTheta(season_length=mm) if n >= 4 else Naive()
    if member == "auto-ces":
        return AutoCES(season_length=mm) if n >= 4 else Naive()
    # candidates studied as extra members (session 10), not served by the runtime
    if member == "rw-drift":
        return RandomWalkWithDrift() if n >= 2 else Naive()
    if member == "dyn-opt-theta":
        return DynamicOptimizedTheta(season_length=mm) if n >= 4 else Naive()
    if member == "damped-ets":
        return AutoETS(season_length=mm, model="ZZZ", damped=True) if n >= 7 else Naive()
    raise KeyError(member)


def forecast(member: str, y: np.ndarray, h: int, m: int) -> np.ndarray:
    """(len(LEVELS), h) quantiles as the adapter returns them."""
    levels = sorted({round(100 * abs(2 * q - 1), 10) for q in LEVELS if q != 0.5})
    model = make(member, y.size, m)
    try:
        out = model.forecast(y=y, h=h, level=levels)
        rows = []
        for q in LEVELS:
            lv = round(100 * abs(2 * q - 1), 10)
            rows.append(np.asarray(out["mean"] if lv == 0 else out[f"{'lo' if q < 0.5 else 'hi'}-{lv}"], dtype=float))
        rows = np.array(rows)
        if not np.isfinite(rows).all():
            raise FloatingPointError
    except Exception:
        return forecast("naive", y, h, m)
    return np.sort(rows, axis=0)


def window_for(n: int, h: int) -> int:
    w = min(h, n // 3)
    return w if w >= 1 and n - w >= 3 else 0


def member_cache(key: str, member: str, origins: int):
    CACHE.mkdir(exist_ok=True)
    f = CACHE / f"{key}.{member}.{origins}.pkl"
    if f.exists():
        return pickle.loads(f.read_bytes())
    _, h, _, season = DATASETS[key]
    t0 = time.time()
    res = []
    for y, _ in load(key):
        final = forecast(member, y, h, season)
        w = window_for(y.size, h)
        vals = []
        for k in range(1, origins + 1):
            if w and y.size - k * w >= max(3, w):
                vals.append((y[y.size - k * w: y.size - (k - 1) * w], forecast(member, y[: y.size - k * w], w, season)))
        res.append((final, vals))
    dt = time.time() - t0
    f.write_bytes(pickle.dumps((res, dt)))
    return res, dt


def _forward_chunk(args):
    """Runs in a pool process: the runtime's own predict_series with the backtest prism v4 asks for
    (the model fitted once, statsforecast's forward() at each origin), as the API computes it; each series
    cut to its last `context` observations (prism's max_context cuts them through the API)."""
    key, member, origins, indices, context, refit = args
    from horizon_runtime.adapters.statistical import FitSpec, predict_series
    from horizon_runtime.catalog import load_catalog

    catalog = load_catalog()
    _, h, _, season = DATASETS[key]
    freq = FREQ_OF_SEASON[season]
    seasons = tuple(catalog.mstl_season_lengths.get(freq, (season,)))
    spec = FitSpec(catalog.models[member].adapter, member, h, tuple(LEVELS), season, seasons)
    data = load(key)
    out = []
    for i in indices:
        y = data[i][0][-context:]
        w = window_for(y.size, h)
        k = 0
        while w and k < origins and y.size - (k + 1) * w >= max(3, w):
            k += 1
        if refit:  # each window from a fit of its own on the history before it (the API's 'refit' backtest)
            p = predict_series(spec, y)
            window_spec = FitSpec(spec.adapter, spec.model_id, w, spec.quantiles, spec.season_length, spec.seasons) if k else None
            backtest = [(None, predict_series(window_spec, y[: y.size - j * w]).quantiles) for j in range(1, k + 1)]
        else:
            p = predict_series(spec, y, (w, k, w) if k else None)
            backtest = p.backtest
        final = np.vstack([p.quantiles])  # (L, h): the quantile rows, LEVELS ascending (0.5 is the mean)
        vals = [(y[y.size - j * w: y.size - (j - 1) * w], q) for j, (_, q) in enumerate(backtest, start=1)]
        out.append((final, vals))
    return out


def member_cache_forward(key: str, member: str, origins: int, processes: int = 2, context: int = 2500,
                         only: list[int] | None = None, refit: bool = False):
    """member_cache with refit-free validation forecasts (prism v4's default): one fit per series. With a
    context below load()'s 2,500 (prism's max_context, 2,016: the API cuts prism's series to it), the series
    longer than it are forecast again from their last `context` observations (the others are the same).
    `only`: forecast these series alone (a partial cache, '.part'; the other entries are None)."""
    CACHE.mkdir(exist_ok=True)
    f = CACHE / f"{key}.{member}.{origins}.{'rfit' if refit else 'fwd'}{'' if context >= 2500 else f'.ctx{context}'}{'' if only is None else '.part'}.pkl"
    if f.exists():
        res, dt = pickle.loads(f.read_bytes())
        if only is None or all(res[i] is not None for i in only):
            return res, dt
    import multiprocessing

    t0 = time.time()
    data = load(key)
    full = member_cache_forward(key, member, origins, processes, only=only, refit=refit) if context < 2500 else None
    todo = [i for i, (y, _) in enumerate(data) if (full is None or y.size > context) and (only is None or i in only)]
    chunks = [todo[i:i + 8] for i in range(0, len(todo), 8)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        parts = pool.map(_forward_chunk, [(key, member, origins, c, context, refit) for c in chunks], chunksize=1)
    done = dict(zip(todo, [r for part in parts for r in part]))
    res = [done[i] if i in done else full[0][i] if full else None for i in range(len(data))]
    dt = time.time() - t0 + (full[1] if full else 0)
    f.write_bytes(pickle.dumps((res, dt)))
    return res, dt


def pinball(y, f, q):
    d = y - f
    return np.sum(np.maximum(q * d, (q - 1) * d))


def score(key: str, preds: list[np.ndarray]) -> tuple[float, float]:
    _, h, m, _ = DATASETS[key]
    data = load(key)
    mases, num, den = [], np.zeros(len(LEVELS)), 0.0
    for (y, test), p in zip(data, preds):
        scale = np.mean(np.abs(y[m:] - y[:-m]))
        mases.append(np.mean(np.abs(test - p[4])) / scale)
        for i, q in enumerate(LEVELS):
            num[i] += 2 * pinball(test, p[i], q)
        den += np.abs(test).sum()
    return float(np.mean(mases)), float(np.mean(num / den))


def combine(method: str, finals: list[np.ndarray], vals: list[list], shrink: float = 0.7) -> np.ndarray:
    K = len(finals)
    F = np.stack(finals)  # K, L, h
    if method == "mean":
        return F.mean(0)
    if method == "median":
        return np.median(F, 0)
    # losses per member per level, pooled over validation origins
    if not vals[0]:
        return F.mean(0)
    loss = np.zeros((K, len(LEVELS)))
    scale = 0.0
    for k in range(K):
        for (actual, fc) in vals[k]:
            for i, q in enumerate(LEVELS):
                loss[k, i] += pinball(actual, fc[i], q)
    if method.startswith("inv"):
        power = float(method[3:] or 1)
        out = np.empty_like(F[0])
        for i in range(len(LEVELS)):
            l = np.maximum(loss[:, i], loss[:, i].max() * 1e-6 + 1e-12)
            r = 1 / l ** power
            w = (1 - shrink) * r / r.sum() + shrink / K
            out[i] = np.tensordot(w, F[:, i], 1)
        return out
    if method == "medmean":
        return 0.5 * np.median(F, 0) + 0.5 * F.mean(0)
    if method == "medinv":  # median prior, shrink share; the rest inverse-loss weights (power 1)
        med = np.median(F, 0)
        out = np.empty_like(F[0])
        for i in range(len(LEVELS)):
            l = np.maximum(loss[:, i], loss[:, i].max() * 1e-6 + 1e-12)
            r = 1 / l
            out[i] = shrink * med[i] + (1 - shrink) * np.tensordot(r / r.sum(), F[:, i], 1)
        return out
    if method == "select":  # best member only when clearly better (all-level pooled loss)
        tot = loss.sum(1)
        best = int(np.argmin(tot))
        if tot[best] < shrink * np.median(tot):
            return F[best]
        return F.mean(0)
    if method == "trim":  # drop the worst member (pooled), mean of the rest
        tot = loss.sum(1)
        keep = [k for k in range(K) if k != int(np.argmax(tot))] if K > 2 else list(range(K))
        return F[keep].mean(0)
    raise KeyError(method)


# ---- prism v3: evidence from several rolling origins, pooled across the series of a request ----

def batches_of(key: str, batch: int, max_points: int = 200_000, context: int = 2500) -> list[list[int]]:
    """The harness' requests (eval/run.ts `batches`): consecutive series, ≤ batch series, ≤ max_points observations."""
    out, cur, pts = [], [], 0
    for i, (y, _) in enumerate(load(key)):
        n = min(y.size, context)
        if cur and (len(cur) >= batch or pts + n > max_points):
            out.append(cur)
            cur, pts = [], 0
        cur.append(i)
        pts += n
    if cur:
        out.append(cur)
    return out


Q = np.array(LEVELS)[:, None]  # L, 1


def spread_grid(lo: float = 1 / 3, hi: float = 3.0) -> np.ndarray:
    """The 47 spread factors from lo to hi, evenly spaced in log (prism.ts's SPREAD_FACTORS with ⅓-3)."""
    return lo * (hi / lo) ** (np.arange(47) / 46)


def least_loss_factor(grid: np.ndarray, loss: np.ndarray) -> float:
    """The grid's factor of least loss, ties to the one nearest 1 (as prism.ts's spreadFactor)."""
    near_one = np.argsort(np.abs(np.log(grid)), kind="stable")
    return float(grid[near_one[np.argmin(loss[near_one])]])


def window_pinball(actual: np.ndarray, fc: np.ndarray) -> np.ndarray:
    """(L,) pinball loss summed over the window at each level."""
    d = actual[None, :] - fc
    return np.maximum(Q * d, (Q - 1) * d).sum(1)


class Study:
    """A dataset's cached member forecasts as arrays, for fast scoring of many designs."""

    def __init__(self, key: str, members: list[str], cached: dict, max_origins: int, combos: tuple = ()):
        """combos: candidate combinations scored beside the members ('median', 'mean' of the members)."""
        self.key, self.members = key, members
        _, h, m, _ = DATASETS[key]
        data = load(key)
        n = len(data)
        self.K = len(members)

        def candidates(fcs: list[np.ndarray]) -> list[np.ndarray]:
            extra = {"median": lambda: np.median(fcs, 0), "mean": lambda: np.mean(fcs, 0)}
            return list(fcs) + [extra[c]() for c in combos]

        self.F = np.stack([np.stack(candidates([cached[mb][0][s][0] for mb in members])) for s in range(n)])  # n, C, L, h
        self.test = np.stack([t for _, t in data])  # n, h
        self.mscale = np.array([np.mean(np.abs(y[m:] - y[:-m])) for y, _ in data])
        self.wden = np.abs(self.test).sum()
        # the history's mean |first difference| (MASE-like scale of a series, no season needed)
        self.dscale = np.array([max(float(np.mean(np.abs(np.diff(y)))), 1e-9) if y.size > 1 else 1.0 for y, _ in data])
        # per number of origins o: each series' pinball loss summed over its first min(o, available)
        # windows (n, K, L; NaN: no window) and the Σ|actual| of those windows (n,)
        self.pin, self.absum, self.wlen = {}, {}, {}
        for o in range(1, max_origins + 1):
            pin = np.full((n, self.F.shape[1], len(LEVELS)), np.nan)
            absum, wlen = np.zeros(n), np.zeros(n)
            for s in range(n):
                vals = [cached[mb][0][s][1][:o] for mb in members]
                used = min(len(v) for v in vals)
                if used:
                    pin[s] = 0
                    for j in range(used):
                        actual = vals[0][j][0]
                        for k, fc in enumerate(candidates([v[j][1] for v in vals])):
                            pin[s, k] += window_pinball(actual, fc)
                        absum[s] += np.abs(actual).sum()
                        wlen[s] += actual.size
            self.pin[o], self.absum[o], self.wlen[o] = pin, np.maximum(absum, 1e-9), np.maximum(wlen, 1)

    def series_scores(self, P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """P: (n, L, h). Per series (n,): the 0.5 level's MASE (not finite where the scale is 0) and 2 × its pinball
        loss summed over the horizon, averaged over the levels (its share of WQL's numerator)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            mase = np.abs(self.test - P[:, LEVELS.index(0.5)]).mean(1) / self.mscale
        d = self.test[:, None, :] - P
        return mase, 2 * np.maximum(Q[None] * d, (Q[None] - 1) * d).sum(2).mean(1)

    def score(self, P: np.ndarray) -> tuple[float, float]:
        """P: (n, L, h). MASE of the 0.5 level (mean over series, finite scales) and WQL, as eval/run.ts."""
        mase, pin = self.series_scores(P)
        return float(np.mean(mase[np.isfinite(mase)])), float(pin.sum() / self.wden)

    def v3(self, origins: int, batch: int, alpha: float, power: float, pool: float, pooling: str = "series",
           order: str = "anchor") -> np.ndarray:
        """prism v3, (n, L, h): per level, alpha · median + (1 − alpha) · Σ_k w_k · member_k with
        w_k ∝ (min loss / loss_k)^power (power inf: the best member); loss = pool · the request's pooled
        loss + (1 − pool) · the series' own, each a scale-free pinball loss (÷ Σ|actual| of the windows)
        over up to `origins` rolling origins. Pooled: 'series' = mean over the request's series of
        their own, 'total' = Σ pinball / Σ|actual| over the request (a WQL). Equal weights where
        nothing was learned. Monotone afterwards: 'sort' sorts the levels at every step (v2), 'anchor'
        keeps the 0.5 level and pushes the others outwards from it (running max above, min below)."""
        F = self.F
        if pooling == "scaled":  # ÷ the window length × the history's mean |difference|, then as 'series'
            own = self.pin[origins] / (self.wlen[origins] * self.dscale)[:, None, None]
            pooling = "series"
        else:
            own = self.pin[origins] / self.absum[origins][:, None, None]
        n, K, L, _ = F.shape
        mix = np.full((n, K, L), np.nan)
        for b in batches_of(self.key, batch) if batch else [[i] for i in range(n)]:
            ob = own[b]
            ok = ~np.isnan(ob).any((1, 2))
            if not ok.any():
                continue
            if pooling == "series":
                pooled = ob[ok].mean(0)  # K, L
            else:
                idx = np.array(b)[ok]
                pooled = self.pin[origins][idx].sum(0) / self.absum[origins][idx].sum()
            for j, s in enumerate(b):
                mix[s] = pool * pooled + (1 - pool) * ob[j] if ok[j] else pooled
        w = np.full((n, K, L), 1 / K)
        has = ~np.isnan(mix).any((1, 2))
        m = np.maximum(mix[has], mix[has].max(1, keepdims=True) * 1e-6 + 1e-12)
        if np.ndim(power) == 0 and np.isinf(power):
            r = (m == m.min(1, keepdims=True)).astype(float)
        else:  # power: a number, or one per level (L,)
            r = (m.min(1, keepdims=True) / m) ** np.asarray(power, dtype=float)
        w[has] = r / r.sum(1, keepdims=True)
        a = np.asarray(alpha, dtype=float).reshape(-1, 1) if np.ndim(alpha) else alpha  # a share per level: (L, 1)
        out = a * np.median(F[:, : self.K], 1) + (1 - a) * np.einsum("nkl,nklh->nlh", w, F)
        return anchored(out) if order == "anchor" else np.sort(out, axis=1)


def anchored(out: np.ndarray) -> np.ndarray:
    """(n, L, h) levels made monotone without moving the 0.5 level: above it a running max, below a running min."""
    out = out.copy()
    mid = LEVELS.index(0.5)
    for i in range(mid + 1, len(LEVELS)):
        out[:, i] = np.maximum(out[:, i], out[:, i - 1])
    for i in range(mid - 1, -1, -1):
        out[:, i] = np.minimum(out[:, i], out[:, i + 1])
    return out


GRID = dict(origins=(1, 2, 3), pool=(0.0, 0.5, 0.75, 1.0), power=(1, 4, 16, 64, float("inf")), alpha=(0.0, 0.25, 0.5),
            pooling=("series", "total", "scaled"), order=("sort", "anchor"))


def v3_grid(study: Study, max_origins: int, batch: int) -> list[tuple]:
    rows = []
    for origins in [o for o in GRID["origins"] if o <= max_origins]:
        for pool in GRID["pool"]:
            for power in GRID["power"]:
                for alpha in GRID["alpha"]:
                    for pooling in GRID["pooling"] if pool else ("series",):
                        for order in GRID["order"]:
                            rows.append((origins, pool, power, alpha, pooling, order,
                                         *study.score(study.v3(origins, batch, alpha, power, pool, pooling, order))))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets")
    ap.add_argument("--members", default="auto-ets,auto-theta,seasonal-naive")  # auto-ces, naive also known
    ap.add_argument("--origins", type=int, default=2)  # validation windows cached (methods try 1 and all)
    ap.add_argument("--methods", default="mean,median,medinv,inv1,inv2,trim,select")  # medinv = prism v2
    ap.add_argument("--grid", action="store_true", help="v3: every (origins, pool, power, alpha) on the cache")
    ap.add_argument("--v3", default="", help="v3 design(s) 'origins:pool:power:alpha[:series|total[:anchor|sort]],...', scored per dataset")
    ap.add_argument("--grid-only", default="", help="restrict the grid, e.g. 'origins=2,3;pool=1;order=anchor'")
    ap.add_argument("--combos", default="", help="v3: candidate combinations beside the members, e.g. 'median,mean'")
    ap.add_argument("--batch", type=int, default=64, help="series pooled per request, as eval/run.ts sends them")
    ap.add_argument("--backtest", default="refit", choices=("refit", "forward"),
                    help="validation forecasts: refit at every origin (v3), or fit once + forward() (v4, the runtime's own code)")
    a = ap.parse_args()
    members = a.members.split(",")
    for part in filter(None, a.grid_only.split(";")):
        name, values = part.split("=")
        GRID[name] = tuple(v if name in ("pooling", "order", "combos") else float(v) for v in values.split(","))
    for key in a.datasets.split(","):
        cache = member_cache_forward if a.backtest == "forward" else member_cache
        cached = {m: cache(key, m, a.origins) for m in members}
        print(f"## {key}  (member fit time s: {', '.join(f'{m} {cached[m][1]:.1f}' for m in members)})", flush=True)
        for m in members:
            mase, wql = score(key, [r[0] for r in cached[m][0]])
            print(f"  {m:16s} MASE {mase:.4f} WQL {wql:.4f}")
        n = len(cached[members[0]][0])
        if a.grid or a.v3:
            study = Study(key, members, cached, a.origins, tuple(filter(None, a.combos.split(","))))
            for k, m in enumerate(members):  # the arrays reproduce score()
                print(f"  {m:16s} MASE %.4f WQL %.4f (arrays)" % study.score(study.F[:, k]))
        if a.grid:
            for row in v3_grid(study, a.origins, a.batch):
                print("  v3 origins=%d pool=%.2f power=%g alpha=%.2f pooling=%s order=%s: MASE %.4f WQL %.4f" % row, flush=True)
            continue
        if a.v3:
            for d in a.v3.split(","):
                o, pool, power, alpha, pooling, order = (d.split(":") + ["series", "anchor"][len(d.split(":")) - 4:])[:6]
                mase, wql = study.score(study.v3(int(o), a.batch, float(alpha), float(power), float(pool), pooling, order))
                print(f"  v3 {d}: MASE {mase:.4f} WQL {wql:.4f}", flush=True)
            continue
        for method in [m for m in a.methods.split(",") if m]:
            for shrink in ([0.3, 0.5, 0.7] if method.startswith("inv") or method == "medinv" else [0.8] if method == "select" else [None]):
                for origins in ([1, a.origins] if method not in ("mean", "median", "medmean") else [0]):
                    preds = [combine(method, [cached[m][0][s][0] for m in members],
                                     [cached[m][0][s][1][:origins] for m in members], shrink if shrink is not None else 0.7)
                             for s in range(n)]
                    mase, wql = score(key, preds)
                    print(f"  {method:6s} shrink={shrink} origins={origins}: MASE {mase:.4f} WQL {wql:.4f}")


if __name__ == "__main__":
    main()
