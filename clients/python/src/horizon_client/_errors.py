"""Typed errors: one class per HTTP status the API documents, all carrying the problem+json body."""
from __future__ import annotations

from typing import Any, Mapping


class HorizonError(Exception):
    """An error answer from the API (application/problem+json), or a client-side failure (status None)."""

    def __init__(
        self,
        detail: str,
        *,
        status: int | None = None,
        code: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        request_id: str | None = None,
        title: str | None = None,
        headers: Mapping[str, str] | None = None,
        body: Any = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.status = status
        self.code = code
        self.errors = errors or []
        self.request_id = request_id
        self.title = title
        self.headers = dict(headers or {})
        self.body = body

    def __str__(self) -> str:
        head = f"{self.status} {self.code}: " if self.status else ""
        tail = f" (request_id {self.request_id})" if self.request_id else ""
        return f"{head}{self.detail}{tail}"


class BadRequestError(HorizonError):
    """400: the body is not readable JSON."""


class AuthenticationError(HorizonError):
    """401: the API key is missing, invalid or revoked."""


class PermissionDeniedError(HorizonError):
    """403: e.g. a model whose licence the operator has not accepted."""


class NotFoundError(HorizonError):
    """404: unknown path, or a job of another account / unknown id."""


class ConflictError(HorizonError):
    """409: duplicate API key name, or cancelling a finished job."""


class PayloadTooLargeError(HorizonError):
    """413: the body is over the server's limit (the client splits and retries on its own)."""


class ValidationError(HorizonError):
    """422: invalid input; `errors` names series, field and reason."""


class RateLimitError(HorizonError):
    """429: quota exhausted; `retry_after` says in how many seconds the window resets."""

    @property
    def retry_after(self) -> float | None:
        from ._retry import retry_after_seconds

        return retry_after_seconds(self.headers)


class ServerError(HorizonError):
    """500, 502, 504 and other 5xx: inference failed or timed out."""


class ServiceUnavailableError(ServerError):
    """503: no model worker available right now (retried), or the model is not served."""


class JobFailedError(HorizonError):
    """A forecast job ended `failed` or `cancelled`; `job` is its last state."""

    def __init__(self, detail: str, *, job: dict[str, Any], code: str | None = None) -> None:
        super().__init__(detail, code=code)
        self.job = job


class JobTimeoutError(HorizonError):
    """Waiting for a job took longer than the given timeout; the job goes on on the server."""

    def __init__(self, detail: str, *, job: dict[str, Any]) -> None:
        super().__init__(detail)
        self.job = job


_BY_STATUS: dict[int, type[HorizonError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    422: ValidationError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def error_from_response(status: int, headers: Mapping[str, str], text: str) -> HorizonError:
    """The typed error for a non-2xx answer; a body that is not problem+json still gives its text."""
    import json

    try:
        body = json.loads(text) if text else None
    except ValueError:
        body = None
    problem = body if isinstance(body, dict) else {}
    detail = problem.get("detail") or (text.strip()[:500] if text else "") or f"HTTP {status}"
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else HorizonError)
    return cls(
        str(detail),
        status=status,
        code=problem.get("code"),
        errors=problem.get("errors"),
        request_id=problem.get("request_id") or headers.get("x-request-id"),
        title=problem.get("title"),
        headers=headers,
        body=body if body is not None else text,
    )
