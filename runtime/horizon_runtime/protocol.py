"""Request bodies of docs/runtime-protocol.md: parsing, validation and the error type.

The control plane has already validated everything, so a body that fails here is a control-plane
bug and answers 400 bad_request; the checks are still complete because a wrong shape would
otherwise surface as a confusing model error.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

import numpy as np

from .adapters.base import Embedding, SeriesInput
from .errors import ProtocolError  # re-exported: the worker's modules import it from here
from .catalog import Catalog, CatalogModel
from .quantiles import quantile_key


MAX_SAMPLES = 10_000  # sample paths per series (the Nixtla SDK's simulate allows 1-10,000)


def bad_request(detail: str) -> ProtocolError:
    return ProtocolError(400, "bad_request", detail)


@dataclass(frozen=True)
class InferRequest:
    model: CatalogModel
    size: str
    freq: str
    horizon: int
    quantiles: tuple[float, ...]  # ascending, distinct: the batch key and the adapter's rows
    quantile_rows: tuple[tuple[str, int], ...]  # (response key, row in `quantiles`) in request order
    series: list[SeriesInput]
    ignored_covariates: tuple[str, ...]  # kinds ("past", ...) sent but not used by this model
    base64_output: bool = False  # "encoding": "base64": answer every array as a base64 float64 string
    float32_output: bool = False  # "float32": true: with base64, float32 bytes when every answer value is one
    # "multivariate": true: the request's series are forecast jointly, as one group (adapters with supports_joint)
    joint: bool = False
    # "samples": N > 0: each prediction also carries N sample paths (adapters with supports_samples)
    samples: int = 0
    seed: int | None = None  # "seed": with samples, mixed into each series' sampling seed
    explain: bool = False  # "explain": true: also each covariate's contribution to the mean (explain.py)


def json_object(value, what: str = "the body") -> dict:
    if not isinstance(value, dict):
        raise bad_request(f"{what} must be a JSON object")
    return value


def _string(body: dict, name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str):
        raise bad_request(f"'{name}' must be a string")
    return value


def resolve_model(body: dict, catalog: Catalog, group: str) -> tuple[CatalogModel, str]:
    """The catalog entry and size named by body's "model" and "size" (404 when unknown here)."""
    model_id = _string(body, "model")
    size = _string(body, "size")
    model = catalog.models.get(model_id)
    if model is None:
        from .private_models import find_private  # a fine-tuned model on disk (private_models.py)

        model = find_private(model_id, catalog)
    if model is None:
        raise ProtocolError(404, "unknown_model", f"model '{model_id}' is not in the catalog")
    if model.group != group:
        raise ProtocolError(
            404, "unknown_model", f"model '{model_id}' is served by runtime group '{model.group}', not '{group}'"
        )
    if size not in model.sizes:
        raise ProtocolError(
            404, "unknown_size", f"model '{model_id}' has no size '{size}' (sizes: {', '.join(model.sizes)})"
        )
    return model, size


_NUMBER_TYPES = frozenset((float, int))
_NUMBER_OR_NULL_TYPES = frozenset((float, int, type(None)))


def _values(values, what: str, length: int | None) -> np.ndarray:
    """A value array as float64, NaN for missing: either a JSON array of numbers and nulls, or a string,
    the base64 of little-endian float64 values with NaN for missing (what the control plane sends:
    decoding it costs a fraction of parsing the same numbers from JSON).

    JSON arrays: one C-level pass collects the element types (bool, str, list... are refused; bool is
    not int here); arrays without nulls then convert with np.fromiter, about twice as fast as np.array.
    """
    if isinstance(values, str):
        array = _base64_values(values, what)
    elif isinstance(values, list):
        kinds = set(map(type, values))
        if kinds <= _NUMBER_TYPES:
            array = np.fromiter(values, dtype=np.float64, count=len(values))
        elif kinds <= _NUMBER_OR_NULL_TYPES:
            array = np.array(values, dtype=np.float64)
        else:
            value = next(v for v in values if type(v) not in _NUMBER_OR_NULL_TYPES)
            raise bad_request(f"{what} holds {value!r}; expected numbers or null")
    else:
        raise bad_request(f"{what} must be an array or a base64 string of float64 values")
    if length is not None and array.size != length:
        raise bad_request(f"{what} has {array.size} values, expected {length}")
    return array


def _base64_values(text: str, what: str) -> np.ndarray:
    try:
        raw = binascii.a2b_base64(text, strict_mode=True)  # C-level strictness (b64decode's validate= is a regex)
    except (binascii.Error, ValueError):
        raise bad_request(f"{what} is not valid base64") from None
    if len(raw) % 8:
        raise bad_request(f"{what} holds {len(raw)} bytes, not a whole number of float64 values")
    array = np.frombuffer(raw, dtype="<f8").astype(np.float64)  # a writable, native-order copy
    if np.isinf(array).any():
        raise bad_request(f"{what} holds an infinite value; expected numbers or NaN for missing")
    return array


def encode_values(array: np.ndarray) -> str:
    """The base64 of `array` as little-endian float64 (the response side of the base64 encoding)."""
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f8").tobytes()).decode("ascii")


def encode_predictions(
    predictions, quantile_rows: tuple[tuple[str, int], ...], horizon: int, float32: bool
) -> tuple[list[dict], str]:
    """The "predictions" of a base64 answer and its "dtype". Every array of the answer goes into one
    (series, 1 + quantiles, horizon) float64 block; with `float32` asked for and every value of the block
    exactly a float32 (what float32 models give: their float64 arrays are widened float32 values), the
    block is sent as little-endian float32 — half the bytes, and float32 -> float64 on the other side
    gives back the very same doubles. Otherwise (a statistical model, an interpolated quantile level)
    the answer stays float64. One conversion and one comparison for the whole answer, not per array."""
    keys = [key for key, _ in quantile_rows]
    rows = [row for _, row in quantile_rows]
    block = np.empty((len(predictions), 1 + len(rows), horizon), dtype="<f8")
    for index, prediction in enumerate(predictions):
        block[index, 0] = prediction.mean
        block[index, 1:] = prediction.quantiles[rows]
    dtype = "float64"
    if float32:
        narrow = block.astype("<f4")
        if np.array_equal(narrow, block):  # all finite (checked before): equal means exact
            block, dtype = narrow, "float32"
    raw = memoryview(block.tobytes())
    step = horizon * block.itemsize
    arrays = [binascii.b2a_base64(raw[i * step:(i + 1) * step], newline=False).decode("ascii")
              for i in range(block.shape[0] * block.shape[1])]
    width = 1 + len(rows)
    answers = [
        {"mean": arrays[i * width], "quantiles": dict(zip(keys, arrays[i * width + 1:(i + 1) * width]))}
        for i in range(len(predictions))
    ]
    for answer, prediction in zip(answers, predictions):
        # float64 always: few values (backtest), or NaN where nothing is fitted (in_sample): never worth a second format
        if prediction.backtest:
            answer["backtest"] = [encoded_forecast(mean, q, quantile_rows) for mean, q in prediction.backtest]
        if prediction.in_sample is not None:
            answer["in_sample"] = encoded_forecast(*prediction.in_sample, quantile_rows)
        if prediction.samples is not None:  # one base64 float64 string of (paths, horizon) values, path after path
            answer["samples"] = encode_values(prediction.samples)
    return answers, dtype


def encoded_forecast(mean: np.ndarray, quantiles: np.ndarray, quantile_rows: tuple[tuple[str, int], ...]) -> dict:
    """{"mean", "quantiles"} of one backtest or in-sample forecast as base64 float64 (NaN stays NaN)."""
    return {"mean": encode_values(mean), "quantiles": {key: encode_values(quantiles[row]) for key, row in quantile_rows}}


def _covariates(raw, what: str, length: int) -> dict[str, np.ndarray]:
    if raw is None:
        return {}
    return {
        name: _values(values, f"{what}['{name}']", length)
        for name, values in json_object(raw, what).items()
    }


def _series(raw, index: int, horizon: int, max_context: int) -> SeriesInput:
    what = f"series[{index}]"
    entry = json_object(raw, what)
    values = _values(entry.get("target"), f"{what}.target", None)
    if values.size == 0:
        raise bad_request(f"{what}.target must not be empty")
    if values.size > max_context:
        raise bad_request(f"{what}.target has {values.size} values, more than max_context {max_context}")
    if np.isnan(values).all():  # missing values are NaN (JSON null, or NaN in base64)
        raise bad_request(f"{what}.target has no value, only missing ones")
    past = _covariates(entry.get("past_covariates"), f"{what}.past_covariates", values.size)
    future = _covariates(entry.get("future_covariates"), f"{what}.future_covariates", horizon)
    not_past = sorted(set(future) - set(past))
    if not_past:
        raise bad_request(f"{what}.future_covariates {not_past} are not in past_covariates")
    static = {}
    for name, value in json_object(entry.get("static_covariates") or {}, f"{what}.static_covariates").items():
        if type(value) is not float and type(value) is not int:
            raise bad_request(f"{what}.static_covariates['{name}'] must be a number")
        static[name] = float(value)
    dates = _dates(entry.get("index"), f"{what}.index", values.size)
    forecast_dates = _dates(entry.get("forecast_index"), f"{what}.forecast_index", horizon)
    if (dates is None) != (forecast_dates is None):
        raise bad_request(f"{what}: index and forecast_index come together")
    in_sample = entry.get("in_sample", False)
    if type(in_sample) is not bool:
        raise bad_request(f"{what}.in_sample must be true or false, got {in_sample!r}")
    return SeriesInput(
        values, past, future, static, dates, forecast_dates, _backtest(entry.get("backtest"), what, values), in_sample
    )


def _backtest(raw, what: str, values: np.ndarray) -> tuple[int, int, int, str] | None:
    """A series' optional {"window": w, "origins": K, "step": s (default w), "refit": "none" | "form"}: the w
    values from each of the K cutoffs n - w - (k-1)·s (k = 1..K) are forecast too, from the values before
    the cutoff (docs/runtime-protocol.md "backtest")."""
    if raw is None:
        return None
    entry = json_object(raw, f"{what}.backtest")
    window, origins, step = entry.get("window"), entry.get("origins"), entry.get("step", entry.get("window"))
    for name, value, least in (("window", window, 1), ("origins", origins, 0), ("step", step, 1)):
        if type(value) is not int or value < least:
            raise bad_request(f"{what}.backtest.{name} must be an integer >= {least}, got {value!r}")
    refit = entry.get("refit", "none")
    if refit not in ("none", "form"):
        raise bad_request(f"{what}.backtest.refit must be \"none\" or \"form\", got {refit!r}")
    if not origins:
        return None
    earliest = values.size - window - (origins - 1) * step
    if not np.isfinite(values[: max(earliest, 0)]).any():
        raise bad_request(f"{what}.backtest: no observed value precedes its earliest cutoff ({earliest})")
    return window, origins, step, refit


def _dates(raw, what: str, length: int) -> tuple[str, ...] | None:
    """Optional ISO 8601 dates (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z]), one per value."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != length:
        raise bad_request(f"{what} must be an array of {length} dates")
    for date in raw:
        try:
            if not isinstance(date, str):
                raise ValueError
            np.datetime64(date[:-1] if date.endswith("Z") else date)
        except ValueError:
            raise bad_request(f"{what} holds {date!r}; expected an ISO 8601 date") from None
    return tuple(raw)


def parse_infer_request(body: dict, model: CatalogModel, size: str, catalog: Catalog) -> InferRequest:
    """The rest of an /infer body whose model and size `resolve_model` found."""
    caps = model.sizes[size]

    freq = _string(body, "freq")
    if freq not in catalog.season_length:
        raise bad_request(f"'freq' must be one of {', '.join(catalog.season_length)}, got '{freq}'")

    horizon = body.get("horizon")
    if type(horizon) is not int or not 1 <= horizon <= caps.max_horizon:
        raise bad_request(f"'horizon' must be an integer from 1 to {caps.max_horizon}, got {horizon!r}")

    requested = body.get("quantiles")
    if not isinstance(requested, list):
        raise bad_request("'quantiles' must be an array")
    for q in requested:
        if (type(q) is not float and type(q) is not int) or not 0.0 < q < 1.0:
            raise bad_request(f"each quantile must be a number strictly between 0 and 1, got {q!r}")
    levels = tuple(sorted({float(q) for q in requested}))
    rows = {quantile_key(q): levels.index(float(q)) for q in requested}

    raw_series = body.get("series")
    if not isinstance(raw_series, list) or not raw_series:
        raise bad_request("'series' must be a non-empty array")
    series = [_series(raw, i, horizon, caps.max_context) for i, raw in enumerate(raw_series)]
    sent = {
        # for a model that uses known-future covariates, their history is part of them, not past-only
        "past": any(set(s.past_covariates) - (set(s.future_covariates) if model.covariates.get("future") else set())
                    for s in series),
        "future": any(s.future_covariates for s in series),
        "static": any(s.static_covariates for s in series),
    }
    ignored = tuple(kind for kind, present in sent.items() if present and not model.covariates.get(kind))
    encoding = body.get("encoding", "json")
    if encoding not in ("json", "base64"):
        raise bad_request(f"'encoding' must be 'json' or 'base64', got {encoding!r}")
    float32 = body.get("float32", False)
    if type(float32) is not bool:
        raise bad_request(f"'float32' must be true or false, got {float32!r}")
    joint = body.get("multivariate", False)
    if type(joint) is not bool:
        raise bad_request(f"'multivariate' must be true or false, got {joint!r}")
    samples = body.get("samples", 0)
    if type(samples) is not int or not 0 <= samples <= MAX_SAMPLES:
        raise bad_request(f"'samples' must be an integer from 0 to {MAX_SAMPLES}, got {samples!r}")
    seed = body.get("seed")
    if seed is not None and (type(seed) is not int or not -(2**63) <= seed < 2**63):
        raise bad_request(f"'seed' must be a 64-bit integer or null, got {seed!r}")
    return InferRequest(
        model, size, freq, horizon, levels, tuple(rows.items()), series, ignored, encoding == "base64", float32,
        joint=joint, samples=samples, seed=seed, explain=_explain(body, series, model),
    )


def _explain(body: dict, series: list[SeriesInput], model: CatalogModel) -> bool:
    """The "explain" flag: an explanation needs a model that uses covariates and at most MAX_FEATURES per series (2^M
    evaluations each)."""
    from .explain import MAX_FEATURES, features_of

    explain = body.get("explain", False)
    if type(explain) is not bool:
        raise bad_request(f"'explain' must be true or false, got {explain!r}")
    if explain and (body.get("multivariate") is True or body.get("samples")):
        raise bad_request("'explain' with 'multivariate' or 'samples': each coalition is a forecast of its own series")
    if explain and not any(model.covariates.values()):
        raise bad_request(f"'explain': {model.id} uses no covariates, its forecast has no feature to explain")
    for index, one in enumerate(series if explain else []):
        if len(features_of(one)) > MAX_FEATURES:
            raise bad_request(f"'explain': series[{index}] has {len(features_of(one))} covariates, more than {MAX_FEATURES}")
    return explain


GRANULARITIES = ("series", "patch")


@dataclass(frozen=True)
class EmbedRequest:
    model: CatalogModel
    size: str
    series: list[SeriesInput]  # targets only
    patches: bool  # "granularity": "patch"
    base64_output: bool = False  # "encoding": "base64": every array as the base64 of its float32 values


def parse_embed_request(body: dict, model: CatalogModel, size: str) -> EmbedRequest:
    """The rest of a /embed body whose model and size `resolve_model` found (docs/runtime-protocol.md, POST /embed)."""
    caps = model.sizes[size]
    raw_series = body.get("series")
    if not isinstance(raw_series, list) or not raw_series:
        raise bad_request("'series' must be a non-empty array")
    series = []
    for index, raw in enumerate(raw_series):
        what = f"series[{index}]"
        values = _values(json_object(raw, what).get("target"), f"{what}.target", None)
        if values.size == 0 or values.size > caps.max_context:
            raise bad_request(f"{what}.target has {values.size} values; expected 1 to max_context {caps.max_context}")
        if np.isnan(values).all():
            raise bad_request(f"{what}.target has no value, only missing ones")
        series.append(SeriesInput(values, {}, {}, {}))
    granularity = body.get("granularity", "series")
    if granularity not in GRANULARITIES:
        raise bad_request(f"'granularity' must be one of {', '.join(GRANULARITIES)}, got {granularity!r}")
    encoding = body.get("encoding", "json")
    if encoding not in ("json", "base64"):
        raise bad_request(f"'encoding' must be 'json' or 'base64', got {encoding!r}")
    return EmbedRequest(model, size, series, granularity == "patch", encoding == "base64")


def _float32_base64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f4").tobytes()).decode("ascii")


def encode_embeddings(embeddings: list[Embedding], base64_output: bool) -> list[dict]:
    """The "embeddings" of an /embed answer: per series its "vector" and, with patches, "patches" (rows, oldest first)
    and "summary" (null where the model has no summary token). base64: each array the base64 of its little-endian
    float32 values (the patches row after row); the values are float32 (the models' own), so nothing is lost."""
    encode = _float32_base64 if base64_output else (lambda array: array)
    out = []
    for embedding in embeddings:
        entry: dict = {"vector": encode(embedding.vector)}
        if embedding.patches is not None:
            entry["patches"] = encode(embedding.patches)
            entry["summary"] = None if embedding.summary is None else encode(embedding.summary)
        out.append(entry)
    return out
