export interface FieldError {
    /** index of the input series the error is about, when it is about one */
    series?: number;
    field: string;
    reason: string;
}
export declare class HorizonError extends Error {
    /** HTTP status (0 when no answer came back) */
    readonly status: number;
    /** the API's stable error code, e.g. "validation_failed", "quota_exceeded", "not_found" */
    readonly code: string;
    /** the API's human-readable explanation */
    readonly detail: string;
    /** per-field problems of a 422 (empty otherwise) */
    readonly errors: FieldError[];
    /** the server's request id: quote it to the operator, it is in their log */
    readonly requestId: string | undefined;
    /** how long the server asked to wait before retrying (Retry-After / X-RateLimit-Reset), in ms */
    readonly retryAfterMs: number | undefined;
    constructor(init: {
        status: number;
        code: string;
        detail: string;
        errors?: FieldError[];
        requestId?: string;
        retryAfterMs?: number;
    });
}
/** ms to wait from Retry-After (seconds or an HTTP date), else X-RateLimit-Reset (epoch seconds). */
export declare function retryAfterMs(headers: Headers, now?: number): number | undefined;
/** The HorizonError for a non-2xx response (problem+json, or whatever a proxy in between sent). */
export declare function errorFrom(res: Response): Promise<HorizonError>;
