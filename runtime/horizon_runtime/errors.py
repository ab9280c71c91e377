"""The worker's one error type, in a module of its own: weights.py, registry.py and protocol.py all
raise it, and none of them may import another just for it (that made the adapters/base ↔ registry ↔
weights ↔ protocol import circle)."""

from __future__ import annotations


class ProtocolError(Exception):
    """Answered as {"error": {"code": code, "detail": detail}} with the HTTP status."""

    def __init__(self, status: int, code: str, detail: str):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
