"""pandas <-> the wire: long DataFrames (statsforecast/Nixtla layout) to InputSeries, predictions back."""
from __future__ import annotations

import json
import math
import warnings
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    import pandas as pd

FREQS = ("MS", "D", "W", "H", "Q", "Y")


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as error:  # the plain-dict calls need no pandas
        raise ImportError("DataFrame calls need pandas: pip install 'horizon-client[pandas]'") from error
    return pandas


def contract_freq(freq: str) -> str:
    """The API's frequency for a contract code or a pandas alias ("M", "ME", "h", "W-SUN", "QS", "YE"...)."""
    if freq in FREQS:
        return freq
    pd = _pandas()
    from pandas.tseries import offsets as o

    try:
        with warnings.catch_warnings():  # pandas' deprecation notes on old aliases ("M", "H") are not the user's concern here
            warnings.simplefilter("ignore", FutureWarning)
            offset = pd.tseries.frequencies.to_offset(freq)
    except ValueError as error:
        raise ValueError(f"freq {freq!r} is not a frequency; the API accepts {', '.join(FREQS)}") from error
    if offset.n != 1:
        raise ValueError(f"freq {freq!r} is a multiple ({offset.n} steps) of a period; the API accepts single periods only: {', '.join(FREQS)}; resample the data first")
    # the API accepts any day of the period as long as every date keeps the same position (contract B.1)
    for types, code in (
        ((o.MonthBegin, o.MonthEnd), "MS"),
        ((o.Day,), "D"),
        ((o.Week,), "W"),
        ((o.Hour,), "H"),
        ((o.QuarterBegin, o.QuarterEnd), "Q"),
        ((o.YearBegin, o.YearEnd), "Y"),
    ):
        if isinstance(offset, types):
            return code
    raise ValueError(f"freq {freq!r} ({type(offset).__name__}) is not supported by the API, which accepts {', '.join(FREQS)}; resample the data first")


_COLUMN_ARGS = {"id_col": "the series id", "time_col": "the dates", "target_col": "the values"}


def check_columns(df: Any, id_col: str, time_col: str, target_col: str) -> None:
    """A frame without the columns asked for is a ValueError naming them and the arguments that pick them,
    before anything indexes it (pandas' own error is a KeyError from deep inside a groupby)."""
    _pandas()  # without pandas, the ImportError that says how to get it comes first
    columns = list(getattr(df, "columns", []))
    wanted = {"id_col": id_col, "time_col": time_col, "target_col": target_col}
    missing = {arg: col for arg, col in wanted.items() if col not in columns}
    if not missing:
        return
    named = ", ".join(f"{col!r} ({arg}, {_COLUMN_ARGS[arg]})" for arg, col in missing.items())
    raise ValueError(
        f"df has no column {named}; its columns are {', '.join(map(repr, columns))}. "
        f"Name yours with id_col=, time_col=, target_col= (defaults 'unique_id', 'ds', 'y'); "
        f"a frame of one series without an id column: df.assign(unique_id='my-series')"
    )


def infer_freq(df: "pd.DataFrame", id_col: str, time_col: str) -> str:
    """One contract frequency for every series, inferred from their dates; errors say what to pass instead."""
    pd = _pandas()
    found: dict[str, Any] = {}
    for uid, dates in df.groupby(id_col, sort=False)[time_col]:
        index = pd.DatetimeIndex(pd.to_datetime(dates)).sort_values()
        if len(index) < 3:
            continue
        alias = pd.infer_freq(index)
        if alias is None:
            raise ValueError(f"cannot infer the frequency of series {uid!r} (irregular dates or gaps); pass freq= one of {', '.join(FREQS)}")
        found[str(uid)] = contract_freq(alias)
    codes = set(found.values())
    if not codes:
        raise ValueError(f"cannot infer the frequency from series of fewer than 3 dates; pass freq= one of {', '.join(FREQS)}")
    if len(codes) > 1:
        raise ValueError(f"series have different frequencies ({', '.join(f'{k}: {v}' for k, v in found.items())}); forecast them separately")
    return codes.pop()


def _date_strings(dates: Any, freq: str) -> list[str]:
    pd = _pandas()
    index = pd.DatetimeIndex(pd.to_datetime(dates))
    if index.tz is not None:
        index = index.tz_convert("UTC").tz_localize(None)
    fmt = "%Y-%m-%dT%H:%M:%S" if freq == "H" else "%Y-%m-%d"
    return [d.strftime(fmt) for d in index]


def _numbers(values: Any, what: str, allow_null: bool) -> list[float | None]:
    out: list[float | None] = []
    for v in values:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            if not allow_null:
                raise ValueError(f"{what} has a missing value; future covariates must be known for every step")
            out.append(None)
            continue
        f = float(v)
        if math.isinf(f):
            raise ValueError(f"{what} has an infinite value")
        out.append(f)
    return out


def frame_to_series(
    df: "pd.DataFrame",
    freq: str,
    id_col: str,
    time_col: str,
    target_col: str,
    X_df: "pd.DataFrame | None",
    static_df: "pd.DataFrame | None",
) -> tuple[list[Any], list[dict[str, Any]]]:
    """(ids, InputSeries) in the order the ids first appear in df."""
    pd = _pandas()
    for frame, name, cols in ((df, "df", (id_col, time_col, target_col)), (X_df, "X_df", (id_col, time_col)), (static_df, "static_df", (id_col,))):
        if frame is None:
            continue
        missing = [c for c in cols if c not in frame.columns]
        if missing:
            raise ValueError(f"{name} has no column {', '.join(map(repr, missing))} (columns: {', '.join(map(str, frame.columns))})")
    hist_cols = [c for c in df.columns if c not in (id_col, time_col, target_col)]
    future_cols = [c for c in X_df.columns if c not in (id_col, time_col)] if X_df is not None else []
    not_hist = [c for c in future_cols if c not in hist_cols]
    if not_hist:
        # contract B.1: a future variable must also be a historical one
        raise ValueError(f"X_df columns {not_hist} are not columns of df; each future covariate needs its history in df")
    static_cols = [c for c in static_df.columns if c != id_col] if static_df is not None else []
    future_groups = dict(tuple(X_df.groupby(id_col, sort=False))) if X_df is not None else {}
    statics = static_df.set_index(id_col) if static_df is not None else None

    ids: list[Any] = []
    series: list[dict[str, Any]] = []
    for uid, group in df.groupby(id_col, sort=False):
        group = group.assign(**{time_col: pd.to_datetime(group[time_col])}).sort_values(time_col)
        item: dict[str, Any] = {
            "target": _numbers(group[target_col], f"series {uid!r} column {target_col!r}", True),
            "index": _date_strings(group[time_col], freq),
        }
        if hist_cols:
            item["hist_variables"] = {str(c): _numbers(group[c], f"series {uid!r} column {c!r}", True) for c in hist_cols}
        if future_cols:
            future = future_groups.get(uid)
            if future is None:
                raise ValueError(f"X_df has no rows for series {uid!r}")
            future = future.assign(**{time_col: pd.to_datetime(future[time_col])}).sort_values(time_col)
            item["future_variables"] = {str(c): _numbers(future[c], f"X_df series {uid!r} column {c!r}", False) for c in future_cols}
            item["future_variables_index"] = _date_strings(future[time_col], freq)
        if statics is not None:
            if uid not in statics.index:
                raise ValueError(f"static_df has no row for series {uid!r}")
            row = statics.loc[uid]
            item["static_variables"] = {str(c): _numbers([row[c]], f"static_df series {uid!r} column {c!r}", False)[0] for c in static_cols}
        ids.append(uid)
        series.append(item)
    if not series:
        raise ValueError("df has no rows")
    return ids, series


def split_by_bytes(series: Sequence[dict[str, Any]], limit: int, overhead: int) -> list[list[int]]:
    """Positions of `series` packed, in order, into chunks whose JSON body stays under `limit` bytes."""
    budget = limit - overhead
    chunks: list[list[int]] = []
    size = 0
    for i, item in enumerate(series):
        n = len(json.dumps(item, separators=(",", ":"), ensure_ascii=False).encode()) + 1
        # a series over the budget goes alone: if the server refuses it, its 413 is the error
        if not chunks or size + n > budget:
            chunks.append([])
            size = 0
        chunks[-1].append(i)
        size += n
    return chunks


def predictions_to_frame(ids: Sequence[Any], predictions: Sequence[dict[str, Any]], id_col: str, time_col: str) -> "pd.DataFrame":
    """Long frame: id, date, mean, then one column per quantile level named as the API writes it."""
    pd = _pandas()
    frames = []
    for uid, prediction in zip(ids, predictions):
        values = prediction["prediction"]
        columns = {id_col: [uid] * len(prediction["index"]), time_col: pd.to_datetime(prediction["index"])}
        columns["mean"] = values["mean"]
        for key, array in values.items():
            if key != "mean":
                columns[key] = array
        frames.append(pd.DataFrame(columns))
    return pd.concat(frames, ignore_index=True)
