"""Frequencies (pandas aliases to the API's codes, clear errors otherwise) and the client without pandas."""
from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from horizon_client import Horizon, contract_freq
from horizon_client._frames import infer_freq


@pytest.mark.parametrize("alias,code", [
    ("MS", "MS"), ("ME", "MS"), ("M", "MS"), ("D", "D"), ("W", "W"), ("W-MON", "W"), ("h", "H"), ("H", "H"),
    ("QS", "Q"), ("QE-DEC", "Q"), ("YS", "Y"), ("YE", "Y"), ("Y", "Y"),
])
def test_pandas_aliases(alias, code):
    assert contract_freq(alias) == code


@pytest.mark.parametrize("alias,message", [("2D", "multiple"), ("B", "not supported"), ("15min", "multiple"), ("min", "not supported"), ("nonsense", "not a frequency")])
def test_unsupported_frequencies(alias, message):
    with pytest.raises(ValueError, match=message):
        contract_freq(alias)


def frame(dates):
    return pd.DataFrame({"unique_id": "a", "ds": dates, "y": range(len(dates))})


def test_inference():
    assert infer_freq(frame(pd.date_range("2020-01-31", periods=5, freq="ME")), "unique_id", "ds") == "MS"
    assert infer_freq(frame(pd.date_range("2020-01-05", periods=5, freq="W-SUN")), "unique_id", "ds") == "W"
    with pytest.raises(ValueError, match="cannot infer"):
        infer_freq(frame(pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-05"])), "unique_id", "ds")
    with pytest.raises(ValueError, match="not supported"):
        infer_freq(frame(pd.date_range("2020-01-01", periods=5, freq="min")), "unique_id", "ds")
    mixed = pd.concat([frame(pd.date_range("2020-01-01", periods=4, freq="D")), frame(pd.date_range("2020-01-01", periods=4, freq="MS")).assign(unique_id="b")])
    with pytest.raises(ValueError, match="different frequencies"):
        infer_freq(mixed, "unique_id", "ds")


def test_bad_frames_say_what_is_wrong():
    c = Horizon("http://127.0.0.1:9", "hzn_x")  # never reached: the frame is refused first
    df = frame(pd.date_range("2020-01-01", periods=5, freq="D"))
    with pytest.raises(ValueError, match="no column 'value'"):
        c.forecast(df, target_col="value")
    X_df = pd.DataFrame({"unique_id": "a", "ds": pd.date_range("2020-01-06", periods=3), "price": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match=r"\['price'\] are not columns of df"):
        c.forecast(df, h=3, X_df=X_df)


def test_plain_dict_calls_without_pandas(server):
    script = f"""
import sys; sys.modules['pandas'] = None  # as if pandas were not installed
from horizon_client import Horizon
c = Horizon({server.url!r}, {server.key!r})
assert c.models()['models']
r = c.forecast_raw({{'series': [{{'target': [1, 2, 3], 'index': ['2020-01-01', '2020-01-02', '2020-01-03']}}], 'horizon': 2, 'freq': 'D', 'model': 'naive'}})
assert r['series'][0][0]['prediction']['mean'] == [3.0, 3.0], r
try:
    c.forecast(None, h=2)
except ImportError as e:
    assert "horizon-client[pandas]" in str(e); print('ok')
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr
