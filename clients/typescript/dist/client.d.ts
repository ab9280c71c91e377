import type { components, paths } from './openapi.ts';
import { HorizonError } from './errors.ts';
type Body<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
    responses: {
        [K in S]: {
            content: {
                'application/json': infer T;
            };
        };
    };
} ? T : never;
export type ForecastRequest = components['schemas']['ForecastRequest'];
export type ForecastResponse = components['schemas']['ForecastResponse'];
export type InputSeries = components['schemas']['InputSeries'];
export type Freq = ForecastRequest['freq'];
export type JobAccepted = Body<'/v1/forecast-jobs', 'post', 202>;
export type Job = Body<'/v1/forecast-jobs/{id}', 'get', 200>;
export type JobStatus = Job['status'];
export type JobPage = Body<'/v1/forecast-jobs', 'get', 200>;
export type ModelList = Body<'/v1/models', 'get', 200>;
export type Warmup = Body<'/v1/warmup', 'get', 200> | Body<'/v1/warmup', 'get', 202>;
export type ApiKey = Body<'/v1/api-keys/{id}', 'delete', 200>;
export type CreatedApiKey = Body<'/v1/api-keys', 'post', 201>;
export type FineTuningRequest = NonNullable<paths['/v1/fine-tuning-jobs']['post']['requestBody']>['content']['application/json'];
export type FineTuningJob = Body<'/v1/fine-tuning-jobs/{id}', 'get', 200>;
export type FineTuningJobPage = Body<'/v1/fine-tuning-jobs', 'get', 200>;
export type AnomaliesRequest = NonNullable<paths['/v1/anomaly-jobs']['post']['requestBody']>['content']['application/json'];
export type AnomalyJobAccepted = Body<'/v1/anomaly-jobs', 'post', 202>;
export type AnomalyJob = Body<'/v1/anomaly-jobs/{id}', 'get', 200>;
export type AnomalyJobPage = Body<'/v1/anomaly-jobs', 'get', 200>;
/** AnomaliesRequest, except that dates may be Dates. */
export type AnomaliesInput = Omit<AnomaliesRequest, 'series'> & {
    series: ForecastInput['series'];
};
export type EmbeddingsRequest = NonNullable<paths['/v1/embeddings']['post']['requestBody']>['content']['application/json'];
export type EmbeddingsResponse = Body<'/v1/embeddings', 'post', 200>;
export type EmbeddingJobAccepted = Body<'/v1/embedding-jobs', 'post', 202>;
export type EmbeddingJob = Body<'/v1/embedding-jobs/{id}', 'get', 200>;
export type EmbeddingJobPage = Body<'/v1/embedding-jobs', 'get', 200>;
export type ModelInfo = Body<'/v1/models/{id}', 'get', 200>;
export type StoredSeries = Body<'/v1/series/{id}', 'get', 200>;
export type StoredSeriesPut = NonNullable<paths['/v1/series/{id}']['put']['requestBody']>['content']['application/json'];
export type StoredSeriesPage = Body<'/v1/series', 'get', 200>;
export type ObservationsAppended = Body<'/v1/series/{id}/observations', 'post', 200>;
export type SeriesAccuracy = Body<'/v1/series/{id}/accuracy', 'get', 200>;
export type ModelAccuracy = Body<'/v1/accuracy', 'get', 200>;
/** Observations to append: dates may be Dates (written in the series' freq; default a date, 'H' a date-time). */
export interface Observations {
    index: DateLike[];
    target: (number | null)[];
}
/** A forecast of stored series (series_ids): the request without series; freq is the series'. */
export type StoredForecastInput = Omit<ForecastRequest, 'series' | 'series_ids' | 'freq'> & {
    freq?: Freq;
    store?: boolean;
};
/** A date the API reads: a Date (taken in UTC) or the API's own string form. */
export type DateLike = Date | string;
/** FineTuningRequest, except that dates may be Dates. */
export type FineTuningInput = Omit<FineTuningRequest, 'series'> & {
    series: ForecastInput['series'];
};
/** ForecastRequest, except that dates may be Dates. */
export type ForecastInput = Omit<ForecastRequest, 'series'> & {
    series: (Omit<InputSeries, 'index' | 'future_variables_index'> & {
        index: DateLike[];
        future_variables_index?: DateLike[];
    })[];
};
export interface RetryOptions {
    /** further attempts after a 429 or 503 (default 2; 0 turns retrying off) */
    retries?: number;
    /** waits the server asks for longer than this are not waited out: the error is thrown (default 60 000) */
    maxDelayMs?: number;
    /** first backoff when the server names no wait; doubles per attempt (default 500) */
    baseDelayMs?: number;
    /** called before each wait, e.g. to log it */
    onRetry?: (info: {
        attempt: number;
        delayMs: number;
        error: HorizonError;
    }) => void;
}
export interface HorizonOptions {
    /** the server, e.g. "http://127.0.0.1:8080" */
    baseUrl: string;
    /** an API key ("hzn_…") */
    apiKey: string;
    /** number of retries, or the full retry policy */
    retries?: number | RetryOptions;
    /** a fetch to use instead of the global one */
    fetch?: typeof fetch;
}
export interface CallOptions {
    signal?: AbortSignal;
    /** retry this call on 429/503 even though it is not idempotent (createJob, apiKeys.create) */
    retry?: boolean;
}
export interface WaitOptions extends CallOptions {
    /** first poll interval (default 250 ms); grows 1.5× per poll up to maxIntervalMs */
    intervalMs?: number;
    maxIntervalMs?: number;
    /** give up (HorizonError code "wait_timeout") after this long; default: wait as long as it takes */
    timeoutMs?: number;
    /** called with every polled state, e.g. for a progress display */
    onPoll?: (job: Job) => void;
}
/** The API's date string for `d`: date-time for hourly data, a date otherwise. */
export declare function apiDate(d: DateLike, freq: Freq): string;
/** The wire form of a request: Dates become strings. */
export declare function toRequest(input: ForecastInput): ForecastRequest;
export declare class Horizon {
    #private;
    readonly baseUrl: string;
    readonly apiKeys: {
        create(name: string, options?: CallOptions): Promise<CreatedApiKey>;
        list(options?: CallOptions): Promise<ApiKey[]>;
        revoke(id: string, options?: CallOptions): Promise<ApiKey>;
    };
    /** Stored series (docs/stored-series.md): histories kept by the server, appended to, forecast by reference and scored. */
    readonly series: {
        /** PUT /v1/series/{id}: create (or replace) with a history; Dates become the API's strings */
        put(id: string, body: Omit<StoredSeriesPut, 'index'> & {
            index: DateLike[];
        }, options?: CallOptions): Promise<StoredSeries>;
        /** POST /v1/series/{id}/observations: idempotent by timestamp, so it is retried on 429/503 */
        append(id: string, observations: Observations & {
            freq?: Freq;
        }, options?: CallOptions): Promise<ObservationsAppended>;
        /** POST /v1/series/observations: many series in one transaction (all or nothing) */
        appendMany(series: (Observations & {
            series_id: string;
        })[], options?: CallOptions & {
            freq?: Freq;
        }): Promise<ObservationsAppended[]>;
        get(id: string, params?: {
            tail?: number;
            forecasts?: number;
        }, options?: CallOptions): Promise<StoredSeries>;
        /** GET /v1/series, one page; pass next_cursor back as cursor */
        list(params?: {
            limit?: number;
            cursor?: string;
        }, options?: CallOptions): Promise<StoredSeriesPage>;
        delete(id: string, options?: CallOptions): Promise<void>;
        /** POST /v1/forecast with series_ids: the same answer as the series inline; store: true keeps it for scoring */
        forecast(ids: string[], request: StoredForecastInput, options?: CallOptions): Promise<ForecastResponse>;
        /** GET /v1/series/{id}/accuracy: rolling accuracy of its scored forecasts */
        accuracy(id: string, params?: {
            window?: number;
        }, options?: CallOptions): Promise<SeriesAccuracy>;
        /** GET /v1/accuracy?model=: rolling accuracy of a model over the account's stored series */
        modelAccuracy(model: string, params?: {
            window?: number;
        }, options?: CallOptions): Promise<ModelAccuracy>;
    };
    constructor(options: HorizonOptions);
    /** POST /v1/forecast: the forecast, synchronously. Retried on 429/503 (nothing was computed or charged). */
    forecast(request: ForecastInput, options?: CallOptions): Promise<ForecastResponse>;
    /** POST /v1/forecast-jobs: queues the forecast; not retried unless `retry: true`. */
    createJob(request: ForecastInput, options?: CallOptions): Promise<JobAccepted>;
    /** GET /v1/forecast-jobs/{id}: state, and the result once completed. */
    getJob(id: string, options?: CallOptions): Promise<Job>;
    /** Polls until the job is completed, failed or cancelled and returns that state (check `status`). */
    waitForJob(id: string, options?: WaitOptions): Promise<Job>;
    /** GET /v1/forecast-jobs, newest first: `for await (const job of h.listJobs())`, or `.pages()` page by page. */
    listJobs(params?: {
        status?: JobStatus;
        pageSize?: number;
    }, options?: CallOptions): JobPages;
    /** DELETE /v1/forecast-jobs/{id}: cancels a queued or running job (409 job_not_cancellable once it finished). */
    cancelJob(id: string, options?: CallOptions): Promise<Job>;
    /** POST /v1/anomaly-jobs: the body of POST /v1/anomalies, run as a job (docs/api.md, "Anomaly detection"); not retried unless `retry: true`. */
    createAnomalyJob(request: AnomaliesInput, options?: CallOptions): Promise<AnomalyJobAccepted>;
    /** GET /v1/anomaly-jobs/{id}: state, progress, and `result` (the POST /v1/anomalies answer) once completed. */
    getAnomalyJob(id: string, options?: CallOptions): Promise<AnomalyJob>;
    /** Polls an anomaly job until it is completed, failed or cancelled (as waitForJob). */
    waitForAnomalyJob(id: string, options?: Omit<WaitOptions, 'onPoll'> & {
        onPoll?: (job: AnomalyJob) => void;
    }): Promise<AnomalyJob>;
    /** GET /v1/anomaly-jobs: one page of the account's anomaly jobs, newest first (without results). */
    listAnomalyJobs(params?: {
        status?: JobStatus;
        cursor?: string;
        pageSize?: number;
    }, options?: CallOptions): Promise<AnomalyJobPage>;
    /** DELETE /v1/anomaly-jobs/{id}: cancels a queued or running anomaly job (409 job_not_cancellable once it finished). */
    cancelAnomalyJob(id: string, options?: CallOptions): Promise<AnomalyJob>;
    /** POST /v1/embeddings: each series' vector from a model whose library gives embeddings (chronos, chronos-bolt, chronos-2,
     * tirex), and with `granularity: 'patch'` a vector per patch and the summary token (docs/api.md, "Embeddings"). */
    embed(request: EmbeddingsRequest, options?: CallOptions): Promise<EmbeddingsResponse>;
    /** POST /v1/embedding-jobs: the body of POST /v1/embeddings, run as a job (for answers over what one synchronous call may
     * hold: its 413 use_job_api); not retried unless `retry: true`. */
    createEmbeddingJob(request: EmbeddingsRequest, options?: CallOptions): Promise<EmbeddingJobAccepted>;
    /** GET /v1/embedding-jobs/{id}: state, and `result` (the POST /v1/embeddings answer) once completed. */
    getEmbeddingJob(id: string, options?: CallOptions): Promise<EmbeddingJob>;
    /** Polls an embedding job until it is completed, failed or cancelled (as waitForJob). */
    waitForEmbeddingJob(id: string, options?: Omit<WaitOptions, 'onPoll'> & {
        onPoll?: (job: EmbeddingJob) => void;
    }): Promise<EmbeddingJob>;
    /** GET /v1/embedding-jobs: one page of the account's embedding jobs, newest first (without results). */
    listEmbeddingJobs(params?: {
        status?: JobStatus;
        cursor?: string;
        pageSize?: number;
    }, options?: CallOptions): Promise<EmbeddingJobPage>;
    /** DELETE /v1/embedding-jobs/{id}: cancels a queued or running embedding job (409 job_not_cancellable once it finished). */
    cancelEmbeddingJob(id: string, options?: CallOptions): Promise<EmbeddingJob>;
    /** POST /v1/fine-tuning-jobs: fine-tunes a model on your series into a private model (docs/fine-tuning.md); not retried unless `retry: true`. */
    createFineTuningJob(request: FineTuningInput, options?: CallOptions): Promise<FineTuningJob>;
    /** GET /v1/fine-tuning-jobs/{id}: state, progress (step, loss, validation loss), the training summary once completed. */
    getFineTuningJob(id: string, options?: CallOptions): Promise<FineTuningJob>;
    /** Polls a fine-tuning job until it is completed, failed or cancelled (as waitForJob; onPoll sees its progress). */
    waitForFineTuningJob(id: string, options?: Omit<WaitOptions, 'onPoll'> & {
        onPoll?: (job: FineTuningJob) => void;
    }): Promise<FineTuningJob>;
    /** GET /v1/fine-tuning-jobs: one page of the account's fine-tuning jobs, newest first. */
    listFineTuningJobs(params?: {
        cursor?: string;
        pageSize?: number;
    }, options?: CallOptions): Promise<FineTuningJobPage>;
    /** DELETE /v1/fine-tuning-jobs/{id}: stops a queued or running fine-tuning; no model is left. */
    cancelFineTuningJob(id: string, options?: CallOptions): Promise<FineTuningJob>;
    /** GET /v1/models/{id}: one model (a private one by id or name: base, training summary). */
    model(id: string, options?: CallOptions): Promise<ModelInfo>;
    /** DELETE /v1/models/{id}: deletes one of the account's private (fine-tuned) models. */
    deleteModel(id: string, options?: CallOptions): Promise<void>;
    /** GET /v1/models: the deployment's models, sizes, limits and licences. */
    models(options?: CallOptions): Promise<ModelList>;
    /** GET /v1/warmup: loads a model ahead of use ("warm"), or reports its weights' pull ("pulling"). */
    warmup(params?: {
        model?: string;
        modelSize?: string;
    }, options?: CallOptions): Promise<Warmup>;
}
/** The job list: iterating yields jobs across all pages; `pages()` yields the pages themselves. */
export declare class JobPages implements AsyncIterable<Job> {
    #private;
    constructor(fetchPage: (cursor: string | null) => Promise<JobPage>);
    pages(): AsyncGenerator<JobPage>;
    [Symbol.asyncIterator](): AsyncGenerator<Job>;
}
export {};
