"""Horizon and AsyncHorizon: the API's calls as plain dicts, plus DataFrame forecasts on top of them."""
from __future__ import annotations

import asyncio
import json
import re
import time
from typing import TYPE_CHECKING, Any, AsyncIterator, Iterator, Sequence

import httpx

from . import _frames, _hierarchy
from ._errors import HorizonError, JobFailedError, JobTimeoutError, PayloadTooLargeError, error_from_response
from ._retry import RetryPolicy, retry_after_seconds
from ._series import StoredSeries

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Horizon", "AsyncHorizon", "DEFAULT_MAX_REQUEST_BYTES"]

# the server's default body limit (HORIZON_BODY_LIMIT_BYTES); a smaller one is learnt from its 413 answer
DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024
_LIMIT_IN_413 = re.compile(r"limit of (\d+) bytes")
_TERMINAL = ("completed", "failed", "cancelled")


def _user_agent() -> str:
    from . import __version__

    return f"horizon-client-python/{__version__}"


class _Base:
    """What the sync and async clients share: configuration, request bodies, DataFrame plumbing."""

    def __init__(self, base_url: str, api_key: str, *, timeout: float, retry: RetryPolicy | None, max_request_bytes: int | None) -> None:
        if not api_key:
            raise ValueError("api_key is required (an hzn_... key; the first start of the server prints one)")
        self.base_url = base_url.rstrip("/")
        self.retry = retry or RetryPolicy()
        self.max_request_bytes = max_request_bytes or DEFAULT_MAX_REQUEST_BYTES
        self._headers = {"authorization": f"Bearer {api_key}", "user-agent": _user_agent(), "accept": "application/json"}
        self._timeout = timeout
        self._largest_accepted = 0  # bytes of the largest forecast body accepted so far

    def _should_retry(self, idempotent: bool, retry: bool | None) -> bool:
        return retry if retry is not None else (idempotent or self.retry.retry_non_idempotent)

    @staticmethod
    def _raise_for(response: httpx.Response) -> Any:
        if response.status_code >= 400:
            raise error_from_response(response.status_code, {k.lower(): v for k, v in response.headers.items()}, response.text)
        return response.json() if response.content else None

    def _plan(self, df: "pd.DataFrame", h: int, freq: str | None, model: str | None, quantiles: Sequence[float] | None,
              id_col: str, time_col: str, target_col: str, X_df: Any, static_df: Any, model_size: str | None,
              context: int | None) -> tuple[list[Any], list[dict[str, Any]], dict[str, Any]]:
        _frames.check_columns(df, id_col, time_col, target_col)
        code = _frames.contract_freq(freq) if freq else _frames.infer_freq(df, id_col, time_col)
        ids, series = _frames.frame_to_series(df, code, id_col, time_col, target_col, X_df, static_df)
        body: dict[str, Any] = {"horizon": int(h), "freq": code}
        if model is not None:
            body["model"] = model
        if model_size is not None:
            body["model_size"] = model_size
        if context is not None:
            body["context"] = int(context)
        if quantiles is not None:
            body["quantiles"] = [float(q) for q in quantiles]
        return ids, series, body

    def _plan_hierarchy(self, df: "pd.DataFrame", h: int, freq: str | None, model: str | None, quantiles: Sequence[float] | None,
                        id_col: str, time_col: str, target_col: str, X_df: Any, static_df: Any, model_size: str | None,
                        context: int | None, hier: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """(ids, body): ONE request of every series (a hierarchy is reconciled across all its series, so it is never split),
        the label columns taken out of df (they are not covariates) into `hierarchy`, plus the reconcile options."""
        _frames.check_columns(df, id_col, time_col, target_col)
        levels = _hierarchy.levels_of(hier["hierarchy"])
        columns = _hierarchy.label_columns(levels, df, id_col, time_col, target_col)
        ids, series, body = self._plan(df.drop(columns=columns), h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df,
                                       model_size, context)
        body["hierarchy"] = _hierarchy.hierarchy_body(df, ids, levels, id_col)
        body.update({k: v for k, v in hier.items() if k != "hierarchy" and v is not None})
        body["series"] = series
        return ids, body

    def _plan_cv(self, df: "pd.DataFrame", h: int, freq: str | None, models: Sequence[Any], quantiles: Sequence[float] | None,
                 id_col: str, time_col: str, target_col: str, static_df: Any, options: dict[str, Any],
                 hier: dict[str, Any] | None) -> tuple[list[Any], dict[str, Any]]:
        """(ids, body) of POST /v1/cross-validation: one request (the leaderboard ranks every series together)."""
        context = options.pop("context", None)
        if hier:
            ids, body = self._plan_hierarchy(df, h, freq, None, quantiles, id_col, time_col, target_col, None, static_df, None, context, hier)
        else:
            _frames.check_columns(df, id_col, time_col, target_col)
            ids, series, body = self._plan(df, h, freq, None, quantiles, id_col, time_col, target_col, None, static_df, None, context)
            body["series"] = series
        models = [models] if isinstance(models, (str, dict)) else list(models)
        body.update({"models": models, **{k: v for k, v in options.items() if v is not None}})
        return ids, body

    @staticmethod
    def _nodes(ids: list[Any], answer: dict[str, Any], id_col: str, time_col: str) -> "pd.DataFrame":
        frame = _hierarchy.nodes_frame(answer, ids, id_col, time_col)
        h = answer["hierarchy"]
        frame.attrs.update({"model": answer.get("model"), "model_size": answer.get("model_size"), "warnings": list(answer.get("warnings") or []),
                            "requests": 1, "hierarchy": {"method": h["method"], "intervals": h["intervals"], "warnings": h["warnings"]}})
        return frame

    @staticmethod
    def _cv(ids: list[Any], body: dict[str, Any], answer: dict[str, Any], id_col: str, time_col: str) -> "pd.DataFrame":
        frame = _hierarchy.cv_frame(answer, ids, body["series"], id_col, time_col)
        frame.attrs.update({"leaderboard": answer["leaderboard"], "scores": {m["model"]: m["scores"] for m in answer["models"]},
                            "warnings": answer["warnings"]})
        if "hierarchy" in body:
            frame.attrs["hierarchy"] = {m["model"]: {k: v for k, v in m["hierarchy"].items() if k != "nodes"} for m in answer["models"]}
        return frame

    def _chunks(self, series: Sequence[dict[str, Any]], body: dict[str, Any]) -> list[list[int]]:
        overhead = len(json.dumps({**body, "series": []}, separators=(",", ":"))) + 64
        return _frames.split_by_bytes(series, self.max_request_bytes, overhead)

    def _learn_limit(self, error: PayloadTooLargeError, series_sent: int, bytes_sent: int) -> None:
        """After a 413, a smaller limit for every later request of this client: the one the detail names
        when it names a plausible one, else half the body that was refused (413s are not charged)."""
        if series_sent <= 1:
            raise error
        match = _LIMIT_IN_413.search(error.detail)
        named = int(match.group(1)) if match else 0
        # a body this client already had accepted is known to fit: never go below it
        self.max_request_bytes = named if 1024 <= named < bytes_sent else max(bytes_sent // 2, self._largest_accepted)

    @staticmethod
    def _frame(ids: list[Any], predictions: list[dict[str, Any]], meta: dict[str, Any], id_col: str, time_col: str) -> "pd.DataFrame":
        frame = _frames.predictions_to_frame(ids, predictions, id_col, time_col)
        frame.attrs.update(meta)
        return frame

    @staticmethod
    def _merge(meta: dict[str, Any], response: dict[str, Any], offset: int) -> None:
        meta["model"] = response.get("model")
        meta["model_size"] = response.get("model_size")
        # warnings name a series by its position in the request: shift them to positions in df
        for w in response.get("warnings") or []:
            meta["warnings"].append({**w, "series": w["series"] + offset} if isinstance(w.get("series"), int) else w)
        meta["requests"] += 1

    @staticmethod
    def _job_done(job: dict[str, Any]) -> dict[str, Any]:
        if job["status"] == "completed":
            return job
        error = job.get("error") or {}
        raise JobFailedError(f"job {job['job_id']} {job['status']}: {error.get('detail', 'no detail')}", job=job, code=error.get("code"))


def _embeddings_body(series: Any, options: dict[str, Any], id_col: str, time_col: str, target_col: str) -> tuple[list[Any] | None, dict[str, Any]]:
    """POST /v1/embeddings' body from value sequences (None or NaN = missing) or a long DataFrame (each id's values in
    time order, ids in the order they first appear); with a frame, also its ids."""
    body = {name: value for name, value in options.items() if value is not None}
    if hasattr(series, "groupby") and hasattr(series, "columns"):  # a pandas DataFrame
        missing = [c for c in (id_col, target_col) if c not in series.columns]
        if missing:
            raise ValueError(f"df has no column {', '.join(map(repr, missing))} (id_col, target_col)")
        frame = series.sort_values(time_col, kind="stable") if time_col in series.columns else series
        groups = {key: group for key, group in frame.groupby(id_col, sort=False)}
        ids = list(dict.fromkeys(series[id_col]))
        body["series"] = [{"target": _frames._numbers(groups[i][target_col], f"{target_col} of {i!r}", True)} for i in ids]
        return ids, body
    body["series"] = [{"target": _frames._numbers(values, f"series[{k}]", True)} for k, values in enumerate(series)]
    return None, body


def _with_ids(answer: dict[str, Any], ids: list[Any] | None, id_col: str) -> dict[str, Any]:
    """The embeddings answer, each series' entry naming its DataFrame id under `id_col` (value sequences: as it came)."""
    if ids is not None:
        answer["embeddings"] = [{id_col: i, **e} for i, e in zip(ids, answer["embeddings"])]
    return answer


def _hierarchy_options(hierarchy: Any, reconcile: str | None, reconcile_intervals: str | None, reconcile_level: str | None) -> dict[str, Any] | None:
    options = {"hierarchy": hierarchy, "reconcile": reconcile, "reconcile_intervals": reconcile_intervals, "reconcile_level": reconcile_level}
    if hierarchy is None:
        given = [k for k, v in options.items() if v is not None]
        if given:
            raise ValueError(f"{given[0]}= reconciles a hierarchy: pass hierarchy= (the label columns, e.g. ['region', 'store']) too")
        return None
    return options


def _next_poll(interval: float, max_interval: float, response_headers: dict[str, str] | None) -> float:
    asked = retry_after_seconds(response_headers or {})
    return asked if asked is not None else min(max_interval, interval * 1.5)


class Horizon(_Base):
    """Synchronous client. `Horizon(base_url, api_key)`; use as a context manager or call close()."""

    def __init__(self, base_url: str, api_key: str, *, timeout: float = 300.0, retry: RetryPolicy | None = None,
                 max_request_bytes: int | None = None, http_client: httpx.Client | None = None) -> None:
        super().__init__(base_url, api_key, timeout=timeout, retry=retry, max_request_bytes=max_request_bytes)
        self._http = http_client or httpx.Client(timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Horizon":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, method: str, path: str, *, json_body: Any = None, params: dict[str, Any] | None = None,
                 idempotent: bool = True, retry: bool | None = None) -> tuple[Any, dict[str, str]]:
        attempt = 0
        retrying = self._should_retry(idempotent, retry)
        while True:
            response = self._http.request(method, f"{self.base_url}{path}", json=json_body, params=params, headers=self._headers)
            try:
                return self._raise_for(response), {k.lower(): v for k, v in response.headers.items()}
            except HorizonError as error:
                attempt += 1
                wait = self.retry.wait_for(attempt, error) if retrying else None
                if wait is None:
                    raise
                if self.retry.on_retry:
                    self.retry.on_retry(attempt, wait, error)
                self.retry.sleep(wait)

    # --- the API, as plain dicts (no pandas needed) ---

    def forecast_raw(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/forecast with a ForecastAPIRequest dict; returns the ForecastAPIResponse dict."""
        return self._request("POST", "/v1/forecast", json_body=body, retry=retry)[0]

    def series(self, series_id: str) -> "StoredSeries":
        """A handle on the account's stored series ``series_id`` (docs/stored-series.md); no request yet."""
        return StoredSeries(self, series_id)

    def list_series(self, *, page_size: int | None = None) -> Iterator[dict[str, Any]]:
        """Every stored series of the account (id, freq, points), page after page."""
        cursor: str | None = None
        while True:
            params = {k: v for k, v in (("limit", page_size), ("cursor", cursor)) if v is not None}
            page = self._request("GET", "/v1/series", params=params or None)[0]
            yield from page["series"]
            cursor = page["next_cursor"]
            if not cursor:
                return

    def create_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/forecast-jobs; returns {job_id, status: "queued", model, created_at}. Not retried unless asked."""
        return self._request("POST", "/v1/forecast-jobs", json_body=body, idempotent=False, retry=retry)[0]

    def get_job(self, job_id: str) -> dict[str, Any]:
        return self._request("GET", f"/v1/forecast-jobs/{job_id}")[0]

    def _poll(self, path: str, label: str, timeout: float | None, poll_interval: float, max_poll_interval: float, on_poll: Any = None) -> dict[str, Any]:
        """GET `path` until the job is terminal (completed: returned; failed/cancelled: JobFailedError); backs off
        up to max_poll_interval and honours Retry-After; JobTimeoutError once the next poll would pass `timeout`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        interval = poll_interval
        while True:
            job, headers = self._request("GET", path)
            if on_poll:
                on_poll(job)
            if job["status"] in _TERMINAL:
                return self._job_done(job)
            interval = _next_poll(interval, max_poll_interval, headers)
            if deadline is not None and time.monotonic() + interval > deadline:
                raise JobTimeoutError(f"{label} still {job['status']} after {timeout} s", job=job)
            time.sleep(interval)

    def wait_for_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2, max_poll_interval: float = 5.0) -> dict[str, Any]:
        """Polls until the job is completed (returned) or failed/cancelled (JobFailedError); backs off, honours Retry-After."""
        return self._poll(f"/v1/forecast-jobs/{job_id}", f"job {job_id}", timeout, poll_interval, max_poll_interval)

    def cancel_job(self, job_id: str) -> dict[str, Any]:
        return self._request("DELETE", f"/v1/forecast-jobs/{job_id}")[0]

    def list_jobs(self, *, status: str | None = None, page_size: int | None = None) -> Iterator[dict[str, Any]]:
        """Every job of the account, newest first, fetching the pages as it goes."""
        cursor = None
        while True:
            params = {k: v for k, v in (("status", status), ("limit", page_size), ("cursor", cursor)) if v is not None}
            page = self._request("GET", "/v1/forecast-jobs", params=params)[0]
            yield from page["jobs"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def models(self) -> dict[str, Any]:
        """GET /v1/models as the server sends it: {"models": [...], "default_model": ...}."""
        return self._request("GET", "/v1/models")[0]

    def warmup(self, model: str | None = None, model_size: str | None = None) -> dict[str, Any]:
        params = {k: v for k, v in (("model", model), ("model_size", model_size)) if v is not None}
        return self._request("GET", "/v1/warmup", params=params)[0]

    def status(self) -> dict[str, Any]:
        return self._request("GET", "/v1/status")[0]

    def create_api_key(self, name: str) -> dict[str, Any]:
        """POST /v1/api-keys; the answer holds the secret `key`, shown only once."""
        return self._request("POST", "/v1/api-keys", json_body={"name": name}, idempotent=False)[0]

    def list_api_keys(self) -> list[dict[str, Any]]:
        return self._request("GET", "/v1/api-keys")[0]["keys"]

    def revoke_api_key(self, key_id: str) -> None:
        self._request("DELETE", f"/v1/api-keys/{key_id}")

    # --- anomaly jobs (docs/api.md, "Anomaly detection") ---

    def create_anomaly_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/anomaly-jobs with a POST /v1/anomalies body; returns {job_id, status: "queued", model, model_size, mode, created_at}."""
        return self._request("POST", "/v1/anomaly-jobs", json_body=body, idempotent=False, retry=retry)[0]

    def get_anomaly_job(self, job_id: str) -> dict[str, Any]:
        return self._request("GET", f"/v1/anomaly-jobs/{job_id}")[0]

    def wait_for_anomaly_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2,
                             max_poll_interval: float = 5.0) -> dict[str, Any]:
        """Polls until the anomaly job completed (returned; `result` is the POST /v1/anomalies answer) or failed/cancelled (JobFailedError)."""
        return self._poll(f"/v1/anomaly-jobs/{job_id}", f"anomaly job {job_id}", timeout, poll_interval, max_poll_interval)

    def cancel_anomaly_job(self, job_id: str) -> dict[str, Any]:
        return self._request("DELETE", f"/v1/anomaly-jobs/{job_id}")[0]

    # --- embeddings (docs/api.md, "Embeddings") ---

    def embed(self, series: Any, *, model: str | None = None, model_size: str | None = None, granularity: str | None = None,
              context: int | None = None, id_col: str = "unique_id", time_col: str = "ds", target_col: str = "y",
              retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/embeddings: each series' vector from a model whose library gives embeddings (chronos, chronos-bolt, chronos-2,
        tirex; granularity="patch": also per patch). `series`: value sequences (None or NaN = missing), or a long DataFrame
        (id_col, target_col, sorted by time_col when it has one). Returns the answer: embeddings[i]["embedding"] is series i's
        vector; with a DataFrame each entry also names its id under id_col."""
        options = {"model": model, "model_size": model_size, "granularity": granularity, "context": context}
        ids, body = _embeddings_body(series, options, id_col, time_col, target_col)
        return _with_ids(self._request("POST", "/v1/embeddings", json_body=body, retry=retry)[0], ids, id_col)

    def create_embedding_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/embedding-jobs with a POST /v1/embeddings body (for answers over what one synchronous call may hold);
        returns {job_id, status: "queued", model, model_size, granularity, created_at}."""
        return self._request("POST", "/v1/embedding-jobs", json_body=body, idempotent=False, retry=retry)[0]

    def get_embedding_job(self, job_id: str) -> dict[str, Any]:
        return self._request("GET", f"/v1/embedding-jobs/{job_id}")[0]

    def wait_for_embedding_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2,
                               max_poll_interval: float = 5.0) -> dict[str, Any]:
        """Polls until the embedding job completed (returned; `result` is the POST /v1/embeddings answer) or failed/cancelled (JobFailedError)."""
        return self._poll(f"/v1/embedding-jobs/{job_id}", f"embedding job {job_id}", timeout, poll_interval, max_poll_interval)

    def cancel_embedding_job(self, job_id: str) -> dict[str, Any]:
        return self._request("DELETE", f"/v1/embedding-jobs/{job_id}")[0]

    # --- fine-tuning (docs/fine-tuning.md) ---

    def create_fine_tuning_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/fine-tuning-jobs with a fine-tuning request dict; returns the queued job (job_id, model_id, name)."""
        return self._request("POST", "/v1/fine-tuning-jobs", json_body=body, idempotent=False, retry=retry)[0]

    def get_fine_tuning_job(self, job_id: str) -> dict[str, Any]:
        return self._request("GET", f"/v1/fine-tuning-jobs/{job_id}")[0]

    def wait_for_fine_tuning_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.5,
                                 max_poll_interval: float = 5.0, on_poll: Any = None) -> dict[str, Any]:
        """Polls until the fine-tuning job completed (returned: its summary holds the validation WQL before and
        after) or failed/cancelled (JobFailedError); on_poll(job) sees each state and its progress."""
        return self._poll(f"/v1/fine-tuning-jobs/{job_id}", f"fine-tuning job {job_id}", timeout, poll_interval, max_poll_interval, on_poll)

    def cancel_fine_tuning_job(self, job_id: str) -> dict[str, Any]:
        return self._request("DELETE", f"/v1/fine-tuning-jobs/{job_id}")[0]

    def delete_model(self, model_id: str) -> None:
        """DELETE /v1/models/{id}: deletes one of the account's private (fine-tuned) models (by id or name)."""
        self._request("DELETE", f"/v1/models/{model_id}", idempotent=False)

    def fine_tune(self, df: "pd.DataFrame", h: int, model: str = "chronos-2", steps: int = 100, freq: str | None = None,
                  id_col: str = "unique_id", time_col: str = "ds", target_col: str = "y", X_df: "pd.DataFrame | None" = None,
                  static_df: "pd.DataFrame | None" = None, *, model_size: str | None = None, learning_rate: float | None = None,
                  mode: str | None = None, validation_windows: int | None = None, name: str | None = None, wait: bool = True,
                  timeout: float | None = None) -> dict[str, Any]:
        """Fine-tunes `model` on a long DataFrame's series (the forecast's format) into a private model of the
        account; returns the completed job (model_id, name, summary) or, with wait=False, the queued one."""
        _, series, body = self._plan(df, h, freq, model, None, id_col, time_col, target_col, X_df, static_df, model_size, None)
        body = {**body, "series": series, "steps": int(steps)}
        body.update({k: v for k, v in (("learning_rate", learning_rate), ("mode", mode), ("validation_windows", validation_windows), ("name", name)) if v is not None})
        job = self.create_fine_tuning_job(body)
        return self.wait_for_fine_tuning_job(job["job_id"], timeout=timeout) if wait else job

    # --- DataFrames ---

    def forecast(self, df: "pd.DataFrame", h: int = 24, freq: str | None = None, model: str | None = "auto-ets",
                 quantiles: Sequence[float] | None = (0.1, 0.5, 0.9), id_col: str = "unique_id", time_col: str = "ds",
                 target_col: str = "y", X_df: "pd.DataFrame | None" = None, static_df: "pd.DataFrame | None" = None,
                 *, model_size: str | None = None, context: int | None = None, hierarchy: Sequence[Any] | None = None,
                 reconcile: str | None = None, reconcile_intervals: str | None = None, reconcile_level: str | None = None) -> "pd.DataFrame":
        """Forecasts every series of a long DataFrame; returns id, ds, mean and one column per quantile.

        Other columns of df are historical covariates, X_df holds their future values, static_df one row
        per series. freq is inferred when omitted. Series are sent in as many requests as the server's
        body limit needs (each request is one unit of quota); frame.attrs has model, warnings, requests.

        hierarchy=["region", "store"] (label columns of df, constant per series, top down; or a list of levels) forecasts
        the hierarchy in one request and returns every node's rows instead: node, level, parent, id (bottom nodes),
        ds, the reconciled mean and quantiles, base_mean and base_<q> (docs/python-client.md).
        """
        hier = _hierarchy_options(hierarchy, reconcile, reconcile_intervals, reconcile_level)
        return self._run(False, df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context, None, hier)

    def forecast_job(self, df: "pd.DataFrame", h: int = 24, freq: str | None = None, model: str | None = "auto-ets",
                     quantiles: Sequence[float] | None = (0.1, 0.5, 0.9), id_col: str = "unique_id", time_col: str = "ds",
                     target_col: str = "y", X_df: "pd.DataFrame | None" = None, static_df: "pd.DataFrame | None" = None,
                     *, model_size: str | None = None, context: int | None = None, timeout: float | None = None,
                     hierarchy: Sequence[Any] | None = None, reconcile: str | None = None, reconcile_intervals: str | None = None,
                     reconcile_level: str | None = None) -> "pd.DataFrame":
        """forecast() through the job queue: submits every request as a job, waits for all, same frame."""
        hier = _hierarchy_options(hierarchy, reconcile, reconcile_intervals, reconcile_level)
        return self._run(True, df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context, timeout, hier)

    def cross_validation_raw(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/cross-validation with a request dict; returns the answer dict."""
        return self._request("POST", "/v1/cross-validation", json_body=body, retry=retry)[0]

    def create_cross_validation_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        """POST /v1/cross-validation-jobs (a POST /v1/cross-validation body); returns {job_id, status: "queued", models, created_at}."""
        return self._request("POST", "/v1/cross-validation-jobs", json_body=body, idempotent=False, retry=retry)[0]

    def get_cross_validation_job(self, job_id: str) -> dict[str, Any]:
        return self._request("GET", f"/v1/cross-validation-jobs/{job_id}")[0]

    def wait_for_cross_validation_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2,
                                      max_poll_interval: float = 5.0) -> dict[str, Any]:
        """Polls until the job completed (returned; `result` is the POST /v1/cross-validation answer) or failed/cancelled (JobFailedError)."""
        return self._poll(f"/v1/cross-validation-jobs/{job_id}", f"cross-validation job {job_id}", timeout, poll_interval, max_poll_interval)

    def cancel_cross_validation_job(self, job_id: str) -> dict[str, Any]:
        return self._request("DELETE", f"/v1/cross-validation-jobs/{job_id}")[0]

    def cross_validation(self, df: "pd.DataFrame", h: int, freq: str | None = None, models: Sequence[Any] = ("auto-ets",), n_windows: int = 1,
                         step: int | None = None, quantiles: Sequence[float] | None = (0.1, 0.5, 0.9), id_col: str = "unique_id",
                         time_col: str = "ds", target_col: str = "y", static_df: "pd.DataFrame | None" = None, *, refit: Any = None,
                         metric: str | None = None, season_length: int | None = None, context: int | None = None, hierarchy: Sequence[Any] | None = None,
                         reconcile: str | None = None, reconcile_intervals: str | None = None, reconcile_level: str | None = None,
                         as_job: bool = False, timeout: float | None = None) -> "pd.DataFrame":
        """POST /v1/cross-validation (as_job=True: its job) on a long DataFrame, in one request; returns every window's rows:
        model, id, ds, cutoff (the last date before the window), y, mean and quantiles; attrs: leaderboard, scores, warnings.
        With hierarchy= (as forecast's): every node's windows (node, level, parent, id, …, reconciled then base_ columns)
        and attrs["hierarchy"][model] the method, intervals, warnings and per-level base vs reconciled scores."""
        hier = _hierarchy_options(hierarchy, reconcile, reconcile_intervals, reconcile_level)
        options = {"n_windows": n_windows, "step": step, "refit": refit, "metric": metric, "season_length": season_length, "context": context}
        ids, body = self._plan_cv(df, h, freq, models, quantiles, id_col, time_col, target_col, static_df, options, hier)
        if as_job:
            answer = self.wait_for_cross_validation_job(self.create_cross_validation_job(body)["job_id"], timeout=timeout)["result"]
        else:
            answer = self.cross_validation_raw(body)
        return self._cv(ids, body, answer, id_col, time_col)

    def _run(self, as_job: bool, df: Any, h: int, freq: Any, model: Any, quantiles: Any, id_col: str, time_col: str,
             target_col: str, X_df: Any, static_df: Any, model_size: Any, context: Any, timeout: float | None,
             hier: dict[str, Any] | None = None) -> "pd.DataFrame":
        if hier:
            ids, body = self._plan_hierarchy(df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context, hier)
            answer = self.wait_for_job(self.create_job(body)["job_id"], timeout=timeout) if as_job else self.forecast_raw(body)
            return self._nodes(ids, answer, id_col, time_col)
        ids, series, body = self._plan(df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context)
        meta: dict[str, Any] = {"warnings": [], "requests": 0}
        predictions: list[dict[str, Any]] = []
        pending: list[tuple[int, str]] = []  # (offset, job id)
        done = 0
        while done < len(series):
            chunk = self._chunks(series[done:], body)[0]
            request = {**body, "series": [series[done + i] for i in chunk]}
            sent = len(json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode())  # as httpx sends it
            try:
                if as_job:
                    pending.append((done, self.create_job(request)["job_id"]))
                else:
                    response = self.forecast_raw(request)
                    self._merge(meta, response, done)
                    predictions.extend(s[0] for s in response["series"])
            except PayloadTooLargeError as error:
                self._learn_limit(error, len(chunk), sent)
                continue
            self._largest_accepted = max(self._largest_accepted, sent)
            done += len(chunk)
        for offset, job_id in pending:
            job = self.wait_for_job(job_id, timeout=timeout)
            self._merge(meta, job, offset)
            predictions.extend(s[0] for s in job["series"])
        return self._frame(ids, predictions, meta, id_col, time_col)


class AsyncHorizon(_Base):
    """The same calls as Horizon, awaitable (httpx.AsyncClient). forecast_job submits all jobs, then awaits them together."""

    def __init__(self, base_url: str, api_key: str, *, timeout: float = 300.0, retry: RetryPolicy | None = None,
                 max_request_bytes: int | None = None, http_client: httpx.AsyncClient | None = None) -> None:
        super().__init__(base_url, api_key, timeout=timeout, retry=retry, max_request_bytes=max_request_bytes)
        self._http = http_client or httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncHorizon":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _request(self, method: str, path: str, *, json_body: Any = None, params: dict[str, Any] | None = None,
                       idempotent: bool = True, retry: bool | None = None) -> tuple[Any, dict[str, str]]:
        attempt = 0
        retrying = self._should_retry(idempotent, retry)
        sleep = self.retry.async_sleep or asyncio.sleep
        while True:
            response = await self._http.request(method, f"{self.base_url}{path}", json=json_body, params=params, headers=self._headers)
            try:
                return self._raise_for(response), {k.lower(): v for k, v in response.headers.items()}
            except HorizonError as error:
                attempt += 1
                wait = self.retry.wait_for(attempt, error) if retrying else None
                if wait is None:
                    raise
                if self.retry.on_retry:
                    self.retry.on_retry(attempt, wait, error)
                await sleep(wait)

    async def forecast_raw(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        return (await self._request("POST", "/v1/forecast", json_body=body, retry=retry))[0]

    async def create_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        return (await self._request("POST", "/v1/forecast-jobs", json_body=body, idempotent=False, retry=retry))[0]

    async def get_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("GET", f"/v1/forecast-jobs/{job_id}"))[0]

    async def _poll(self, path: str, label: str, timeout: float | None, poll_interval: float, max_poll_interval: float, on_poll: Any = None) -> dict[str, Any]:
        """GET `path` until the job is terminal (completed: returned; failed/cancelled: JobFailedError); backs off
        up to max_poll_interval and honours Retry-After; JobTimeoutError once the next poll would pass `timeout`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        interval = poll_interval
        while True:
            job, headers = await self._request("GET", path)
            if on_poll:
                on_poll(job)
            if job["status"] in _TERMINAL:
                return self._job_done(job)
            interval = _next_poll(interval, max_poll_interval, headers)
            if deadline is not None and time.monotonic() + interval > deadline:
                raise JobTimeoutError(f"{label} still {job['status']} after {timeout} s", job=job)
            await asyncio.sleep(interval)

    async def wait_for_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2, max_poll_interval: float = 5.0) -> dict[str, Any]:
        return await self._poll(f"/v1/forecast-jobs/{job_id}", f"job {job_id}", timeout, poll_interval, max_poll_interval)

    async def cancel_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("DELETE", f"/v1/forecast-jobs/{job_id}"))[0]

    async def list_jobs(self, *, status: str | None = None, page_size: int | None = None) -> AsyncIterator[dict[str, Any]]:
        cursor = None
        while True:
            params = {k: v for k, v in (("status", status), ("limit", page_size), ("cursor", cursor)) if v is not None}
            page = (await self._request("GET", "/v1/forecast-jobs", params=params))[0]
            for job in page["jobs"]:
                yield job
            cursor = page.get("next_cursor")
            if not cursor:
                return

    async def models(self) -> dict[str, Any]:
        return (await self._request("GET", "/v1/models"))[0]

    async def warmup(self, model: str | None = None, model_size: str | None = None) -> dict[str, Any]:
        params = {k: v for k, v in (("model", model), ("model_size", model_size)) if v is not None}
        return (await self._request("GET", "/v1/warmup", params=params))[0]

    async def status(self) -> dict[str, Any]:
        return (await self._request("GET", "/v1/status"))[0]

    async def create_api_key(self, name: str) -> dict[str, Any]:
        return (await self._request("POST", "/v1/api-keys", json_body={"name": name}, idempotent=False))[0]

    async def list_api_keys(self) -> list[dict[str, Any]]:
        return (await self._request("GET", "/v1/api-keys"))[0]["keys"]

    async def revoke_api_key(self, key_id: str) -> None:
        await self._request("DELETE", f"/v1/api-keys/{key_id}")

    async def create_anomaly_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        return (await self._request("POST", "/v1/anomaly-jobs", json_body=body, idempotent=False, retry=retry))[0]

    async def get_anomaly_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("GET", f"/v1/anomaly-jobs/{job_id}"))[0]

    async def wait_for_anomaly_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2,
                                   max_poll_interval: float = 5.0) -> dict[str, Any]:
        return await self._poll(f"/v1/anomaly-jobs/{job_id}", f"anomaly job {job_id}", timeout, poll_interval, max_poll_interval)

    async def cancel_anomaly_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("DELETE", f"/v1/anomaly-jobs/{job_id}"))[0]

    async def embed(self, series: Any, *, model: str | None = None, model_size: str | None = None, granularity: str | None = None,
                    context: int | None = None, id_col: str = "unique_id", time_col: str = "ds", target_col: str = "y",
                    retry: bool | None = None) -> dict[str, Any]:
        options = {"model": model, "model_size": model_size, "granularity": granularity, "context": context}
        ids, body = _embeddings_body(series, options, id_col, time_col, target_col)
        return _with_ids((await self._request("POST", "/v1/embeddings", json_body=body, retry=retry))[0], ids, id_col)

    async def create_embedding_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        return (await self._request("POST", "/v1/embedding-jobs", json_body=body, idempotent=False, retry=retry))[0]

    async def get_embedding_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("GET", f"/v1/embedding-jobs/{job_id}"))[0]

    async def wait_for_embedding_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2,
                                     max_poll_interval: float = 5.0) -> dict[str, Any]:
        return await self._poll(f"/v1/embedding-jobs/{job_id}", f"embedding job {job_id}", timeout, poll_interval, max_poll_interval)

    async def cancel_embedding_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("DELETE", f"/v1/embedding-jobs/{job_id}"))[0]

    async def create_fine_tuning_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        return (await self._request("POST", "/v1/fine-tuning-jobs", json_body=body, idempotent=False, retry=retry))[0]

    async def get_fine_tuning_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("GET", f"/v1/fine-tuning-jobs/{job_id}"))[0]

    async def wait_for_fine_tuning_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.5,
                                       max_poll_interval: float = 5.0, on_poll: Any = None) -> dict[str, Any]:
        return await self._poll(f"/v1/fine-tuning-jobs/{job_id}", f"fine-tuning job {job_id}", timeout, poll_interval, max_poll_interval, on_poll)

    async def cancel_fine_tuning_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("DELETE", f"/v1/fine-tuning-jobs/{job_id}"))[0]

    async def delete_model(self, model_id: str) -> None:
        await self._request("DELETE", f"/v1/models/{model_id}", idempotent=False)

    async def forecast(self, df: "pd.DataFrame", h: int = 24, freq: str | None = None, model: str | None = "auto-ets",
                       quantiles: Sequence[float] | None = (0.1, 0.5, 0.9), id_col: str = "unique_id", time_col: str = "ds",
                       target_col: str = "y", X_df: "pd.DataFrame | None" = None, static_df: "pd.DataFrame | None" = None,
                       *, model_size: str | None = None, context: int | None = None, hierarchy: Sequence[Any] | None = None,
                       reconcile: str | None = None, reconcile_intervals: str | None = None, reconcile_level: str | None = None) -> "pd.DataFrame":
        hier = _hierarchy_options(hierarchy, reconcile, reconcile_intervals, reconcile_level)
        return await self._run(False, df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context, None, hier)

    async def forecast_job(self, df: "pd.DataFrame", h: int = 24, freq: str | None = None, model: str | None = "auto-ets",
                           quantiles: Sequence[float] | None = (0.1, 0.5, 0.9), id_col: str = "unique_id", time_col: str = "ds",
                           target_col: str = "y", X_df: "pd.DataFrame | None" = None, static_df: "pd.DataFrame | None" = None,
                           *, model_size: str | None = None, context: int | None = None, timeout: float | None = None,
                           hierarchy: Sequence[Any] | None = None, reconcile: str | None = None, reconcile_intervals: str | None = None,
                           reconcile_level: str | None = None) -> "pd.DataFrame":
        hier = _hierarchy_options(hierarchy, reconcile, reconcile_intervals, reconcile_level)
        return await self._run(True, df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context, timeout, hier)

    async def cross_validation_raw(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        return (await self._request("POST", "/v1/cross-validation", json_body=body, retry=retry))[0]

    async def create_cross_validation_job(self, body: dict[str, Any], *, retry: bool | None = None) -> dict[str, Any]:
        return (await self._request("POST", "/v1/cross-validation-jobs", json_body=body, idempotent=False, retry=retry))[0]

    async def get_cross_validation_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("GET", f"/v1/cross-validation-jobs/{job_id}"))[0]

    async def wait_for_cross_validation_job(self, job_id: str, *, timeout: float | None = None, poll_interval: float = 0.2,
                                            max_poll_interval: float = 5.0) -> dict[str, Any]:
        return await self._poll(f"/v1/cross-validation-jobs/{job_id}", f"cross-validation job {job_id}", timeout, poll_interval, max_poll_interval)

    async def cancel_cross_validation_job(self, job_id: str) -> dict[str, Any]:
        return (await self._request("DELETE", f"/v1/cross-validation-jobs/{job_id}"))[0]

    async def cross_validation(self, df: "pd.DataFrame", h: int, freq: str | None = None, models: Sequence[Any] = ("auto-ets",), n_windows: int = 1,
                               step: int | None = None, quantiles: Sequence[float] | None = (0.1, 0.5, 0.9), id_col: str = "unique_id",
                               time_col: str = "ds", target_col: str = "y", static_df: "pd.DataFrame | None" = None, *, refit: Any = None,
                               metric: str | None = None, season_length: int | None = None, context: int | None = None,
                               hierarchy: Sequence[Any] | None = None, reconcile: str | None = None, reconcile_intervals: str | None = None,
                               reconcile_level: str | None = None, as_job: bool = False, timeout: float | None = None) -> "pd.DataFrame":
        hier = _hierarchy_options(hierarchy, reconcile, reconcile_intervals, reconcile_level)
        options = {"n_windows": n_windows, "step": step, "refit": refit, "metric": metric, "season_length": season_length, "context": context}
        ids, body = self._plan_cv(df, h, freq, models, quantiles, id_col, time_col, target_col, static_df, options, hier)
        if as_job:
            job = await self.create_cross_validation_job(body)
            answer = (await self.wait_for_cross_validation_job(job["job_id"], timeout=timeout))["result"]
        else:
            answer = await self.cross_validation_raw(body)
        return self._cv(ids, body, answer, id_col, time_col)

    async def _run(self, as_job: bool, df: Any, h: int, freq: Any, model: Any, quantiles: Any, id_col: str, time_col: str,
                   target_col: str, X_df: Any, static_df: Any, model_size: Any, context: Any, timeout: float | None,
                   hier: dict[str, Any] | None = None) -> "pd.DataFrame":
        if hier:
            ids, body = self._plan_hierarchy(df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context, hier)
            if as_job:
                answer = await self.wait_for_job((await self.create_job(body))["job_id"], timeout=timeout)
            else:
                answer = await self.forecast_raw(body)
            return self._nodes(ids, answer, id_col, time_col)
        ids, series, body = self._plan(df, h, freq, model, quantiles, id_col, time_col, target_col, X_df, static_df, model_size, context)
        meta: dict[str, Any] = {"warnings": [], "requests": 0}
        predictions: list[dict[str, Any]] = []
        pending: list[tuple[int, str]] = []
        done = 0
        while done < len(series):
            chunk = self._chunks(series[done:], body)[0]
            request = {**body, "series": [series[done + i] for i in chunk]}
            sent = len(json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode())  # as httpx sends it
            try:
                if as_job:
                    pending.append((done, (await self.create_job(request))["job_id"]))
                else:
                    response = await self.forecast_raw(request)
                    self._merge(meta, response, done)
                    predictions.extend(s[0] for s in response["series"])
            except PayloadTooLargeError as error:
                self._learn_limit(error, len(chunk), sent)
                continue
            self._largest_accepted = max(self._largest_accepted, sent)
            done += len(chunk)
        jobs = await asyncio.gather(*(self.wait_for_job(job_id, timeout=timeout) for _, job_id in pending))
        for (offset, _), job in zip(pending, jobs):
            self._merge(meta, job, offset)
            predictions.extend(s[0] for s in job["series"])
        return self._frame(ids, predictions, meta, id_col, time_col)
