"""Stored series from Python (issue 25): client.series(...) creates from a DataFrame, appends new rows
(a retry changes nothing), forecasts by reference with store=True equal to the inline forecast, the
kept forecast is scored once its actuals are appended, and another account's series is NotFound."""
from __future__ import annotations

import time

import pandas as pd
import pytest

from horizon_client import Horizon, NotFoundError, ValidationError


def test_series_create_append_forecast_score(server, client: Horizon) -> None:
    dates = pd.date_range("2021-01-01", periods=40, freq="D")
    values = [100 + (i % 7) * 3 + i * 0.5 for i in range(40)]
    df = pd.DataFrame({"ds": dates, "y": values})
    s = client.series("py-shop")
    view = s.put(df.iloc[:30])
    assert (view["freq"], view["points"], view["last_date"]) == ("D", 30, "2021-01-30")
    appended = s.append(df.iloc[28:32])
    assert (appended["appended"], appended["unchanged"], appended["points"]) == (2, 2, 32)
    assert s.append(df.iloc[28:32])["appended"] == 0  # a retry is a no-op
    with pytest.raises(ValidationError) as refused:
        s.append(pd.DataFrame({"ds": [dates[31]], "y": [0.0]}))
    assert refused.value.errors[0]["field"] == "target[0]"
    history = s.history()
    assert list(history["y"]) == values[:32]

    kept = s.forecast(3, model="seasonal-naive", store=True)
    inline = client.forecast_raw({"series": [{"index": [d.strftime("%Y-%m-%d") for d in dates[:32]], "target": values[:32]}],
                                  "freq": "D", "horizon": 3, "model": "seasonal-naive"})
    assert kept["series"] == inline["series"]
    s.append(df.iloc[32:35])
    deadline = time.monotonic() + 60
    while s.accuracy()["overall"]["forecasts"] != 1:
        assert time.monotonic() < deadline, "the kept forecast was not scored"
        time.sleep(0.1)
    accuracy = s.accuracy()
    assert accuracy["models"][0]["model"] == "seasonal-naive"
    assert len(accuracy["overall"]["by_step"]) == 3
    assert [x["series_id"] for x in client.list_series(page_size=1)] == ["py-shop"]

    other = server.control("/account", {"daily": 100, "weekly": 1000})
    with Horizon(server.url, other["key"]) as stranger, pytest.raises(NotFoundError):
        stranger.series("py-shop").get()
    s.delete()
    with pytest.raises(NotFoundError):
        s.get()
