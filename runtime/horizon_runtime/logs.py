"""JSON-lines logging for the worker, in the control plane's shape (pino's: `level` as pino's number,
`time` in epoch ms, `msg`), so that the supervisor can pass each line on into the control plane's log
stream and one query finds both sides of a request by `request_id`.

Fields given with `extra={"fields": {...}}` go to the top level of the line, under the same names
the control plane uses (request_id, model, size, series, status, code, duration_ms)."""

from __future__ import annotations

import logging
import os
import sys
import time

import orjson

# pino's numeric levels
_LEVELS = {logging.DEBUG: 20, logging.INFO: 30, logging.WARNING: 40, logging.ERROR: 50, logging.CRITICAL: 60}


class JsonFormatter(logging.Formatter):
    def __init__(self, group: str):
        super().__init__()
        self.group = group

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "level": _LEVELS.get(record.levelno, 30),
            "time": int(record.created * 1000),
            "pid": os.getpid(),
            "runtime_group": self.group,
            "logger": record.name,
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        line["msg"] = record.getMessage()
        if record.exc_info:
            line["err"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


# the control plane's HORIZON_LOG_LEVEL names (pino's), which the supervisor passes on to its workers
_PINO_NAMES = {
    "trace": logging.DEBUG, "debug": logging.DEBUG, "info": logging.INFO, "warn": logging.WARNING,
    "error": logging.ERROR, "fatal": logging.CRITICAL, "silent": logging.CRITICAL + 10,
}


def level_from_env(value: str | None) -> int:
    """The logging level for a HORIZON_LOG_LEVEL value; info when unset or unknown."""
    return _PINO_NAMES.get((value or "info").strip().lower(), logging.INFO)


def configure(group: str, level: int = logging.INFO) -> None:
    """Every logger of the process (libraries' too) writes JSON lines to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(group))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.captureWarnings(True)  # warnings.warn from the libraries become log lines too


def now_ms() -> float:
    return time.perf_counter() * 1e3
