"""When to retry: 429 and 503, after the wait the server asks for (Retry-After, else X-RateLimit-Reset)."""
from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds the server asks to wait: Retry-After (seconds or HTTP date), else X-RateLimit-Reset (epoch s)."""
    lower = {k.lower(): v for k, v in headers.items()}
    now = time.time() if now is None else now
    raw = lower.get("retry-after")
    if raw:
        try:
            return max(0.0, float(raw))
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(raw) if raw else None
            if parsed is not None:
                return max(0.0, parsed.timestamp() - now)
    reset = lower.get("x-ratelimit-reset")
    if reset:
        try:
            return max(0.0, float(reset) - now)
        except ValueError:
            return None
    return None


@dataclass
class RetryPolicy:
    """Retries of 429 and 503 answers.

    max_retries: retries after the first attempt (0 turns retrying off).
    max_wait: a wait the server asks for that is longer than this (e.g. a daily quota that resets at
      midnight) is not slept: the error is raised at once, with its `retry_after`.
    backoff: first wait when the server names none; doubles per retry, capped at max_backoff.
    retry_non_idempotent: also retry calls that create something (forecast jobs, API keys); off by
      default because a retried creation could create twice. A sync forecast counts as idempotent:
      it changes nothing, and 429/503 answers are not charged.
    sleep / async_sleep: how to wait (replaceable, e.g. in tests); on_retry(attempt, wait_s, error)
      is called before each wait.
    """

    max_retries: int = 3
    max_wait: float = 60.0
    backoff: float = 0.5
    max_backoff: float = 8.0
    statuses: frozenset[int] = frozenset({429, 503})
    retry_non_idempotent: bool = False
    sleep: Callable[[float], Any] = time.sleep
    async_sleep: Callable[[float], Awaitable[Any]] | None = None
    on_retry: Callable[[int, float, Exception], Any] | None = None

    def wait_for(self, attempt: int, error: Exception) -> float | None:
        """Seconds to wait before retry number `attempt` (1-based), or None to give up and raise."""
        status = getattr(error, "status", None)
        if attempt > self.max_retries or status not in self.statuses:
            return None
        asked = retry_after_seconds(getattr(error, "headers", {}) or {})
        if asked is None:
            return min(self.max_backoff, self.backoff * 2 ** (attempt - 1))
        return None if asked > self.max_wait else asked
