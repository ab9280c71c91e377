"""Horizon's KServe time-series protocol (src/http/kserve) checked with KServe's own pydantic types: each request is
built as a KServe ForecastRequest and sent as KServe serialises it (model_dump_json); each answer must validate as
KServe's ForecastResponse (errors also as its ErrorResponse), and its numbers are POST /v1/forecast's."""
from __future__ import annotations

import json
from types import ModuleType

from conftest import Server

AIR = [112.0, 118.0, 132.0, 129.0, 121.0, 135.0, 148.0, 148.0, 136.0, 119.0, 104.0, 118.0, 115.0, 126.0, 141.0, 135.0]


def send(server: Server, request: object, key: str | None = "") -> tuple[int, dict[str, str], dict]:
    return server.call("POST", "/v1/timeseries/forecast", json.loads(request.model_dump_json(exclude_none=True)), key=key)


def test_forecast_validates_as_kserve_forecast_response(server: Server, types: ModuleType) -> None:
    request = types.ForecastRequest(
        model="auto-ets",
        inputs=[
            types.TimeSeriesInput(type=types.TimeSeriesType.UNIVARIATE, name="air", series=AIR, frequency=types.Frequency.MONTH_SHORT,
                                  start_timestamp="1949-01-01T00:00:00Z"),
            types.TimeSeriesInput(type=types.TimeSeriesType.MULTIVARIATE, name="pair", series=[[v, v / 2] for v in AIR],
                                  frequency=types.Frequency.MONTH, start_timestamp="1949-01-01T00:00:00Z"),
        ],
        options=types.ForecastOptions(horizon=4, quantiles=[0.1, 0.5, 0.9]),
        metadata=types.Metadata(team="forecasting"),
    )
    status, _, body = send(server, request)
    assert status == 200, body
    response = types.ForecastResponse.model_validate(body)
    assert response.status == types.Status.COMPLETED
    assert response.model == "auto-ets"
    assert [o.content[0].name for o in response.outputs] == ["air", "pair"]
    air, pair = (o.content[0] for o in response.outputs)
    assert air.frequency == types.Frequency.MONTH_SHORT and air.type == types.TimeSeriesType.UNIVARIATE
    # the first forecast month, as KServe's own FREQUENCY_MAP advances the start by the series' length
    from datetime import datetime
    start = datetime.strptime("1949-01-01T00:00:00Z", "%Y-%m-%dT%H:%M:%SZ") + types.FREQUENCY_MAP["M"](len(AIR))
    assert air.start_timestamp == start.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert sorted(air.quantiles) == ["0.1", "0.5", "0.9"]

    index = [f"{1949 + k // 12}-{k % 12 + 1:02d}-01" for k in range(len(AIR))]
    v1_status, _, v1 = server.call("POST", "/v1/forecast", {
        "model": "auto-ets", "freq": "MS", "horizon": 4, "quantiles": [0.1, 0.5, 0.9],
        "series": [{"index": index, "target": AIR}, {"index": index, "target": [v / 2 for v in AIR]}],
    })
    assert v1_status == 200, v1
    first, half = (s[0]["prediction"] for s in v1["series"])
    assert air.mean_forecast == first["mean"]
    assert air.quantiles["0.9"] == first["0.9"]
    assert pair.mean_forecast == [[a, b] for a, b in zip(first["mean"], half["mean"])]


def test_errors_validate_as_kserve_error_and_forecast_response(server: Server, types: ModuleType) -> None:
    request = types.ForecastRequest(
        model="naive", options=types.ForecastOptions(horizon=2),
        inputs=[types.TimeSeriesInput(type=types.TimeSeriesType.UNIVARIATE, name="fast", series=[1.0, 2.0, 3.0], frequency=types.Frequency.SECOND)],
    )
    status, headers, body = send(server, request)
    assert status == 422
    error = types.ErrorResponse.model_validate(body).error
    assert error.code == "422" and error.param == "inputs[0].frequency"
    response = types.ForecastResponse.model_validate(body)
    assert response.status == types.Status.ERROR and response.outputs == []
    assert body["request_id"] == headers["x-request-id"]

    status, _, body = send(server, request, key=None)
    assert status == 401
    assert types.ErrorResponse.model_validate(body).error.code == "401"


def test_models_is_a_list_of_names(server: Server) -> None:
    status, _, body = server.call("GET", "/v1/timeseries/models")
    assert status == 200
    assert isinstance(body, list) and all(isinstance(name, str) for name in body)
    assert "naive" in body and "auto" in body
