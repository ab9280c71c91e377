"""The payloads of POST /hierarchy/aggregate and POST /hierarchy/reconcile (docs/runtime-protocol.md "Hierarchies"), each
dispatched to its form: labels + levels or explicit aggregates (hierarchy.py, hierarchy_reconcile.py), or temporal levels
(hierarchy_temporal.py). They run in the worker's executor (server.py): pandas and numpy work, off the event loop."""

from __future__ import annotations

from .hierarchy import aggregate_explicit, aggregate_labels, parse_series
from .hierarchy_reconcile import reconcile_cross_sectional
from .hierarchy_temporal import aggregate_temporal, reconcile_temporal
from .protocol import bad_request, json_object


def aggregate_payload(body) -> dict:
    body = json_object(body)
    series = parse_series(body)
    forms = [form for form in ("labels", "aggregates", "temporal") if body.get(form) is not None]
    if len(forms) != 1:
        raise bad_request(f"give exactly one of 'labels' (with 'levels'), 'aggregates' or 'temporal'; got {forms or 'none'}")
    base64 = body.get("encoding") == "base64"
    if forms == ["temporal"]:
        return {"nodes": [node.wire(base64) for node in aggregate_temporal(series, body)], "S": None, "tags": None}
    nodes, S, tags = (aggregate_labels if forms == ["labels"] else aggregate_explicit)(series, body)
    return {"nodes": [node.wire(base64) for node in nodes], "S": S.tolist(), "tags": tags}


def reconcile_payload(body) -> dict:
    body = json_object(body)
    return reconcile_temporal(body) if body.get("temporal") is not None else reconcile_cross_sectional(body)
