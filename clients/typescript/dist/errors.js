// The one error type of the SDK: every non-2xx answer becomes a HorizonError carrying the API's
// problem+json fields (contract B.8), so callers branch on `code`, never on message text.
export class HorizonError extends Error {
    /** HTTP status (0 when no answer came back) */
    status;
    /** the API's stable error code, e.g. "validation_failed", "quota_exceeded", "not_found" */
    code;
    /** the API's human-readable explanation */
    detail;
    /** per-field problems of a 422 (empty otherwise) */
    errors;
    /** the server's request id: quote it to the operator, it is in their log */
    requestId;
    /** how long the server asked to wait before retrying (Retry-After / X-RateLimit-Reset), in ms */
    retryAfterMs;
    constructor(init) {
        super(`${init.status ? `${init.status} ` : ''}${init.code}: ${init.detail}${init.requestId ? ` (request ${init.requestId})` : ''}`);
        this.name = 'HorizonError';
        this.status = init.status;
        this.code = init.code;
        this.detail = init.detail;
        this.errors = init.errors ?? [];
        this.requestId = init.requestId;
        this.retryAfterMs = init.retryAfterMs;
    }
}
/** ms to wait from Retry-After (seconds or an HTTP date), else X-RateLimit-Reset (epoch seconds). */
export function retryAfterMs(headers, now = Date.now()) {
    const after = headers.get('retry-after');
    if (after !== null && after.trim() !== '') {
        const seconds = Number(after);
        if (Number.isFinite(seconds))
            return Math.max(0, seconds * 1000);
        const date = Date.parse(after);
        if (!Number.isNaN(date))
            return Math.max(0, date - now);
    }
    const reset = Number(headers.get('x-ratelimit-reset') ?? NaN);
    if (Number.isFinite(reset) && headers.get('x-ratelimit-remaining') === '0')
        return Math.max(0, reset * 1000 - now);
    return undefined;
}
/** The HorizonError for a non-2xx response (problem+json, or whatever a proxy in between sent). */
export async function errorFrom(res) {
    const text = await res.text();
    const waitMs = retryAfterMs(res.headers);
    const requestId = res.headers.get('x-request-id') ?? undefined;
    try {
        const problem = JSON.parse(text);
        if (typeof problem.code === 'string' && typeof problem.detail === 'string') {
            return new HorizonError({
                status: res.status, code: problem.code, detail: problem.detail,
                errors: Array.isArray(problem.errors) ? problem.errors : [],
                requestId: typeof problem.request_id === 'string' ? problem.request_id : requestId,
                retryAfterMs: waitMs,
            });
        }
    }
    catch { /* not JSON: described below */ }
    return new HorizonError({ status: res.status, code: 'http_error', detail: `HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`, requestId, retryAfterMs: waitMs });
}
