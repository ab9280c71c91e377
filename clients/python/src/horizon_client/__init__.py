"""Python client for the Horizon forecasting API: plain-dict calls, and pandas DataFrames in and out."""
from ._client import DEFAULT_MAX_REQUEST_BYTES, AsyncHorizon, Horizon
from ._errors import (
    AuthenticationError, BadRequestError, ConflictError, HorizonError, JobFailedError, JobTimeoutError,
    NotFoundError, PayloadTooLargeError, PermissionDeniedError, RateLimitError, ServerError,
    ServiceUnavailableError, ValidationError,
)
from ._frames import FREQS, contract_freq
from ._retry import RetryPolicy
from ._series import StoredSeries

__version__ = "0.1.0"

__all__ = [
    "Horizon", "AsyncHorizon", "RetryPolicy", "StoredSeries", "DEFAULT_MAX_REQUEST_BYTES", "FREQS", "contract_freq",
    "HorizonError", "BadRequestError", "AuthenticationError", "PermissionDeniedError", "NotFoundError",
    "ConflictError", "PayloadTooLargeError", "ValidationError", "RateLimitError", "ServerError",
    "ServiceUnavailableError", "JobFailedError", "JobTimeoutError",
]
