"""Hierarchies (docs/api.md "Hierarchies") from a long DataFrame: label columns (constant per series) become the request's
`hierarchy`; the answer's nodes (base and reconciled forecasts) and cross-validation windows come back as long frames."""
from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, Sequence

from . import _frames

if TYPE_CHECKING:
    import pandas as pd

RECONCILE_OPTIONS = ("reconcile", "reconcile_intervals", "reconcile_level")


def levels_of(hierarchy: Sequence[Any]) -> list[list[str]]:
    """`["region", "store"]` (a chain of columns, top down) → [["region"], ["region", "store"]]; a list of lists (the
    levels themselves, hierarchicalforecast's `spec` without the total) is taken as given."""
    if isinstance(hierarchy, str) or not hierarchy:
        raise ValueError(f"hierarchy= is a list of label columns from the top down, e.g. ['region', 'store'], or a list of levels; got {hierarchy!r}")
    if all(isinstance(level, str) for level in hierarchy):
        return [list(hierarchy[: k + 1]) for k in range(len(hierarchy))]
    if all(isinstance(level, (list, tuple)) and level and all(isinstance(c, str) for c in level) for level in hierarchy):
        return [list(level) for level in hierarchy]
    raise ValueError(f"hierarchy= mixes column names and levels: {hierarchy!r}; pass ['region', 'store'] or [['region'], ['region', 'store']]")


def _label(value: Any, uid: Any, column: str) -> str:
    if _frames._pandas().isna(value) or str(value) == "":
        raise ValueError(f"series {uid!r} has no {column!r} label (a missing value): every series needs every label of the hierarchy")
    return str(value)


def labels_of(df: "pd.DataFrame", ids: Sequence[Any], columns: Sequence[str], id_col: str) -> list[dict[str, str]]:
    """One {column: value} per series, in the order of `ids`; a label that changes within a series is a ValueError."""
    firsts = df.groupby(id_col, sort=False)[list(columns)]
    counts = firsts.nunique(dropna=False)
    first = firsts.first()
    labels = []
    for uid in ids:
        changing = [c for c in columns if counts.loc[uid, c] > 1]
        if changing:
            raise ValueError(f"series {uid!r} has more than one value in label column {changing[0]!r}: a label is constant per series")
        row = first.loc[uid]
        labels.append({c: _label(row[c], uid, c) for c in columns})
    return labels


def hierarchy_body(df: "pd.DataFrame", ids: Sequence[Any], levels: list[list[str]], id_col: str) -> dict[str, Any]:
    """The request's `hierarchy`: labels + levels. When the last level's labels do not tell the series apart (several
    series per store), the series' own ids are the bottom level under it."""
    columns = list(dict.fromkeys(c for level in levels for c in level))
    labels = labels_of(df, ids, [c for c in columns if c != id_col], id_col)
    last = levels[-1]
    if id_col not in last and len({tuple(label[c] for c in last) for label in labels}) < len(labels):
        levels = [*levels, [*last, id_col]]
    if any(id_col in level for level in levels):
        for uid, label in zip(ids, labels):
            label[id_col] = str(uid)
    return {"labels": labels, "levels": levels}


def label_columns(levels: list[list[str]], df: "pd.DataFrame", id_col: str, time_col: str, target_col: str) -> list[str]:
    """The label columns the levels name (checked to be columns of df, none of them the dates or the target)."""
    columns = list(dict.fromkeys(c for level in levels for c in level if c != id_col))
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"hierarchy names {', '.join(map(repr, missing))}, not a column of df (columns: {', '.join(map(str, df.columns))})")
    clash = [c for c in columns if c in (time_col, target_col)]
    if clash:
        raise ValueError(f"hierarchy names {clash[0]!r}, which is df's {'time_col' if clash[0] == time_col else 'target_col'}; name label columns")
    return columns


def _forecast_columns(prefix: str, values: dict[str, list[float]]) -> dict[str, list[float]]:
    ordered = ["mean", *(k for k in values if k != "mean")]
    return {f"{prefix}{k}": values[k] for k in ordered if k in values}


def _bottom_ids(nodes: Sequence[dict[str, Any]], ids: Sequence[Any]) -> list[Any]:
    """Each node's input series id when it is a bottom node (the last len(ids) nodes, in the input's order), else None."""
    first_bottom = len(nodes) - len(ids)
    return [ids[k - first_bottom] if k >= first_bottom else None for k in range(len(nodes))]


def nodes_frame(answer: dict[str, Any], ids: Sequence[Any], id_col: str, time_col: str) -> "pd.DataFrame":
    """One row per node and date, top down: node, level, parent, id_col (the input series' id on a bottom node, else
    None), time_col, the reconciled mean and quantiles (named as a plain forecast's columns), then base_mean, base_<q>."""
    pd = _frames._pandas()
    nodes = answer["hierarchy"]["nodes"]
    frames = []
    for node, uid in zip(nodes, _bottom_ids(nodes, ids)):
        steps = len(node["index"])
        columns: dict[str, Any] = {"node": [node["id"]] * steps, "level": node["level"], "parent": node["parent"], id_col: [uid] * steps,
                                   time_col: pd.to_datetime(node["index"])}
        columns.update(_forecast_columns("", node["reconciled"]))
        columns.update(_forecast_columns("base_", node["base"]))
        frames.append(pd.DataFrame(columns))
    return pd.concat(frames, ignore_index=True)


def _cutoff(dates: Sequence[Any], first: Any) -> Any:
    """The last date of the history before a window (Nixtla's `cutoff`): the latest input date before its first step."""
    k = bisect.bisect_left(dates, first)
    return dates[k - 1] if k > 0 else None


def _dates(series: Sequence[dict[str, Any]], positions: Sequence[int]) -> list[Any]:
    pd = _frames._pandas()
    return sorted(set(pd.to_datetime([d for i in positions for d in series[i]["index"]])))


def _window_rows(entry: dict[str, Any], window: dict[str, Any], dates: list[Any], base: dict[str, Any] | None, time_col: str) -> "pd.DataFrame":
    pd = _frames._pandas()
    index = pd.to_datetime(window["index"])
    columns: dict[str, Any] = {**entry, time_col: index, "cutoff": _cutoff(dates, index[0]), "y": window["actual"]}
    columns.update(_forecast_columns("", window["reconciled"] if base is not None else window["prediction"]))
    if base is not None:
        columns.update(_forecast_columns("base_", base))
    return pd.DataFrame(columns)


def cv_frame(answer: dict[str, Any], ids: Sequence[Any], series: Sequence[dict[str, Any]], id_col: str, time_col: str) -> "pd.DataFrame":
    """Every window of every model as rows: model, id_col, time_col, cutoff, y, mean and quantiles. With a hierarchy,
    every node's windows instead (node, level, parent and id_col as in nodes_frame; reconciled, then base_ columns)."""
    pd = _frames._pandas()
    frames = []
    for model in answer["models"]:
        name = model["model"]
        hierarchy = model.get("hierarchy")
        if hierarchy is None:
            for k, (uid, result) in enumerate(zip(ids, model["series"])):
                dates = _dates(series, [k])
                frames.extend(_window_rows({"model": name, id_col: uid}, w, dates, None, time_col) for w in result["windows"])
            continue
        nodes = hierarchy["nodes"]
        for node, uid in zip(nodes, _bottom_ids(nodes, ids)):
            entry = {"model": name, "node": node["id"], "level": node["level"], "parent": node["parent"], id_col: uid}
            dates = _dates(series, node["series"])
            frames.extend(_window_rows(entry, w, dates, w["base"], time_col) for w in node["windows"])
    if not frames:
        raise ValueError(f"the cross-validation has no window (warnings: {answer.get('warnings')})")
    return pd.concat(frames, ignore_index=True)
