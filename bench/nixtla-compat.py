"""nixtla-compat: Nixtla's own SDK (nixtla==0.9.0) forecasting 1,000 monthly series through Horizon's
/nixtla drop-in, against the same forecast through /v1 by hand (a DataFrame turned into the /v1 body
with pandas, one httpx POST, the answer back into a DataFrame, as a user without the SDK writes it).

    .tools/venv-nixtla/bin/python bench/nixtla-compat.py [--series 1000] [--length 120] [--runs 5] [--models seasonal-naive,auto-ets]
        [--calls forecast,feature_contributions,online,multivariate] [--explain-series 1000] [--joint-series 256]

The calls (finetune excluded: a training's time is not the translation's): `forecast` (each of --models);
`feature_contributions`: forecast(X_df=…, hist_exog_list=…, feature_contributions=True) on chronos-2's tiny checkpoint
(--explain-series series with one known-future and one historical column) against POST /v1/forecast with explain;
`online`: detect_anomalies_online(h=1, detection_size=12) against POST /v1/anomalies with detection_size;
`multivariate`: forecast(multivariate=True) on chronos-2 against POST /v1/forecast with multivariate (skipped, said so,
where this tree's /nixtla refuses it).

Starts its own server (clients/python/tests/server.ts: real PGlite, real worker, unlimited quota), checks
that both paths give the same numbers, then times them interleaved (one of each per run, alternating
which goes first) and prints the medians and ratio = /v1 time ÷ /nixtla time (1 = no cost; goal ≥ 0.9).
`http` is the time inside the HTTP call(s) alone (the SDK also asks model_params once per call); `client`
is the rest (the SDK's validation and payload building, or the hand-written DataFrame code)."""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

import httpx
import numpy as np
import pandas as pd
from nixtla import ApiError, NixtlaClient

from horizon_server import start_horizon

REPO = Path(__file__).resolve().parents[1]


def start_server() -> tuple[subprocess.Popen, str, str]:
    # unlimited quota; synchronous calls of any size (1,000 auto-ets fits are over the default budget of
    # half the 120 s worker-call timeout, which sends them to the job API)
    # (chronos-2's tiny checkpoint: a model with covariates and a joint forecast, for the explanations and multivariate)
    return start_horizon({"HORIZON_DEFAULT_DAILY_QUOTA": "0", "HORIZON_DEFAULT_WEEKLY_QUOTA": "0",
                          "HORIZON_INFERENCE_TIMEOUT_MS": "900000", "HORIZON_SYNC_BUDGET_MS": "900000"}, fixtures=["chronos-2"])


def panel(n_series: int, length: int) -> pd.DataFrame:
    rng = np.random.default_rng(21)
    t = np.arange(length)
    starts = pd.date_range("2005-01-01", periods=36, freq="MS")
    frames = []
    for i in range(n_series):
        level, slope, amp = rng.uniform(50, 500), rng.uniform(-0.5, 1.5), rng.uniform(5, 60)
        y = level + slope * t + amp * np.sin(2 * np.pi * (t + rng.integers(12)) / 12) + rng.normal(0, amp / 5, length)
        frames.append(pd.DataFrame({"unique_id": f"s{i:04d}", "ds": pd.date_range(starts[i % 36], periods=length, freq="MS"), "y": np.round(y, 2)}))
    return pd.concat(frames, ignore_index=True)


class TimedClient(NixtlaClient):
    """The SDK as is, its HTTP calls timed."""
    http = 0.0

    def _make_request(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return super()._make_request(*args, **kwargs)
        finally:
            TimedClient.http += time.perf_counter() - started

    def _get_request(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return super()._get_request(*args, **kwargs)
        finally:
            TimedClient.http += time.perf_counter() - started


def via_nixtla(client: NixtlaClient, df: pd.DataFrame, model: str, h: int, level: list[int]) -> tuple[pd.DataFrame, float, float]:
    client._model_params.clear()  # the SDK caches model_params per client: ask every run, as a fresh script does
    TimedClient.http = 0.0
    started = time.perf_counter()
    out = client.forecast(df, h=h, model=model, level=level)
    return out, time.perf_counter() - started, TimedClient.http


def via_v1(http: httpx.Client, df: pd.DataFrame, model: str, h: int, level: list[int]) -> tuple[pd.DataFrame, float, float]:
    started = time.perf_counter()
    groups = [(uid, g) for uid, g in df.sort_values(["unique_id", "ds"]).groupby("unique_id", sort=True)]
    quantiles = sorted({q for lv in level for q in ((100 - lv) / 200, (100 + lv) / 200)})
    body = {"model": model, "horizon": h, "freq": "MS", "quantiles": quantiles,
            "series": [{"target": g["y"].tolist(), "index": g["ds"].dt.strftime("%Y-%m-%d").tolist()} for _, g in groups]}
    posted = time.perf_counter()
    res = http.post("/v1/forecast", json=body)
    answered = time.perf_counter()
    res.raise_for_status()
    answer = res.json()
    rows = {"unique_id": [], "ds": [], "mean": []}
    bands = {f"{side}-{lv}": [] for lv in level for side in ("lo", "hi")}
    for (uid, _), s in zip(groups, answer["series"]):
        p = s[0]
        rows["unique_id"] += [uid] * h
        rows["ds"] += p["index"]
        rows["mean"] += p["prediction"]["mean"]
        for lv in level:
            bands[f"lo-{lv}"] += p["prediction"][str((100 - lv) / 200)]
            bands[f"hi-{lv}"] += p["prediction"][str((100 + lv) / 200)]
    out = pd.DataFrame({**rows, **bands})
    out["ds"] = pd.to_datetime(out["ds"])
    return out, time.perf_counter() - started, answered - posted


def with_covariates(df: pd.DataFrame, h: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The panel with a known-future column (promo; its future in X_df) and a historical-only one (temp)."""
    df = df.assign(promo=(df.groupby("unique_id").cumcount() % 4 == 0).astype(float), temp=np.round(np.sin(np.arange(len(df)) / 5), 3))
    last = df.groupby("unique_id", sort=True)["ds"].max()
    future = pd.concat([pd.DataFrame({"unique_id": uid, "ds": pd.date_range(end, periods=h + 1, freq="MS")[1:], "promo": np.arange(h) % 4 == 0})
                        for uid, end in last.items()], ignore_index=True).astype({"promo": float})
    return df, future


def v1_covariate_series(df: pd.DataFrame, future: pd.DataFrame) -> list[dict]:
    futures = {uid: g for uid, g in future.groupby("unique_id", sort=True)}
    return [{"target": g["y"].tolist(), "index": g["ds"].dt.strftime("%Y-%m-%d").tolist(),
             "hist_variables": {"promo": g["promo"].tolist(), "temp": g["temp"].tolist()},
             "future_variables": {"promo": futures[uid]["promo"].tolist()},
             "future_variables_index": futures[uid]["ds"].dt.strftime("%Y-%m-%d").tolist()}
            for uid, g in df.sort_values(["unique_id", "ds"]).groupby("unique_id", sort=True)]


def contributions_via_nixtla(client: NixtlaClient, data, h: int) -> tuple[pd.DataFrame, float, float]:
    df, future = data
    client._model_params.clear()
    TimedClient.http = 0.0
    started = time.perf_counter()
    client.forecast(df, h=h, X_df=future, hist_exog_list=["temp"], model="chronos-2", feature_contributions=True)
    return client.feature_contributions, time.perf_counter() - started, TimedClient.http


def contributions_via_v1(http: httpx.Client, data, h: int) -> tuple[pd.DataFrame, float, float]:
    df, future = data
    started = time.perf_counter()
    uids = sorted(df["unique_id"].unique())
    body = {"model": "chronos-2", "horizon": h, "freq": "MS", "quantiles": [], "explain": True, "series": v1_covariate_series(df, future)}
    posted = time.perf_counter()
    res = http.post("/v1/forecast", json=body)
    answered = time.perf_counter()
    res.raise_for_status()
    rows = {"unique_id": [], "ds": [], "TimeGPT": [], "promo": [], "temp": [], "base_value": []}
    for uid, s in zip(uids, res.json()["series"]):
        p = s[0]
        rows["unique_id"] += [uid] * h
        rows["ds"] += p["index"]
        rows["TimeGPT"] += p["prediction"]["mean"]
        for name in ("promo", "temp"):
            rows[name] += p["contributions"]["features"][name]
        rows["base_value"] += p["contributions"]["base"]
    out = pd.DataFrame(rows)
    out["ds"] = pd.to_datetime(out["ds"])
    return out, time.perf_counter() - started, answered - posted


def online_via_nixtla(client: NixtlaClient, df: pd.DataFrame, h: int) -> tuple[pd.DataFrame, float, float]:
    client._model_params.clear()
    TimedClient.http = 0.0
    started = time.perf_counter()
    out = client.detect_anomalies_online(df, h=1, detection_size=12, model="seasonal-naive", level=99)
    return out, time.perf_counter() - started, TimedClient.http


def online_via_v1(http: httpx.Client, df: pd.DataFrame, h: int) -> tuple[pd.DataFrame, float, float]:
    started = time.perf_counter()
    groups = [(uid, g) for uid, g in df.sort_values(["unique_id", "ds"]).groupby("unique_id", sort=True)]
    body = {"model": "seasonal-naive", "freq": "MS", "level": 99, "detection_size": 12, "step": 1,
            "series": [{"target": g["y"].tolist(), "index": g["ds"].dt.strftime("%Y-%m-%d").tolist()} for _, g in groups]}
    posted = time.perf_counter()
    res = http.post("/v1/anomalies", json=body)
    answered = time.perf_counter()
    res.raise_for_status()
    rows = {"unique_id": [], "ds": [], "TimeGPT": [], "anomaly": []}
    for (uid, _), s in zip(groups, res.json()["series"]):
        rows["unique_id"] += [uid] * len(s["index"])
        rows["ds"] += s["index"]
        rows["TimeGPT"] += s["forecast"]
        rows["anomaly"] += s["anomaly"]
    out = pd.DataFrame(rows)
    out["ds"] = pd.to_datetime(out["ds"])
    return out, time.perf_counter() - started, answered - posted


def joint_via_nixtla(client: NixtlaClient, df: pd.DataFrame, h: int) -> tuple[pd.DataFrame, float, float]:
    client._model_params.clear()
    TimedClient.http = 0.0
    started = time.perf_counter()
    out = client.forecast(df, h=h, model="chronos-2", multivariate=True)
    return out, time.perf_counter() - started, TimedClient.http


def joint_via_v1(http: httpx.Client, df: pd.DataFrame, h: int) -> tuple[pd.DataFrame, float, float]:
    started = time.perf_counter()
    groups = [(uid, g) for uid, g in df.sort_values(["unique_id", "ds"]).groupby("unique_id", sort=True)]
    body = {"model": "chronos-2", "horizon": h, "freq": "MS", "quantiles": [], "multivariate": True,
            "series": [{"target": g["y"].tolist(), "index": g["ds"].dt.strftime("%Y-%m-%d").tolist()} for _, g in groups]}
    posted = time.perf_counter()
    res = http.post("/v1/forecast", json=body)
    answered = time.perf_counter()
    res.raise_for_status()
    out = pd.DataFrame({"unique_id": [uid for uid, _ in groups for _ in range(h)],
                        "TimeGPT": [v for s in res.json()["series"] for v in s[0]["prediction"]["mean"]]})
    return out, time.perf_counter() - started, answered - posted


def timed(name: str, runs: int, nixtla_fn, v1_fn, client, http, data, h: int, columns: list[str]) -> None:
    """Warm-up and the check (the same numbers both ways, `columns`), then `runs` interleaved pairs; prints the medians."""
    a, _, _ = nixtla_fn(client, data, h)
    b, _, _ = v1_fn(http, data, h)
    for c in columns:
        np.testing.assert_array_equal(a[c].to_numpy(), b[c].to_numpy(), err_msg=f"{name}: {c}")
    times = {"nixtla": [], "v1": [], "nixtla_http": [], "v1_http": []}
    for run in range(runs):
        order = [("nixtla", nixtla_fn, client), ("v1", v1_fn, http)]
        for key, fn, c in (order if run % 2 == 0 else order[::-1]):
            _, total, in_http = fn(c, data, h)
            times[key].append(total)
            times[f"{key}_http"].append(in_http)
    report(name, times)


def report(name: str, times: dict[str, list[float]]) -> None:
    print(f"  {name}: runs /nixtla {', '.join(f'{t:.3f}' for t in times['nixtla'])} s; /v1 {', '.join(f'{t:.3f}' for t in times['v1'])} s")
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"  {name:21s} /nixtla (SDK) {med['nixtla']:.3f} s (http {med['nixtla_http']:.3f}, client {med['nixtla'] - med['nixtla_http']:.3f})"
          f" | /v1 by hand {med['v1']:.3f} s (http {med['v1_http']:.3f}, client {med['v1'] - med['v1_http']:.3f})"
          f" | ratio {med['v1'] / med['nixtla']:.3f} (http only {med['v1_http'] / med['nixtla_http']:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--series", type=int, default=1000)
    parser.add_argument("--length", type=int, default=120)
    parser.add_argument("--horizon", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--models", default="seasonal-naive")
    parser.add_argument("--calls", default="forecast,feature_contributions,online,multivariate")
    parser.add_argument("--explain-series", type=int, default=1000)
    parser.add_argument("--joint-series", type=int, default=256, help="multivariate: series forecast jointly (chronos-2 group attention, at most 256)")
    args = parser.parse_args()
    calls = set(args.calls.split(","))
    level = [80, 95]

    process, url, key = start_server()
    try:
        df = panel(args.series, args.length)
        client = TimedClient(base_url=f"{url}/nixtla", api_key=key, timeout=600)
        http = httpx.Client(base_url=url, headers={"authorization": f"Bearer {key}"}, timeout=600)
        print(f"nixtla-compat: {args.series} monthly series × {args.length} values, h={args.horizon}, level={level}, {args.runs} runs, {os.cpu_count()} cores")
        for model in (args.models.split(",") if "forecast" in calls else []):
            # warm-up and the check: the same numbers both ways
            a, _, _ = via_nixtla(client, df, model, args.horizon, level)
            b, _, _ = via_v1(http, df, model, args.horizon, level)
            np.testing.assert_array_equal(a["TimeGPT"].to_numpy(), b["mean"].to_numpy())
            np.testing.assert_array_equal(a["TimeGPT-lo-95"].to_numpy(), b["lo-95"].to_numpy())
            times = {"nixtla": [], "v1": [], "nixtla_http": [], "v1_http": []}
            for run in range(args.runs):
                order = [("nixtla", via_nixtla, client), ("v1", via_v1, http)]
                for name, fn, c in (order if run % 2 == 0 else order[::-1]):
                    _, total, in_http = fn(c, df, model, args.horizon, level)
                    times[name].append(total)
                    times[f"{name}_http"].append(in_http)
            report(model, times)
        small = df[df["unique_id"].isin(sorted(df["unique_id"].unique())[:args.explain_series])]
        if "feature_contributions" in calls:
            columns = ["TimeGPT", "promo", "temp", "base_value"]
            timed(f"feature_contributions ({args.explain_series} series, chronos-2 tiny)", args.runs, contributions_via_nixtla, contributions_via_v1,
                  client, http, with_covariates(small, args.horizon), args.horizon, columns)
        if "online" in calls:
            timed(f"detect_anomalies_online ({args.series} series)", args.runs, online_via_nixtla, online_via_v1, client, http, df, args.horizon,
                  ["TimeGPT", "anomaly"])
        if "multivariate" in calls:
            joint = df[df["unique_id"].isin(sorted(df["unique_id"].unique())[:args.joint_series])]
            try:
                timed(f"multivariate ({args.joint_series} series, chronos-2 tiny)", args.runs, joint_via_nixtla, joint_via_v1, client, http, joint,
                      args.horizon, ["TimeGPT"])
            except ApiError as error:
                print(f"  multivariate: not measured, /nixtla answered {error.status_code}: {str(error)[:200]}")
    finally:
        process.stdin.close()
        process.wait(timeout=60)


if __name__ == "__main__":
    main()
