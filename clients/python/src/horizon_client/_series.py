"""Stored series (docs/stored-series.md): ``client.series("id")`` is a handle on one series of the
account — create it from a DataFrame, append new rows, forecast it by reference, read its accuracy."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence
from urllib.parse import quote

from . import _frames

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ._client import Horizon


def _values(values: Any) -> list[float | None]:
    """Numbers for the API: NaN/None (pandas' missing) become null, which the API stores as missing."""
    out: list[float | None] = []
    for v in values:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            out.append(None)
        else:
            f = float(v)
            out.append(None if math.isnan(f) else f)
    return out


class StoredSeries:
    """One stored series. Every call is one request; the series' freq is read once and remembered."""

    def __init__(self, client: "Horizon", series_id: str) -> None:
        self.client = client
        self.series_id = series_id
        self._path = f"/v1/series/{quote(series_id, safe='')}"
        self._freq: str | None = None

    def _call(self, method: str, path: str = "", **kwargs: Any) -> Any:
        return self.client._request(method, f"{self._path}{path}", **kwargs)[0]

    def put(self, df: "pd.DataFrame", *, freq: str | None = None, time_col: str = "ds", target_col: str = "y",
            forecast_every: int | None = None, schedule: dict[str, Any] | None = None, drift: dict[str, Any] | None = None,
            webhook: dict[str, str] | None = None) -> dict[str, Any]:
        """Creates or replaces the series with the history in ``df`` (columns ``ds``, ``y``); returns its view."""
        code = _frames.contract_freq(freq) if freq else _frames.infer_freq(df.assign(_id=0), "_id", time_col)
        body: dict[str, Any] = {"freq": code, "index": _frames._date_strings(df[time_col], code), "target": _values(df[target_col])}
        for name, value in (("forecast_every", forecast_every), ("schedule", schedule), ("drift", drift), ("webhook", webhook)):
            if value is not None:
                body[name] = value
        view = self._call("PUT", json_body=body)
        self._freq = view["freq"]
        return view

    def append(self, df: "pd.DataFrame", *, time_col: str = "ds", target_col: str = "y") -> dict[str, Any]:
        """Appends the rows of ``df`` (``ds``, ``y``). Idempotent: rows already stored with the same values
        change nothing, so a retry is safe (and is retried on 429/503)."""
        freq = self._freq or self.get(tail=0, forecasts=0)["freq"]
        self._freq = freq
        body = {"index": _frames._date_strings(df[time_col], freq), "target": _values(df[target_col])}
        return self._call("POST", "/observations", json_body=body)

    def get(self, *, tail: int | None = None, forecasts: int | None = None) -> dict[str, Any]:
        """The series: the tail of its history, its latest stored forecasts (with actuals and scores) and events."""
        params = {k: v for k, v in (("tail", tail), ("forecasts", forecasts)) if v is not None}
        view = self._call("GET", params=params or None)
        self._freq = view["freq"]
        return view

    def history(self, *, tail: int | None = None) -> "pd.DataFrame":
        """The stored history as a DataFrame (``ds``, ``y``; a missing value is NaN)."""
        pd = _frames._pandas()
        view = self.get(tail=tail, forecasts=0)
        return pd.DataFrame({"ds": pd.to_datetime(view["index"]), "y": [math.nan if v is None else v for v in view["target"]]})

    def forecast(self, h: int, *, model: str | None = None, quantiles: Sequence[float] | None = None, store: bool = False,
                 **extra: Any) -> dict[str, Any]:
        """POST /v1/forecast by reference (``series_ids``); ``store=True`` keeps it for scoring."""
        body: dict[str, Any] = {"series_ids": [self.series_id], "horizon": int(h), "store": store, **extra}
        if model is not None:
            body["model"] = model
        if quantiles is not None:
            body["quantiles"] = [float(q) for q in quantiles]
        return self.client.forecast_raw(body)

    def accuracy(self, *, window: int | None = None) -> dict[str, Any]:
        """Rolling accuracy of the series' scored forecasts (overall, per model, per horizon step)."""
        return self._call("GET", "/accuracy", params={"window": window} if window else None)

    def delete(self) -> dict[str, Any]:
        return self._call("DELETE")
