import { errorFrom, HorizonError } from "./errors.js";
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const sleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted) {
        reject(signal.reason);
        return;
    }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason); };
    signal?.addEventListener('abort', onAbort, { once: true });
});
/** The API's date string for `d`: date-time for hourly data, a date otherwise. */
export function apiDate(d, freq) {
    if (typeof d === 'string')
        return d;
    if (Number.isNaN(d.getTime()))
        throw new TypeError('an index date is an invalid Date');
    return freq === 'H' ? `${d.toISOString().slice(0, 19)}Z` : d.toISOString().slice(0, 10);
}
/** The wire form of a request: Dates become strings. */
export function toRequest(input) {
    return {
        ...input,
        series: input.series.map((s) => {
            const out = { ...s, index: s.index.map((d) => apiDate(d, input.freq)) };
            if (s.future_variables_index)
                out.future_variables_index = s.future_variables_index.map((d) => apiDate(d, input.freq));
            return out;
        }),
    };
}
export class Horizon {
    baseUrl;
    apiKeys;
    /** Stored series (docs/stored-series.md): histories kept by the server, appended to, forecast by reference and scored. */
    series;
    #apiKey;
    #retry;
    #fetch;
    constructor(options) {
        if (!options?.baseUrl)
            throw new TypeError('Horizon: baseUrl is required');
        if (!options.apiKey)
            throw new TypeError('Horizon: apiKey is required');
        this.baseUrl = options.baseUrl.replace(/\/+$/, '');
        this.#apiKey = options.apiKey;
        const retry = typeof options.retries === 'number' ? { retries: options.retries } : options.retries ?? {};
        this.#retry = { retries: retry.retries ?? 2, maxDelayMs: retry.maxDelayMs ?? 60_000, baseDelayMs: retry.baseDelayMs ?? 500, onRetry: retry.onRetry };
        this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
        this.apiKeys = {
            create: async (name, o) => (await this.#call('POST', '/v1/api-keys', { body: { name }, idempotent: false, ...o })).body,
            list: async (o) => (await this.#call('GET', '/v1/api-keys', o)).body.keys,
            revoke: async (id, o) => (await this.#call('DELETE', `/v1/api-keys/${encodeURIComponent(id)}`, o)).body,
        };
        const seriesPath = (id) => `/v1/series/${encodeURIComponent(id)}`;
        const query = (params) => {
            const q = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
            return String(q) ? `?${q}` : '';
        };
        this.series = {
            put: async (id, body, o) => (await this.#call('PUT', seriesPath(id), { body: { ...body, index: body.index.map((d) => apiDate(d, body.freq)) }, ...o })).body,
            append: async (id, { freq, index, target }, o) => (await this.#call('POST', `${seriesPath(id)}/observations`, { body: { index: index.map((d) => apiDate(d, freq ?? 'D')), target }, ...o })).body,
            appendMany: async (series, o) => (await this.#call('POST', '/v1/series/observations', {
                body: { series: series.map((s) => ({ series_id: s.series_id, index: s.index.map((d) => apiDate(d, o?.freq ?? 'D')), target: s.target })) }, ...o,
            })).body.series,
            get: async (id, params = {}, o) => (await this.#call('GET', `${seriesPath(id)}${query(params)}`, o)).body,
            list: async (params = {}, o) => (await this.#call('GET', `/v1/series${query(params)}`, o)).body,
            delete: async (id, o) => { await this.#call('DELETE', seriesPath(id), { idempotent: false, ...o }); },
            forecast: async (ids, request, o) => (await this.#call('POST', '/v1/forecast', { body: { ...request, series_ids: ids }, ...o })).body,
            accuracy: async (id, params = {}, o) => (await this.#call('GET', `${seriesPath(id)}/accuracy${query(params)}`, o)).body,
            modelAccuracy: async (model, params = {}, o) => (await this.#call('GET', `/v1/accuracy${query({ model, ...params })}`, o)).body,
        };
    }
    /** POST /v1/forecast: the forecast, synchronously. Retried on 429/503 (nothing was computed or charged). */
    async forecast(request, options) {
        return (await this.#call('POST', '/v1/forecast', { body: toRequest(request), ...options })).body;
    }
    /** POST /v1/forecast-jobs: queues the forecast; not retried unless `retry: true`. */
    async createJob(request, options) {
        return (await this.#call('POST', '/v1/forecast-jobs', { body: toRequest(request), idempotent: false, ...options })).body;
    }
    /** GET /v1/forecast-jobs/{id}: state, and the result once completed. */
    async getJob(id, options) {
        return (await this.#call('GET', `/v1/forecast-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** Polls until the job is completed, failed or cancelled and returns that state (check `status`). */
    async waitForJob(id, options = {}) {
        const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
        let interval = options.intervalMs ?? 250;
        const maxInterval = options.maxIntervalMs ?? 5_000;
        for (;;) {
            const { body: job, headers } = await this.#call('GET', `/v1/forecast-jobs/${encodeURIComponent(id)}`, options);
            options.onPoll?.(job);
            if (TERMINAL.has(job.status))
                return job;
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
    listJobs(params = {}, options) {
        return new JobPages(async (cursor) => {
            const query = new URLSearchParams();
            if (params.pageSize !== undefined)
                query.set('limit', String(params.pageSize));
            if (params.status)
                query.set('status', params.status);
            if (cursor)
                query.set('cursor', cursor);
            const qs = String(query) ? `?${query}` : '';
            return (await this.#call('GET', `/v1/forecast-jobs${qs}`, options)).body;
        });
    }
    /** DELETE /v1/forecast-jobs/{id}: cancels a queued or running job (409 job_not_cancellable once it finished). */
    async cancelJob(id, options) {
        return (await this.#call('DELETE', `/v1/forecast-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** POST /v1/anomaly-jobs: the body of POST /v1/anomalies, run as a job (docs/api.md, "Anomaly detection"); not retried unless `retry: true`. */
    async createAnomalyJob(request, options) {
        const body = toRequest(request);
        return (await this.#call('POST', '/v1/anomaly-jobs', { body, idempotent: false, ...options })).body;
    }
    /** GET /v1/anomaly-jobs/{id}: state, progress, and `result` (the POST /v1/anomalies answer) once completed. */
    async getAnomalyJob(id, options) {
        return (await this.#call('GET', `/v1/anomaly-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** Polls an anomaly job until it is completed, failed or cancelled (as waitForJob). */
    async waitForAnomalyJob(id, options = {}) {
        const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
        let interval = options.intervalMs ?? 250;
        for (;;) {
            const job = await this.getAnomalyJob(id, options);
            options.onPoll?.(job);
            if (TERMINAL.has(job.status))
                return job;
            if (Date.now() + interval > deadline)
                throw new HorizonError({ status: 0, code: 'wait_timeout', detail: `anomaly job ${id} is still ${job.status} after ${options.timeoutMs} ms` });
            await sleep(interval, options.signal);
            interval = Math.min(options.maxIntervalMs ?? 5_000, interval * 1.5);
        }
    }
    /** GET /v1/anomaly-jobs: one page of the account's anomaly jobs, newest first (without results). */
    async listAnomalyJobs(params = {}, options) {
        const query = new URLSearchParams();
        if (params.pageSize !== undefined)
            query.set('limit', String(params.pageSize));
        if (params.status)
            query.set('status', params.status);
        if (params.cursor)
            query.set('cursor', params.cursor);
        return (await this.#call('GET', `/v1/anomaly-jobs${String(query) ? `?${query}` : ''}`, options)).body;
    }
    /** DELETE /v1/anomaly-jobs/{id}: cancels a queued or running anomaly job (409 job_not_cancellable once it finished). */
    async cancelAnomalyJob(id, options) {
        return (await this.#call('DELETE', `/v1/anomaly-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** POST /v1/embeddings: each series' vector from a model whose library gives embeddings (chronos, chronos-bolt, chronos-2,
     * tirex), and with `granularity: 'patch'` a vector per patch and the summary token (docs/api.md, "Embeddings"). */
    async embed(request, options) {
        return (await this.#call('POST', '/v1/embeddings', { body: request, ...options })).body;
    }
    /** POST /v1/embedding-jobs: the body of POST /v1/embeddings, run as a job (for answers over what one synchronous call may
     * hold: its 413 use_job_api); not retried unless `retry: true`. */
    async createEmbeddingJob(request, options) {
        return (await this.#call('POST', '/v1/embedding-jobs', { body: request, idempotent: false, ...options })).body;
    }
    /** GET /v1/embedding-jobs/{id}: state, and `result` (the POST /v1/embeddings answer) once completed. */
    async getEmbeddingJob(id, options) {
        return (await this.#call('GET', `/v1/embedding-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** Polls an embedding job until it is completed, failed or cancelled (as waitForJob). */
    async waitForEmbeddingJob(id, options = {}) {
        const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
        let interval = options.intervalMs ?? 250;
        for (;;) {
            const job = await this.getEmbeddingJob(id, options);
            options.onPoll?.(job);
            if (TERMINAL.has(job.status))
                return job;
            if (Date.now() + interval > deadline) {
                throw new HorizonError({ status: 0, code: 'wait_timeout', detail: `embedding job ${id} is still ${job.status} after ${options.timeoutMs} ms` });
            }
            await sleep(interval, options.signal);
            interval = Math.min(options.maxIntervalMs ?? 5_000, interval * 1.5);
        }
    }
    /** GET /v1/embedding-jobs: one page of the account's embedding jobs, newest first (without results). */
    async listEmbeddingJobs(params = {}, options) {
        const query = new URLSearchParams();
        if (params.pageSize !== undefined)
            query.set('limit', String(params.pageSize));
        if (params.status)
            query.set('status', params.status);
        if (params.cursor)
            query.set('cursor', params.cursor);
        return (await this.#call('GET', `/v1/embedding-jobs${String(query) ? `?${query}` : ''}`, options)).body;
    }
    /** DELETE /v1/embedding-jobs/{id}: cancels a queued or running embedding job (409 job_not_cancellable once it finished). */
    async cancelEmbeddingJob(id, options) {
        return (await this.#call('DELETE', `/v1/embedding-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** POST /v1/fine-tuning-jobs: fine-tunes a model on your series into a private model (docs/fine-tuning.md); not retried unless `retry: true`. */
    async createFineTuningJob(request, options) {
        const body = toRequest(request);
        return (await this.#call('POST', '/v1/fine-tuning-jobs', { body, idempotent: false, ...options })).body;
    }
    /** GET /v1/fine-tuning-jobs/{id}: state, progress (step, loss, validation loss), the training summary once completed. */
    async getFineTuningJob(id, options) {
        return (await this.#call('GET', `/v1/fine-tuning-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** Polls a fine-tuning job until it is completed, failed or cancelled (as waitForJob; onPoll sees its progress). */
    async waitForFineTuningJob(id, options = {}) {
        const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
        let interval = options.intervalMs ?? 250;
        for (;;) {
            const job = await this.getFineTuningJob(id, options);
            options.onPoll?.(job);
            if (TERMINAL.has(job.status))
                return job;
            if (Date.now() + interval > deadline)
                throw new HorizonError({ status: 0, code: 'wait_timeout', detail: `fine-tuning job ${id} is still ${job.status} after ${options.timeoutMs} ms` });
            await sleep(interval, options.signal);
            interval = Math.min(options.maxIntervalMs ?? 5_000, interval * 1.5);
        }
    }
    /** GET /v1/fine-tuning-jobs: one page of the account's fine-tuning jobs, newest first. */
    async listFineTuningJobs(params = {}, options) {
        const query = new URLSearchParams();
        if (params.pageSize !== undefined)
            query.set('limit', String(params.pageSize));
        if (params.cursor)
            query.set('cursor', params.cursor);
        return (await this.#call('GET', `/v1/fine-tuning-jobs${String(query) ? `?${query}` : ''}`, options)).body;
    }
    /** DELETE /v1/fine-tuning-jobs/{id}: stops a queued or running fine-tuning; no model is left. */
    async cancelFineTuningJob(id, options) {
        return (await this.#call('DELETE', `/v1/fine-tuning-jobs/${encodeURIComponent(id)}`, options)).body;
    }
    /** GET /v1/models/{id}: one model (a private one by id or name: base, training summary). */
    async model(id, options) {
        return (await this.#call('GET', `/v1/models/${encodeURIComponent(id)}`, options)).body;
    }
    /** DELETE /v1/models/{id}: deletes one of the account's private (fine-tuned) models. */
    async deleteModel(id, options) {
        await this.#call('DELETE', `/v1/models/${encodeURIComponent(id)}`, { idempotent: false, ...options });
    }
    /** GET /v1/models: the deployment's models, sizes, limits and licences. */
    async models(options) {
        return (await this.#call('GET', '/v1/models', options)).body;
    }
    /** GET /v1/warmup: loads a model ahead of use ("warm"), or reports its weights' pull ("pulling"). */
    async warmup(params = {}, options) {
        const query = new URLSearchParams();
        if (params.model)
            query.set('model', params.model);
        if (params.modelSize)
            query.set('model_size', params.modelSize);
        return (await this.#call('GET', `/v1/warmup${String(query) ? `?${query}` : ''}`, options)).body;
    }
    async #call(method, path, options = {}) {
        const retries = (options.idempotent ?? true) || options.retry ? this.#retry.retries : 0;
        const headers = { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' };
        if (options.body !== undefined)
            headers['content-type'] = 'application/json';
        const body = options.body === undefined ? undefined : JSON.stringify(options.body);
        for (let attempt = 0;; attempt++) {
            const res = await this.#fetch(`${this.baseUrl}${path}`, { method, headers, body, signal: options.signal });
            if (res.ok)
                return { body: (res.status === 204 ? undefined : await res.json()), headers: res.headers };
            const error = await errorFrom(res);
            if ((res.status !== 429 && res.status !== 503) || attempt >= retries)
                throw error;
            const delayMs = error.retryAfterMs ?? this.#retry.baseDelayMs * 2 ** attempt * (0.75 + Math.random() / 2);
            // a wait beyond the cap (a daily quota resets at midnight) is the caller's decision, not ours
            if (delayMs > this.#retry.maxDelayMs)
                throw error;
            this.#retry.onRetry?.({ attempt: attempt + 1, delayMs, error });
            await sleep(delayMs, options.signal);
        }
    }
}
/** The job list: iterating yields jobs across all pages; `pages()` yields the pages themselves. */
export class JobPages {
    #fetchPage;
    constructor(fetchPage) { this.#fetchPage = fetchPage; }
    async *pages() {
        let cursor = null;
        do {
            const page = await this.#fetchPage(cursor);
            yield page;
            cursor = page.next_cursor;
        } while (cursor);
    }
    async *[Symbol.asyncIterator]() {
        for await (const page of this.pages())
            yield* page.jobs;
    }
}
