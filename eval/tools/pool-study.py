"""Issue 35 design study, offline: prism over the pool sized by cost (src/forecasting/model-pool.ts), on the refit-free
caches of prism-sim.py --backtest forward (the runtime's own predict_series: the API's numbers).

Per set, the pool is what the service picks for the set's series: the base three (auto-ets, auto-theta, seasonal-naive)
and every other served statistical model but naive whose mean estimated cost per series (catalog `cost`, as
src/forecasting/cost.ts computes it on the training parts at context 2500) fits the budget. Combiners scored on it,
each relative to the best single model of the WHOLE served set on that set (not only the pool's), MASE and WQL:

  v3 O:S:P:A[:B]    prism's combiner (origins O, pool share S, weight power P, median share A; v4 = 2:0.5:8:0.5;
                    with B: median share A at the 0.5 level, B at the others)
  top K:S[:mean|median|v3]
                    per request (batch of 64) and level, the K members with the lowest loss (pool share S of the
                    request's mean, the rest the series' own), then their equal mean (or median, or v4 over them)
  trim O:S:P:A:T    v3 whose median part is over the T members of lowest loss at each level (T = K: v3 itself)
  dom O:S:P:A:R:A2  v3 with median share A, or A2 at a series' level where one member dominates (median member loss ÷
                    lowest ≥ R)
  cal O:S:P:A:M:R   v3, then per request its spread around the 0.5 level × the factor (M = sym: one; two: one per tail)
                    that minimises the same blend's pinball loss on the validation windows; log factor × (1 − R); [:LO:HI]
                    the factors searched (0.3-3)
  split O:S:P:A:X[:A2]
                    the 0.5 level as v3; the other levels' losses pooled as X ('total': Σ pinball ÷ Σ|actual| of the
                    request, WQL's weighting; 'scaled'), median share A2 there
  lvl O:S:P:A:W     v3 whose weights at the levels other than 0.5 (W = tails) or at all (W = all) come from the loss
                    summed over the levels
  rob O:S:P:A:HOW   v3 with the request's loss pooled robustly (robust_pool: mean, clip:C, gm, median)
  ctr O:S:P:A       v3's 0.5 level plus the members' spreads around their own 0.5 level, blended with the same weights
  freq O:S:P:A:S2:P2:A2
                    v3 O:S:P:A, or v3 O:S2:P2:A2 at H, D and W (MULTI_SEASON_FREQS: several seasons, or one longer than
                    ETS's 24, where auto adds mstl)
  v3p O:S:P:P2:A    v3 with weight power P at the 0.5 level and P2 at the others
  fcal O:S:P:A:S2:P2:A2:M:R
                    freq's settings (S2:P2:A2 at H, D and W), then cal's spread factor (mode M, shrink R) per request;
                    [:LO:HI] the factors searched (default ⅓-3, prism.ts's SPREAD_FACTORS)
  nest O:S/P/A:…    prism whose (pool share, power, median share) is picked per request and level group (0.5; the others)
                    from the menu by the newest validation window, the item's weights learned on the windows before it
  shrink L:P        weights = L · equal + (1 − L) · inverse-loss^P (pool ½, 2 origins), no median part
  prior O:S:P:A[:self]
                    v3 whose median part is a fixed mix per level learned on the other set of the same frequency
                    (SIBLING: its oracle per level, the 0.5 level by MASE, the others by WQL; leave one set out); v3
                    itself on a set without a sibling; `self`: the set's own mix (a bound, not a design)
  oracle            the best fixed convex weights on the TEST split (0.1 grid over the 4 best single models of the
                    pool by that metric): a bound for any one-set-of-weights combiner, not a design; with it the
                    oracle per level: the 0.5 level's mix by MASE, the other levels' by WQL (prism's weights are per level);
                    and auto's: one model per request, the lowest test rel MASE + rel WQL (auto_oracle)
  --reference ces   score served models outside the pool (fit only) for the best-single reference
  --refit-members   these members' (or all) validation windows refitted per window (prism-sim's .rfit caches)

  runtime/.venv-core/bin/python eval/tools/prism-sim.py <sets> --origins 4 --backtest forward --members <all served> --methods ''   # caches
  runtime/.venv-core/bin/python eval/tools/pool-study.py m3-yearly,tourism-yearly,m3-quarterly,tourism-quarterly [--budget 2000] [--oracle]
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import sys
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location("prism_sim", Path(__file__).with_name("prism-sim.py"))
ps = importlib.util.module_from_spec(spec)
sys.modules["prism_sim"] = ps  # its pool workers' functions are pickled by module name
spec.loader.exec_module(ps)

ROOT = Path(__file__).resolve().parents[2]
BASE = ["auto-ets", "auto-theta", "seasonal-naive"]
SERVED = ["auto-ets", "auto-theta", "seasonal-naive", "damped-ets", "dyn-opt-theta", "mstl", "auto-arima"]  # ces, naive: never in a pool (model-pool.ts)
# the frequencies whose seasons most members cannot model (several seasons, or one longer than ETS's 24): where
# src/forecasting/auto.ts adds mstl to auto's candidates
MULTI_SEASON_FREQS = ("H", "D", "W")


def multi_season(key: str) -> bool:
    return ps.FREQ_OF_SEASON[ps.DATASETS[key][3]] in MULTI_SEASON_FREQS


DEFAULT_DESIGNS = ("v3 2:0.5:8:0.5,v3 2:1:8:0.5,v3 2:0.5:4:0.5,v3 2:0.5:8:0.25,v3 2:0.5:8:0,v3 4:0.5:8:0.5,v3 2:0.5:16:0.5,"
                   "top 2:1,top 3:1,top 4:1,top 3:0.5,top 3:1:median,top 4:1:median,top 3:1:v3,top 4:1:v3,top 5:1:v3,"
                   "shrink 0.3:8,shrink 0.5:8,shrink 0.5:2,auto 2")


def estimates(key: str, batch: list[int], catalog: dict, context: int) -> dict:
    """Each served model's mean estimated ms per series on one request (series-cost.ts: the observed history, cut to
    the request's context and the model's max_context, × the catalog cost, seasons counted; no backtest)."""
    _, _, _, season = ps.DATASETS[key]
    models = {m["id"]: m for m in catalog["models"] if m.get("cost")}
    data = ps.load(key)
    out = {}
    for m in SERVED:
        cost, cap = models[m]["cost"], models[m]["sizes"][models[m]["default_size"]]["max_context"]
        ns = [min(data[i][0].size, context, cap) for i in batch]
        out[m] = float(np.mean([cost["ms_per_series"] + cost["us_per_point"] * n / 1000 * max(1, season / 12) for n in ns]))
    return out


def pools_of(key: str, budget: float, catalog: dict, batch: int, context: int) -> list[tuple[tuple, list[int], dict]]:
    """The service's pool for each request of this set (model-pool.ts: the mean estimate per series OF THE REQUEST, so
    requests of one set may get different pools): [(pool, the requests' series, the estimates of its first request)]."""
    _, _, _, season = ps.DATASETS[key]
    out: dict[tuple, tuple[list[int], dict]] = {}
    for b in ps.batches_of(key, batch):
        est = estimates(key, b, catalog, context)
        # mstl without a season longer than 1 is auto-ets (the adapter's fallback): a second vote for the same forecast
        pool = tuple(m for m in SERVED if m in BASE or (est[m] <= budget and not (m == "mstl" and season <= 1)))
        out.setdefault(pool, ([], est))[0].extend(b)
    return [(p, idx, est) for p, (idx, est) in out.items()]


def _reference_chunk(args):
    key, member, indices = args
    from horizon_runtime.adapters.statistical import FitSpec, predict_series
    _, h, _, season = ps.DATASETS[key]
    spec_ = FitSpec(member, member, h, tuple(ps.LEVELS), season, (season,))
    data = ps.load(key)
    return [predict_series(spec_, data[i][0]).quantiles for i in indices]


def reference(key: str, member: str, processes: int = 2) -> list:
    """A served model's own forecasts (fit only, no windows: its single-model score), the runtime's predict_series;
    cached under /tmp/pool35/. For the best-single reference where the model is not in the pool (ces, naive)."""
    import multiprocessing
    import pickle
    import time
    f = Path("/tmp/pool35") / f"ref.{key}.{member}.pkl"
    if f.exists():
        return pickle.loads(f.read_bytes())
    t0 = time.time()
    n = len(ps.load(key))
    chunks = [list(range(i, min(i + 8, n))) for i in range(0, n, 8)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        out = [q for part in pool.map(_reference_chunk, [(key, member, c) for c in chunks], chunksize=1) for q in part]
    print(f"  ({member} alone on {key}: {time.time() - t0:.0f} s, {processes} processes)", flush=True)
    f.parent.mkdir(exist_ok=True)
    f.write_bytes(pickle.dumps(out))
    return out


def losses(st: ps.Study, origins: int) -> np.ndarray:
    """(n, K, L) scale-free pinball losses over up to `origins` windows (NaN: none)."""
    return st.pin[origins] / st.absum[origins][:, None, None]


def robust_pool(ob: np.ndarray, how: str) -> np.ndarray:
    """(K, L) the request's pooled loss from its series' (m, K, L) scale-free losses: 'mean' (prism's); 'clip:C' the mean
    after each series' loss is capped at C × that series' median member loss (one member's blown-up interval on one
    series cannot decide the request); 'gm' the geometric mean over the series of each loss ÷ the series' median member
    loss (relative losses, as the M competitions average relative errors); 'median' the median over the series."""
    if how == "mean":
        return ob.mean(0)
    med = np.median(ob, 1, keepdims=True)
    if how.startswith("clip"):
        return np.minimum(ob, float(how.split(":")[1]) * med).mean(0)
    if how == "gm":
        return np.exp(np.log(np.maximum(ob, 1e-12) / np.maximum(med, 1e-12)).mean(0))
    return np.median(ob, 0)


def mixed(st: ps.Study, origins: int, share: float, batch: int, how: str = "mean") -> np.ndarray:
    """(n, K, L) share · the request's pooled loss (robust_pool) + (1 − share) · the series' own (the pooled loss where
    it has none)."""
    own = losses(st, origins)
    n, K, L = own.shape
    out = np.full((n, K, L), np.nan)
    for b in ps.batches_of(st.key, batch):
        ob = own[b]
        ok = ~np.isnan(ob).any((1, 2))
        if not ok.any():
            continue
        pooled = robust_pool(ob[ok], how)
        for j, s in enumerate(b):
            out[s] = share * pooled + (1 - share) * ob[j] if ok[j] else pooled
    return out


def top(st: ps.Study, k: int, share: float, how: str, batch: int) -> np.ndarray:
    mix = mixed(st, 2, share, batch)
    F = st.F[:, : st.K]
    n, K, L, h = F.shape
    out = np.empty((n, L, h))
    for s in range(n):
        if np.isnan(mix[s]).any():
            out[s] = np.median(F[s], 0) if how == "median" else F[s].mean(0)
            continue
        for lv in range(L):
            keep = np.argsort(mix[s, :, lv], kind="stable")[:k]
            sub = F[s, keep, lv]
            if how == "median":
                out[s, lv] = np.median(sub, 0)
            elif how == "v3":
                m = np.maximum(mix[s, keep, lv], mix[s, keep, lv].max() * 1e-6 + 1e-12)
                r = (m.min() / m) ** 8
                out[s, lv] = 0.5 * np.median(sub, 0) + 0.5 * (r / r.sum()) @ sub
            else:
                out[s, lv] = sub.mean(0)
    return ps.anchored(out)


def clamped_losses(mix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (n,) mask of the series that have mixed losses, and those losses kept off zero (as prism v3 does)."""
    has = ~np.isnan(mix).any((1, 2))
    return has, np.maximum(mix[has], mix[has].max(1, keepdims=True) * 1e-6 + 1e-12)


def inverse_loss_weights(mix: np.ndarray, power: float, equal_share: float = 0.0) -> np.ndarray:
    """(n, K, L) weights: equal_share · equal + the rest ∝ (lowest loss / loss)^power (prism v3's); equal where a
    series has no loss."""
    n, K, L = mix.shape
    w = np.full((n, K, L), 1 / K)
    has, m = clamped_losses(mix)
    r = (m.min(1, keepdims=True) / m) ** power
    w[has] = equal_share / K + (1 - equal_share) * r / r.sum(1, keepdims=True)
    return w


def trimmed(st: ps.Study, origins: int, share: float, power: float, alpha: float, keep: int, batch: int) -> np.ndarray:
    """prism v3 (pooling 'series', levels anchored) with its median part over the `keep` members of lowest mixed loss at
    each level instead of all of them: the robust prior without the pull of a weak majority (M4 hourly: four of six
    members 45-120 % behind mstl in MASE)."""
    mix = mixed(st, origins, share, batch)
    F = st.F[:, : st.K]
    L = F.shape[2]
    w = inverse_loss_weights(mix, power)
    has, _ = clamped_losses(mix)
    med = np.median(F, 1)
    for s in np.flatnonzero(has):
        for lv in range(L):
            best = np.argsort(mix[s, :, lv], kind="stable")[:keep]
            med[s, lv] = np.median(F[s, best, lv], 0)
    return ps.anchored(alpha * med + (1 - alpha) * np.einsum("nkl,nklh->nlh", w, F))


TRACE = os.environ.get("TRACE") == "1"  # cal: print each request's factors


def _blend(F: np.ndarray, w: np.ndarray, alpha) -> np.ndarray:
    """(…, L, h) alpha · median over members + (1 − alpha) · Σ_k w_k · member_k; F (…, K, L, h), w (…, K, L); alpha a
    number or an array that broadcasts against (…, L, h). (Study.v3 keeps its own line: its F may carry combos.)"""
    return alpha * np.median(F, -3) + (1 - alpha) * np.einsum("...kl,...klh->...lh", w, F)


def calibrated(st: ps.Study, origins: int, share: float, power: float, alpha: float, mode: str, shrink: float,
               batch: int, lo_hi: tuple[float, float] = (0.3, 3.0)) -> np.ndarray:
    """prism v3 (pooling 'series', levels anchored) whose spread around the 0.5 level is then scaled, per request, by the
    factor that minimises the request's pooled scale-free pinball loss of the same blend on the validation windows
    (the members' own backtests combined with the series' weights): `sym` one factor for both tails, `two` one per tail.
    shrink: the log factor × (1 − shrink), toward the blend as it is."""
    mix = mixed(st, origins, share, batch)
    F = st.F[:, : st.K]
    n, K, L, h = F.shape
    w = inverse_loss_weights(mix, power)
    out = ps.anchored(_blend(F, w, alpha))
    mid = ps.LEVELS.index(0.5)
    grid = ps.spread_grid(*lo_hi)
    q = np.array(ps.LEVELS)[:, None]
    for b in ps.batches_of(st.key, batch):
        per = np.zeros((grid.size, len(ps.LEVELS)))  # the request's loss at each factor and level
        for s in b:
            vals = [st.cached[mb][0][s][1][:origins] for mb in st.members]
            used = min(len(v) for v in vals)
            if not used:
                continue
            absum = sum(np.abs(vals[0][j][0]).sum() for j in range(used))
            for j in range(used):
                actual = vals[0][j][0]
                V = ps.anchored(_blend(np.stack([v[j][1] for v in vals])[None], w[s][None], alpha))[0]  # (L, w)
                for g, f in enumerate(grid):
                    C = V[mid] + f * (V - V[mid])
                    d = actual[None] - C
                    per[g] += np.maximum(q * d, (q - 1) * d).sum(1) / max(absum, 1e-9)
        if not per.any():
            continue
        lo, hi = per[:, :mid].sum(1), per[:, mid + 1:].sum(1)
        pick = lambda loss: ps.least_loss_factor(grid, loss)
        if mode == "two":
            f = np.where(np.arange(len(ps.LEVELS)) < mid, pick(lo), pick(hi))
        elif mode == "lvl":
            f = np.array([pick(per[:, j]) for j in range(len(ps.LEVELS))])
        else:
            f = np.full(len(ps.LEVELS), pick(lo + hi))
        f = f ** (1 - shrink)
        centre = out[b, mid][:, None]
        out[b] = ps.anchored(centre + f[None, :, None] * (out[b] - centre))  # a factor per level can cross them
        if TRACE:
            print(f"    {st.key} request {b[0]}: factors {' '.join(f'{x:.2f}' for x in f)}")
    return out


def level_pooled(st: ps.Study, origins: int, share: float, power: float, alpha: float, which: str, batch: int) -> np.ndarray:
    """prism v3 (pooling 'series', levels anchored) whose weights at the levels other than 0.5 (which = 'tails'), or at
    every level ('all'), come from the members' loss summed over all levels (a CRPS-like score) instead of each level's
    own: one level's pinball loss over one or two windows is noisier than their sum."""
    mix = mixed(st, origins, share, batch)
    F = st.F[:, : st.K]
    mid = ps.LEVELS.index(0.5)
    summed = np.repeat(mix.sum(2, keepdims=True), mix.shape[2], 2)
    if which == "tails":
        summed[:, :, mid] = mix[:, :, mid]
    w = inverse_loss_weights(summed, power)
    return ps.anchored(_blend(F, w, alpha))


def dominant(st: ps.Study, origins: int, share: float, power: float, alpha: float, ratio: float, low: float, batch: int) -> np.ndarray:
    """prism v3 (pooling 'series', levels anchored) whose median share is `alpha` where the members are comparable and
    `low` where one dominates: at a series' level, median member loss ÷ lowest member loss (its mixed losses) ≥ `ratio`."""
    mix = mixed(st, origins, share, batch)
    F = st.F[:, : st.K]
    n, K, L, h = F.shape
    w = inverse_loss_weights(mix, power)
    a = np.full((n, L, 1), alpha)
    has, m = clamped_losses(mix)
    a[has] = np.where(np.median(m, 1) / m.min(1) >= ratio, low, alpha)[:, :, None]
    return ps.anchored(_blend(F, w, a))


def auto_pick(st: ps.Study, windows: int, batch: int) -> np.ndarray:
    """model auto's default rule (request scope, MASE, `windows` windows) on these caches: per request the member with the
    lowest mean window MASE (the history before each window's scale, as cross-validation scores it). The windows here are
    prism's (w = min(h, n/3), forecast from the one fit: forward()), not auto's (h steps, the fit's form refitted), so
    this is an approximation: one-fit windows flatter the flexible models (eval/README.md, "auto without refits")."""
    _, h, m, _ = ps.DATASETS[st.key]
    data = ps.load(st.key)
    cached = st.cached
    F = st.F[:, : st.K]
    out = np.empty(F.shape[:1] + F.shape[2:])
    for b in ps.batches_of(st.key, batch):
        score = np.zeros(st.K)
        count = np.zeros(st.K)
        for s in b:
            y = data[s][0]
            for k, mb in enumerate(st.members):
                for j, (actual, fc) in enumerate(cached[mb][0][s][1][:windows], start=1):
                    train = y[: y.size - j * actual.size]
                    mm = m if train.size > m else 1
                    if train.size <= mm:
                        continue
                    sc = np.mean(np.abs(train[mm:] - train[:-mm]))
                    if sc > 0:
                        score[k] += np.mean(np.abs(actual - fc[4])) / sc
                        count[k] += 1
        g = int(np.argmin(np.where(count > 0, score / np.maximum(count, 1), np.inf))) if count.any() else 0
        out[b] = F[b, g]
    return out


def nested(st: ps.Study, origins: int, menu: list[tuple[float, float, float]], batch: int) -> np.ndarray:
    """prism whose (pool share S, power P, median share A) is chosen per request and level group (the 0.5 level; the
    others) from `menu` by the newest validation window: each item's weights learned on the up to `origins` windows
    before it, its blend of the members' forecasts of that window scored (the request's mean scale-free pinball loss);
    the chosen item then blends the test forecast with weights from the newest `origins` windows, as prism does. A
    request with no series holding two windows keeps menu[0]."""
    F = st.F[:, : st.K]
    n, K, L, h = F.shape
    mid = ps.LEVELS.index(0.5)
    tails = [i for i in range(L) if i != mid]
    wins = [[st.cached[mb][0][s][1] for mb in st.members] for s in range(n)]
    nwin = np.array([min(len(v) for v in w) for w in wins])
    top = min(origins + 1, max(st.pin))
    with np.errstate(invalid="ignore", divide="ignore"):
        old = (st.pin[top] - st.pin[1]) / np.maximum(st.absum[top] - st.absum[1], 1e-9)[:, None, None]
    outer = {S: mixed(st, origins, S, batch) for S in {m[0] for m in menu}}
    out = np.empty((n, L, h))
    picks = []
    for b in ps.batches_of(st.key, batch):
        b = np.array(b)
        ok = b[nwin[b] >= 2]
        choice = (menu[0], menu[0])
        if ok.size:
            loss = np.zeros((len(menu), L))
            for i, (S, P, A) in enumerate(menu):
                w = inverse_loss_weights(S * old[ok].mean(0) + (1 - S) * old[ok], P)
                for j, s in enumerate(ok):
                    actual = wins[s][0][0][0]
                    W0 = np.stack([v[0][1] for v in wins[s]])  # K, L, window
                    loss[i] += ps.window_pinball(actual, ps.anchored(_blend(W0, w[j], A)[None])[0]) / max(np.abs(actual).sum(), 1e-9)
            choice = (menu[int(np.argmin(loss[:, mid]))], menu[int(np.argmin(loss[:, tails].sum(1)))])
        picks.append(choice)
        for levels, (S, P, A) in (([mid], choice[0]), (tails, choice[1])):
            Q = _blend(F[b], inverse_loss_weights(outer[S][b], P), A)
            out[np.ix_(b, levels)] = Q[:, levels]
    if TRACE:
        print("  nest picks (0.5 | others):", " ".join(f"{c[0]}|{c[1]}" for c in picks))
    return ps.anchored(out)


def shrink(st: ps.Study, lam: float, power: float, batch: int) -> np.ndarray:
    mix = mixed(st, 2, 0.5, batch)
    F = st.F[:, : st.K]
    return ps.anchored(_blend(F, inverse_loss_weights(mix, power, lam), 0.0))


def oracle(st: ps.Study, singles: list[tuple[float, float]], metric: int) -> tuple[float, float, dict]:
    best4 = sorted(range(st.K), key=lambda k: singles[k][metric])[:4]
    best = (np.inf, np.inf, {})
    for grid in itertools.product(range(11), repeat=len(best4)):
        if sum(grid) != 10:
            continue
        w = np.zeros(st.K)
        w[best4] = np.array(grid) / 10
        sc = st.score(ps.anchored(np.einsum("k,nklh->nlh", w, st.F[:, : st.K])))
        if sc[metric] < best[metric]:
            best = (sc[0], sc[1], {st.members[k]: round(float(w[k]), 1) for k in best4 if w[k]})
    return best


def oracle_per_level(st: ps.Study, singles: list[tuple[float, float]]) -> tuple[float, float, dict, dict]:
    """The bound for a combiner with one mix for the 0.5 level and another for the other levels (prism's weights are per
    level): the 0.5 level from the best fixed mix by MASE on the TEST split, the other levels from the best by WQL given
    that 0.5 level (0.1 grid over the 4 best single models of the pool by each metric)."""
    _, _, by_mase = oracle(st, singles, 0)
    F = st.F[:, : st.K]
    mid = ps.LEVELS.index(0.5)
    w_mid = np.array([by_mase.get(m, 0.0) for m in st.members])
    centre = np.einsum("k,nkh->nh", w_mid, F[:, :, mid])
    best4 = sorted(range(st.K), key=lambda k: singles[k][1])[:4]
    best = (np.inf, np.inf, by_mase, {})
    for grid in itertools.product(range(11), repeat=len(best4)):
        if sum(grid) != 10:
            continue
        w = np.zeros(st.K)
        w[best4] = np.array(grid) / 10
        Q = np.einsum("k,nklh->nlh", w, F)
        Q[:, mid] = centre
        sc = st.score(ps.anchored(Q))
        if sc[1] < best[1]:
            best = (sc[0], sc[1], by_mase, {st.members[k]: round(float(w[k]), 1) for k in best4 if w[k]})
    return best


def auto_oracle(st: ps.Study, candidates: list[int], best: tuple[float, float], batch: int) -> tuple[float, float]:
    """The bound for model auto (one candidate per request): per request the candidate whose TEST-split MASE ÷ best
    + WQL ÷ best on that request's series is lowest; the set scored with those picks. Not a design: it has seen the test."""
    F = st.F[:, : st.K]
    mase, pin = (np.stack(x, 1) for x in zip(*(st.series_scores(F[:, k]) for k in range(st.K))))  # each (n, K)
    P = np.empty(F.shape[:1] + F.shape[2:])
    for b in ps.batches_of(st.key, batch):
        ok = np.isfinite(mase[b]).all(1)
        m = np.where(ok[:, None], mase[b], 0).sum(0) / max(ok.sum(), 1)
        w = pin[b].sum(0) / max(np.abs(st.test[b]).sum(), 1e-9)
        k = candidates[int(np.argmin((m / best[0] + w / best[1])[candidates]))]
        P[b] = F[b, k]
    return st.score(P)


# the other set of the same frequency: a prior learned there is tested here without having seen this set (leave one set out)
SIBLING = {"tourism-yearly": "m3-yearly", "m3-yearly": "tourism-yearly", "tourism-quarterly": "m3-quarterly",
           "m3-quarterly": "tourism-quarterly", "tourism-monthly": "m3-monthly", "m3-monthly": "tourism-monthly"}


def level_mix(S: dict, origins: int) -> dict:
    """A set's per-level oracle as member-name weights: {'mid': {member: w} (by MASE), 'tails': {member: w} (by WQL)}."""
    st = ps.Study(S["everyone"].key, [m for m in S["union"] if m not in S["partial"]], S["pcached"], origins)
    _, _, mid, tails = oracle_per_level(st, [S["singles_all"][m] for m in st.members])
    return {"mid": mid, "tails": tails}


def prior_blend(st: ps.Study, origins: int, share: float, power: float, alpha: float, mix: dict | None, batch: int) -> np.ndarray:
    """prism v3 whose robust part (alpha · the median) is alpha · a fixed mix learned elsewhere (`mix`, level_mix of
    another set of the same frequency; members it lacks weigh 0, the rest renormalised); v3 itself where there is none."""
    F = st.F[:, : st.K]
    w = inverse_loss_weights(mixed(st, origins, share, batch), power)
    if mix is None:
        return ps.anchored(_blend(F, w, alpha))
    mid = ps.LEVELS.index(0.5)
    fixed = np.zeros((st.K, len(ps.LEVELS)))
    for lv in range(len(ps.LEVELS)):
        part = mix["mid"] if lv == mid else mix["tails"]
        col = np.array([part.get(m, 0.0) for m in st.members])
        fixed[:, lv] = col / col.sum() if col.sum() > 0 else 1 / st.K
    return ps.anchored(alpha * np.einsum("kl,nklh->nlh", fixed, F) + (1 - alpha) * np.einsum("nkl,nklh->nlh", w, F))


def set_up(key: str, a, catalog: dict) -> dict:
    """A set's caches as Studies: `everyone` (every served model with a full cache, the best-single reference),
    `studies` [(Study over a request's pool, its series)], the pools' `union`, `partial` members, `singles_all`, `best`."""
    pools = pools_of(key, a.budget, catalog, a.batch, a.prism_context)
    if a.members:  # a fixed pool instead (e.g. the three members before issue 35)
        pools = [(tuple(a.members.split(",")), [i for _, idx, _ in pools for i in idx], pools[0][2])]
    union = list(dict.fromkeys(m for pool, _, _ in pools for m in pool))
    n = len(ps.load(key))
    full = lambda m: (ps.CACHE / f"{key}.{m}.{a.cache_origins}.fwd.pkl").exists()
    served = [m for m in SERVED if full(m)]
    need = {m: sorted(i for pool, idx, _ in pools if m in pool for i in idx) for m in union}
    # --partial: a member in some requests' pools only, forecast on those series alone (not scored as a single model)
    partial = [m for m in union if m in a.partial.split(",") and len(need[m]) < n and not full(m)]
    # the single models' reference: each alone through the API, context 2,500 (their max_context is larger)
    cached = {m: ps.member_cache_forward(key, m, a.cache_origins) for m in dict.fromkeys(union + served) if m not in partial}
    # prism's members: the same fits on the series as prism's max_context cuts them (only M4 Weekly has longer ones)
    refit = set(union) if a.refit_members == "all" else set(filter(None, a.refit_members.split(",")))
    pcached = {m: ps.member_cache_forward(key, m, a.cache_origins, context=a.prism_context, only=need[m] if m in partial else None,
                                          refit=m in refit)
               for m in union}
    for m in partial:  # placeholders where the member is not in the request's pool: never scored (rows of other pools)
        pcached[m] = ([r if r is not None else pcached["seasonal-naive"][0][i] for i, r in enumerate(pcached[m][0])], pcached[m][1])
        print(f"  ({m}: in the pool of {len(need[m])} of {n} series, forecast on those alone; not scored alone here)")
    everyone = ps.Study(key, list(cached), cached, a.cache_origins)
    singles_all = {m: everyone.score(everyone.F[:, k]) for k, m in enumerate(cached)}
    for m in filter(None, a.reference.split(",")):
        singles_all[m] = everyone.score(np.stack(reference(key, m)))
    best = (min(v[0] for v in singles_all.values()), min(v[1] for v in singles_all.values()))
    studies = []
    for pool, idx, est in pools:
        st = ps.Study(key, list(pool), pcached, a.cache_origins)
        st.cached = pcached
        studies.append((st, idx))
        print(f"## {key}: pool {', '.join(pool)} for {len(idx)} of {len(everyone.F)} series "
              f"(estimates ms/series, first request: {', '.join(f'{m} {est[m]:.0f}' for m in SERVED)})")
    return dict(everyone=everyone, studies=studies, union=union, partial=partial, pcached=pcached,
                singles_all=singles_all, best=best)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets")
    ap.add_argument("--budget", type=float, default=2000)
    ap.add_argument("--designs", default=DEFAULT_DESIGNS)
    ap.add_argument("--cache-origins", type=int, default=4)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--oracle", action="store_true")
    ap.add_argument("--partial", default="auto-arima", help="members forecast only on the series whose request has them in its pool")
    ap.add_argument("--members", default="", help="a fixed pool for every request instead of the sized one")
    ap.add_argument("--prism-context", type=int, default=2016, help="prism's max_context: the API cuts its members' series to it")
    ap.add_argument("--refit-members", default="", help="these members' (or 'all') validation windows from a fit of their own per window "
                    "(the API's 'refit' backtest) instead of forward() from the one fit")
    ap.add_argument("--reference", default="", help="served models scored alone for the best-single reference, fit only (e.g. ces)")
    a = ap.parse_args()
    catalog = json.loads((ROOT / "catalog/models.json").read_text())
    designs = a.designs.split(",")
    rel = {d: [] for d in designs}
    mixes: dict = {}  # prior designs: each sibling set's level_mix, learned on that set alone
    for key in a.datasets.split(","):
        if any(d.startswith("prior") for d in designs) and key in SIBLING and SIBLING[key] not in mixes:
            mixes[SIBLING[key]] = level_mix(set_up(SIBLING[key], a, catalog), a.cache_origins)
            print(f"  (prior from {SIBLING[key]}: {mixes[SIBLING[key]]})")
        S = set_up(key, a, catalog)
        everyone, studies, union, partial, pcached = S["everyone"], S["studies"], S["union"], S["partial"], S["pcached"]
        singles_all, best = S["singles_all"], S["best"]
        for m, (x, y) in singles_all.items():
            print(f"  {m:16s} MASE {x:.4f} WQL {y:.4f}{'' if m in union else '  (not in the pool)'}")
        print(f"  best single served (of {len(singles_all)} scored): MASE {best[0]:.4f} WQL {best[1]:.4f}")
        for d in designs:
            kind, spec_ = d.split(" ")
            p = spec_.split(":")
            P = np.full(everyone.F[:, 0].shape, np.nan)
            for st, idx in studies:  # each request's rows from the design over its own pool
                if kind == "v3":  # a 5th field: the median share at the levels other than 0.5 (the 4th: at 0.5)
                    alpha = float(p[3]) if len(p) < 5 else [float(p[3]) if q == 0.5 else float(p[4]) for q in ps.LEVELS]
                    Q = st.v3(int(p[0]), a.batch, alpha, float(p[2]), float(p[1]))
                elif kind == "top":
                    Q = top(st, int(p[0]), float(p[1]), p[2] if len(p) > 2 else "mean", a.batch)
                elif kind == "trim":  # trim O:S:P:A:T: v3 whose median part is over the T members of lowest loss
                    Q = trimmed(st, int(p[0]), float(p[1]), float(p[2]), float(p[3]), int(p[4]), a.batch)
                elif kind == "dom":  # dom O:S:P:A:R:A2: median share A, or A2 where one member dominates (ratio R)
                    Q = dominant(st, int(p[0]), float(p[1]), float(p[2]), float(p[3]), float(p[4]), float(p[5]), a.batch)
                elif kind == "split":  # split O:S:P:A:POOLING[:A2]: the 0.5 level as v3; the others pooled as POOLING, median share A2
                    mid = ps.LEVELS.index(0.5)
                    Q = st.v3(int(p[0]), a.batch, float(p[3]), float(p[2]), float(p[1]))
                    other = st.v3(int(p[0]), a.batch, float(p[5]) if len(p) > 5 else float(p[3]), float(p[2]), float(p[1]), p[4])
                    other[:, mid] = Q[:, mid]
                    Q = ps.anchored(other)
                elif kind == "rob":  # rob O:S:P:A:HOW: v3 with the request's loss pooled robustly (robust_pool)
                    Q = ps.anchored(_blend(st.F[:, : st.K], inverse_loss_weights(
                        mixed(st, int(p[0]), float(p[1]), a.batch, ":".join(p[4:])), float(p[2])), float(p[3])))
                elif kind == "ctr":  # ctr O:S:P:A: v3's 0.5 level + the members' spreads around their own 0.5 level, blended alike
                    F = st.F[:, : st.K]
                    mid = ps.LEVELS.index(0.5)
                    w = inverse_loss_weights(mixed(st, int(p[0]), float(p[1]), a.batch), float(p[2]))
                    centre = _blend(F, w, float(p[3]))[:, mid]
                    Q = ps.anchored(centre[:, None] + _blend(F - F[:, :, mid:mid + 1], w, float(p[3])))
                elif kind == "lvl":  # lvl O:S:P:A:tails|all: weights from the loss summed over the levels
                    Q = level_pooled(st, int(p[0]), float(p[1]), float(p[2]), float(p[3]), p[4], a.batch)
                elif kind == "cal":  # cal O:S:P:A:MODE:SHRINK: v3, then its spread scaled on the validation windows
                    Q = calibrated(st, int(p[0]), float(p[1]), float(p[2]), float(p[3]), p[4], float(p[5]), a.batch,
                                   (float(p[6]), float(p[7])) if len(p) > 7 else (0.3, 3.0))
                elif kind == "prior":  # prior O:S:P:A[:self]: v3 with the median part replaced by the sibling set's level mix
                    src = key if len(p) > 4 and p[4] == "self" else SIBLING.get(key)
                    if src is not None and src not in mixes:
                        mixes[src] = level_mix(S, a.cache_origins)
                    Q = prior_blend(st, int(p[0]), float(p[1]), float(p[2]), float(p[3]), mixes.get(src), a.batch)
                elif kind == "freq":  # freq O:S:P:A:S2:P2:A2: v3 O:S:P:A, or O:S2:P2:A2 at the frequencies where auto adds mstl
                    S_, P_, A_ = (p[4], p[5], p[6]) if multi_season(key) else (p[1], p[2], p[3])
                    Q = st.v3(int(p[0]), a.batch, float(A_), float(P_), float(S_))
                elif kind == "fcal":  # fcal O:S:P:A:S2:P2:A2:MODE:SHRINK: freq's settings, then cal's spread factor
                    S_, P_, A_ = (p[4], p[5], p[6]) if multi_season(key) else (p[1], p[2], p[3])
                    Q = calibrated(st, int(p[0]), float(S_), float(P_), float(A_), p[7], float(p[8]), a.batch,
                                   (float(p[9]), float(p[10])) if len(p) > 10 else (1 / 3, 3.0))
                elif kind == "v3p":  # v3p O:S:P:P2:A: v3 with power P at the 0.5 level and P2 at the others
                    Q = st.v3(int(p[0]), a.batch, float(p[4]), [float(p[2]) if q == 0.5 else float(p[3]) for q in ps.LEVELS], float(p[1]))
                elif kind == "nest":  # nest O:S/P/A:S/P/A…: the menu item per request and level group by the newest window
                    Q = nested(st, int(p[0]), [tuple(float(x) for x in m.split("/")) for m in p[1:]], a.batch)
                elif kind == "auto":
                    Q = auto_pick(st, int(p[0]), a.batch)
                else:
                    Q = shrink(st, float(p[0]), float(p[1]), a.batch)
                P[idx] = Q[idx]
            mase, wql = everyone.score(P)
            rel[d].append((key, mase / best[0], wql / best[1]))
            print(f"  {d:22s} MASE {mase:.4f} WQL {wql:.4f}  rel {mase / best[0]:.3f} / {wql / best[1]:.3f}", flush=True)
        if a.oracle:  # over the union of the set's pools (the pool itself where every request has the same)
            st = ps.Study(key, [m for m in union if m not in partial], pcached, a.cache_origins)
            singles = [singles_all[m] for m in st.members]
            for metric, name in ((0, "MASE"), (1, "WQL")):
                o = oracle(st, singles, metric)
                print(f"  oracle {name}: MASE {o[0]:.4f} WQL {o[1]:.4f} rel {o[0] / best[0]:.3f} / {o[1] / best[1]:.3f} weights {o[2]}", flush=True)
            auto_default = [k for k, m in enumerate(everyone.members) if m in BASE or (m == "mstl" and multi_season(key))]
            for name, cands in (("auto's default candidates", auto_default), ("every cached served model", list(range(everyone.K)))):
                o = auto_oracle(everyone, cands, best, a.batch)
                print(f"  auto oracle over {name} (one per request, by test rel MASE + rel WQL): MASE {o[0]:.4f} WQL {o[1]:.4f} "
                      f"rel {o[0] / best[0]:.3f} / {o[1] / best[1]:.3f}", flush=True)
            o = oracle_per_level(st, singles)
            rel["oracle per level"] = rel.get("oracle per level", []) + [(key, o[0] / best[0], o[1] / best[1])]
            print(f"  oracle per level: MASE {o[0]:.4f} WQL {o[1]:.4f} rel {o[0] / best[0]:.3f} / {o[1] / best[1]:.3f} "
                  f"weights 0.5 {o[2]}, others {o[3]}", flush=True)
    gm = lambda xs: float(np.exp(np.mean(np.log(xs))))
    print("## summary: worst rel over sets and metrics, geomean MASE, WQL, and of both")
    for d, r in sorted(rel.items(), key=lambda kv: max(max(x[1], x[2]) for x in kv[1])):
        m, w = [x[1] for x in r], [x[2] for x in r]
        print(f"  {d:22s} worst {max(m + w):.3f}  gm {gm(m):.3f} / {gm(w):.3f}  both {gm(m + w):.4f} | "
              + " ".join(f"{k}:{x:.3f}/{y:.3f}" for k, x, y in r))


if __name__ == "__main__":
    main()
