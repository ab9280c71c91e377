// The one error registry: code → HTTP status → title. Every error leaves the service as
// application/problem+json {type, title, status, detail, code, errors?, request_id} (contract B.8).

export const ERRORS = {
  bad_json: { status: 400, title: 'Unreadable JSON body' },
  bad_content_encoding: { status: 400, title: 'Unreadable compressed body' },
  bad_request: { status: 400, title: 'Malformed HTTP request' },
  unauthorized: { status: 401, title: 'Missing or invalid API key' },
  license_not_accepted: { status: 403, title: 'Model licence not accepted by the operator' },
  account_disabled: { status: 403, title: 'Account disabled by the operator' },
  not_found: { status: 404, title: 'Not found' },
  unversioned_path: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  duplicate_key_name: { status: 409, title: 'An active API key already has this name' },
  account_exists: { status: 409, title: 'An account with this name exists' },
  job_not_cancellable: { status: 409, title: 'Job already finished' },
  // a fine-tuning job's `name` is already one of the account's private models (or of its unfinished jobs)
  model_name_taken: { status: 409, title: 'The account already has a model of this name' },
  // the account holds its maximum of stored series, or a series its maximum of points (docs/stored-series.md)
  series_limit: { status: 409, title: 'Stored-series limit reached' },
  // a job names a private model that was deleted after the job was accepted (the job's error, not a response)
  model_deleted: { status: 410, title: 'Model deleted' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  // a path segment over the router's limit (app.ts MAX_PARAM_LENGTH, beyond Node's header limit): not reachable by default
  uri_too_long: { status: 414, title: 'URI too long' },
  // 413 (RFC 9110 15.5.14: the content is larger than the server is willing to process) rather than 422:
  // the body is valid, nothing in it is to be fixed (a 422 names fields in errors[]), and the same body is
  // accepted by the job API, which the detail names; like 413 payload_too_large it is not to be retried as is
  use_job_api: { status: 413, title: 'Too large for a synchronous call: use the job API' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  request_timeout: { status: 408, title: 'Request timeout' },
  validation_failed: { status: 422, title: 'Invalid request' },
  quota_exceeded: { status: 429, title: 'Quota exceeded' },
  // issue 24: this account's synchronous model requests running at once are at HORIZON_ACCOUNT_MAX_INFLIGHT
  too_many_inflight: { status: 429, title: 'Too many requests in flight for this account' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  // the client closed its connection before the answer was ready (nginx's 499): its model calls were dropped and
  // nothing is charged (http/client-gone.ts); no client reads this answer, it names the outcome in the request's log line
  client_closed_request: { status: 499, title: 'Client closed the request' },
  internal_error: { status: 500, title: 'Internal error' },
  inference_failed: { status: 500, title: 'Inference failed' },
  // a fine-tuning job's failure (the library's message in the detail); job_cancelled: how a running one stops
  fine_tuning_failed: { status: 500, title: 'Fine-tuning failed' },
  job_cancelled: { status: 409, title: 'Job cancelled' },
  // a Nixtla SDK call for what Horizon has not built (fine-tuning, simulate, explain, …): /nixtla's 501, naming it
  not_implemented: { status: 501, title: 'Not built in Horizon' },
  pull_failed: { status: 502, title: 'Pulling the model weights failed' },
  model_unavailable: { status: 503, title: 'Model not available on this deployment' },
  weights_missing: { status: 503, title: 'Model weights not found' },
  model_pulling: { status: 503, title: 'Model weights are being pulled' },
  no_worker: { status: 503, title: 'No model worker available' },
  // the database cannot be reached (PostgreSQL restarting, a network cut): retryable, like no_worker
  store_unavailable: { status: 503, title: 'The database is not reachable' },
  inference_timeout: { status: 504, title: 'Inference timed out' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldError {
  series?: number;
  field: string;
  reason: string;
}

/** An error that maps to a problem+json response. */
export class HorizonError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly unavailable?: UnavailableReason;

  constructor(
    code: ErrorCode, detail: string, extra: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown; unavailable?: UnavailableReason } = {},
  ) {
    super(detail, { cause: extra.cause });
    this.code = code;
    this.status = ERRORS[code].status;
    this.errors = extra.errors;
    this.headers = extra.headers;
    this.unavailable = extra.unavailable;
  }
}

/** Why a catalog model is not served (GET /v1/models `unavailable_reason`; models.ts unavailableReason). */
export interface UnavailableReason {
  code: 'runtime_not_installed' | 'license_not_accepted' | 'weights_missing' | 'members_unavailable';
  detail: string;
  command?: string;
  variable?: string;
  runtime_group?: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  /** an extension member (RFC 9457): a request for a model this deployment does not serve says why, as GET /v1/models does */
  unavailable_reason?: UnavailableReason;
  request_id: string;
}

export function toProblem(error: HorizonError, requestId: string): Problem {
  const problem: Problem = {
    type: `https://horizon.dev/problems/${error.code.replaceAll('_', '-')}`,
    title: ERRORS[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
  };
  if (error.errors?.length) problem.errors = error.errors;
  if (error.unavailable) problem.unavailable_reason = error.unavailable;
  return problem;
}

/** A 422 listing every field error; the detail summarises them for humans. */
export function validationError(errors: FieldError[]): HorizonError {
  const described = errors.slice(0, 5).map((e) => `${e.field}: ${e.reason}`).join('; ');
  const more = errors.length > 5 ? `; and ${errors.length - 5} more` : '';
  return new HorizonError('validation_failed', `${described}${more}`, { errors });
}
