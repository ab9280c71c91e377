// The Horizon client: one method per API operation, typed from the server's OpenAPI document
// (openapi.ts, generated), over the platform's fetch (Node 18+, browsers, Deno, Bun).
import type { components, paths } from './openapi.ts';
import { errorFrom, HorizonError } from './errors.ts';

type Body<P extends keyof paths, M extends keyof paths[P], S extends number> =
  paths[P][M] extends { responses: { [K in S]: { content: { 'application/json': infer T } } } } ? T : never;

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
export type AnomaliesInput = Omit<AnomaliesRequest, 'series'> & { series: ForecastInput['series'] };
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
export interface Observations { index: DateLike[]; target: (number | null)[] }
/** A forecast of stored series (series_ids): the request without series; freq is the series'. */
export type StoredForecastInput = Omit<ForecastRequest, 'series' | 'series_ids' | 'freq'> & { freq?: Freq; store?: boolean };

/** A date the API reads: a Date (taken in UTC) or the API's own string form. */
export type DateLike = Date | string;

/** FineTuningRequest, except that dates may be Dates. */
export type FineTuningInput = Omit<FineTuningRequest, 'series'> & { series: ForecastInput['series'] };

/** ForecastRequest, except that dates may be Dates. */
export type ForecastInput = Omit<ForecastRequest, 'series'> & {
  series: (Omit<InputSeries, 'index' | 'future_variables_index'> & { index: DateLike[]; future_variables_index?: DateLike[] })[];
};

export interface RetryOptions {
  /** further attempts after a 429 or 503 (default 2; 0 turns retrying off) */
  retries?: number;
  /** waits the server asks for longer than this are not waited out: the error is thrown (default 60 000) */
  maxDelayMs?: number;
  /** first backoff when the server names no wait; doubles per attempt (default 500) */
  baseDelayMs?: number;
  /** called before each wait, e.g. to log it */
  onRetry?: (info: { attempt: number; delayMs: number; error: HorizonError }) => void;
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

const TERMINAL = new Set<JobStatus>(['completed', 'failed', 'cancelled']);

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) { reject(signal.reason); return; }
  const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
  const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
  signal?.addEventListener('abort', onAbort, { once: true });
});

/** The API's date string for `d`: date-time for hourly data, a date otherwise. */
export function apiDate(d: DateLike, freq: Freq): string {
  if (typeof d === 'string') return d;
  if (Number.isNaN(d.getTime())) throw new TypeError('an index date is an invalid Date');
  return freq === 'H' ? `${d.toISOString().slice(0, 19)}Z` : d.toISOString().slice(0, 10);
}

/** The wire form of a request: Dates become strings. */
export function toRequest(input: ForecastInput): ForecastRequest {
  return {
    ...input,
    series: input.series.map((s) => {
      const out: InputSeries = { ...s, index: s.index.map((d) => apiDate(d, input.freq)) } as InputSeries;
      if (s.future_variables_index) out.future_variables_index = s.future_variables_index.map((d) => apiDate(d, input.freq));
      return out;
    }),
  };
}

export class Horizon {
  readonly baseUrl: string;
  readonly apiKeys: {
    create(name: string, options?: CallOptions): Promise<CreatedApiKey>;
    list(options?: CallOptions): Promise<ApiKey[]>;
    revoke(id: string, options?: CallOptions): Promise<ApiKey>;
  };
  /** Stored series (docs/stored-series.md): histories kept by the server, appended to, forecast by reference and scored. */
  readonly series: {
    /** PUT /v1/series/{id}: create (or replace) with a history; Dates become the API's strings */
    put(id: string, body: Omit<StoredSeriesPut, 'index'> & { index: DateLike[] }, options?: CallOptions): Promise<StoredSeries>;
    /** POST /v1/series/{id}/observations: idempotent by timestamp, so it is retried on 429/503 */
    append(id: string, observations: Observations & { freq?: Freq }, options?: CallOptions): Promise<ObservationsAppended>;
    /** POST /v1/series/observations: many series in one transaction (all or nothing) */
    appendMany(series: (Observations & { series_id: string })[], options?: CallOptions & { freq?: Freq }): Promise<ObservationsAppended[]>;
    get(id: string, params?: { tail?: number; forecasts?: number }, options?: CallOptions): Promise<StoredSeries>;
    /** GET /v1/series, one page; pass next_cursor back as cursor */
    list(params?: { limit?: number; cursor?: string }, options?: CallOptions): Promise<StoredSeriesPage>;
    delete(id: string, options?: CallOptions): Promise<void>;
    /** POST /v1/forecast with series_ids: the same answer as the series inline; store: true keeps it for scoring */
    forecast(ids: string[], request: StoredForecastInput, options?: CallOptions): Promise<ForecastResponse>;
    /** GET /v1/series/{id}/accuracy: rolling accuracy of its scored forecasts */
    accuracy(id: string, params?: { window?: number }, options?: CallOptions): Promise<SeriesAccuracy>;
    /** GET /v1/accuracy?model=: rolling accuracy of a model over the account's stored series */
    modelAccuracy(model: string, params?: { window?: number }, options?: CallOptions): Promise<ModelAccuracy>;
  };
  readonly #apiKey: string;
  readonly #retry: Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;
  readonly #fetch: typeof fetch;

  constructor(options: HorizonOptions) {
    if (!options?.baseUrl) throw new TypeError('Horizon: baseUrl is required');
    if (!options.apiKey) throw new TypeError('Horizon: apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    const retry = typeof options.retries === 'number' ? { retries: options.retries } : options.retries ?? {};
    this.#retry = { retries: retry.retries ?? 2, maxDelayMs: retry.maxDelayMs ?? 60_000, baseDelayMs: retry.baseDelayMs ?? 500, onRetry: retry.onRetry };
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.apiKeys = {
      create: async (name, o) => (await this.#call<CreatedApiKey>('POST', '/v1/api-keys', { body: { name }, idempotent: false, ...o })).body,
      list: async (o) => (await this.#call<{ keys: ApiKey[] }>('GET', '/v1/api-keys', o)).body.keys,
      revoke: async (id, o) => (await this.#call<ApiKey>('DELETE', `/v1/api-keys/${encodeURIComponent(id)}`, o)).body,
    };
    const seriesPath = (id: string) => `/v1/series/${encodeURIComponent(id)}`;
    const query = (params: Record<string, string | number | undefined>) => {
      const q = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
      return String(q) ? `?${q}` : '';
    };
    this.series = {
      put: async (id, body, o) => (await this.#call<StoredSeries>('PUT', seriesPath(id), { body: { ...body, index: body.index.map((d) => apiDate(d, body.freq)) }, ...o })).body,
      append: async (id, { freq, index, target }, o) => (await this.#call<ObservationsAppended>('POST', `${seriesPath(id)}/observations`, { body: { index: index.map((d) => apiDate(d, freq ?? 'D')), target }, ...o })).body,
      appendMany: async (series, o) => (await this.#call<{ series: ObservationsAppended[] }>('POST', '/v1/series/observations', {
        body: { series: series.map((s) => ({ series_id: s.series_id, index: s.index.map((d) => apiDate(d, o?.freq ?? 'D')), target: s.target })) }, ...o,
      })).body.series,
      get: async (id, params = {}, o) => (await this.#call<StoredSeries>('GET', `${seriesPath(id)}${query(params)}`, o)).body,
      list: async (params = {}, o) => (await this.#call<StoredSeriesPage>('GET', `/v1/series${query(params)}`, o)).body,
      delete: async (id, o) => { await this.#call<unknown>('DELETE', seriesPath(id), { idempotent: false, ...o }); },
      forecast: async (ids, request, o) => (await this.#call<ForecastResponse>('POST', '/v1/forecast', { body: { ...request, series_ids: ids }, ...o })).body,
      accuracy: async (id, params = {}, o) => (await this.#call<SeriesAccuracy>('GET', `${seriesPath(id)}/accuracy${query(params)}`, o)).body,
      modelAccuracy: async (model, params = {}, o) => (await this.#call<ModelAccuracy>('GET', `/v1/accuracy${query({ model, ...params })}`, o)).body,
    };
  }

  /** POST /v1/forecast: the forecast, synchronously. Retried on 429/503 (nothing was computed or charged). */
  async forecast(request: ForecastInput, options?: CallOptions): Promise<ForecastResponse> {
    return (await this.#call<ForecastResponse>('POST', '/v1/forecast', { body: toRequest(request), ...options })).body;
  }

  /** POST /v1/forecast-jobs: queues the forecast; not retried unless `retry: true`. */
  async createJob(request: ForecastInput, options?: CallOptions): Promise<JobAccepted> {
    return (await this.#call<JobAccepted>('POST', '/v1/forecast-jobs', { body: toRequest(request), idempotent: false, ...options })).body;
  }

  /** GET /v1/forecast-jobs/{id}: state, and the result once completed. */
  async getJob(id: string, options?: CallOptions): Promise<Job> {
    return (await this.#call<Job>('GET', `/v1/forecast-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** Polls until the job is completed, failed or cancelled and returns that state (check `status`). */
  async waitForJob(id: string, options: WaitOptions = {}): Promise<Job> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let interval = options.intervalMs ?? 250;
    const maxInterval = options.maxIntervalMs ?? 5_000;
    for (;;) {
      const { body: job, headers } = await this.#call<Job>('GET', `/v1/forecast-jobs/${encodeURIComponent(id)}`, options);
      options.onPoll?.(job);
      if (TERMINAL.has(job.status)) return job;
      // the server's Retry-After, when it sends one, overrides the client's own pacing
      const asked = Number(headers.get('retry-after'));
      const wait = Number.isFinite(asked) && asked > 0 ? asked * 1000 : interval;
      if (Date.now() + wait > deadline) {
        throw new HorizonError({ status: 0, code: 'wait_timeout', detail: `job ${id} is still ${job.status} after ${options.timeoutMs} ms` });
      }
      await sleep(wait, options.signal);
      interval = Math.min(maxInterval, interval * 1.5);
    }
  }

  /** GET /v1/forecast-jobs, newest first: `for await (const job of h.listJobs())`, or `.pages()` page by page. */
  listJobs(params: { status?: JobStatus; pageSize?: number } = {}, options?: CallOptions): JobPages {
    return new JobPages(async (cursor) => {
      const query = new URLSearchParams();
      if (params.pageSize !== undefined) query.set('limit', String(params.pageSize));
      if (params.status) query.set('status', params.status);
      if (cursor) query.set('cursor', cursor);
      const qs = String(query) ? `?${query}` : '';
      return (await this.#call<JobPage>('GET', `/v1/forecast-jobs${qs}`, options)).body;
    });
  }

  /** DELETE /v1/forecast-jobs/{id}: cancels a queued or running job (409 job_not_cancellable once it finished). */
  async cancelJob(id: string, options?: CallOptions): Promise<Job> {
    return (await this.#call<Job>('DELETE', `/v1/forecast-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** POST /v1/anomaly-jobs: the body of POST /v1/anomalies, run as a job (docs/api.md, "Anomaly detection"); not retried unless `retry: true`. */
  async createAnomalyJob(request: AnomaliesInput, options?: CallOptions): Promise<AnomalyJobAccepted> {
    const body = toRequest(request as unknown as ForecastInput) as unknown as AnomaliesRequest;
    return (await this.#call<AnomalyJobAccepted>('POST', '/v1/anomaly-jobs', { body, idempotent: false, ...options })).body;
  }

  /** GET /v1/anomaly-jobs/{id}: state, progress, and `result` (the POST /v1/anomalies answer) once completed. */
  async getAnomalyJob(id: string, options?: CallOptions): Promise<AnomalyJob> {
    return (await this.#call<AnomalyJob>('GET', `/v1/anomaly-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** Polls an anomaly job until it is completed, failed or cancelled (as waitForJob). */
  async waitForAnomalyJob(id: string, options: Omit<WaitOptions, 'onPoll'> & { onPoll?: (job: AnomalyJob) => void } = {}): Promise<AnomalyJob> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let interval = options.intervalMs ?? 250;
    for (;;) {
      const job = await this.getAnomalyJob(id, options);
      options.onPoll?.(job);
      if (TERMINAL.has(job.status)) return job;
      if (Date.now() + interval > deadline) throw new HorizonError({ status: 0, code: 'wait_timeout', detail: `anomaly job ${id} is still ${job.status} after ${options.timeoutMs} ms` });
      await sleep(interval, options.signal);
      interval = Math.min(options.maxIntervalMs ?? 5_000, interval * 1.5);
    }
  }

  /** GET /v1/anomaly-jobs: one page of the account's anomaly jobs, newest first (without results). */
  async listAnomalyJobs(params: { status?: JobStatus; cursor?: string; pageSize?: number } = {}, options?: CallOptions): Promise<AnomalyJobPage> {
    const query = new URLSearchParams();
    if (params.pageSize !== undefined) query.set('limit', String(params.pageSize));
    if (params.status) query.set('status', params.status);
    if (params.cursor) query.set('cursor', params.cursor);
    return (await this.#call<AnomalyJobPage>('GET', `/v1/anomaly-jobs${String(query) ? `?${query}` : ''}`, options)).body;
  }

  /** DELETE /v1/anomaly-jobs/{id}: cancels a queued or running anomaly job (409 job_not_cancellable once it finished). */
  async cancelAnomalyJob(id: string, options?: CallOptions): Promise<AnomalyJob> {
    return (await this.#call<AnomalyJob>('DELETE', `/v1/anomaly-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** POST /v1/embeddings: each series' vector from a model whose library gives embeddings (chronos, chronos-bolt, chronos-2,
   * tirex), and with `granularity: 'patch'` a vector per patch and the summary token (docs/api.md, "Embeddings"). */
  async embed(request: EmbeddingsRequest, options?: CallOptions): Promise<EmbeddingsResponse> {
    return (await this.#call<EmbeddingsResponse>('POST', '/v1/embeddings', { body: request, ...options })).body;
  }

  /** POST /v1/embedding-jobs: the body of POST /v1/embeddings, run as a job (for answers over what one synchronous call may
   * hold: its 413 use_job_api); not retried unless `retry: true`. */
  async createEmbeddingJob(request: EmbeddingsRequest, options?: CallOptions): Promise<EmbeddingJobAccepted> {
    return (await this.#call<EmbeddingJobAccepted>('POST', '/v1/embedding-jobs', { body: request, idempotent: false, ...options })).body;
  }

  /** GET /v1/embedding-jobs/{id}: state, and `result` (the POST /v1/embeddings answer) once completed. */
  async getEmbeddingJob(id: string, options?: CallOptions): Promise<EmbeddingJob> {
    return (await this.#call<EmbeddingJob>('GET', `/v1/embedding-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** Polls an embedding job until it is completed, failed or cancelled (as waitForJob). */
  async waitForEmbeddingJob(id: string, options: Omit<WaitOptions, 'onPoll'> & { onPoll?: (job: EmbeddingJob) => void } = {}): Promise<EmbeddingJob> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let interval = options.intervalMs ?? 250;
    for (;;) {
      const job = await this.getEmbeddingJob(id, options);
      options.onPoll?.(job);
      if (TERMINAL.has(job.status)) return job;
      if (Date.now() + interval > deadline) {
        throw new HorizonError({ status: 0, code: 'wait_timeout', detail: `embedding job ${id} is still ${job.status} after ${options.timeoutMs} ms` });
      }
      await sleep(interval, options.signal);
      interval = Math.min(options.maxIntervalMs ?? 5_000, interval * 1.5);
    }
  }

  /** GET /v1/embedding-jobs: one page of the account's embedding jobs, newest first (without results). */
  async listEmbeddingJobs(params: { status?: JobStatus; cursor?: string; pageSize?: number } = {}, options?: CallOptions): Promise<EmbeddingJobPage> {
    const query = new URLSearchParams();
    if (params.pageSize !== undefined) query.set('limit', String(params.pageSize));
    if (params.status) query.set('status', params.status);
    if (params.cursor) query.set('cursor', params.cursor);
    return (await this.#call<EmbeddingJobPage>('GET', `/v1/embedding-jobs${String(query) ? `?${query}` : ''}`, options)).body;
  }

  /** DELETE /v1/embedding-jobs/{id}: cancels a queued or running embedding job (409 job_not_cancellable once it finished). */
  async cancelEmbeddingJob(id: string, options?: CallOptions): Promise<EmbeddingJob> {
    return (await this.#call<EmbeddingJob>('DELETE', `/v1/embedding-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** POST /v1/fine-tuning-jobs: fine-tunes a model on your series into a private model (docs/fine-tuning.md); not retried unless `retry: true`. */
  async createFineTuningJob(request: FineTuningInput, options?: CallOptions): Promise<FineTuningJob> {
    const body = toRequest(request as unknown as ForecastInput) as unknown as FineTuningRequest;
    return (await this.#call<FineTuningJob>('POST', '/v1/fine-tuning-jobs', { body, idempotent: false, ...options })).body;
  }

  /** GET /v1/fine-tuning-jobs/{id}: state, progress (step, loss, validation loss), the training summary once completed. */
  async getFineTuningJob(id: string, options?: CallOptions): Promise<FineTuningJob> {
    return (await this.#call<FineTuningJob>('GET', `/v1/fine-tuning-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** Polls a fine-tuning job until it is completed, failed or cancelled (as waitForJob; onPoll sees its progress). */
  async waitForFineTuningJob(id: string, options: Omit<WaitOptions, 'onPoll'> & { onPoll?: (job: FineTuningJob) => void } = {}): Promise<FineTuningJob> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let interval = options.intervalMs ?? 250;
    for (;;) {
      const job = await this.getFineTuningJob(id, options);
      options.onPoll?.(job);
      if (TERMINAL.has(job.status)) return job;
      if (Date.now() + interval > deadline) throw new HorizonError({ status: 0, code: 'wait_timeout', detail: `fine-tuning job ${id} is still ${job.status} after ${options.timeoutMs} ms` });
      await sleep(interval, options.signal);
      interval = Math.min(options.maxIntervalMs ?? 5_000, interval * 1.5);
    }
  }

  /** GET /v1/fine-tuning-jobs: one page of the account's fine-tuning jobs, newest first. */
  async listFineTuningJobs(params: { cursor?: string; pageSize?: number } = {}, options?: CallOptions): Promise<FineTuningJobPage> {
    const query = new URLSearchParams();
    if (params.pageSize !== undefined) query.set('limit', String(params.pageSize));
    if (params.cursor) query.set('cursor', params.cursor);
    return (await this.#call<FineTuningJobPage>('GET', `/v1/fine-tuning-jobs${String(query) ? `?${query}` : ''}`, options)).body;
  }

  /** DELETE /v1/fine-tuning-jobs/{id}: stops a queued or running fine-tuning; no model is left. */
  async cancelFineTuningJob(id: string, options?: CallOptions): Promise<FineTuningJob> {
    return (await this.#call<FineTuningJob>('DELETE', `/v1/fine-tuning-jobs/${encodeURIComponent(id)}`, options)).body;
  }

  /** GET /v1/models/{id}: one model (a private one by id or name: base, training summary). */
  async model(id: string, options?: CallOptions): Promise<ModelInfo> {
    return (await this.#call<ModelInfo>('GET', `/v1/models/${encodeURIComponent(id)}`, options)).body;
  }

  /** DELETE /v1/models/{id}: deletes one of the account's private (fine-tuned) models. */
  async deleteModel(id: string, options?: CallOptions): Promise<void> {
    await this.#call<undefined>('DELETE', `/v1/models/${encodeURIComponent(id)}`, { idempotent: false, ...options });
  }

  /** GET /v1/models: the deployment's models, sizes, limits and licences. */
  async models(options?: CallOptions): Promise<ModelList> {
    return (await this.#call<ModelList>('GET', '/v1/models', options)).body;
  }

  /** GET /v1/warmup: loads a model ahead of use ("warm"), or reports its weights' pull ("pulling"). */
  async warmup(params: { model?: string; modelSize?: string } = {}, options?: CallOptions): Promise<Warmup> {
    const query = new URLSearchParams();
    if (params.model) query.set('model', params.model);
    if (params.modelSize) query.set('model_size', params.modelSize);
    return (await this.#call<Warmup>('GET', `/v1/warmup${String(query) ? `?${query}` : ''}`, options)).body;
  }

  async #call<T>(method: string, path: string, options: CallOptions & { body?: unknown; idempotent?: boolean } = {}): Promise<{ body: T; headers: Headers }> {
    const retries = (options.idempotent ?? true) || options.retry ? this.#retry.retries : 0;
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    for (let attempt = 0; ; attempt++) {
      const res = await this.#fetch(`${this.baseUrl}${path}`, { method, headers, body, signal: options.signal });
      if (res.ok) return { body: (res.status === 204 ? undefined : await res.json()) as T, headers: res.headers };
      const error = await errorFrom(res);
      if ((res.status !== 429 && res.status !== 503) || attempt >= retries) throw error;
      const delayMs = error.retryAfterMs ?? this.#retry.baseDelayMs * 2 ** attempt * (0.75 + Math.random() / 2);
      // a wait beyond the cap (a daily quota resets at midnight) is the caller's decision, not ours
      if (delayMs > this.#retry.maxDelayMs) throw error;
      this.#retry.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs, options.signal);
    }
  }
}

/** The job list: iterating yields jobs across all pages; `pages()` yields the pages themselves. */
export class JobPages implements AsyncIterable<Job> {
  readonly #fetchPage: (cursor: string | null) => Promise<JobPage>;
  constructor(fetchPage: (cursor: string | null) => Promise<JobPage>) { this.#fetchPage = fetchPage; }

  async *pages(): AsyncGenerator<JobPage> {
    let cursor: string | null = null;
    do {
      const page: JobPage = await this.#fetchPage(cursor);
      yield page;
      cursor = page.next_cursor;
    } while (cursor);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Job> {
    for await (const page of this.pages()) yield* page.jobs;
  }
}
