"""Schemathesis hooks for scripts/schemathesis.sh.

JSON Schema states every per-field rule of a forecast request (test/openapi.test.ts checks the document
says them), but not the rules that tie fields together, which the document states in prose:
`index` has one date per `target` value, ascending on the `freq` grid; hist variables have one value
per date; future variables come with a `future_variables_index` continuing the grid for at least
`horizon` steps and also have a history; `model` is a model this deployment serves and `model_size` one
of its sizes; a backtest needs observed values before and in its holdout. Random positive data breaks
one of these in nearly every case, so every positive case would be a 422 and the forecast path would
never be fuzzed (the same for POST /v1/cross-validation and its job: served `models`, and a history each window fits;
and POST /v1/anomalies (and /v1/anomaly-jobs): a served model, observed values, a history long enough to score). This hook makes POSITIVE cases keep those rules (values, lengths, types and the rest of
the generated body unchanged); negative cases are left alone, so rejection is still tested. And it
keeps the run from revoking its own API key (HORIZON_FUZZ_KEY_ID, set by scripts/schemathesis.sh).

One check of its own, error_is_problem_json: every 4xx and 5xx answer of every operation is problem+json
(contract B.8). content_type_conformance checks only statuses an operation documents, so an answer that
Fastify or Node wrote itself (a raw 414, an ERR_INVALID_CHAR 422 without a content type) would pass it.
"""
from __future__ import annotations

import copy
import datetime as dt
import json
import os
import uuid
from typing import Any

import schemathesis

# CPython 3.11's ast.parse can raise "SystemError: AST constructor recursion depth mismatch" when called
# deep in a stack (CPython gh-106905, fixed in 3.12). Hypothesis parses a lambda's source file only to
# describe the lambda in reprs; Schemathesis' coverage phase filters strategies with lambdas defined in
# its 4,500-line _schema.py, and the run then aborts with an internal error (seen in CI, not every run).
# The description is cosmetic: fall back to a plain one instead of failing the run.
from hypothesis.internal import lambda_sources as _lambda_sources

_describe_lambda = _lambda_sources.lambda_description


def _lambda_description_or_plain(f):
    try:
        return _describe_lambda(f)
    except SystemError:
        return "lambda: <source not parsed>"


_lambda_sources.lambda_description = _lambda_description_or_plain

# the core runtime group, served by every deployment without weights (auto-arima left out: slow)
SERVED_MODELS = ["naive", "seasonal-naive", "auto-ets", "auto-theta"]
FORECAST_PATHS = {"/v1/forecast", "/v1/forecast-jobs"}
CROSS_VALIDATION_PATHS = {"/v1/cross-validation", "/v1/cross-validation-jobs"}
AUTO_FIELDS = ("auto_candidates", "auto_scope", "auto_metric")


def _is_positive(case: Any) -> bool:
    meta = getattr(case, "meta", None)
    return meta is not None and meta.generation.mode.is_positive


def _dates(freq: str, start: int, count: int) -> list[str]:
    """Grid dates number start..start+count-1 from 2020-01-01 (H: hourly), as the calendar expects."""
    out = []
    for step in range(start, start + count):
        if freq == "H":
            out.append((dt.datetime(2020, 1, 1) + dt.timedelta(hours=step)).strftime("%Y-%m-%dT%H:%M:%S"))
        elif freq in ("D", "W"):
            out.append((dt.date(2020, 1, 1) + dt.timedelta(days=step * (7 if freq == "W" else 1))).isoformat())
        else:
            months = step * {"MS": 1, "Q": 3, "Y": 12}[freq]
            out.append(dt.date(2020 + months // 12, months % 12 + 1, 1).isoformat())
    return out


def _fit(values: list, length: int, fill: float = 0.0) -> list:
    return (list(values) + [fill] * length)[:length]


def _number(values: list) -> float:
    return next((v for v in values if isinstance(v, (int, float))), 1.0)


def _fix_forecast(body: dict) -> None:
    # inline series only: series_ids name stored series the fuzzing account does not have (each a 404), and
    # store needs them; finetune_steps needs a fine-tunable model (chronos-2), which this server lacks
    for field in ("series_ids", "store", "finetune_steps", "finetune_learning_rate"):
        body.pop(field, None)
    # multivariate and samples need a model whose library does them (chronos-2 …, chronos or a statistical model with
    # simulate), seed needs samples: their answers and 422s are tested in node (test/api.joint-and-samples.test.ts)
    # explain needs a model that uses covariates (chronos-2 …): tested in node (test/api.explain.test.ts)
    for field in ("multivariate", "samples", "seed", "explain"):
        body.pop(field, None)
    body.setdefault("series", [{"target": [1.0, 2.0, 3.0]}])
    body.setdefault("freq", "MS")  # optional only with series_ids
    freq = body["freq"]
    body["model"] = SERVED_MODELS[len(str(body.get("model", ""))) % len(SERVED_MODELS)]
    body.pop("model_size", None)
    if any(k in body for k in AUTO_FIELDS):
        # auto_* fields go with model "auto" only, whose candidates are distinct served models and
        # which takes no evaluation (both 422s are tested in node)
        body["model"] = "auto"
        if "auto_candidates" in body:
            body["auto_candidates"] = SERVED_MODELS[: max(1, min(len(body["auto_candidates"]), len(SERVED_MODELS)))]
        body.pop("evaluation", None)
        body.pop("prism_members", None)  # prism only (its 422 with another model is tested in node)
    elif "prism_members" in body:
        # prism_members go with model "prism" only, and name 2 to 6 distinct served models
        body["model"] = "prism"
        body["prism_members"] = SERVED_MODELS[: max(2, min(len(body["prism_members"]), len(SERVED_MODELS)))]
    body["horizon"] = int(min(body["horizon"], 24))  # JSON 3.0 is an integer too  # keeps runs short; the cap itself is tested in node
    evaluation = body.get("evaluation")
    holdout = None
    if isinstance(evaluation, dict):
        holdout = int(min(evaluation.get("holdout", body["horizon"]), 3))
        evaluation["holdout"] = holdout
        if "context" in body:
            body["context"] = int(max(body["context"], holdout + 2))
    for series in body["series"]:
        if body["model"] in ("auto", "prism"):
            # auto cross-validates only models that use every covariate sent, and this server serves none;
            # prism refuses covariates (its blend would drop them): both 422s are tested in node
            for field in ("hist_variables", "future_variables", "future_variables_index", "static_variables"):
                series.pop(field, None)
        target = series["target"]
        fill = _number(target)
        if holdout is not None:
            target[:0] = [fill] * max(0, holdout + 2 - len(target))
            target[-holdout - 1:] = [v if isinstance(v, (int, float)) else fill for v in target[-holdout - 1:]]
        if target[-1] is None:
            target[-1] = fill  # `context` keeps the last steps: they must hold a number
        if sum(isinstance(v, (int, float)) and not isinstance(v, bool) for v in target) < 2:
            target[:0] = [fill]  # a request's series needs two observed values (its 422 is tested in node)
        n = len(target)
        series["index"] = _dates(freq, 0, n)
        hist = series.get("hist_variables")
        future = series.get("future_variables")
        if isinstance(future, dict) and future or "future_variables_index" in series:
            future = future if isinstance(future, dict) else {}
            hist = hist if isinstance(hist, dict) else {}
            length = max([body["horizon"], *[len(v) for v in future.values()]])
            series["future_variables_index"] = _dates(freq, n, length)
            for name, values in future.items():
                future[name] = _fit(values, length)
                hist.setdefault(name, [0.0] * n)
            series["hist_variables"] = hist
        if isinstance(series.get("hist_variables"), dict):
            for name, values in series["hist_variables"].items():
                series["hist_variables"][name] = _fit(values, n, None)


RECONCILE_FIELDS = ("reconcile", "reconcile_intervals", "reconcile_level")


def _fix_hierarchy(body: dict) -> None:
    """A hierarchy's cross-field rules (docs/api.md "Hierarchies"), applied after the forecast's: one object of labels per
    series, nested levels, series that end on one date of one grid, no covariates, evaluation or explain, and
    reconcile_level only with middle_out. A generated hierarchy (any of labels+levels, aggregates, temporal) becomes
    labels {g, s} over the request's series (two groups, each series its own bottom node; a second series when there is
    one only), so that every positive case reaches the reconciliation; each form's own rules and 422s are tested in
    node (test/api.hierarchy.test.ts)."""
    if not isinstance(body.get("hierarchy"), dict):
        for field in RECONCILE_FIELDS:
            body.pop(field, None)  # a 422 without a hierarchy (tested in node)
        return
    for field in ("evaluation", "explain"):
        body.pop(field, None)
    series = body["series"]
    if len(series) == 1:
        series.append(copy.deepcopy(series[0]))
    length = max(len(s["target"]) for s in series)
    for s in series:
        for field in ("hist_variables", "future_variables", "future_variables_index", "static_variables"):
            s.pop(field, None)
        s["target"][:0] = [_number(s["target"])] * (length - len(s["target"]))
        s["index"] = _dates(body["freq"], 0, length)
    body["hierarchy"] = {"labels": [{"g": f"g{i % 2}", "s": f"s{i}"} for i in range(len(series))], "levels": [["g"], ["g", "s"]]}
    if isinstance(body.get("quantiles"), list):
        # each level needs a mirror 1 - q strictly inside (0, 1) (its 422 is tested in node)
        body["quantiles"] = [q for q in body["quantiles"] if not isinstance(q, (int, float)) or 1e-12 <= q <= 1 - 1e-12][:49]
    if body.get("reconcile") == "middle_out":
        body["reconcile_level"] = "g"
    else:
        body.pop("reconcile_level", None)


def _fix_cross_validation(body: dict) -> None:
    """A cross-validation body: the forecast rules, served models, and a history every window fits."""
    _fix_forecast(body)
    body.pop("model", None)
    body["models"] = [SERVED_MODELS[i % len(SERVED_MODELS)] for i in range(len(body["models"]))]
    body["n_windows"] = int(min(body.get("n_windows", 1), 3))
    body["step"] = int(min(body.get("step", body["horizon"]), 6))
    if "context" in body:
        body["context"] = int(max(body["context"], 8))
    span = body["horizon"] + (body["n_windows"] - 1) * body["step"]
    for series in body["series"]:
        target = series["target"]
        fill = _number(target)
        target[:0] = [fill] * max(0, span + 2 - len(target))
        target[-span - 1:] = [v if isinstance(v, (int, float)) else fill for v in target[-span - 1:]]
        n = len(target)
        series["index"] = _dates(body["freq"], 0, n)
        for name, values in (series.get("hist_variables") or {}).items():
            series["hist_variables"][name] = _fit(values, n, None)


def _fix_anomalies(body: dict) -> None:
    """An anomalies body: the forecast rules (`step` as the horizon), served model, observed values, and a
    history long enough to score (min_history at most 4), cut to its last 40 values to keep windows few. Mode
    in-sample scores one-step fits only (step 1; its 422 for another step is tested in node)."""
    step = 1 if body.get("mode") == "in-sample" else int(min(body.get("step", 1), 3))
    body["min_history"] = int(min(body.get("min_history", 4), 4))
    for series in body["series"]:
        fill = _number(series["target"])
        target = [v if isinstance(v, (int, float)) else fill for v in series["target"]][-40:]
        target[:0] = [fill] * max(0, body["min_history"] + step + 1 - len(target))
        series["target"] = target
    body["horizon"] = step
    _fix_forecast(body)
    body["step"] = body.pop("horizon")
    if body.get("mode") == "in-sample":
        body["step"] = 1
    if "detection_size" in body:
        # at most what the shortest series can score after its min_history + step - 1 values of history
        scorable = min(len(s["target"]) for s in body["series"]) - (body["min_history"] + body.get("step", 1) - 1)
        body["detection_size"] = int(max(1, min(body["detection_size"], scorable)))


def _fix_series_put(body: dict) -> None:
    """PUT /v1/series/{id}: one date per value on the freq grid, at least one number; no schedule/drift/webhook
    (their cross-field rules: forecast_every with schedule, a served model, webhook with drift)."""
    fill = _number(body["target"])
    body["target"] = [v if isinstance(v, (int, float)) else fill for v in body["target"]][:200]
    body["index"] = _dates(body["freq"], 0, len(body["target"]))
    for field in ("forecast_every", "schedule", "drift", "webhook"):
        body.pop(field, None)


PROBLEM_MEMBERS = ("type", "title", "status", "detail", "code", "request_id")


def kserve_error(response: Any, content_type: str, head: bytes) -> None:
    """KServe's time-series routes answer errors in KServe's shape (src/http/kserve/errors.ts): status "error",
    error.code the HTTP status as a string, and the X-Request-Id as request_id."""
    if not content_type.startswith("application/json"):
        raise AssertionError(f"{response.status_code} answered as {content_type or 'no content type'}, not application/json: {head!r}")
    body = json.loads(response.content)
    if body.get("status") != "error" or (body.get("error") or {}).get("code") != str(response.status_code) or not body["error"].get("message"):
        raise AssertionError(f"{response.status_code}: not KServe's error shape: {head!r}")
    if (response.headers.get("x-request-id") or [None])[0] != body.get("request_id"):
        raise AssertionError(f"request_id {body.get('request_id')} is not the X-Request-Id header")


@schemathesis.check
def error_is_problem_json(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 4xx or 5xx answer is application/problem+json with the contract's members, its status and request id."""
    if response.status_code < 400:
        return None
    content_type = (response.headers.get("content-type") or [""])[0]
    head = response.content[:300]
    # a method the path lacks is the app's 405 (problem+json), before any KServe route is reached
    if case.path.startswith("/v1/timeseries/") and response.status_code != 405:
        return kserve_error(response, content_type, head)
    if not content_type.startswith("application/problem+json"):
        raise AssertionError(f"{response.status_code} answered as {content_type or 'no content type'}, not application/problem+json: {head!r}")
    try:
        problem = json.loads(response.content)
    except ValueError:
        raise AssertionError(f"{response.status_code} problem+json that is not JSON: {head!r}") from None
    missing = [m for m in PROBLEM_MEMBERS if not isinstance(problem, dict) or m not in problem]
    if missing:
        raise AssertionError(f"{response.status_code} problem without {', '.join(missing)}: {head!r}")
    if problem["status"] != response.status_code:
        raise AssertionError(f"problem status {problem['status']} on a {response.status_code} answer")
    if (response.headers.get("x-request-id") or [None])[0] != problem["request_id"]:
        raise AssertionError(f"request_id {problem['request_id']} is not the X-Request-Id header")
    return None


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    path, method = case.operation.path, case.method.upper()
    if method == "DELETE" and path == "/v1/api-keys/{id}" and isinstance(case.path_parameters, dict):
        # revoking the run's own key would turn every later request into a 401 (any other id is fair game)
        if case.path_parameters.get("id") == os.environ.get("HORIZON_FUZZ_KEY_ID"):
            case.path_parameters = {**case.path_parameters, "id": str(uuid.uuid4())}
    if method == "PUT" and path == "/v1/series/{id}" and isinstance(case.body, dict) and getattr(case, "meta", None) is None:
        # the stateful phase's cases carry no generation mode; they are positive (built from links and examples)
        case.body = copy.deepcopy(case.body)
        _fix_series_put(case.body)
        return case
    if not _is_positive(case):
        return case
    if method == "POST" and path in FORECAST_PATHS and isinstance(case.body, dict):
        case.body = copy.deepcopy(case.body)  # bodies can share objects with other cases (examples)
        _fix_forecast(case.body)
        _fix_hierarchy(case.body)
    elif method == "POST" and path in CROSS_VALIDATION_PATHS and isinstance(case.body, dict):
        case.body = copy.deepcopy(case.body)
        _fix_cross_validation(case.body)
        _fix_hierarchy(case.body)
    elif method == "POST" and path in ("/v1/anomalies", "/v1/anomaly-jobs") and isinstance(case.body, dict):
        case.body = copy.deepcopy(case.body)
        _fix_anomalies(case.body)
    elif method == "PUT" and path == "/v1/series/{id}" and isinstance(case.body, dict):
        case.body = copy.deepcopy(case.body)
        _fix_series_put(case.body)
    elif method == "GET" and path == "/v1/warmup" and isinstance(case.query, dict):
        case.query = dict(case.query)
        case.query["model"] = SERVED_MODELS[0]
        case.query.pop("model_size", None)
    elif method == "GET" and path in ("/v1/forecast-jobs", "/v1/cross-validation-jobs", "/v1/anomaly-jobs", "/v1/embedding-jobs", "/v1/fine-tuning-jobs",
                                      "/v1/series") and isinstance(case.query, dict):
        case.query = dict(case.query)
        case.query.pop("cursor", None)  # only a next_cursor the API returned is a cursor
    return case
