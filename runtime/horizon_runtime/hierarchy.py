"""POST /hierarchy/aggregate (docs/runtime-protocol.md "Hierarchies"): the nodes of a hierarchy from its
bottom series, their summing matrix S and their levels (tags), with hierarchicalforecast's `aggregate`.

Three forms of request (the control plane has validated them; a body that fails here answers 400):
- labels + levels: every series' labels; levels from the top to the bottom, each a list of label names
  extending the one above. A "total" node over every series is added on top. Node ids are the level's
  label values joined with "/" (what `aggregate` names them): "north", "north/n1".
- aggregates (+ names): node name → indices of the input series it sums; the bottom nodes are the series.
- temporal (hierarchy_temporal.py): each series with its sums over k consecutive steps.
The endpoints' payloads are hierarchy_api.py's.

A node's value at a step is the sum of its series that have a value there (`aggregate` drops missing
rows); a step where none has one is missing (null).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from .errors import ProtocolError
from .protocol import _values, bad_request, encode_values, json_object

TOTAL = "total"
# the level of the input series in the aggregates and temporal forms (labels: the last level's name)
SERIES_LEVEL = "series"
# the column of the "total" level given to `aggregate` (a label name no request can use: it starts with a space)
_TOTAL_COLUMN = " total"
_TOTAL_PREFIX = TOTAL + "/"


def library():
    """hierarchicalforecast, imported on first use: it imports scikit-learn and matplotlib (seconds that
    every worker start would pay for nothing). It installs with core.txt, not the first stage
    (core-first.txt): until it is in, the hierarchy endpoints answer 503 model_unavailable."""
    try:
        import hierarchicalforecast.core
        import hierarchicalforecast.methods
        import hierarchicalforecast.utils
    except ImportError as exc:
        importlib.invalidate_caches()  # the next call sees the package once runtime/setup.sh has unpacked it
        raise ProtocolError(
            503, "model_unavailable",
            f"hierarchical reconciliation is not available yet: hierarchicalforecast does not import here ({exc}); it "
            "installs with the rest of runtime group core (runtime/requirements/core.txt), behind the statistical models",
        ) from None
    return hierarchicalforecast


@dataclass(frozen=True)
class Series:
    positions: np.ndarray  # int64, strictly increasing: the values' places on the request's one integer grid
    values: np.ndarray  # float64, NaN missing


@dataclass
class Node:
    id: str
    level: str
    parent: str | None
    series: list[int]  # the input (bottom) series it sums
    start: int = 0  # the grid position of target[0]
    target: np.ndarray | None = None
    k: int | None = None  # temporal nodes: the number of steps of the series each value sums

    def wire(self, base64: bool) -> dict:
        target = encode_values(self.target) if base64 else self.target
        out = {"id": self.id, "level": self.level, "parent": self.parent, "series": self.series, "target": target, "start": self.start}
        return out if self.k is None else {**out, "k": self.k}


def parse_series(body: dict) -> list[Series]:
    raw = body.get("series")
    if not isinstance(raw, list) or not raw:
        raise bad_request("'series' must be a non-empty array")
    out = []
    for i, entry in enumerate(raw):
        what = f"series[{i}]"
        entry = json_object(entry, what)
        values = _values(entry.get("target"), f"{what}.target", None)
        if "index_pos" in entry:
            positions = entry["index_pos"]
            if not isinstance(positions, list) or len(positions) != values.size or not all(type(p) is int for p in positions):
                raise bad_request(f"{what}.index_pos must be {values.size} integers, one per target value")
            positions = np.asarray(positions, dtype=np.int64)
            if positions.size > 1 and (np.diff(positions) <= 0).any():
                raise bad_request(f"{what}.index_pos must be strictly increasing")
        else:
            start = entry.get("start", 0)
            if type(start) is not int:
                raise bad_request(f"{what}.start must be an integer")
            positions = start + np.arange(values.size, dtype=np.int64)
        if not np.isfinite(values).any():
            raise bad_request(f"{what} has no value: a node with no data cannot be forecast")
        out.append(Series(positions, values))
    return out


def grid_end(series: list[Series]) -> int:
    """The last position of the request's grid: every node's target runs to it (missing at the end where its
    series have no value there), so that every node's forecast starts at the same step."""
    return max(int(s.positions[-1]) for s in series)


def sum_series(series: list[Series], members: list[int], end: int) -> tuple[int, np.ndarray]:
    """(start, values) of the sum of `members` from the first position where one has a value to `end`; NaN
    where none has."""
    positions = np.concatenate([series[i].positions[np.isfinite(series[i].values)] for i in members])
    values = np.concatenate([series[i].values[np.isfinite(series[i].values)] for i in members])
    start = int(positions.min())
    total = np.zeros(end - start + 1)
    np.add.at(total, positions - start, values)
    seen = np.zeros(end - start + 1, dtype=bool)
    seen[positions - start] = True
    total[~seen] = np.nan
    return start, total


def _string_list(value, what: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise bad_request(f"{what} must be a non-empty array of non-empty strings")
    return value


def _labels_and_levels(body: dict, n: int) -> tuple[list[dict], list[list[str]]]:
    labels, levels = body.get("labels"), body.get("levels")
    if not isinstance(labels, list) or len(labels) != n:
        raise bad_request(f"'labels' must be an array of {n} objects, one per series")
    if not isinstance(levels, list) or not levels:
        raise bad_request("'levels' must be a non-empty array of levels")
    levels = [_string_list(level, f"levels[{k}]") for k, level in enumerate(levels)]
    if any("/".join(level) == TOTAL for level in levels):
        raise bad_request(f"a level named '{TOTAL}': that is the name of the level added on top")
    for k in range(1, len(levels)):
        if not set(levels[k - 1]) < set(levels[k]):
            raise bad_request(f"levels[{k}] {levels[k]} does not extend levels[{k - 1}] {levels[k - 1]}: levels must be nested")
    for i, entry in enumerate(labels):
        entry = json_object(entry, f"labels[{i}]")
        for name in levels[-1]:
            if not isinstance(entry.get(name), str) or not entry[name]:
                raise bad_request(f"labels[{i}].{name} must be a non-empty string")
    return labels, levels


def aggregate_labels(series: list[Series], body: dict) -> tuple[list[Node], np.ndarray, dict]:
    """labels + levels through hierarchicalforecast.utils.aggregate, with a "total" level on top."""
    import pandas as pd

    labels, levels = _labels_and_levels(body, len(series))
    ids = [["/".join(labels[i][c] for c in level) for i in range(len(series))] for level in levels]
    bottom = ids[-1]
    first: dict[str, int] = {}
    for j, b in enumerate(bottom):
        if b in first:
            raise bad_request(f"series {first[b]} and {j} have the same labels at the bottom level ('{b}'): each series needs a node of its own")
        first[b] = j
    names = list(dict.fromkeys(c for level in levels for c in level))
    rows = {c: [] for c in names} | {"ds": [], "y": []}
    for i, s in enumerate(series):
        ok = np.isfinite(s.values)
        for c in names:
            rows[c].append(np.full(int(ok.sum()), labels[i][c], dtype=object))
        rows["ds"].append(s.positions[ok])
        rows["y"].append(s.values[ok])
    frame = pd.DataFrame({c: np.concatenate(v) for c, v in rows.items()})
    frame.insert(0, _TOTAL_COLUMN, TOTAL)
    spec = [[_TOTAL_COLUMN]] + [[_TOTAL_COLUMN, *level] for level in levels]
    try:
        Y_df, S_df, tags = library().utils.aggregate(frame, spec)
    except ValueError as exc:
        raise bad_request(f"aggregate: {exc}")
    strip = lambda name: name[len(_TOTAL_PREFIX):] if name.startswith(_TOTAL_PREFIX) else name  # noqa: E731
    level_names = [TOTAL] + ["/".join(level) for level in levels]
    keys = list(tags)  # aggregate's level names, top to bottom: " total", " total/region", …
    node_ids = [TOTAL] + [strip(i) for key in keys[1:-1] for i in tags[key]] + bottom
    node_level = [TOTAL] + [level_names[k] for k, key in enumerate(keys[1:-1], 1) for _ in tags[key]] + [level_names[-1]] * len(bottom)
    _check_unique(node_ids, node_level)
    prefixed = [TOTAL] + [_TOTAL_PREFIX + i for i in node_ids[1:]]
    S = S_df.set_index("unique_id").loc[prefixed, [_TOTAL_PREFIX + b for b in bottom]].to_numpy(dtype=np.int64)
    nodes = []
    for row, (node_id, level) in enumerate(zip(node_ids, node_level)):
        members = np.flatnonzero(S[row]).tolist()
        depth = level_names.index(level)
        parent = None if depth == 0 else TOTAL if depth == 1 else ids[depth - 2][members[0]]
        nodes.append(Node(node_id, level, parent, members))
    _fill_targets(nodes, prefixed, Y_df, grid_end(series))
    out_tags = {TOTAL: [TOTAL]} | {name: [strip(i) for i in tags[key]] for name, key in zip(level_names[1:-1], keys[1:-1])}
    return nodes, S, out_tags | {level_names[-1]: bottom}


def _check_unique(node_ids: list[str], node_level: list[str]) -> None:
    seen: dict[str, str] = {}
    for node, level in zip(node_ids, node_level):
        if node in seen:
            raise bad_request(f"node '{node}' is named at two levels ('{seen[node]}' and '{level}'): node names must be unique")
        seen[node] = level


def _fill_targets(nodes: list[Node], prefixed: list[str], Y_df, end: int) -> None:
    """Each node's target from aggregate's long frame: its rows' ds and y, missing where it has none."""
    order = {name: row for row, name in enumerate(prefixed)}
    rows = np.array([order[u] for u in Y_df["unique_id"].to_numpy()])
    ds, y = Y_df["ds"].to_numpy(dtype=np.int64), Y_df["y"].to_numpy(dtype=np.float64)
    sort = np.lexsort((ds, rows))
    rows, ds, y = rows[sort], ds[sort], y[sort]
    bounds = np.searchsorted(rows, np.arange(len(nodes) + 1))
    for row, node in enumerate(nodes):
        d, v = ds[bounds[row]:bounds[row + 1]], y[bounds[row]:bounds[row + 1]]
        node.start = int(d[0])
        node.target = np.full(end - node.start + 1, np.nan)
        node.target[d - node.start] = v


def aggregate_explicit(series: list[Series], body: dict) -> tuple[list[Node], np.ndarray, dict]:
    """aggregates (+ names): the aggregate nodes (from the top, as given among equals), then the series."""
    n = len(series)
    names = body.get("names")
    names = _string_list(names, "'names'") if names is not None else [f"series[{i}]" for i in range(n)]
    if len(names) != n or len(set(names)) != n:
        raise bad_request(f"'names' must be {n} distinct names, one per series")
    aggregates = json_object(body.get("aggregates"), "'aggregates'")
    if not aggregates:
        raise bad_request("'aggregates' must name at least one aggregate node")
    sets: dict[str, frozenset[int]] = {}
    for name, members in aggregates.items():
        if not name or name in names:
            raise bad_request(f"aggregate '{name}' has the name of a series: node names must be unique")
        if not isinstance(members, list) or not members or not all(type(m) is int and 0 <= m < n for m in members) or len(set(members)) != len(members):
            raise bad_request(f"aggregates['{name}'] must be distinct indices of series (0-{n - 1})")
        sets[name] = frozenset(members)
    # depth: how many aggregates hold this one's series and more; the nodes go by depth, as given among equals
    depth = {name: sum(1 for other in sets if sets[other] > sets[name]) for name in sets}
    order = sorted(sets, key=depth.__getitem__)
    nodes = [Node(name, f"depth_{depth[name]}", _smallest_holder(sets, order, sets[name], strict=True), sorted(sets[name])) for name in order]
    nodes += [Node(names[i], SERIES_LEVEL, _smallest_holder(sets, order, frozenset([i]), strict=False), [i]) for i in range(n)]
    end = grid_end(series)
    for node in nodes:
        node.start, node.target = sum_series(series, node.series, end)
    S = np.zeros((len(nodes), n), dtype=np.int64)
    for row, node in enumerate(nodes):
        S[row, node.series] = 1
    tags: dict[str, list[str]] = {}
    for node in nodes:
        tags.setdefault(node.level, []).append(node.id)
    depths = sorted((level for level in tags if level != SERIES_LEVEL), key=lambda level: int(level.split("_")[1]))
    return nodes, S, {level: tags[level] for level in depths} | {SERIES_LEVEL: tags[SERIES_LEVEL]}


def _smallest_holder(sets: dict[str, frozenset[int]], order: list[str], members: frozenset[int], strict: bool) -> str | None:
    holders = [name for name in order if (sets[name] > members if strict else sets[name] >= members)]
    return min(holders, key=lambda name: len(sets[name])) if holders else None  # min: the first among equals
