"""TabPFN-TS (`tabpfn-ts`): the official `TabPFNTSPipeline` (tabpfn-time-series 1.3.0, tabpfn 9.2.0) in
LOCAL mode on one TabPFN checkpoint file.

Checkpoint. tabpfn-time-series 1.3.0 pins TabPFN v3.5 (`defaults.TABPFN_MODEL_VERSION`), whose default
file is `tabpfn-v3.5-20260909.safetensors` from HF `Prior-Labs/tabpfn_3_5` (config inside the
safetensors header). The weights directory (HORIZON_MODEL_DIR/tabpfn-ts/<size>/ or the HF cache
snapshot) holds that file, or any one `*.safetensors`/`*.ckpt` TabPFN regressor file; it goes to the
pipeline as `model_path`, so nothing is downloaded. The weights are non-commercial (licence opt-in).

How a batch runs. Each series is its own TabPFN regression: the context rows (calendar, running-index
and seasonal features, plus known-future covariates) are the training set, the horizon rows the test
set. The library's CPU worker fits the series in a joblib loky *process* pool (`n_jobs=min(8, series)`):
inside our worker that means a pool of up to 8 processes, each importing torch and tabpfn and
loading its own copy of the model, started on the first call (11-80 s measured here on 2 cores),
kept while busy and stopped after loky's 300 s idle timeout, so a quiet service pays the start-up
again. We therefore give the pipeline the library's own `CPUParallelWorker` with `num_workers=1`:
joblib then runs the series one after the other in the calling (predict) thread, torch's intra-op
threads use the cores, and there is one model in memory. On CUDA the library's `GPUParallelWorker`
with one GPU, which is in-process too. TABPFN_MODEL_CACHE_SIZE defaults to 1 here, so the built model
is reused by every series instead of being rebuilt per fit (tabpfn's own cache; the checkpoint file
is cached by tabpfn anyway). Results are identical to the pool's (checked: 0.0 difference). A lock
serialises this adapter's batches (the built model is shared by reference).

Batch independence. Every series gets a fresh `TabPFNRegressor` with the library's fixed
`random_state=0`, its features are computed per item, and series are grouped by their covariate
names, one `predict_df` per group, so a series sees the same columns alone or in any batch: its
forecast is bitwise the same.

Timestamps. The calendar features need the series' dates: the catalog marks tabpfn-ts "uses_dates",
so the control plane sends each series' `index` (the dates of its target values) and `forecast_index`
(the horizon's dates), exactly the dates of the API request and response, and they become the frames'
`timestamp` columns (UTC, without the zone). A body without them (the worker's own protocol allows
that) gets a regular index of its freq whose first forecast step is 2001-01-01 00:00 (a Monday, and a
year start, so it lies on every grid: h, D, W-MON, MS, QS, YS), at second resolution so that long
yearly or monthly series stay in range: the seasonal structure survives, the real calendar's position
(month lengths, leap days, the year) does not.

Missing targets: as the library does (rows with a NaN target are dropped before featurising; a
series with at most one value gets 0 for its NaNs). Context length: the pipeline keeps the last
`max_context_length` rows, the catalog's max_context (32768, the library default). On the CPU, tabpfn
refuses more than 5000 training rows (`cpu_sample_limit` for v3+) unless
TABPFN_ALLOW_CPU_LARGE_DATASET is set; without it the context is cut to the last 5000 observed
values, with a warning, rather than failing the request. Horizon: any; the forecast rows are
predicted at once (no autoregression), the catalog caps it at 1024.

Covariates: known-future only (catalog past false, future true, static false): each
`future_covariates` name becomes a column of the context (its past values) and of the future frame.
Past-only and static covariates are not passed (the library would drop them).

Output: `mean` is the pipeline's `target` column, TabPFN's median (`tabpfn_output_selection="median"`),
not the mean of the predicted distribution. TabPFN predicts a distribution (a bar distribution over
the target), so every requested level in (0, 1) is computed natively from it, with no
interpolation. Levels are sorted at each step (the protocol's monotone promise).

Telemetry: TABPFN_DISABLE_TELEMETRY=1 is set before tabpfn is imported (it would otherwise send
usage events and fetch its configuration from the network).
"""

from __future__ import annotations

import os

os.environ["TABPFN_DISABLE_TELEMETRY"] = "1"  # before tabpfn / tabpfn_common_utils are imported
os.environ.setdefault("TABPFN_MODEL_CACHE_SIZE", "1")

import logging  # noqa: E402
import threading  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..quantiles import make_monotone  # noqa: E402
from ..torch_device import torch_device  # noqa: E402
from .base import Adapter, Prediction, SeriesInput  # noqa: E402

log = logging.getLogger(__name__)
# The pipeline logs "Valid covariates: [...]" at INFO on every call.
logging.getLogger("tabpfn_time_series").setLevel(logging.WARNING)

# The default checkpoint of tabpfn-time-series 1.3.0 (tabpfn ModelSource.get_v3_5().default_filename).
DEFAULT_CHECKPOINT = "tabpfn-v3.5-20260909.safetensors"
CHECKPOINT_PATTERNS = ("*.safetensors", "*.ckpt")

# Horizon freq -> pandas offset of the synthetic index; FORECAST_START lies on every one of them.
PANDAS_FREQ = {"H": "h", "D": "D", "W": "W-MON", "MS": "MS", "Q": "QS-JAN", "Y": "YS-JAN"}
FORECAST_START = pd.Timestamp("2001-01-01 00:00:00")


def checkpoint_file(directory: Path) -> Path:
    """The TabPFN checkpoint file in a weights directory: the published default name if present,
    else the only `*.safetensors`/`*.ckpt` file that is not a classifier's."""
    default = directory / DEFAULT_CHECKPOINT
    if default.is_file():
        return default
    files = sorted(
        {p for pattern in CHECKPOINT_PATTERNS for p in directory.glob(pattern) if p.is_file()}
    )
    regressors = [p for p in files if "multiclass" not in p.name and "classifier" not in p.name]
    if len(regressors) != 1:
        raise ValueError(
            f"{directory} must hold {DEFAULT_CHECKPOINT} or exactly one TabPFN regressor checkpoint "
            f"(*.safetensors or *.ckpt); found {[p.name for p in files] or 'none'}"
        )
    return regressors[0]


def timestamps(freq: str, context: int, horizon: int) -> tuple[pd.DatetimeIndex, pd.DatetimeIndex]:
    """The synthetic (context, forecast) timestamps of a series: regular in `freq`, the forecast
    starting at FORECAST_START, second resolution."""
    offset = pd.tseries.frequencies.to_offset(PANDAS_FREQ[freq])
    future = pd.date_range(start=FORECAST_START, periods=horizon, freq=offset, unit="s")
    past = pd.date_range(end=FORECAST_START - offset, periods=context, freq=offset, unit="s")
    return past, future


def real_timestamps(dates) -> pd.DatetimeIndex:
    """The control plane's ISO 8601 dates as naive timestamps (a trailing Z means UTC)."""
    parsed = pd.to_datetime(list(dates), format="ISO8601", utc=True)
    return parsed.tz_localize(None).as_unit("s")


def frames(series: list[SeriesInput], horizon: int, freq: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(context_df, future_df) for `predict_df`: item_id = position in `series`; the known-future
    covariates as columns of both (their past values in the context)."""
    contexts, futures = [], []
    for item, one in enumerate(series):
        if one.index is not None and one.forecast_index is not None:
            past, future = real_timestamps(one.index), real_timestamps(one.forecast_index)
        else:
            past, future = timestamps(freq, len(one.target), horizon)
        context = {"item_id": item, "timestamp": past, "target": one.target}
        ahead = {"item_id": item, "timestamp": future}
        for name, values in one.future_covariates.items():
            context[name] = one.past_covariates[name]
            ahead[name] = values
        contexts.append(pd.DataFrame(context))
        futures.append(pd.DataFrame(ahead))
    return pd.concat(contexts, ignore_index=True), pd.concat(futures, ignore_index=True)


def cpu_limit() -> int | None:
    """tabpfn's CPU training-row limit for v3.5, or None when TABPFN_ALLOW_CPU_LARGE_DATASET lifts it."""
    from tabpfn.constants import ModelVersion
    from tabpfn.inference_config import cpu_sample_limit
    from tabpfn.settings import settings

    if settings.tabpfn.allow_cpu_large_dataset:
        return None
    return cpu_sample_limit(ModelVersion.V3_5)


def make_pipeline(model_path: Path, device: str, max_context_length: int):
    """The official pipeline on one checkpoint, with the in-process worker (see the module docstring)."""
    from tabpfn import TabPFNRegressor
    from tabpfn_time_series import TabPFNMode, TabPFNTSPipeline
    from tabpfn_time_series.defaults import resolve_default_model_path
    from tabpfn_time_series.predictor import TimeSeriesPredictor
    from tabpfn_time_series.worker import CPUParallelWorker, GPUParallelWorker, TabPFNModelAdapter

    config = {"model_path": str(model_path), "device": device}
    pipeline = TabPFNTSPipeline(
        max_context_length=max_context_length,
        tabpfn_mode=TabPFNMode.LOCAL,
        tabpfn_output_selection="median",
        tabpfn_model_config=config,
    )
    worker_class, worker_kwargs = (
        (GPUParallelWorker, {"num_gpus": 1}) if device.startswith("cuda") else (CPUParallelWorker, {"num_workers": 1})
    )
    pipeline.predictor = TimeSeriesPredictor(
        model_adapter=TabPFNModelAdapter(
            model_class=TabPFNRegressor,
            model_config=resolve_default_model_path(config, client=False),
            tabpfn_output_selection="median",
        ),
        worker_class=worker_class,
        worker_kwargs=worker_kwargs,
    )
    return pipeline


def predict_frames(pipeline, context_df: pd.DataFrame, future_df: pd.DataFrame, quantiles: list[float]) -> pd.DataFrame:
    """`predict_df` without the library's per-call UserWarnings ("running on CPU", missing future
    covariate values)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return pipeline.predict_df(context_df, future_df=future_df, quantiles=quantiles)


class TabPFNTSAdapter(Adapter):
    def load(self) -> None:
        directory = self.weights_directory()
        self.model_path = checkpoint_file(directory)
        device = torch_device()
        self.device = device
        limit = cpu_limit() if device == "cpu" else None
        self.context_limit = min(self.caps.max_context, limit) if limit else self.caps.max_context
        self.pipeline = make_pipeline(self.model_path, device, self.context_limit)
        self._lock = threading.Lock()
        # Warm-up: builds the model once (kept by tabpfn's built-model cache) and fails load() on a
        # checkpoint tabpfn cannot read.
        self.predict_batch([SeriesInput(np.sin(np.arange(32.0)), {}, {}, {})], 2, (0.5,), "D")

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        levels = [float(q) for q in quantiles]
        groups: dict[tuple[str, ...], list[int]] = {}
        for index, one in enumerate(series):
            groups.setdefault(tuple(sorted(one.future_covariates)), []).append(index)
        predictions: list[Prediction | None] = [None] * len(series)
        with self._lock:
            for members in groups.values():
                context_df, future_df = frames([series[i] for i in members], horizon, freq)
                result = predict_frames(self.pipeline, context_df, future_df, levels)
                for item, index in enumerate(members):
                    rows = result.loc[item]
                    values = np.stack([rows[q].to_numpy(dtype=np.float64) for q in levels])
                    predictions[index] = Prediction(
                        mean=np.ascontiguousarray(rows["target"].to_numpy(dtype=np.float64)),
                        quantiles=np.ascontiguousarray(make_monotone(values)),
                        warnings=self._warnings(series[index]),
                    )
        return predictions

    def _warnings(self, one: SeriesInput) -> tuple[str, ...]:
        observed = int(np.count_nonzero(~np.isnan(one.target)))
        if observed <= self.context_limit or self.context_limit == self.caps.max_context:
            return ()
        return (
            f"context cut to the last {self.context_limit} observed values: tabpfn refuses more training rows "
            f"on the CPU unless TABPFN_ALLOW_CPU_LARGE_DATASET=1 is set",
        )
