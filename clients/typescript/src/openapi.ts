// Generated from the server's /v1/openapi.json by openapi-typescript (clients/typescript/scripts/generate.ts).
// Do not edit: regenerate with `node scripts/update-sdk-types.ts`.

export interface paths {
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics (operator)
         * @description Prometheus text format 0.0.4: HTTP requests and latency by route, quota units by account, jobs by state and queue depth, worker up and restarts, and each model worker's batch sizes, queue wait, inference and load time and resident models with their memory (labelled `runtime_group`). Needs `Authorization: Bearer <HORIZON_METRICS_TOKEN>` when that variable is set; never an API key.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The metrics in Prometheus text exposition format */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain; version=0.0.4": string;
                    };
                };
                /** @description HORIZON_METRICS_TOKEN is set and the request did not present it */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accuracy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rolling accuracy of a model over the stored series */
        get: {
            parameters: {
                query: {
                    /** @description a model id */
                    model: string;
                    /** @description the latest scored forecasts of the model over the account's series, 1-10000; default 1000 */
                    window?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Rolling accuracy */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            model: string;
                            overall: {
                                /** @description the same per horizon step (1 = the first forecast step) */
                                by_step: {
                                    coverage: {
                                        [key: string]: number;
                                    };
                                    forecasts: number;
                                    mase: number | null;
                                    step: number;
                                    wql: number | null;
                                }[];
                                /** @description per central interval ("80": quantiles 0.1 and 0.9), the fraction of observed actuals inside it */
                                coverage: {
                                    [key: string]: number;
                                };
                                /** @description scored forecasts in the window */
                                forecasts: number;
                                mase: number | null;
                                smape: number | null;
                                wql: number | null;
                            };
                            /** @description per series, over the same window */
                            series: {
                                coverage: {
                                    [key: string]: number;
                                };
                                forecasts: number;
                                mase: number | null;
                                series_id: string;
                                wql: number | null;
                            }[];
                            window: number;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/anomalies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Detect anomalies: the band of an in-sample fit or of rolling forecasts over each history */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description mode windows: values of history each window's forecast uses (the last ones before its cutoff); default 128, capped at max_context. Mode in-sample fits each whole history (at most max_context values) and ignores it, with a warning */
                        context?: number;
                        /** @description online detection: score only the last detection_size positions of each series (default: every position from min_history + step - 1 on). Mode windows forecasts only their windows, each from the history before it; mode in-sample fits each series once as without it and scores only those positions. A series with fewer than min_history + step - 1 + detection_size values is a 422 naming it */
                        detection_size?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description the central prediction interval, in percent (above 0, at most 99.99), outside which an observation is an anomaly; default 99 (quantiles 0.005 and 0.995) */
                        level?: number;
                        /** @description values before the first window's cutoff: positions before min_history + step - 1 are not scored; default two seasons of `freq` (H 48, D 14, W 104, MS 24, Q 8, Y 8), at least 8 */
                        min_history?: number;
                        /** @description "in-sample": ONE fit per series; its in-sample one-step-ahead fitted values and their interval at `level` (statsforecast's fitted values) score the whole history — only a statistical model (refit_free_backtest in GET /v1/models) at step 1. "windows": each timestep forecast `step` steps ahead from the `context` values before it, a fit per window — strictly out of sample, any model, any step. Default: in-sample where it is possible, else windows; in-sample asked for where it is not possible is a 422 naming `mode` */
                        mode?: "in-sample" | "windows";
                        /** @description model id (GET /v1/models), or "auto": per series the statistical candidate whose in-sample fit is closest to the history (mode in-sample); default: the deployment default_model */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description the histories to score, every timestep from `scored_from` on (summed over series: at most 20,000 in mode windows, one rolling window each; 200,000 in mode in-sample) */
                        series: components["schemas"]["InputSeries"][];
                        /** @description each timestep is forecast `step` steps ahead (from the values up to `step` before it); default 1; at most the model's max_horizon */
                        step?: number;
                    };
                };
            };
            responses: {
                /** @description Per series and scored timestep: the forecast, the band at `level`, the observation, whether it lies outside and a score */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "model": "seasonal-naive",
                         *       "model_size": "default",
                         *       "mode": "in-sample",
                         *       "level": 99,
                         *       "step": 1,
                         *       "context": 100000,
                         *       "min_history": 24,
                         *       "quantiles": [
                         *         0.005,
                         *         0.5,
                         *         0.995
                         *       ],
                         *       "n_windows": 12,
                         *       "n_anomalies": 1,
                         *       "series": [
                         *         {
                         *           "scored_from": 24,
                         *           "index": [
                         *             "1951-01-01",
                         *             "1951-02-01",
                         *             "1951-03-01",
                         *             "1951-04-01",
                         *             "1951-05-01",
                         *             "1951-06-01",
                         *             "1951-07-01",
                         *             "1951-08-01",
                         *             "1951-09-01",
                         *             "1951-10-01",
                         *             "1951-11-01",
                         *             "1951-12-01"
                         *           ],
                         *           "actual": [
                         *             145,
                         *             150,
                         *             178,
                         *             163,
                         *             172,
                         *             260,
                         *             199,
                         *             199,
                         *             184,
                         *             162,
                         *             146,
                         *             166
                         *           ],
                         *           "forecast": [
                         *             115,
                         *             126,
                         *             141,
                         *             135,
                         *             125,
                         *             149,
                         *             170,
                         *             170,
                         *             158,
                         *             133,
                         *             114,
                         *             140
                         *           ],
                         *           "median": [
                         *             115,
                         *             126,
                         *             141,
                         *             135,
                         *             125,
                         *             149,
                         *             170,
                         *             170,
                         *             158,
                         *             133,
                         *             114,
                         *             140
                         *           ],
                         *           "lo": [
                         *             30.723,
                         *             41.723,
                         *             56.723,
                         *             50.723,
                         *             40.723,
                         *             64.723,
                         *             85.723,
                         *             85.723,
                         *             73.723,
                         *             48.723,
                         *             29.723,
                         *             55.723
                         *           ],
                         *           "hi": [
                         *             199.277,
                         *             210.277,
                         *             225.277,
                         *             219.277,
                         *             209.277,
                         *             233.277,
                         *             254.277,
                         *             254.277,
                         *             242.277,
                         *             217.277,
                         *             198.277,
                         *             224.277
                         *           ],
                         *           "anomaly": [
                         *             false,
                         *             false,
                         *             false,
                         *             false,
                         *             false,
                         *             true,
                         *             false,
                         *             false,
                         *             false,
                         *             false,
                         *             false,
                         *             false
                         *           ],
                         *           "score": [
                         *             0.356,
                         *             0.285,
                         *             0.439,
                         *             0.332,
                         *             0.558,
                         *             1.317,
                         *             0.344,
                         *             0.344,
                         *             0.309,
                         *             0.344,
                         *             0.38,
                         *             0.309
                         *           ],
                         *           "anomalies": [
                         *             29
                         *           ]
                         *         }
                         *       ],
                         *       "warnings": []
                         *     }
                         */
                        "application/json": {
                            /** @description model "auto" only: its candidates and the pick per series */
                            auto?: {
                                /** @description the statistical models fitted to every series */
                                candidates: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description series[i]: the candidate that scored input series i, the one whose in-sample fitted values lie closest to the observations (mean absolute error over the scored positions every candidate fits; null: none, the first candidate) */
                                series: {
                                    mae: number | null;
                                    model: string;
                                    model_size: string;
                                }[];
                            };
                            /** @description mode windows: the history each window used (after the max_context cap); mode in-sample: the most history one fit saw (max_context) */
                            context: number;
                            /** @description as sent: only the last detection_size positions of each series were scored */
                            detection_size?: number;
                            /** @description the band's central interval in percent */
                            level: number;
                            min_history: number;
                            /** @description how the timesteps were scored: "in-sample" (one fit per series, its in-sample fitted values and interval) or "windows" (one forecast per timestep from the values before it) */
                            mode: "in-sample" | "windows";
                            model: string;
                            model_size: string;
                            n_anomalies: number;
                            /** @description timesteps given a band, over all series: windows forecast (mode windows, all in one model call) or in-sample fitted positions (mode in-sample) */
                            n_windows: number;
                            /** @description [lo, 0.5, hi]: the quantile levels of the band and of the median */
                            quantiles: number[];
                            /** @description series[i]: input series i */
                            series: {
                                /** @description the observations (null = missing: never flagged) */
                                actual: (number | null)[];
                                /** @description positions (as sent) flagged as anomalies, ascending */
                                anomalies: number[];
                                /** @description true when the observation lies outside [lo, hi] (strictly); false for a missing observation or one not forecast */
                                anomaly: boolean[];
                                /** @description the point forecast (mean) made `step` steps ahead (mode in-sample: the fitted value); null where the timestep could not be forecast (see warnings) */
                                forecast: (number | null)[];
                                /** @description the band's upper bound, quantile 1 - (100 - level) / 200 */
                                hi: (number | null)[];
                                /** @description the dates (as sent) of the scored positions */
                                index: string[];
                                /** @description the band's lower bound, quantile (100 - level) / 200 */
                                lo: (number | null)[];
                                /** @description the 0.5 quantile: the centre of the score */
                                median: (number | null)[];
                                /** @description (actual - median) / (hi - median) above the median, (actual - median) / (median - lo) below it: signed, in units of the band's half on that side, so |score| > 1 exactly when outside; 0 on the median; null when the observation is missing, not forecast, or that half of the band has zero width */
                                score: (number | null)[];
                                /** @description position (0-based, in the series as sent) of the first scored timestep: min_history + step - 1, or with detection_size the series length - detection_size (the series length when nothing is scored). Positions before it are not scored; every array below has one element per position from it to the end */
                                scored_from: number;
                            }[];
                            step: number;
                            /** @description series with nothing to score, timesteps whose window could not be forecast or that the in-sample fit does not cover, and the forecast warnings (e.g. band levels outside what the model predicts) */
                            warnings: {
                                field: string;
                                message: string;
                                series?: number;
                            }[];
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request's estimated model time is over the synchronous budget (use_job_api, HORIZON_SYNC_BUDGET_MS; nothing is charged; `detail` says what fits): send the same body to POST /v1/anomaly-jobs; mode "in-sample" fits once per series where "windows" fits once per timestep */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Model or worker not available right now (weights missing, being pulled, worker restarting), or the database cannot be reached (store_unavailable); Retry-After says when to retry */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference timed out (HORIZON_INFERENCE_TIMEOUT_MS); `detail` names the job API, which runs large requests in chunks that each fit one call */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/anomaly-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List anomaly detection jobs */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description page size, 1–100 (default 20) */
                    limit?: string;
                    status?: "queued" | "running" | "completed" | "failed" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the account's anomaly jobs, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "jobs": [
                         *         {
                         *           "job_id": "9d4e2b7a-1c3f-4a5e-8b6d-7f0a2c4e6b81",
                         *           "status": "completed",
                         *           "model": "seasonal-naive",
                         *           "model_size": "default",
                         *           "mode": "in-sample",
                         *           "created_at": "2026-01-05T09:30:00.000Z",
                         *           "started_at": "2026-01-05T09:30:00.110Z",
                         *           "finished_at": "2026-01-05T09:30:00.190Z",
                         *           "attempts": 1
                         *         }
                         *       ],
                         *       "next_cursor": null
                         *     }
                         */
                        "application/json": {
                            /** @description without `result` (GET the job for it) */
                            jobs: {
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                error?: {
                                    code: string;
                                    detail: string;
                                };
                                /** Format: date-time */
                                finished_at?: string;
                                job_id: string;
                                /** @description how the timesteps are scored, as the answer says (decided at submit) */
                                mode: "in-sample" | "windows";
                                /** @description the model that scores the series, as the answer names it ("auto": a pick per series) */
                                model: string;
                                model_size: string;
                                /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                                progress?: {
                                    /** @description chunks whose result is stored (a restarted job does not run them again) */
                                    chunks_done: number;
                                    /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                    chunks_total: number;
                                };
                                result?: {
                                    /** @description model "auto" only: its candidates and the pick per series */
                                    auto?: {
                                        /** @description the statistical models fitted to every series */
                                        candidates: {
                                            model: string;
                                            model_size: string;
                                        }[];
                                        /** @description series[i]: the candidate that scored input series i, the one whose in-sample fitted values lie closest to the observations (mean absolute error over the scored positions every candidate fits; null: none, the first candidate) */
                                        series: {
                                            mae: number | null;
                                            model: string;
                                            model_size: string;
                                        }[];
                                    };
                                    /** @description mode windows: the history each window used (after the max_context cap); mode in-sample: the most history one fit saw (max_context) */
                                    context: number;
                                    /** @description as sent: only the last detection_size positions of each series were scored */
                                    detection_size?: number;
                                    /** @description the band's central interval in percent */
                                    level: number;
                                    min_history: number;
                                    /** @description how the timesteps were scored: "in-sample" (one fit per series, its in-sample fitted values and interval) or "windows" (one forecast per timestep from the values before it) */
                                    mode: "in-sample" | "windows";
                                    model: string;
                                    model_size: string;
                                    n_anomalies: number;
                                    /** @description timesteps given a band, over all series: windows forecast (mode windows, all in one model call) or in-sample fitted positions (mode in-sample) */
                                    n_windows: number;
                                    /** @description [lo, 0.5, hi]: the quantile levels of the band and of the median */
                                    quantiles: number[];
                                    /** @description series[i]: input series i */
                                    series: {
                                        /** @description the observations (null = missing: never flagged) */
                                        actual: (number | null)[];
                                        /** @description positions (as sent) flagged as anomalies, ascending */
                                        anomalies: number[];
                                        /** @description true when the observation lies outside [lo, hi] (strictly); false for a missing observation or one not forecast */
                                        anomaly: boolean[];
                                        /** @description the point forecast (mean) made `step` steps ahead (mode in-sample: the fitted value); null where the timestep could not be forecast (see warnings) */
                                        forecast: (number | null)[];
                                        /** @description the band's upper bound, quantile 1 - (100 - level) / 200 */
                                        hi: (number | null)[];
                                        /** @description the dates (as sent) of the scored positions */
                                        index: string[];
                                        /** @description the band's lower bound, quantile (100 - level) / 200 */
                                        lo: (number | null)[];
                                        /** @description the 0.5 quantile: the centre of the score */
                                        median: (number | null)[];
                                        /** @description (actual - median) / (hi - median) above the median, (actual - median) / (median - lo) below it: signed, in units of the band's half on that side, so |score| > 1 exactly when outside; 0 on the median; null when the observation is missing, not forecast, or that half of the band has zero width */
                                        score: (number | null)[];
                                        /** @description position (0-based, in the series as sent) of the first scored timestep: min_history + step - 1, or with detection_size the series length - detection_size (the series length when nothing is scored). Positions before it are not scored; every array below has one element per position from it to the end */
                                        scored_from: number;
                                    }[];
                                    step: number;
                                    /** @description series with nothing to score, timesteps whose window could not be forecast or that the in-sample fit does not cover, and the forecast warnings (e.g. band levels outside what the model predicts) */
                                    warnings: {
                                        field: string;
                                        message: string;
                                        series?: number;
                                    }[];
                                };
                                /** Format: date-time */
                                started_at?: string;
                                status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            }[];
                            /** @description pass as ?cursor= for the next page; null on the last page */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Queue an anomaly detection job */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description mode windows: values of history each window's forecast uses (the last ones before its cutoff); default 128, capped at max_context. Mode in-sample fits each whole history (at most max_context values) and ignores it, with a warning */
                        context?: number;
                        /** @description online detection: score only the last detection_size positions of each series (default: every position from min_history + step - 1 on). Mode windows forecasts only their windows, each from the history before it; mode in-sample fits each series once as without it and scores only those positions. A series with fewer than min_history + step - 1 + detection_size values is a 422 naming it */
                        detection_size?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description the central prediction interval, in percent (above 0, at most 99.99), outside which an observation is an anomaly; default 99 (quantiles 0.005 and 0.995) */
                        level?: number;
                        /** @description values before the first window's cutoff: positions before min_history + step - 1 are not scored; default two seasons of `freq` (H 48, D 14, W 104, MS 24, Q 8, Y 8), at least 8 */
                        min_history?: number;
                        /** @description "in-sample": ONE fit per series; its in-sample one-step-ahead fitted values and their interval at `level` (statsforecast's fitted values) score the whole history — only a statistical model (refit_free_backtest in GET /v1/models) at step 1. "windows": each timestep forecast `step` steps ahead from the `context` values before it, a fit per window — strictly out of sample, any model, any step. Default: in-sample where it is possible, else windows; in-sample asked for where it is not possible is a 422 naming `mode` */
                        mode?: "in-sample" | "windows";
                        /** @description model id (GET /v1/models), or "auto": per series the statistical candidate whose in-sample fit is closest to the history (mode in-sample); default: the deployment default_model */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description the histories to score, every timestep from `scored_from` on (summed over series: at most 20,000 in mode windows, one rolling window each; 200,000 in mode in-sample) */
                        series: components["schemas"]["InputSeries"][];
                        /** @description each timestep is forecast `step` steps ahead (from the values up to `step` before it); default 1; at most the model's max_horizon */
                        step?: number;
                    };
                };
            };
            responses: {
                /** @description Queued; poll the job at the Location header */
                202: {
                    headers: {
                        /** @description /v1/anomaly-jobs/{job_id} */
                        location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "9d4e2b7a-1c3f-4a5e-8b6d-7f0a2c4e6b81",
                         *       "status": "queued",
                         *       "model": "seasonal-naive",
                         *       "model_size": "default",
                         *       "mode": "in-sample",
                         *       "created_at": "2026-01-05T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            job_id: string;
                            /** @description how the timesteps are scored, as the answer says (decided at submit) */
                            mode: "in-sample" | "windows";
                            /** @description the model that scores the series, as the answer names it ("auto": a pick per series) */
                            model: string;
                            model_size: string;
                            /** @enum {string} */
                            status: "queued";
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/anomaly-jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an anomaly detection job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job; with `result` (the POST /v1/anomalies answer) once completed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "9d4e2b7a-1c3f-4a5e-8b6d-7f0a2c4e6b81",
                         *       "status": "completed",
                         *       "model": "seasonal-naive",
                         *       "model_size": "default",
                         *       "mode": "in-sample",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "started_at": "2026-01-05T09:30:00.110Z",
                         *       "finished_at": "2026-01-05T09:30:00.190Z",
                         *       "attempts": 1,
                         *       "result": {
                         *         "model": "seasonal-naive",
                         *         "model_size": "default",
                         *         "mode": "in-sample",
                         *         "level": 99,
                         *         "step": 1,
                         *         "context": 100000,
                         *         "min_history": 24,
                         *         "quantiles": [
                         *           0.005,
                         *           0.5,
                         *           0.995
                         *         ],
                         *         "n_windows": 12,
                         *         "n_anomalies": 1,
                         *         "series": [
                         *           {
                         *             "scored_from": 24,
                         *             "index": [
                         *               "1951-01-01",
                         *               "1951-02-01",
                         *               "1951-03-01",
                         *               "1951-04-01",
                         *               "1951-05-01",
                         *               "1951-06-01",
                         *               "1951-07-01",
                         *               "1951-08-01",
                         *               "1951-09-01",
                         *               "1951-10-01",
                         *               "1951-11-01",
                         *               "1951-12-01"
                         *             ],
                         *             "actual": [
                         *               145,
                         *               150,
                         *               178,
                         *               163,
                         *               172,
                         *               260,
                         *               199,
                         *               199,
                         *               184,
                         *               162,
                         *               146,
                         *               166
                         *             ],
                         *             "forecast": [
                         *               115,
                         *               126,
                         *               141,
                         *               135,
                         *               125,
                         *               149,
                         *               170,
                         *               170,
                         *               158,
                         *               133,
                         *               114,
                         *               140
                         *             ],
                         *             "median": [
                         *               115,
                         *               126,
                         *               141,
                         *               135,
                         *               125,
                         *               149,
                         *               170,
                         *               170,
                         *               158,
                         *               133,
                         *               114,
                         *               140
                         *             ],
                         *             "lo": [
                         *               30.723,
                         *               41.723,
                         *               56.723,
                         *               50.723,
                         *               40.723,
                         *               64.723,
                         *               85.723,
                         *               85.723,
                         *               73.723,
                         *               48.723,
                         *               29.723,
                         *               55.723
                         *             ],
                         *             "hi": [
                         *               199.277,
                         *               210.277,
                         *               225.277,
                         *               219.277,
                         *               209.277,
                         *               233.277,
                         *               254.277,
                         *               254.277,
                         *               242.277,
                         *               217.277,
                         *               198.277,
                         *               224.277
                         *             ],
                         *             "anomaly": [
                         *               false,
                         *               false,
                         *               false,
                         *               false,
                         *               false,
                         *               true,
                         *               false,
                         *               false,
                         *               false,
                         *               false,
                         *               false,
                         *               false
                         *             ],
                         *             "score": [
                         *               0.356,
                         *               0.285,
                         *               0.439,
                         *               0.332,
                         *               0.558,
                         *               1.317,
                         *               0.344,
                         *               0.344,
                         *               0.309,
                         *               0.344,
                         *               0.38,
                         *               0.309
                         *             ],
                         *             "anomalies": [
                         *               29
                         *             ]
                         *           }
                         *         ],
                         *         "warnings": []
                         *       }
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            job_id: string;
                            /** @description how the timesteps are scored, as the answer says (decided at submit) */
                            mode: "in-sample" | "windows";
                            /** @description the model that scores the series, as the answer names it ("auto": a pick per series) */
                            model: string;
                            model_size: string;
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            result?: {
                                /** @description model "auto" only: its candidates and the pick per series */
                                auto?: {
                                    /** @description the statistical models fitted to every series */
                                    candidates: {
                                        model: string;
                                        model_size: string;
                                    }[];
                                    /** @description series[i]: the candidate that scored input series i, the one whose in-sample fitted values lie closest to the observations (mean absolute error over the scored positions every candidate fits; null: none, the first candidate) */
                                    series: {
                                        mae: number | null;
                                        model: string;
                                        model_size: string;
                                    }[];
                                };
                                /** @description mode windows: the history each window used (after the max_context cap); mode in-sample: the most history one fit saw (max_context) */
                                context: number;
                                /** @description as sent: only the last detection_size positions of each series were scored */
                                detection_size?: number;
                                /** @description the band's central interval in percent */
                                level: number;
                                min_history: number;
                                /** @description how the timesteps were scored: "in-sample" (one fit per series, its in-sample fitted values and interval) or "windows" (one forecast per timestep from the values before it) */
                                mode: "in-sample" | "windows";
                                model: string;
                                model_size: string;
                                n_anomalies: number;
                                /** @description timesteps given a band, over all series: windows forecast (mode windows, all in one model call) or in-sample fitted positions (mode in-sample) */
                                n_windows: number;
                                /** @description [lo, 0.5, hi]: the quantile levels of the band and of the median */
                                quantiles: number[];
                                /** @description series[i]: input series i */
                                series: {
                                    /** @description the observations (null = missing: never flagged) */
                                    actual: (number | null)[];
                                    /** @description positions (as sent) flagged as anomalies, ascending */
                                    anomalies: number[];
                                    /** @description true when the observation lies outside [lo, hi] (strictly); false for a missing observation or one not forecast */
                                    anomaly: boolean[];
                                    /** @description the point forecast (mean) made `step` steps ahead (mode in-sample: the fitted value); null where the timestep could not be forecast (see warnings) */
                                    forecast: (number | null)[];
                                    /** @description the band's upper bound, quantile 1 - (100 - level) / 200 */
                                    hi: (number | null)[];
                                    /** @description the dates (as sent) of the scored positions */
                                    index: string[];
                                    /** @description the band's lower bound, quantile (100 - level) / 200 */
                                    lo: (number | null)[];
                                    /** @description the 0.5 quantile: the centre of the score */
                                    median: (number | null)[];
                                    /** @description (actual - median) / (hi - median) above the median, (actual - median) / (median - lo) below it: signed, in units of the band's half on that side, so |score| > 1 exactly when outside; 0 on the median; null when the observation is missing, not forecast, or that half of the band has zero width */
                                    score: (number | null)[];
                                    /** @description position (0-based, in the series as sent) of the first scored timestep: min_history + step - 1, or with detection_size the series length - detection_size (the series length when nothing is scored). Positions before it are not scored; every array below has one element per position from it to the end */
                                    scored_from: number;
                                }[];
                                step: number;
                                /** @description series with nothing to score, timesteps whose window could not be forecast or that the in-sample fit does not cover, and the forecast warnings (e.g. band levels outside what the model predicts) */
                                warnings: {
                                    field: string;
                                    message: string;
                                    series?: number;
                                }[];
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Cancel an anomaly detection job */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The cancelled job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "9d4e2b7a-1c3f-4a5e-8b6d-7f0a2c4e6b81",
                         *       "status": "cancelled",
                         *       "model": "seasonal-naive",
                         *       "model_size": "default",
                         *       "mode": "in-sample",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "finished_at": "2026-01-05T09:30:00.190Z",
                         *       "attempts": 0
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            job_id: string;
                            /** @description how the timesteps are scored, as the answer says (decided at submit) */
                            mode: "in-sample" | "windows";
                            /** @description the model that scores the series, as the answer names it ("auto": a pick per series) */
                            model: string;
                            model_size: string;
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            result?: {
                                /** @description model "auto" only: its candidates and the pick per series */
                                auto?: {
                                    /** @description the statistical models fitted to every series */
                                    candidates: {
                                        model: string;
                                        model_size: string;
                                    }[];
                                    /** @description series[i]: the candidate that scored input series i, the one whose in-sample fitted values lie closest to the observations (mean absolute error over the scored positions every candidate fits; null: none, the first candidate) */
                                    series: {
                                        mae: number | null;
                                        model: string;
                                        model_size: string;
                                    }[];
                                };
                                /** @description mode windows: the history each window used (after the max_context cap); mode in-sample: the most history one fit saw (max_context) */
                                context: number;
                                /** @description as sent: only the last detection_size positions of each series were scored */
                                detection_size?: number;
                                /** @description the band's central interval in percent */
                                level: number;
                                min_history: number;
                                /** @description how the timesteps were scored: "in-sample" (one fit per series, its in-sample fitted values and interval) or "windows" (one forecast per timestep from the values before it) */
                                mode: "in-sample" | "windows";
                                model: string;
                                model_size: string;
                                n_anomalies: number;
                                /** @description timesteps given a band, over all series: windows forecast (mode windows, all in one model call) or in-sample fitted positions (mode in-sample) */
                                n_windows: number;
                                /** @description [lo, 0.5, hi]: the quantile levels of the band and of the median */
                                quantiles: number[];
                                /** @description series[i]: input series i */
                                series: {
                                    /** @description the observations (null = missing: never flagged) */
                                    actual: (number | null)[];
                                    /** @description positions (as sent) flagged as anomalies, ascending */
                                    anomalies: number[];
                                    /** @description true when the observation lies outside [lo, hi] (strictly); false for a missing observation or one not forecast */
                                    anomaly: boolean[];
                                    /** @description the point forecast (mean) made `step` steps ahead (mode in-sample: the fitted value); null where the timestep could not be forecast (see warnings) */
                                    forecast: (number | null)[];
                                    /** @description the band's upper bound, quantile 1 - (100 - level) / 200 */
                                    hi: (number | null)[];
                                    /** @description the dates (as sent) of the scored positions */
                                    index: string[];
                                    /** @description the band's lower bound, quantile (100 - level) / 200 */
                                    lo: (number | null)[];
                                    /** @description the 0.5 quantile: the centre of the score */
                                    median: (number | null)[];
                                    /** @description (actual - median) / (hi - median) above the median, (actual - median) / (median - lo) below it: signed, in units of the band's half on that side, so |score| > 1 exactly when outside; 0 on the median; null when the observation is missing, not forecast, or that half of the band has zero width */
                                    score: (number | null)[];
                                    /** @description position (0-based, in the series as sent) of the first scored timestep: min_history + step - 1, or with detection_size the series length - detection_size (the series length when nothing is scored). Positions before it are not scored; every array below has one element per position from it to the end */
                                    scored_from: number;
                                }[];
                                step: number;
                                /** @description series with nothing to score, timesteps whose window could not be forecast or that the in-sample fit does not cover, and the forecast warnings (e.g. band levels outside what the model predicts) */
                                warnings: {
                                    field: string;
                                    message: string;
                                    series?: number;
                                }[];
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The account's keys, active and revoked, without secrets */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "keys": [
                         *         {
                         *           "id": "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
                         *           "name": "ci-pipeline",
                         *           "prefix": "hzn_Ab3dE",
                         *           "created_at": "2026-01-05T09:30:00.000Z",
                         *           "revoked_at": null
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                prefix: string;
                                revoked_at: string | null;
                            }[];
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Create an API key */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 1–64 letters, digits, space, _ . - */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description The new key; `key` is its secret, shown only here */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
                         *       "name": "ci-pipeline",
                         *       "key": "hzn_Ab3dE…(secret, shown once)",
                         *       "prefix": "hzn_Ab3dE",
                         *       "created_at": "2026-01-05T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            /** @description the secret, shown only in this response */
                            key: string;
                            name: string;
                            prefix: string;
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The revoked key; it gets 401 from now on */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
                         *       "name": "ci-pipeline",
                         *       "prefix": "hzn_Ab3dE",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "revoked_at": "2026-01-06T10:00:00.000Z"
                         *     }
                         */
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            prefix: string;
                            revoked_at: string | null;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cross-validation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cross-validate models on rolling origins */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description use at most the last `context` observations before each cutoff */
                        context?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description forecast a hierarchy: the series are its bottom, every aggregate (their sums) is forecast with the same model, and the forecasts are reconciled so that every parent is the sum of its children (`series[i]` is then input series i's reconciled forecast; the answer's `hierarchy` holds every node's base and reconciled forecast). The series must end on the same date; no covariates */
                        hierarchy?: {
                            /** @description instead of labels and levels: node name → the indices of the series it sums (e.g. {"north": [0, 1], "south": [2]}); a "total" over every series is added unless one is given */
                            aggregates?: {
                                [key: string]: number[];
                            };
                            /** @description one object per series (same order as series / series_ids): label name → value, e.g. {"region": "north", "store": "n1"} */
                            labels?: {
                                [key: string]: string;
                            }[];
                            /** @description the aggregation levels from the top down, each a list of label names extending the one above (nested); a "total" node over every series is added on top; the last level must place each series in a node of its own */
                            levels?: string[][];
                            /** @description with aggregates: the bottom nodes' ids, one per series (default "series[i]") */
                            names?: string[];
                            /** @description instead of labels or aggregates, POST /v1/forecast and /v1/forecast-jobs: coarser periods each series is summed to and reconciled with (freq H: D, W; D: W; MS: Q, Y; Q: Y), counted back from its last step; the horizon must cover whole periods of each */
                            temporal?: ("D" | "W" | "Q" | "Y")[];
                        };
                        /** @description steps forecast at each window; at most each model's max_horizon */
                        horizon: number;
                        /** @description ranks the leaderboard; default wql (ties by MASE) */
                        metric?: "wql" | "mase" | "smape";
                        /** @description the models compared (each charged one request) */
                        models: (string | {
                            model: string;
                            model_size?: string;
                        })[];
                        /** @description rolling origins; default 1 */
                        n_windows?: number;
                        /** @description levels to return, each once; default [0.1, 0.5, 0.9] */
                        quantiles?: number[];
                        /** @description with hierarchy: the reconciliation (hierarchicalforecast's BottomUp, TopDown, MiddleOut, MinTrace, ERM); default wls_var. wls_var, mint_shrink, mint_cov and erm weigh by the model's in-sample residuals: with a model that has none (foundation models, prism, auto) or a singular covariance, wls_struct is used instead, with a warning */
                        reconcile?: "bottom_up" | "top_down_forecast_proportions" | "top_down_average_proportions" | "top_down_proportion_averages" | "middle_out" | "ols" | "wls_struct" | "wls_var" | "mint_shrink" | "mint_cov" | "erm";
                        /** @description with hierarchy: how the quantiles are reconciled (hierarchicalforecast's Normality, Bootstrap, PERMBU); default normality; bootstrap and permbu resample in-sample residuals (normality without them, with a warning) */
                        reconcile_intervals?: "normality" | "bootstrap" | "permbu";
                        /** @description with reconcile middle_out: the level it starts from (a level's label names joined with "/") */
                        reconcile_level?: string;
                        /** @description default true: every window's model is fitted on the history before its cutoff. false: a statistical model (refit_free_backtest in GET /v1/models) is fitted once per series on its whole history and applied to the history before each cutoff (statsforecast's cross_validation(refit=False)): one fit instead of n_windows, but the fit has seen the windows, so scores are optimistic. "form" (what model "auto" uses): the same one fit per series, then each window fitted on the history before its cutoff with the form that fit chose (AutoETS's components and damping, AutoTheta's variant; a non-seasonal fit searches again): the window's parameters never saw it, at a fraction of a full model search; mstl keeps that fit's decomposition cut at the cutoff and fits its trend model's form again. Foundation models are never fitted, so it changes nothing for them */
                        refit?: boolean | "form";
                        /** @description MASE seasonality m; default from freq */
                        season_length?: number;
                        series: components["schemas"]["InputSeries"][];
                        /** @description steps between consecutive origins; default: horizon */
                        step?: number;
                    };
                };
            };
            responses: {
                /** @description Per model, series and window: the forecast, the actuals and the scores; and the leaderboard */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            horizon: number;
                            /** @description models, best first (null scores last) */
                            leaderboard: {
                                model: string;
                                model_size: string;
                                rank: number;
                                score: number | null;
                            }[];
                            /** @description the leaderboard's ranking metric */
                            metric: string;
                            models: {
                                /** @description with `hierarchy` only: the windows every node has, reconciled across the nodes; `series[i]` then holds input series i's reconciled windows, and `scores` and the leaderboard are theirs */
                                hierarchy?: {
                                    intervals: string;
                                    /** @description per level, top-down ("total" first, the input series last): base vs reconciled scores */
                                    levels: {
                                        level: string;
                                        /** @description nodes of this level */
                                        nodes: number;
                                        /** @description pooled over the level's nodes and windows */
                                        scores: {
                                            base: {
                                                /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                coverage: {
                                                    [key: string]: number;
                                                };
                                                mase: number | null;
                                                smape: number;
                                                wql: number | null;
                                            } | null;
                                            reconciled: {
                                                /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                coverage: {
                                                    [key: string]: number;
                                                };
                                                mase: number | null;
                                                smape: number;
                                                wql: number | null;
                                            } | null;
                                        };
                                    }[];
                                    /** @description the reconciliation used (windows that fell back add theirs: "mint_shrink, wls_struct"; see warnings) */
                                    method: string;
                                    /** @description every node as in a forecast's `hierarchy.nodes`, with its windows: base and reconciled forecasts and scores */
                                    nodes: {
                                        id: string;
                                        level: string;
                                        parent: string | null;
                                        /** @description pooled over the node's windows */
                                        scores: {
                                            base: {
                                                /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                coverage: {
                                                    [key: string]: number;
                                                };
                                                mase: number | null;
                                                smape: number;
                                                wql: number | null;
                                            } | null;
                                            reconciled: {
                                                /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                coverage: {
                                                    [key: string]: number;
                                                };
                                                mase: number | null;
                                                smape: number;
                                                wql: number | null;
                                            } | null;
                                        };
                                        series: number[];
                                        windows: {
                                            actual: number[];
                                            base: {
                                                [key: string]: number[];
                                            };
                                            /** @description position of the first forecast step in the node's own series */
                                            cutoff: number;
                                            index: string[];
                                            reconciled: {
                                                [key: string]: number[];
                                            };
                                            /** @description the window's */
                                            scores: {
                                                /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                base: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                };
                                                /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                reconciled: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                };
                                            };
                                            window: number;
                                        }[];
                                    }[];
                                    /** @description fallbacks and windows not reconciled, with the reasons */
                                    warnings: string[];
                                };
                                model: string;
                                model_size: string;
                                /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                scores: {
                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                    coverage: {
                                        [key: string]: number;
                                    };
                                    mase: number | null;
                                    smape: number;
                                    wql: number | null;
                                };
                                /** @description series[i]: input series i */
                                series: {
                                    /** @description null when no window of this series fits */
                                    scores: {
                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                        coverage: {
                                            [key: string]: number;
                                        };
                                        mase: number | null;
                                        smape: number;
                                        wql: number | null;
                                    } | null;
                                    windows: {
                                        /** @description the observed values at those dates */
                                        actual: number[];
                                        /** @description position (0-based, in the series as sent) of the first forecast step: len - horizon - window*step */
                                        cutoff: number;
                                        /** @description forecast dates */
                                        index: string[];
                                        /** @description "mean" plus one array per quantile level */
                                        prediction: {
                                            [key: string]: number[];
                                        };
                                        /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                        scores: {
                                            /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                            coverage: {
                                                [key: string]: number;
                                            };
                                            mase: number | null;
                                            smape: number;
                                            wql: number | null;
                                        };
                                        /** @description 0 = the latest origin */
                                        window: number;
                                    }[];
                                }[];
                            }[];
                            n_windows: number;
                            quantiles: number[];
                            /** @description as asked (default true) */
                            refit: boolean | "form";
                            season_length: number;
                            step: number;
                            /** @description windows left out (and why), and the forecast warnings */
                            warnings: {
                                field: string;
                                message: string;
                                series?: number;
                            }[];
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured limit (code payload_too_large), or the request's estimated model time is over the synchronous budget (code use_job_api, HORIZON_SYNC_BUDGET_MS; nothing is charged): send the same body to POST /v1/cross-validation-jobs, whose job runs it in chunks */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Model or worker not available right now (weights missing, being pulled, worker restarting), or the database cannot be reached (store_unavailable); Retry-After says when to retry */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference timed out (HORIZON_INFERENCE_TIMEOUT_MS); `detail` names the job API, which runs large requests in chunks that each fit one call */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cross-validation-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List cross-validation jobs */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description page size, 1–100 (default 20) */
                    limit?: string;
                    status?: "queued" | "running" | "completed" | "failed" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the account's cross-validation jobs, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "jobs": [
                         *         {
                         *           "job_id": "5c2a7d41-8e3b-4f0a-b6d9-1e7f3a9c2b58",
                         *           "status": "completed",
                         *           "models": [
                         *             {
                         *               "model": "naive",
                         *               "model_size": "default"
                         *             },
                         *             {
                         *               "model": "seasonal-naive",
                         *               "model_size": "default"
                         *             }
                         *           ],
                         *           "created_at": "2026-01-05T09:31:00.000Z",
                         *           "started_at": "2026-01-05T09:31:00.140Z",
                         *           "finished_at": "2026-01-05T09:31:00.420Z",
                         *           "attempts": 1
                         *         }
                         *       ],
                         *       "next_cursor": null
                         *     }
                         */
                        "application/json": {
                            /** @description without `result` (GET the job for it) */
                            jobs: {
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                error?: {
                                    code: string;
                                    detail: string;
                                };
                                /** Format: date-time */
                                finished_at?: string;
                                job_id: string;
                                /** @description the models compared, with the size each runs at */
                                models: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                                progress?: {
                                    /** @description chunks whose result is stored (a restarted job does not run them again) */
                                    chunks_done: number;
                                    /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                    chunks_total: number;
                                };
                                result?: {
                                    horizon: number;
                                    /** @description models, best first (null scores last) */
                                    leaderboard: {
                                        model: string;
                                        model_size: string;
                                        rank: number;
                                        score: number | null;
                                    }[];
                                    /** @description the leaderboard's ranking metric */
                                    metric: string;
                                    models: {
                                        /** @description with `hierarchy` only: the windows every node has, reconciled across the nodes; `series[i]` then holds input series i's reconciled windows, and `scores` and the leaderboard are theirs */
                                        hierarchy?: {
                                            intervals: string;
                                            /** @description per level, top-down ("total" first, the input series last): base vs reconciled scores */
                                            levels: {
                                                level: string;
                                                /** @description nodes of this level */
                                                nodes: number;
                                                /** @description pooled over the level's nodes and windows */
                                                scores: {
                                                    base: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    } | null;
                                                    reconciled: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    } | null;
                                                };
                                            }[];
                                            /** @description the reconciliation used (windows that fell back add theirs: "mint_shrink, wls_struct"; see warnings) */
                                            method: string;
                                            /** @description every node as in a forecast's `hierarchy.nodes`, with its windows: base and reconciled forecasts and scores */
                                            nodes: {
                                                id: string;
                                                level: string;
                                                parent: string | null;
                                                /** @description pooled over the node's windows */
                                                scores: {
                                                    base: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    } | null;
                                                    reconciled: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    } | null;
                                                };
                                                series: number[];
                                                windows: {
                                                    actual: number[];
                                                    base: {
                                                        [key: string]: number[];
                                                    };
                                                    /** @description position of the first forecast step in the node's own series */
                                                    cutoff: number;
                                                    index: string[];
                                                    reconciled: {
                                                        [key: string]: number[];
                                                    };
                                                    /** @description the window's */
                                                    scores: {
                                                        /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                        base: {
                                                            /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                            coverage: {
                                                                [key: string]: number;
                                                            };
                                                            mase: number | null;
                                                            smape: number;
                                                            wql: number | null;
                                                        };
                                                        /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                        reconciled: {
                                                            /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                            coverage: {
                                                                [key: string]: number;
                                                            };
                                                            mase: number | null;
                                                            smape: number;
                                                            wql: number | null;
                                                        };
                                                    };
                                                    window: number;
                                                }[];
                                            }[];
                                            /** @description fallbacks and windows not reconciled, with the reasons */
                                            warnings: string[];
                                        };
                                        model: string;
                                        model_size: string;
                                        /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                        scores: {
                                            /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                            coverage: {
                                                [key: string]: number;
                                            };
                                            mase: number | null;
                                            smape: number;
                                            wql: number | null;
                                        };
                                        /** @description series[i]: input series i */
                                        series: {
                                            /** @description null when no window of this series fits */
                                            scores: {
                                                /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                coverage: {
                                                    [key: string]: number;
                                                };
                                                mase: number | null;
                                                smape: number;
                                                wql: number | null;
                                            } | null;
                                            windows: {
                                                /** @description the observed values at those dates */
                                                actual: number[];
                                                /** @description position (0-based, in the series as sent) of the first forecast step: len - horizon - window*step */
                                                cutoff: number;
                                                /** @description forecast dates */
                                                index: string[];
                                                /** @description "mean" plus one array per quantile level */
                                                prediction: {
                                                    [key: string]: number[];
                                                };
                                                /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                scores: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                };
                                                /** @description 0 = the latest origin */
                                                window: number;
                                            }[];
                                        }[];
                                    }[];
                                    n_windows: number;
                                    quantiles: number[];
                                    /** @description as asked (default true) */
                                    refit: boolean | "form";
                                    season_length: number;
                                    step: number;
                                    /** @description windows left out (and why), and the forecast warnings */
                                    warnings: {
                                        field: string;
                                        message: string;
                                        series?: number;
                                    }[];
                                };
                                /** Format: date-time */
                                started_at?: string;
                                status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            }[];
                            /** @description pass as ?cursor= for the next page; null on the last page */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Queue a cross-validation job */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description use at most the last `context` observations before each cutoff */
                        context?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description forecast a hierarchy: the series are its bottom, every aggregate (their sums) is forecast with the same model, and the forecasts are reconciled so that every parent is the sum of its children (`series[i]` is then input series i's reconciled forecast; the answer's `hierarchy` holds every node's base and reconciled forecast). The series must end on the same date; no covariates */
                        hierarchy?: {
                            /** @description instead of labels and levels: node name → the indices of the series it sums (e.g. {"north": [0, 1], "south": [2]}); a "total" over every series is added unless one is given */
                            aggregates?: {
                                [key: string]: number[];
                            };
                            /** @description one object per series (same order as series / series_ids): label name → value, e.g. {"region": "north", "store": "n1"} */
                            labels?: {
                                [key: string]: string;
                            }[];
                            /** @description the aggregation levels from the top down, each a list of label names extending the one above (nested); a "total" node over every series is added on top; the last level must place each series in a node of its own */
                            levels?: string[][];
                            /** @description with aggregates: the bottom nodes' ids, one per series (default "series[i]") */
                            names?: string[];
                            /** @description instead of labels or aggregates, POST /v1/forecast and /v1/forecast-jobs: coarser periods each series is summed to and reconciled with (freq H: D, W; D: W; MS: Q, Y; Q: Y), counted back from its last step; the horizon must cover whole periods of each */
                            temporal?: ("D" | "W" | "Q" | "Y")[];
                        };
                        /** @description steps forecast at each window; at most each model's max_horizon */
                        horizon: number;
                        /** @description ranks the leaderboard; default wql (ties by MASE) */
                        metric?: "wql" | "mase" | "smape";
                        /** @description the models compared (each charged one request) */
                        models: (string | {
                            model: string;
                            model_size?: string;
                        })[];
                        /** @description rolling origins; default 1 */
                        n_windows?: number;
                        /** @description levels to return, each once; default [0.1, 0.5, 0.9] */
                        quantiles?: number[];
                        /** @description with hierarchy: the reconciliation (hierarchicalforecast's BottomUp, TopDown, MiddleOut, MinTrace, ERM); default wls_var. wls_var, mint_shrink, mint_cov and erm weigh by the model's in-sample residuals: with a model that has none (foundation models, prism, auto) or a singular covariance, wls_struct is used instead, with a warning */
                        reconcile?: "bottom_up" | "top_down_forecast_proportions" | "top_down_average_proportions" | "top_down_proportion_averages" | "middle_out" | "ols" | "wls_struct" | "wls_var" | "mint_shrink" | "mint_cov" | "erm";
                        /** @description with hierarchy: how the quantiles are reconciled (hierarchicalforecast's Normality, Bootstrap, PERMBU); default normality; bootstrap and permbu resample in-sample residuals (normality without them, with a warning) */
                        reconcile_intervals?: "normality" | "bootstrap" | "permbu";
                        /** @description with reconcile middle_out: the level it starts from (a level's label names joined with "/") */
                        reconcile_level?: string;
                        /** @description default true: every window's model is fitted on the history before its cutoff. false: a statistical model (refit_free_backtest in GET /v1/models) is fitted once per series on its whole history and applied to the history before each cutoff (statsforecast's cross_validation(refit=False)): one fit instead of n_windows, but the fit has seen the windows, so scores are optimistic. "form" (what model "auto" uses): the same one fit per series, then each window fitted on the history before its cutoff with the form that fit chose (AutoETS's components and damping, AutoTheta's variant; a non-seasonal fit searches again): the window's parameters never saw it, at a fraction of a full model search; mstl keeps that fit's decomposition cut at the cutoff and fits its trend model's form again. Foundation models are never fitted, so it changes nothing for them */
                        refit?: boolean | "form";
                        /** @description MASE seasonality m; default from freq */
                        season_length?: number;
                        series: components["schemas"]["InputSeries"][];
                        /** @description steps between consecutive origins; default: horizon */
                        step?: number;
                    };
                };
            };
            responses: {
                /** @description Queued; poll the job at the Location header */
                202: {
                    headers: {
                        /** @description /v1/cross-validation-jobs/{job_id} */
                        location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "5c2a7d41-8e3b-4f0a-b6d9-1e7f3a9c2b58",
                         *       "status": "queued",
                         *       "models": [
                         *         {
                         *           "model": "naive",
                         *           "model_size": "default"
                         *         },
                         *         {
                         *           "model": "seasonal-naive",
                         *           "model_size": "default"
                         *         }
                         *       ],
                         *       "created_at": "2026-01-05T09:31:00.000Z"
                         *     }
                         */
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            job_id: string;
                            /** @description the models compared, with the size each runs at */
                            models: {
                                model: string;
                                model_size: string;
                            }[];
                            /** @enum {string} */
                            status: "queued";
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cross-validation-jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a cross-validation job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job; with `result` (the cross-validation answer) once completed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "5c2a7d41-8e3b-4f0a-b6d9-1e7f3a9c2b58",
                         *       "status": "completed",
                         *       "models": [
                         *         {
                         *           "model": "naive",
                         *           "model_size": "default"
                         *         },
                         *         {
                         *           "model": "seasonal-naive",
                         *           "model_size": "default"
                         *         }
                         *       ],
                         *       "created_at": "2026-01-05T09:31:00.000Z",
                         *       "started_at": "2026-01-05T09:31:00.140Z",
                         *       "finished_at": "2026-01-05T09:31:00.420Z",
                         *       "attempts": 1,
                         *       "result": {
                         *         "horizon": 3,
                         *         "n_windows": 2,
                         *         "step": 3,
                         *         "refit": true,
                         *         "season_length": 12,
                         *         "quantiles": [
                         *           0.1,
                         *           0.5,
                         *           0.9
                         *         ],
                         *         "metric": "wql",
                         *         "leaderboard": [
                         *           {
                         *             "rank": 1,
                         *             "model": "seasonal-naive",
                         *             "model_size": "default",
                         *             "score": 0.084
                         *           },
                         *           {
                         *             "rank": 2,
                         *             "model": "naive",
                         *             "model_size": "default",
                         *             "score": 0.098
                         *           }
                         *         ],
                         *         "models": [
                         *           {
                         *             "model": "naive",
                         *             "model_size": "default",
                         *             "scores": {
                         *               "mase": 2.345,
                         *               "wql": 0.098,
                         *               "smape": 15.635,
                         *               "coverage": {
                         *                 "80": 0.5
                         *               }
                         *             },
                         *             "series": [
                         *               {
                         *                 "scores": {
                         *                   "mase": 2.345,
                         *                   "wql": 0.098,
                         *                   "smape": 15.635,
                         *                   "coverage": {
                         *                     "80": 0.5
                         *                   }
                         *                 },
                         *                 "windows": [
                         *                   {
                         *                     "window": 0,
                         *                     "cutoff": 21,
                         *                     "index": [
                         *                       "1950-10-01",
                         *                       "1950-11-01",
                         *                       "1950-12-01"
                         *                     ],
                         *                     "prediction": {
                         *                       "mean": [
                         *                         158,
                         *                         158,
                         *                         158
                         *                       ],
                         *                       "0.1": [
                         *                         141.85,
                         *                         135.161,
                         *                         130.028
                         *                       ],
                         *                       "0.5": [
                         *                         158,
                         *                         158,
                         *                         158
                         *                       ],
                         *                       "0.9": [
                         *                         174.15,
                         *                         180.839,
                         *                         185.972
                         *                       ]
                         *                     },
                         *                     "actual": [
                         *                       133,
                         *                       114,
                         *                       140
                         *                     ],
                         *                     "scores": {
                         *                       "mase": 2.373,
                         *                       "wql": 0.15,
                         *                       "smape": 20.539,
                         *                       "coverage": {
                         *                         "80": 0.333
                         *                       }
                         *                     }
                         *                   },
                         *                   {
                         *                     "window": 1,
                         *                     "cutoff": 18,
                         *                     "index": [
                         *                       "1950-07-01",
                         *                       "1950-08-01",
                         *                       "1950-09-01"
                         *                     ],
                         *                     "prediction": {
                         *                       "mean": [
                         *                         149,
                         *                         149,
                         *                         149
                         *                       ],
                         *                       "0.1": [
                         *                         133.179,
                         *                         126.625,
                         *                         121.597
                         *                       ],
                         *                       "0.5": [
                         *                         149,
                         *                         149,
                         *                         149
                         *                       ],
                         *                       "0.9": [
                         *                         164.821,
                         *                         171.375,
                         *                         176.403
                         *                       ]
                         *                     },
                         *                     "actual": [
                         *                       170,
                         *                       170,
                         *                       158
                         *                     ],
                         *                     "scores": {
                         *                       "mase": 2.318,
                         *                       "wql": 0.059,
                         *                       "smape": 10.732,
                         *                       "coverage": {
                         *                         "80": 0.667
                         *                       }
                         *                     }
                         *                   }
                         *                 ]
                         *               }
                         *             ]
                         *           },
                         *           {
                         *             "model": "seasonal-naive",
                         *             "model_size": "default",
                         *             "scores": {
                         *               "mase": 2.127,
                         *               "wql": 0.084,
                         *               "smape": 13.33,
                         *               "coverage": {
                         *                 "80": 0.333
                         *               }
                         *             },
                         *             "series": [
                         *               {
                         *                 "scores": {
                         *                   "mase": 2.127,
                         *                   "wql": 0.084,
                         *                   "smape": 13.33,
                         *                   "coverage": {
                         *                     "80": 0.333
                         *                   }
                         *                 },
                         *                 "windows": [
                         *                   {
                         *                     "window": 0,
                         *                     "cutoff": 21,
                         *                     "index": [
                         *                       "1950-10-01",
                         *                       "1950-11-01",
                         *                       "1950-12-01"
                         *                     ],
                         *                     "prediction": {
                         *                       "mean": [
                         *                         119,
                         *                         104,
                         *                         118
                         *                       ],
                         *                       "0.1": [
                         *                         100.606,
                         *                         85.606,
                         *                         99.606
                         *                       ],
                         *                       "0.5": [
                         *                         119,
                         *                         104,
                         *                         118
                         *                       ],
                         *                       "0.9": [
                         *                         137.394,
                         *                         122.394,
                         *                         136.394
                         *                       ]
                         *                     },
                         *                     "actual": [
                         *                       133,
                         *                       114,
                         *                       140
                         *                     ],
                         *                     "scores": {
                         *                       "mase": 1.255,
                         *                       "wql": 0.065,
                         *                       "smape": 12.447,
                         *                       "coverage": {
                         *                         "80": 0.667
                         *                       }
                         *                     }
                         *                   },
                         *                   {
                         *                     "window": 1,
                         *                     "cutoff": 18,
                         *                     "index": [
                         *                       "1950-07-01",
                         *                       "1950-08-01",
                         *                       "1950-09-01"
                         *                     ],
                         *                     "prediction": {
                         *                       "mean": [
                         *                         148,
                         *                         148,
                         *                         136
                         *                       ],
                         *                       "0.1": [
                         *                         137.51,
                         *                         137.51,
                         *                         125.51
                         *                       ],
                         *                       "0.5": [
                         *                         148,
                         *                         148,
                         *                         136
                         *                       ],
                         *                       "0.9": [
                         *                         158.49,
                         *                         158.49,
                         *                         146.49
                         *                       ]
                         *                     },
                         *                     "actual": [
                         *                       170,
                         *                       170,
                         *                       158
                         *                     ],
                         *                     "scores": {
                         *                       "mase": 3,
                         *                       "wql": 0.099,
                         *                       "smape": 14.213,
                         *                       "coverage": {
                         *                         "80": 0
                         *                       }
                         *                     }
                         *                   }
                         *                 ]
                         *               }
                         *             ]
                         *           }
                         *         ],
                         *         "warnings": []
                         *       }
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            job_id: string;
                            /** @description the models compared, with the size each runs at */
                            models: {
                                model: string;
                                model_size: string;
                            }[];
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            result?: {
                                horizon: number;
                                /** @description models, best first (null scores last) */
                                leaderboard: {
                                    model: string;
                                    model_size: string;
                                    rank: number;
                                    score: number | null;
                                }[];
                                /** @description the leaderboard's ranking metric */
                                metric: string;
                                models: {
                                    /** @description with `hierarchy` only: the windows every node has, reconciled across the nodes; `series[i]` then holds input series i's reconciled windows, and `scores` and the leaderboard are theirs */
                                    hierarchy?: {
                                        intervals: string;
                                        /** @description per level, top-down ("total" first, the input series last): base vs reconciled scores */
                                        levels: {
                                            level: string;
                                            /** @description nodes of this level */
                                            nodes: number;
                                            /** @description pooled over the level's nodes and windows */
                                            scores: {
                                                base: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                                reconciled: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                            };
                                        }[];
                                        /** @description the reconciliation used (windows that fell back add theirs: "mint_shrink, wls_struct"; see warnings) */
                                        method: string;
                                        /** @description every node as in a forecast's `hierarchy.nodes`, with its windows: base and reconciled forecasts and scores */
                                        nodes: {
                                            id: string;
                                            level: string;
                                            parent: string | null;
                                            /** @description pooled over the node's windows */
                                            scores: {
                                                base: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                                reconciled: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                            };
                                            series: number[];
                                            windows: {
                                                actual: number[];
                                                base: {
                                                    [key: string]: number[];
                                                };
                                                /** @description position of the first forecast step in the node's own series */
                                                cutoff: number;
                                                index: string[];
                                                reconciled: {
                                                    [key: string]: number[];
                                                };
                                                /** @description the window's */
                                                scores: {
                                                    /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                    base: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    };
                                                    /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                    reconciled: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    };
                                                };
                                                window: number;
                                            }[];
                                        }[];
                                        /** @description fallbacks and windows not reconciled, with the reasons */
                                        warnings: string[];
                                    };
                                    model: string;
                                    model_size: string;
                                    /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                    scores: {
                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                        coverage: {
                                            [key: string]: number;
                                        };
                                        mase: number | null;
                                        smape: number;
                                        wql: number | null;
                                    };
                                    /** @description series[i]: input series i */
                                    series: {
                                        /** @description null when no window of this series fits */
                                        scores: {
                                            /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                            coverage: {
                                                [key: string]: number;
                                            };
                                            mase: number | null;
                                            smape: number;
                                            wql: number | null;
                                        } | null;
                                        windows: {
                                            /** @description the observed values at those dates */
                                            actual: number[];
                                            /** @description position (0-based, in the series as sent) of the first forecast step: len - horizon - window*step */
                                            cutoff: number;
                                            /** @description forecast dates */
                                            index: string[];
                                            /** @description "mean" plus one array per quantile level */
                                            prediction: {
                                                [key: string]: number[];
                                            };
                                            /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                            scores: {
                                                /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                coverage: {
                                                    [key: string]: number;
                                                };
                                                mase: number | null;
                                                smape: number;
                                                wql: number | null;
                                            };
                                            /** @description 0 = the latest origin */
                                            window: number;
                                        }[];
                                    }[];
                                }[];
                                n_windows: number;
                                quantiles: number[];
                                /** @description as asked (default true) */
                                refit: boolean | "form";
                                season_length: number;
                                step: number;
                                /** @description windows left out (and why), and the forecast warnings */
                                warnings: {
                                    field: string;
                                    message: string;
                                    series?: number;
                                }[];
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Cancel a cross-validation job */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The cancelled job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "5c2a7d41-8e3b-4f0a-b6d9-1e7f3a9c2b58",
                         *       "status": "cancelled",
                         *       "models": [
                         *         {
                         *           "model": "naive",
                         *           "model_size": "default"
                         *         },
                         *         {
                         *           "model": "seasonal-naive",
                         *           "model_size": "default"
                         *         }
                         *       ],
                         *       "created_at": "2026-01-05T09:31:00.000Z",
                         *       "finished_at": "2026-01-05T09:31:00.420Z",
                         *       "attempts": 0
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            job_id: string;
                            /** @description the models compared, with the size each runs at */
                            models: {
                                model: string;
                                model_size: string;
                            }[];
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            result?: {
                                horizon: number;
                                /** @description models, best first (null scores last) */
                                leaderboard: {
                                    model: string;
                                    model_size: string;
                                    rank: number;
                                    score: number | null;
                                }[];
                                /** @description the leaderboard's ranking metric */
                                metric: string;
                                models: {
                                    /** @description with `hierarchy` only: the windows every node has, reconciled across the nodes; `series[i]` then holds input series i's reconciled windows, and `scores` and the leaderboard are theirs */
                                    hierarchy?: {
                                        intervals: string;
                                        /** @description per level, top-down ("total" first, the input series last): base vs reconciled scores */
                                        levels: {
                                            level: string;
                                            /** @description nodes of this level */
                                            nodes: number;
                                            /** @description pooled over the level's nodes and windows */
                                            scores: {
                                                base: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                                reconciled: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                            };
                                        }[];
                                        /** @description the reconciliation used (windows that fell back add theirs: "mint_shrink, wls_struct"; see warnings) */
                                        method: string;
                                        /** @description every node as in a forecast's `hierarchy.nodes`, with its windows: base and reconciled forecasts and scores */
                                        nodes: {
                                            id: string;
                                            level: string;
                                            parent: string | null;
                                            /** @description pooled over the node's windows */
                                            scores: {
                                                base: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                                reconciled: {
                                                    /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                    coverage: {
                                                        [key: string]: number;
                                                    };
                                                    mase: number | null;
                                                    smape: number;
                                                    wql: number | null;
                                                } | null;
                                            };
                                            series: number[];
                                            windows: {
                                                actual: number[];
                                                base: {
                                                    [key: string]: number[];
                                                };
                                                /** @description position of the first forecast step in the node's own series */
                                                cutoff: number;
                                                index: string[];
                                                reconciled: {
                                                    [key: string]: number[];
                                                };
                                                /** @description the window's */
                                                scores: {
                                                    /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                    base: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    };
                                                    /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                                    reconciled: {
                                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                        coverage: {
                                                            [key: string]: number;
                                                        };
                                                        mase: number | null;
                                                        smape: number;
                                                        wql: number | null;
                                                    };
                                                };
                                                window: number;
                                            }[];
                                        }[];
                                        /** @description fallbacks and windows not reconciled, with the reasons */
                                        warnings: string[];
                                    };
                                    model: string;
                                    model_size: string;
                                    /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                    scores: {
                                        /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                        coverage: {
                                            [key: string]: number;
                                        };
                                        mase: number | null;
                                        smape: number;
                                        wql: number | null;
                                    };
                                    /** @description series[i]: input series i */
                                    series: {
                                        /** @description null when no window of this series fits */
                                        scores: {
                                            /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                            coverage: {
                                                [key: string]: number;
                                            };
                                            mase: number | null;
                                            smape: number;
                                            wql: number | null;
                                        } | null;
                                        windows: {
                                            /** @description the observed values at those dates */
                                            actual: number[];
                                            /** @description position (0-based, in the series as sent) of the first forecast step: len - horizon - window*step */
                                            cutoff: number;
                                            /** @description forecast dates */
                                            index: string[];
                                            /** @description "mean" plus one array per quantile level */
                                            prediction: {
                                                [key: string]: number[];
                                            };
                                            /** @description MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles) */
                                            scores: {
                                                /** @description per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): the fraction of actuals inside it */
                                                coverage: {
                                                    [key: string]: number;
                                                };
                                                mase: number | null;
                                                smape: number;
                                                wql: number | null;
                                            };
                                            /** @description 0 = the latest origin */
                                            window: number;
                                        }[];
                                    }[];
                                }[];
                                n_windows: number;
                                quantiles: number[];
                                /** @description as asked (default true) */
                                refit: boolean | "form";
                                season_length: number;
                                step: number;
                                /** @description windows left out (and why), and the forecast warnings */
                                warnings: {
                                    field: string;
                                    message: string;
                                    series?: number;
                                }[];
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embedding-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List embedding jobs */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description page size, 1–100 (default 20) */
                    limit?: string;
                    status?: "queued" | "running" | "completed" | "failed" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the account's embedding jobs, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "jobs": [
                         *         {
                         *           "job_id": "2c7e9a41-5b3d-4f6e-9a8c-1d2e3f4a5b6c",
                         *           "status": "completed",
                         *           "model": "chronos-2",
                         *           "model_size": "base",
                         *           "granularity": "series",
                         *           "created_at": "2026-01-05T09:30:00.000Z",
                         *           "started_at": "2026-01-05T09:30:00.105Z",
                         *           "finished_at": "2026-01-05T09:30:00.160Z",
                         *           "attempts": 1
                         *         }
                         *       ],
                         *       "next_cursor": null
                         *     }
                         */
                        "application/json": {
                            /** @description without `result` (GET the job for it) */
                            jobs: {
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                error?: {
                                    code: string;
                                    detail: string;
                                };
                                /** Format: date-time */
                                finished_at?: string;
                                /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                                granularity: "series" | "patch";
                                job_id: string;
                                /** @description the model that embeds the series (decided at submit) */
                                model: string;
                                model_size: string;
                                /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                                progress?: {
                                    /** @description chunks whose result is stored (a restarted job does not run them again) */
                                    chunks_done: number;
                                    /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                    chunks_total: number;
                                };
                                result?: {
                                    /** @description the most values embedded per series (the request's context, capped at max_context) */
                                    context: number;
                                    /** @description numbers per vector: the encoder's width (tirex: its blocks × width) */
                                    dimension: number;
                                    /** @description embeddings[i]: input series i */
                                    embeddings: {
                                        /** @description position (0-based, in the series as sent) of the first value embedded: its first observed value among its last `context` */
                                        embedded_from: number;
                                        /** @description the series' vector: chronos models, the mean of its patch vectors that hold an observed value (last encoder layer); tirex, tirex-ts' TiRexEmbedding (every block's patch states averaged, L2-normalised per block, concatenated, layer-normed) */
                                        embedding: number[];
                                        /** @description granularity patch: one vector per patch, oldest first. Patches end at the series' last value: the last covers its last `patch_size` values, the first starts at or before embedded_from (the model pads it). null: a patch without an observed value (the model masks it) */
                                        patches?: (number[] | null)[];
                                        /** @description granularity patch: the model's summary token, which attends to the whole series ([REG] of chronos-bolt and chronos-2, EOS of chronos); null when the checkpoint has none */
                                        summary?: number[] | null;
                                    }[];
                                    /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                                    granularity: "series" | "patch";
                                    model: string;
                                    model_size: string;
                                    /** @description values per patch of the model (chronos: 1, a token per value) */
                                    patch_size: number;
                                    /** @description series cut to the context, a context over max_context */
                                    warnings: {
                                        field: string;
                                        message: string;
                                        series?: number;
                                    }[];
                                };
                                /** Format: date-time */
                                started_at?: string;
                                status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            }[];
                            /** @description pass as ?cursor= for the next page; null on the last page */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Queue an embedding job */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description embed at most the last `context` values of each series (default and cap: the size's max_context; longer series are cut, with a warning) */
                        context?: number;
                        /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                        granularity?: "series" | "patch";
                        /** @description a model whose library gives embeddings (catalog `embeddings`): chronos, chronos-bolt, chronos-2, tirex, or a private model fine-tuned from one; default: the deployment default_model when it gives them, else the first served one that does */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description the series to embed; embeddings[i] is series i's */
                        series: {
                            /** @description values at regular steps, oldest first; null = missing (masked by the model); at least one number; each within ±1e38. No dates: the models embed values, not timestamps */
                            target: (number | null)[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description Queued; poll the job at the Location header */
                202: {
                    headers: {
                        /** @description /v1/embedding-jobs/{job_id} */
                        location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "2c7e9a41-5b3d-4f6e-9a8c-1d2e3f4a5b6c",
                         *       "status": "queued",
                         *       "model": "chronos-2",
                         *       "model_size": "base",
                         *       "granularity": "series",
                         *       "created_at": "2026-01-05T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                            granularity: "series" | "patch";
                            job_id: string;
                            /** @description the model that embeds the series (decided at submit) */
                            model: string;
                            model_size: string;
                            /** @enum {string} */
                            status: "queued";
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embedding-jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an embedding job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job; with `result` (the POST /v1/embeddings answer) once completed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "2c7e9a41-5b3d-4f6e-9a8c-1d2e3f4a5b6c",
                         *       "status": "completed",
                         *       "model": "chronos-2",
                         *       "model_size": "base",
                         *       "granularity": "series",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "started_at": "2026-01-05T09:30:00.105Z",
                         *       "finished_at": "2026-01-05T09:30:00.160Z",
                         *       "attempts": 1,
                         *       "result": {
                         *         "model": "chronos-2",
                         *         "model_size": "base",
                         *         "granularity": "series",
                         *         "dimension": 16,
                         *         "patch_size": 16,
                         *         "context": 8192,
                         *         "embeddings": [
                         *           {
                         *             "embedding": [
                         *               -0.1422,
                         *               -0.1883,
                         *               -0.0617,
                         *               0.0166,
                         *               0.038,
                         *               -0.1527,
                         *               0.3567,
                         *               -0.2197,
                         *               -0.1114,
                         *               -0.1072,
                         *               -0.3477,
                         *               0.042,
                         *               0.158,
                         *               -0.0071,
                         *               -0.0983,
                         *               0.2006
                         *             ],
                         *             "embedded_from": 0
                         *           },
                         *           {
                         *             "embedding": [
                         *               0.0374,
                         *               -0.235,
                         *               -0.1107,
                         *               -0.1873,
                         *               0.0764,
                         *               -0.02,
                         *               0.4013,
                         *               -0.2685,
                         *               -0.1072,
                         *               -0.0779,
                         *               -0.1618,
                         *               0.1213,
                         *               0.2385,
                         *               0.2343,
                         *               0.0034,
                         *               0.3555
                         *             ],
                         *             "embedded_from": 0
                         *           }
                         *         ],
                         *         "warnings": []
                         *       }
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                            granularity: "series" | "patch";
                            job_id: string;
                            /** @description the model that embeds the series (decided at submit) */
                            model: string;
                            model_size: string;
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            result?: {
                                /** @description the most values embedded per series (the request's context, capped at max_context) */
                                context: number;
                                /** @description numbers per vector: the encoder's width (tirex: its blocks × width) */
                                dimension: number;
                                /** @description embeddings[i]: input series i */
                                embeddings: {
                                    /** @description position (0-based, in the series as sent) of the first value embedded: its first observed value among its last `context` */
                                    embedded_from: number;
                                    /** @description the series' vector: chronos models, the mean of its patch vectors that hold an observed value (last encoder layer); tirex, tirex-ts' TiRexEmbedding (every block's patch states averaged, L2-normalised per block, concatenated, layer-normed) */
                                    embedding: number[];
                                    /** @description granularity patch: one vector per patch, oldest first. Patches end at the series' last value: the last covers its last `patch_size` values, the first starts at or before embedded_from (the model pads it). null: a patch without an observed value (the model masks it) */
                                    patches?: (number[] | null)[];
                                    /** @description granularity patch: the model's summary token, which attends to the whole series ([REG] of chronos-bolt and chronos-2, EOS of chronos); null when the checkpoint has none */
                                    summary?: number[] | null;
                                }[];
                                /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                                granularity: "series" | "patch";
                                model: string;
                                model_size: string;
                                /** @description values per patch of the model (chronos: 1, a token per value) */
                                patch_size: number;
                                /** @description series cut to the context, a context over max_context */
                                warnings: {
                                    field: string;
                                    message: string;
                                    series?: number;
                                }[];
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Cancel an embedding job */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The cancelled job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "2c7e9a41-5b3d-4f6e-9a8c-1d2e3f4a5b6c",
                         *       "status": "cancelled",
                         *       "model": "chronos-2",
                         *       "model_size": "base",
                         *       "granularity": "series",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "finished_at": "2026-01-05T09:30:00.160Z",
                         *       "attempts": 0
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                            granularity: "series" | "patch";
                            job_id: string;
                            /** @description the model that embeds the series (decided at submit) */
                            model: string;
                            model_size: string;
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            result?: {
                                /** @description the most values embedded per series (the request's context, capped at max_context) */
                                context: number;
                                /** @description numbers per vector: the encoder's width (tirex: its blocks × width) */
                                dimension: number;
                                /** @description embeddings[i]: input series i */
                                embeddings: {
                                    /** @description position (0-based, in the series as sent) of the first value embedded: its first observed value among its last `context` */
                                    embedded_from: number;
                                    /** @description the series' vector: chronos models, the mean of its patch vectors that hold an observed value (last encoder layer); tirex, tirex-ts' TiRexEmbedding (every block's patch states averaged, L2-normalised per block, concatenated, layer-normed) */
                                    embedding: number[];
                                    /** @description granularity patch: one vector per patch, oldest first. Patches end at the series' last value: the last covers its last `patch_size` values, the first starts at or before embedded_from (the model pads it). null: a patch without an observed value (the model masks it) */
                                    patches?: (number[] | null)[];
                                    /** @description granularity patch: the model's summary token, which attends to the whole series ([REG] of chronos-bolt and chronos-2, EOS of chronos); null when the checkpoint has none */
                                    summary?: number[] | null;
                                }[];
                                /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                                granularity: "series" | "patch";
                                model: string;
                                model_size: string;
                                /** @description values per patch of the model (chronos: 1, a token per value) */
                                patch_size: number;
                                /** @description series cut to the context, a context over max_context */
                                warnings: {
                                    field: string;
                                    message: string;
                                    series?: number;
                                }[];
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embeddings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Embed series: a vector per series (or per patch) from a foundation model's encoder */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description embed at most the last `context` values of each series (default and cap: the size's max_context; longer series are cut, with a warning) */
                        context?: number;
                        /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                        granularity?: "series" | "patch";
                        /** @description a model whose library gives embeddings (catalog `embeddings`): chronos, chronos-bolt, chronos-2, tirex, or a private model fine-tuned from one; default: the deployment default_model when it gives them, else the first served one that does */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description the series to embed; embeddings[i] is series i's */
                        series: {
                            /** @description values at regular steps, oldest first; null = missing (masked by the model); at least one number; each within ±1e38. No dates: the models embed values, not timestamps */
                            target: (number | null)[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description The embeddings: `embeddings[i]` is input series i's */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "model": "chronos-2",
                         *       "model_size": "base",
                         *       "granularity": "series",
                         *       "dimension": 16,
                         *       "patch_size": 16,
                         *       "context": 8192,
                         *       "embeddings": [
                         *         {
                         *           "embedding": [
                         *             -0.1422,
                         *             -0.1883,
                         *             -0.0617,
                         *             0.0166,
                         *             0.038,
                         *             -0.1527,
                         *             0.3567,
                         *             -0.2197,
                         *             -0.1114,
                         *             -0.1072,
                         *             -0.3477,
                         *             0.042,
                         *             0.158,
                         *             -0.0071,
                         *             -0.0983,
                         *             0.2006
                         *           ],
                         *           "embedded_from": 0
                         *         },
                         *         {
                         *           "embedding": [
                         *             0.0374,
                         *             -0.235,
                         *             -0.1107,
                         *             -0.1873,
                         *             0.0764,
                         *             -0.02,
                         *             0.4013,
                         *             -0.2685,
                         *             -0.1072,
                         *             -0.0779,
                         *             -0.1618,
                         *             0.1213,
                         *             0.2385,
                         *             0.2343,
                         *             0.0034,
                         *             0.3555
                         *           ],
                         *           "embedded_from": 0
                         *         }
                         *       ],
                         *       "warnings": []
                         *     }
                         */
                        "application/json": {
                            /** @description the most values embedded per series (the request's context, capped at max_context) */
                            context: number;
                            /** @description numbers per vector: the encoder's width (tirex: its blocks × width) */
                            dimension: number;
                            /** @description embeddings[i]: input series i */
                            embeddings: {
                                /** @description position (0-based, in the series as sent) of the first value embedded: its first observed value among its last `context` */
                                embedded_from: number;
                                /** @description the series' vector: chronos models, the mean of its patch vectors that hold an observed value (last encoder layer); tirex, tirex-ts' TiRexEmbedding (every block's patch states averaged, L2-normalised per block, concatenated, layer-normed) */
                                embedding: number[];
                                /** @description granularity patch: one vector per patch, oldest first. Patches end at the series' last value: the last covers its last `patch_size` values, the first starts at or before embedded_from (the model pads it). null: a patch without an observed value (the model masks it) */
                                patches?: (number[] | null)[];
                                /** @description granularity patch: the model's summary token, which attends to the whole series ([REG] of chronos-bolt and chronos-2, EOS of chronos); null when the checkpoint has none */
                                summary?: number[] | null;
                            }[];
                            /** @description "series" (default): one vector per series. "patch": also one vector per patch of `patch_size` consecutive values (chronos: per value) and the model's summary token — chronos, chronos-bolt, chronos-2 (tirex gives one vector per series: a 422) */
                            granularity: "series" | "patch";
                            model: string;
                            model_size: string;
                            /** @description values per patch of the model (chronos: 1, a token per value) */
                            patch_size: number;
                            /** @description series cut to the context, a context over max_context */
                            warnings: {
                                field: string;
                                message: string;
                                series?: number;
                            }[];
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured limit (code payload_too_large), or the request's estimated model time is over the synchronous budget (code use_job_api, HORIZON_SYNC_BUDGET_MS; nothing is charged): send the same body to POST /v1/embedding-jobs, whose job runs it in chunks */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Model or worker not available right now (weights missing, being pulled, worker restarting), or the database cannot be reached (store_unavailable); Retry-After says when to retry */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference timed out (HORIZON_INFERENCE_TIMEOUT_MS); `detail` names the job API, which runs large requests in chunks that each fit one call */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fine-tuning-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List fine-tuning jobs */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description page size, 1–100 (default 20) */
                    limit?: string;
                    status?: "queued" | "running" | "completed" | "failed" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the account's fine-tuning jobs, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "jobs": [
                         *         {
                         *           "job_id": "5b1d0c52-7a36-4e0e-8a8c-3f3a4c1a2b90",
                         *           "status": "queued",
                         *           "model": "chronos-2",
                         *           "model_size": "small",
                         *           "model_id": "ft-3f9a0c1d2e4b5a6978c1d2e3",
                         *           "name": "airline-v1",
                         *           "created_at": "2026-01-05T09:30:00.000Z",
                         *           "attempts": 0
                         *         }
                         *       ],
                         *       "next_cursor": null
                         *     }
                         */
                        "application/json": {
                            jobs: {
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                error?: {
                                    code: string;
                                    detail: string;
                                };
                                /** Format: date-time */
                                finished_at?: string;
                                job_id: string;
                                /** @description the base model */
                                model: string;
                                /** @description the private model this job makes (ft-…) */
                                model_id: string;
                                model_size: string;
                                name: string;
                                /** @description the training's last reported step, training loss and validation loss */
                                progress?: {
                                    loss: number | null;
                                    step: number;
                                    steps: number;
                                    validation_loss: number | null;
                                };
                                /** Format: date-time */
                                started_at?: string;
                                status: "queued" | "running" | "completed" | "failed" | "cancelled";
                                summary?: {
                                    device: string;
                                    final_loss: number | null;
                                    final_validation_loss: number | null;
                                    horizon: number;
                                    learning_rate: number;
                                    mode: string;
                                    series: number;
                                    steps: number;
                                    steps_per_second: number | null;
                                    train_seconds: number;
                                    validation_windows: number;
                                    /** @description the same of the fine-tuned model */
                                    validation_wql_after: number | null;
                                    /** @description WQL (0.1…0.9) of the base model on the held-out windows */
                                    validation_wql_before: number | null;
                                };
                            }[];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Queue a fine-tuning job */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description series per step (default 256, the library's) */
                        batch_size?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description the horizon it is trained (and validated) for; at most the base's max_horizon */
                        horizon: number;
                        /** @description default 1e-5 (full), 1e-4 (lora) */
                        learning_rate?: number;
                        /** @description full fine-tuning (default) or LoRA (peft): a low-rank adapter is trained, then merged into the base weights for the installed private model */
                        mode?: "full" | "lora";
                        /** @description the base model: a catalog id whose family can be fine-tuned (chronos-2) */
                        model: string;
                        /** @description a size of the base; default: its default_size */
                        model_size?: string;
                        /** @description the account's name for the model (usable as `model`); default: its id ft-… */
                        name?: string;
                        /** @description the training series, as in a forecast request (covariates included) */
                        series: components["schemas"]["InputSeries"][];
                        /** @description optimiser steps (default 100; at most HORIZON_FINETUNE_MAX_STEPS); quota: one unit per started 100 steps */
                        steps?: number;
                        /** @description the last validation_windows × horizon values of each series are held out of training and validate it (default 1) */
                        validation_windows?: number;
                    };
                };
            };
            responses: {
                /** @description Queued; poll the job at the Location header */
                202: {
                    headers: {
                        /** @description /v1/fine-tuning-jobs/{job_id} */
                        location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "5b1d0c52-7a36-4e0e-8a8c-3f3a4c1a2b90",
                         *       "status": "queued",
                         *       "model": "chronos-2",
                         *       "model_size": "small",
                         *       "model_id": "ft-3f9a0c1d2e4b5a6978c1d2e3",
                         *       "name": "airline-v1",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "attempts": 0
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            job_id: string;
                            /** @description the base model */
                            model: string;
                            /** @description the private model this job makes (ft-…) */
                            model_id: string;
                            model_size: string;
                            name: string;
                            /** @description the training's last reported step, training loss and validation loss */
                            progress?: {
                                loss: number | null;
                                step: number;
                                steps: number;
                                validation_loss: number | null;
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            summary?: {
                                device: string;
                                final_loss: number | null;
                                final_validation_loss: number | null;
                                horizon: number;
                                learning_rate: number;
                                mode: string;
                                series: number;
                                steps: number;
                                steps_per_second: number | null;
                                train_seconds: number;
                                validation_windows: number;
                                /** @description the same of the fine-tuned model */
                                validation_wql_after: number | null;
                                /** @description WQL (0.1…0.9) of the base model on the held-out windows */
                                validation_wql_before: number | null;
                            };
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fine-tuning-jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a fine-tuning job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "5b1d0c52-7a36-4e0e-8a8c-3f3a4c1a2b90",
                         *       "status": "completed",
                         *       "model": "chronos-2",
                         *       "model_size": "small",
                         *       "model_id": "ft-3f9a0c1d2e4b5a6978c1d2e3",
                         *       "name": "airline-v1",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "attempts": 1,
                         *       "started_at": "2026-01-05T09:30:00.120Z",
                         *       "finished_at": "2026-01-05T09:30:09.310Z",
                         *       "progress": {
                         *         "step": 10,
                         *         "steps": 10,
                         *         "loss": 0.41,
                         *         "validation_loss": 0.44
                         *       },
                         *       "summary": {
                         *         "series": 1,
                         *         "steps": 10,
                         *         "mode": "full",
                         *         "learning_rate": 0.00001,
                         *         "horizon": 3,
                         *         "validation_windows": 1,
                         *         "validation_wql_before": 0.0612,
                         *         "validation_wql_after": 0.0477,
                         *         "final_loss": 0.41,
                         *         "final_validation_loss": 0.44,
                         *         "train_seconds": 2.1,
                         *         "steps_per_second": 4.76,
                         *         "device": "cpu"
                         *       }
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            job_id: string;
                            /** @description the base model */
                            model: string;
                            /** @description the private model this job makes (ft-…) */
                            model_id: string;
                            model_size: string;
                            name: string;
                            /** @description the training's last reported step, training loss and validation loss */
                            progress?: {
                                loss: number | null;
                                step: number;
                                steps: number;
                                validation_loss: number | null;
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            summary?: {
                                device: string;
                                final_loss: number | null;
                                final_validation_loss: number | null;
                                horizon: number;
                                learning_rate: number;
                                mode: string;
                                series: number;
                                steps: number;
                                steps_per_second: number | null;
                                train_seconds: number;
                                validation_windows: number;
                                /** @description the same of the fine-tuned model */
                                validation_wql_after: number | null;
                                /** @description WQL (0.1…0.9) of the base model on the held-out windows */
                                validation_wql_before: number | null;
                            };
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Cancel a fine-tuning job */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The cancelled job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            job_id: string;
                            /** @description the base model */
                            model: string;
                            /** @description the private model this job makes (ft-…) */
                            model_id: string;
                            model_size: string;
                            name: string;
                            /** @description the training's last reported step, training loss and validation loss */
                            progress?: {
                                loss: number | null;
                                step: number;
                                steps: number;
                                validation_loss: number | null;
                            };
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            summary?: {
                                device: string;
                                final_loss: number | null;
                                final_validation_loss: number | null;
                                horizon: number;
                                learning_rate: number;
                                mode: string;
                                series: number;
                                steps: number;
                                steps_per_second: number | null;
                                train_seconds: number;
                                validation_windows: number;
                                /** @description the same of the fine-tuned model */
                                validation_wql_after: number | null;
                                /** @description WQL (0.1…0.9) of the base model on the held-out windows */
                                validation_wql_before: number | null;
                            };
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Forecast now */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description model "auto" only: the models it cross-validates; default: the operator's HORIZON_AUTO_CANDIDATES (`pool`: the statistical pool sized by the request's cost, HORIZON_POOL_BUDGET_MS), else the served foundation models then auto-ets, auto-theta, seasonal-naive (and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W), at most 4; `auto.pool` names where they came from */
                        auto_candidates?: (string | {
                            model: string;
                            model_size?: string;
                        })[];
                        /** @description model "auto" only: the cross-validation score that picks (default mase, ties by MASE) */
                        auto_metric?: "wql" | "mase" | "smape";
                        /** @description model "auto" only: `request` (default) one model for every series, the best score pooled over the request; `series` a model per series: its own cross-validation winner when that beats the request's winner on it by 20 % (else the request's winner) */
                        auto_scope?: "series" | "request";
                        /** @description use at most the last `context` observations (capped at max_context) */
                        context?: number;
                        /** @description asks for a backtest: `metrics` then holds MASE, WQL (over the requested quantiles) and sMAPE per series and in aggregate */
                        evaluation?: {
                            /** @description steps held out at the end of each series; default: horizon */
                            holdout?: number;
                            /** @description MASE seasonality m; default from freq (H 24, D 7, W 52, MS 12, Q 4, Y 1), 1 when the history is too short */
                            season_length?: number;
                        };
                        /** @description POST /v1/forecast only: also each covariate's contribution to the mean forecast, per step (`series[i][0].contributions`: SHAP values, base + Σ features = mean; the base is the forecast without covariates). For one model that uses covariates; 2^M forecasts per series of M covariates (at most 10), at most 4,096 per call (413 use_job_api above; docs/api.md#explanations) */
                        explain?: boolean;
                        /** @description with finetune_steps: the learning rate (default 1e-5; lora 1e-4) */
                        finetune_learning_rate?: number;
                        /** @description with finetune_steps: `full` (default) trains every weight, `lora` a low-rank adapter (peft), as a fine-tuning job's `mode` */
                        finetune_mode?: "full" | "lora";
                        /** @description POST /v1/forecast only: fine-tune the model (chronos-2) on this request's own series for this many steps first, forecast with the result and keep nothing (0: none; at most HORIZON_FINETUNE_INLINE_MAX_STEPS; quota: one more unit per started 100 steps; docs/fine-tuning.md). A model to keep: POST /v1/fine-tuning-jobs */
                        finetune_steps?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description forecast a hierarchy: the series are its bottom, every aggregate (their sums) is forecast with the same model, and the forecasts are reconciled so that every parent is the sum of its children (`series[i]` is then input series i's reconciled forecast; the answer's `hierarchy` holds every node's base and reconciled forecast). The series must end on the same date; no covariates */
                        hierarchy?: {
                            /** @description instead of labels and levels: node name → the indices of the series it sums (e.g. {"north": [0, 1], "south": [2]}); a "total" over every series is added unless one is given */
                            aggregates?: {
                                [key: string]: number[];
                            };
                            /** @description one object per series (same order as series / series_ids): label name → value, e.g. {"region": "north", "store": "n1"} */
                            labels?: {
                                [key: string]: string;
                            }[];
                            /** @description the aggregation levels from the top down, each a list of label names extending the one above (nested); a "total" node over every series is added on top; the last level must place each series in a node of its own */
                            levels?: string[][];
                            /** @description with aggregates: the bottom nodes' ids, one per series (default "series[i]") */
                            names?: string[];
                            /** @description instead of labels or aggregates, POST /v1/forecast and /v1/forecast-jobs: coarser periods each series is summed to and reconciled with (freq H: D, W; D: W; MS: Q, Y; Q: Y), counted back from its last step; the horizon must cover whole periods of each */
                            temporal?: ("D" | "W" | "Q" | "Y")[];
                        };
                        /** @description steps to predict; at most the model's max_horizon */
                        horizon: number;
                        /** @description model id (GET /v1/models); default: the deployment default_model */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description true: forecast the request's series jointly, as one group, with the model's own multivariate mode (chronos-2: cross-learning group attention; toto-2: the series as variates of one item; timesfm-3: the series as target variates, at most 32, without covariates; tirex-2: the series as the target variates of one item, at most 64, without covariates); each series' forecast then depends on the others. Other models: 422 naming these (docs/api.md#joint-forecasts-and-sample-paths) */
                        multivariate?: boolean;
                        /** @description model "prism" only: the models it combines instead of the deployment's (HORIZON_PRISM_MEMBERS, else the served foundation models, else the statistical pool sized by the request's cost: HORIZON_POOL_BUDGET_MS; the answer's `prism` names them); any model id this account may forecast with (catalog ids, its own private models by id or name), each checked as `model` would be; not prism or auto */
                        prism_members?: (string | {
                            model: string;
                            model_size?: string;
                        })[];
                        /** @description levels to return, each once; default [0.1, 0.5, 0.9] */
                        quantiles?: number[];
                        /** @description with hierarchy: the reconciliation (hierarchicalforecast's BottomUp, TopDown, MiddleOut, MinTrace, ERM); default wls_var. wls_var, mint_shrink, mint_cov and erm weigh by the model's in-sample residuals: with a model that has none (foundation models, prism, auto) or a singular covariance, wls_struct is used instead, with a warning */
                        reconcile?: "bottom_up" | "top_down_forecast_proportions" | "top_down_average_proportions" | "top_down_proportion_averages" | "middle_out" | "ols" | "wls_struct" | "wls_var" | "mint_shrink" | "mint_cov" | "erm";
                        /** @description with hierarchy: how the quantiles are reconciled (hierarchicalforecast's Normality, Bootstrap, PERMBU); default normality; bootstrap and permbu resample in-sample residuals (normality without them, with a warning) */
                        reconcile_intervals?: "normality" | "bootstrap" | "permbu";
                        /** @description with reconcile middle_out: the level it starts from (a level's label names joined with "/") */
                        reconcile_level?: string;
                        /** @description sample paths per series, drawn with the model's own sampling (`series[i][0].samples`: samples arrays of horizon values): chronos (Chronos-T5's token sampling) and the statistical models whose statsforecast class has simulate (naive, seasonal-naive, auto-ets, damped-ets, auto-arima, auto-theta, ces); others: 422 naming these. At most 2,000,000 values per request (series × samples × horizon) */
                        samples?: number;
                        /** @description with samples: mixed into each series' sampling seed (which is derived from its values: the same request always draws the same paths) */
                        seed?: number;
                        /** @description the series to forecast; required unless series_ids names stored series instead */
                        series?: components["schemas"]["InputSeries"][];
                        /** @description instead of series: ids of the account's stored series (PUT /v1/series/{id}), forecast from their whole stored history; the answer is the same as for the same series inline. freq may then be left out (it is theirs); an unknown id is 404 */
                        series_ids?: string[];
                        /** @description with series_ids: keep each series' forecast (issue time, model, request) and score it once the appended actuals cover it (GET /v1/series/{id}/accuracy) */
                        store?: boolean;
                    };
                };
            };
            responses: {
                /** @description The forecast: `series[i][0]` is the prediction of input series i */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description model "auto" only: which candidate forecast each series, and why */
                            auto?: {
                                /** @description the models cross-validated */
                                candidates: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description the candidates ranked by their score pooled over every series (as POST /v1/cross-validation ranks them); empty when no window fits any series */
                                leaderboard: {
                                    model: string;
                                    model_size: string;
                                    rank: number;
                                    score: number | null;
                                }[];
                                /** @description the cross-validation score that picked (wql, mase or smape; ties by MASE) */
                                metric: string;
                                /** @description rolling origins cross-validated per series (fewer for a series too short for them) */
                                n_windows: number;
                                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                pool?: {
                                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                    budget_ms?: number;
                                    /** @description `cost` only: the served statistical models over the budget on this request */
                                    left_out?: {
                                        /** @description its estimated ms per series on this request */
                                        estimate_ms: number;
                                        model: string;
                                    }[];
                                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                    source: "request" | "operator" | "foundation" | "cost" | "default";
                                };
                                scope: "series" | "request";
                                /** @description series[i]: what forecast input series i */
                                series: {
                                    /** @description the model that forecast this series */
                                    model: string;
                                    model_size: string;
                                    /** @description `series`: its own cross-validation winner (scope series: when its score beats the request winner's on this series by the switch margin, or is that winner); `request`: the request's winner (the leaderboard's first); `fallback`: no window fits this series, it got the request's winner (or the first candidate when no series has a window), with a warning */
                                    picked_by: "series" | "request" | "fallback";
                                    /** @description that model's cross-validation score on this series (the metric); null for a fallback */
                                    score: number | null;
                                    /** @description windows of this series scored */
                                    windows: number;
                                }[];
                                /** @description steps between origins (= horizon) */
                                step: number;
                            };
                            /** @description with `hierarchy` only: every node's base and reconciled forecast (series[i] is input series i's reconciled one) */
                            hierarchy?: {
                                /** @description the probabilistic reconciliation used (normality, bootstrap, permbu) */
                                intervals: string;
                                /** @description the reconciliation used: the requested `reconcile`, or wls_struct where it needed in-sample residuals the model has not (see warnings) */
                                method: string;
                                /** @description every node top-down: the aggregates (total first), then one per input series in its order */
                                nodes: {
                                    /** @description the model's own forecast of the node: "mean" plus one array per requested quantile level, as a series' prediction */
                                    base: {
                                        [key: string]: number[];
                                    };
                                    /** @description "total", then the label values of the node's level joined with "/" ("north", "north/n1"); in the explicit form the aggregate's name, and a bottom node's `names[i]` or "series[i]" */
                                    id: string;
                                    /** @description forecast dates */
                                    index: string[];
                                    /** @description "total", the level's label names joined with "/" ("region/store"); explicit form: "aggregates/<depth>", "series" */
                                    level: string;
                                    /** @description the id of the node it is part of; null at the top */
                                    parent: string | null;
                                    /** @description the coherent forecast: a parent's mean is the sum of its children's: "mean" plus one array per requested quantile level, as a series' prediction */
                                    reconciled: {
                                        [key: string]: number[];
                                    };
                                    /** @description the input series it sums (a bottom node: its own) */
                                    series: number[];
                                }[];
                                /** @description fallbacks and their reasons */
                                warnings: string[];
                            };
                            /** @description null unless the request has `evaluation` */
                            metrics: {
                                /** @description mean MASE and sMAPE over series; WQL weighted over all series */
                                aggregate: {
                                    mase: number | null;
                                    smape: number;
                                    wql: number | null;
                                };
                                holdout: number;
                                quantiles: number[];
                                season_length: number;
                                /** @description series[i] scores input series i */
                                series: {
                                    mase: number | null;
                                    smape: number;
                                    wql: number | null;
                                }[];
                            } | null;
                            /** @description the model id; "auto" for model "auto" (then `auto.series[i].model` is the model of series i) */
                            model: string;
                            model_size: string;
                            /** @description model "prism" only: the members it blended for this request */
                            prism?: {
                                /** @description the models blended */
                                members: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                pool: {
                                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                    budget_ms?: number;
                                    /** @description `cost` only: the served statistical models over the budget on this request */
                                    left_out?: {
                                        /** @description its estimated ms per series on this request */
                                        estimate_ms: number;
                                        model: string;
                                    }[];
                                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                    source: "request" | "operator" | "foundation" | "cost" | "default";
                                };
                            };
                            /** @description series[i] holds the prediction of input series i (with a `hierarchy`: its reconciled forecast) */
                            series: {
                                /** @description with `explain: true`: each covariate's contribution to the mean forecast (SHAP values over every coalition of the series' covariates) */
                                contributions?: {
                                    /** @description per step: the mean forecast without any covariate */
                                    base: number[];
                                    /** @description per covariate (its name as sent), per step: its Shapley value; base + Σ features = mean */
                                    features: {
                                        [key: string]: number[];
                                    };
                                };
                                /** @description forecast dates */
                                index: string[];
                                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                prediction: {
                                    [key: string]: number[];
                                };
                                /** @description with `samples: N`: N sample paths of horizon values each, drawn with the model's own sampling */
                                samples?: number[][];
                            }[][];
                            /** @enum {string} */
                            status: "completed";
                            warnings: {
                                field: string;
                                message: string;
                                series?: number;
                            }[];
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured limit (code payload_too_large), or the request's estimated model time is over the synchronous budget (code use_job_api, HORIZON_SYNC_BUDGET_MS; nothing is charged): send the same body to POST /v1/forecast-jobs, whose job runs it in chunks */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Model or worker not available right now (weights missing, being pulled, worker restarting), or the database cannot be reached (store_unavailable); Retry-After says when to retry */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference timed out (HORIZON_INFERENCE_TIMEOUT_MS); `detail` names the job API, which runs large requests in chunks that each fit one call */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forecast-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List forecast jobs */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description page size, 1–100 (default 20) */
                    limit?: string;
                    status?: "queued" | "running" | "completed" | "failed" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the account's jobs, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "jobs": [
                         *         {
                         *           "job_id": "0b5e8f5e-4c1a-4f7e-9a51-2f4c3b1d9e77",
                         *           "status": "completed",
                         *           "model": "naive",
                         *           "created_at": "2026-01-05T09:30:00.000Z",
                         *           "started_at": "2026-01-05T09:30:00.120Z",
                         *           "finished_at": "2026-01-05T09:30:00.310Z",
                         *           "attempts": 1
                         *         }
                         *       ],
                         *       "next_cursor": null
                         *     }
                         */
                        "application/json": {
                            jobs: {
                                attempts: number;
                                /** @description model "auto" only: which candidate forecast each series, and why */
                                auto?: {
                                    /** @description the models cross-validated */
                                    candidates: {
                                        model: string;
                                        model_size: string;
                                    }[];
                                    /** @description the candidates ranked by their score pooled over every series (as POST /v1/cross-validation ranks them); empty when no window fits any series */
                                    leaderboard: {
                                        model: string;
                                        model_size: string;
                                        rank: number;
                                        score: number | null;
                                    }[];
                                    /** @description the cross-validation score that picked (wql, mase or smape; ties by MASE) */
                                    metric: string;
                                    /** @description rolling origins cross-validated per series (fewer for a series too short for them) */
                                    n_windows: number;
                                    /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                    pool?: {
                                        /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                        budget_ms?: number;
                                        /** @description `cost` only: the served statistical models over the budget on this request */
                                        left_out?: {
                                            /** @description its estimated ms per series on this request */
                                            estimate_ms: number;
                                            model: string;
                                        }[];
                                        /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                        source: "request" | "operator" | "foundation" | "cost" | "default";
                                    };
                                    scope: "series" | "request";
                                    /** @description series[i]: what forecast input series i */
                                    series: {
                                        /** @description the model that forecast this series */
                                        model: string;
                                        model_size: string;
                                        /** @description `series`: its own cross-validation winner (scope series: when its score beats the request winner's on this series by the switch margin, or is that winner); `request`: the request's winner (the leaderboard's first); `fallback`: no window fits this series, it got the request's winner (or the first candidate when no series has a window), with a warning */
                                        picked_by: "series" | "request" | "fallback";
                                        /** @description that model's cross-validation score on this series (the metric); null for a fallback */
                                        score: number | null;
                                        /** @description windows of this series scored */
                                        windows: number;
                                    }[];
                                    /** @description steps between origins (= horizon) */
                                    step: number;
                                };
                                /** Format: date-time */
                                created_at: string;
                                error?: {
                                    code: string;
                                    detail: string;
                                };
                                /** Format: date-time */
                                finished_at?: string;
                                /** @description with `hierarchy` only: every node's base and reconciled forecast (series[i] is input series i's reconciled one) */
                                hierarchy?: {
                                    /** @description the probabilistic reconciliation used (normality, bootstrap, permbu) */
                                    intervals: string;
                                    /** @description the reconciliation used: the requested `reconcile`, or wls_struct where it needed in-sample residuals the model has not (see warnings) */
                                    method: string;
                                    /** @description every node top-down: the aggregates (total first), then one per input series in its order */
                                    nodes: {
                                        /** @description the model's own forecast of the node: "mean" plus one array per requested quantile level, as a series' prediction */
                                        base: {
                                            [key: string]: number[];
                                        };
                                        /** @description "total", then the label values of the node's level joined with "/" ("north", "north/n1"); in the explicit form the aggregate's name, and a bottom node's `names[i]` or "series[i]" */
                                        id: string;
                                        /** @description forecast dates */
                                        index: string[];
                                        /** @description "total", the level's label names joined with "/" ("region/store"); explicit form: "aggregates/<depth>", "series" */
                                        level: string;
                                        /** @description the id of the node it is part of; null at the top */
                                        parent: string | null;
                                        /** @description the coherent forecast: a parent's mean is the sum of its children's: "mean" plus one array per requested quantile level, as a series' prediction */
                                        reconciled: {
                                            [key: string]: number[];
                                        };
                                        /** @description the input series it sums (a bottom node: its own) */
                                        series: number[];
                                    }[];
                                    /** @description fallbacks and their reasons */
                                    warnings: string[];
                                };
                                job_id: string;
                                metrics?: {
                                    /** @description mean MASE and sMAPE over series; WQL weighted over all series */
                                    aggregate: {
                                        mase: number | null;
                                        smape: number;
                                        wql: number | null;
                                    };
                                    holdout: number;
                                    quantiles: number[];
                                    season_length: number;
                                    /** @description series[i] scores input series i */
                                    series: {
                                        mase: number | null;
                                        smape: number;
                                        wql: number | null;
                                    }[];
                                } | null;
                                model: string;
                                model_size?: string;
                                /** @description model "prism" only: the members it blended for this request */
                                prism?: {
                                    /** @description the models blended */
                                    members: {
                                        model: string;
                                        model_size: string;
                                    }[];
                                    /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                    pool: {
                                        /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                        budget_ms?: number;
                                        /** @description `cost` only: the served statistical models over the budget on this request */
                                        left_out?: {
                                            /** @description its estimated ms per series on this request */
                                            estimate_ms: number;
                                            model: string;
                                        }[];
                                        /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                        source: "request" | "operator" | "foundation" | "cost" | "default";
                                    };
                                };
                                /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                                progress?: {
                                    /** @description chunks whose result is stored (a restarted job does not run them again) */
                                    chunks_done: number;
                                    /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                    chunks_total: number;
                                };
                                series?: {
                                    /** @description with `explain: true`: each covariate's contribution to the mean forecast (SHAP values over every coalition of the series' covariates) */
                                    contributions?: {
                                        /** @description per step: the mean forecast without any covariate */
                                        base: number[];
                                        /** @description per covariate (its name as sent), per step: its Shapley value; base + Σ features = mean */
                                        features: {
                                            [key: string]: number[];
                                        };
                                    };
                                    /** @description forecast dates */
                                    index: string[];
                                    /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                    prediction: {
                                        [key: string]: number[];
                                    };
                                    /** @description with `samples: N`: N sample paths of horizon values each, drawn with the model's own sampling */
                                    samples?: number[][];
                                }[][];
                                /** Format: date-time */
                                started_at?: string;
                                status: "queued" | "running" | "completed" | "failed" | "cancelled";
                                warnings?: {
                                    field: string;
                                    message: string;
                                    series?: number;
                                }[];
                            }[];
                            /** @description pass as ?cursor= for the next page; null on the last page */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Queue a forecast job */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description model "auto" only: the models it cross-validates; default: the operator's HORIZON_AUTO_CANDIDATES (`pool`: the statistical pool sized by the request's cost, HORIZON_POOL_BUDGET_MS), else the served foundation models then auto-ets, auto-theta, seasonal-naive (and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W), at most 4; `auto.pool` names where they came from */
                        auto_candidates?: (string | {
                            model: string;
                            model_size?: string;
                        })[];
                        /** @description model "auto" only: the cross-validation score that picks (default mase, ties by MASE) */
                        auto_metric?: "wql" | "mase" | "smape";
                        /** @description model "auto" only: `request` (default) one model for every series, the best score pooled over the request; `series` a model per series: its own cross-validation winner when that beats the request's winner on it by 20 % (else the request's winner) */
                        auto_scope?: "series" | "request";
                        /** @description use at most the last `context` observations (capped at max_context) */
                        context?: number;
                        /** @description asks for a backtest: `metrics` then holds MASE, WQL (over the requested quantiles) and sMAPE per series and in aggregate */
                        evaluation?: {
                            /** @description steps held out at the end of each series; default: horizon */
                            holdout?: number;
                            /** @description MASE seasonality m; default from freq (H 24, D 7, W 52, MS 12, Q 4, Y 1), 1 when the history is too short */
                            season_length?: number;
                        };
                        /** @description POST /v1/forecast only: also each covariate's contribution to the mean forecast, per step (`series[i][0].contributions`: SHAP values, base + Σ features = mean; the base is the forecast without covariates). For one model that uses covariates; 2^M forecasts per series of M covariates (at most 10), at most 4,096 per call (413 use_job_api above; docs/api.md#explanations) */
                        explain?: boolean;
                        /** @description with finetune_steps: the learning rate (default 1e-5; lora 1e-4) */
                        finetune_learning_rate?: number;
                        /** @description with finetune_steps: `full` (default) trains every weight, `lora` a low-rank adapter (peft), as a fine-tuning job's `mode` */
                        finetune_mode?: "full" | "lora";
                        /** @description POST /v1/forecast only: fine-tune the model (chronos-2) on this request's own series for this many steps first, forecast with the result and keep nothing (0: none; at most HORIZON_FINETUNE_INLINE_MAX_STEPS; quota: one more unit per started 100 steps; docs/fine-tuning.md). A model to keep: POST /v1/fine-tuning-jobs */
                        finetune_steps?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description forecast a hierarchy: the series are its bottom, every aggregate (their sums) is forecast with the same model, and the forecasts are reconciled so that every parent is the sum of its children (`series[i]` is then input series i's reconciled forecast; the answer's `hierarchy` holds every node's base and reconciled forecast). The series must end on the same date; no covariates */
                        hierarchy?: {
                            /** @description instead of labels and levels: node name → the indices of the series it sums (e.g. {"north": [0, 1], "south": [2]}); a "total" over every series is added unless one is given */
                            aggregates?: {
                                [key: string]: number[];
                            };
                            /** @description one object per series (same order as series / series_ids): label name → value, e.g. {"region": "north", "store": "n1"} */
                            labels?: {
                                [key: string]: string;
                            }[];
                            /** @description the aggregation levels from the top down, each a list of label names extending the one above (nested); a "total" node over every series is added on top; the last level must place each series in a node of its own */
                            levels?: string[][];
                            /** @description with aggregates: the bottom nodes' ids, one per series (default "series[i]") */
                            names?: string[];
                            /** @description instead of labels or aggregates, POST /v1/forecast and /v1/forecast-jobs: coarser periods each series is summed to and reconciled with (freq H: D, W; D: W; MS: Q, Y; Q: Y), counted back from its last step; the horizon must cover whole periods of each */
                            temporal?: ("D" | "W" | "Q" | "Y")[];
                        };
                        /** @description steps to predict; at most the model's max_horizon */
                        horizon: number;
                        /** @description model id (GET /v1/models); default: the deployment default_model */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description true: forecast the request's series jointly, as one group, with the model's own multivariate mode (chronos-2: cross-learning group attention; toto-2: the series as variates of one item; timesfm-3: the series as target variates, at most 32, without covariates; tirex-2: the series as the target variates of one item, at most 64, without covariates); each series' forecast then depends on the others. Other models: 422 naming these (docs/api.md#joint-forecasts-and-sample-paths) */
                        multivariate?: boolean;
                        /** @description model "prism" only: the models it combines instead of the deployment's (HORIZON_PRISM_MEMBERS, else the served foundation models, else the statistical pool sized by the request's cost: HORIZON_POOL_BUDGET_MS; the answer's `prism` names them); any model id this account may forecast with (catalog ids, its own private models by id or name), each checked as `model` would be; not prism or auto */
                        prism_members?: (string | {
                            model: string;
                            model_size?: string;
                        })[];
                        /** @description levels to return, each once; default [0.1, 0.5, 0.9] */
                        quantiles?: number[];
                        /** @description with hierarchy: the reconciliation (hierarchicalforecast's BottomUp, TopDown, MiddleOut, MinTrace, ERM); default wls_var. wls_var, mint_shrink, mint_cov and erm weigh by the model's in-sample residuals: with a model that has none (foundation models, prism, auto) or a singular covariance, wls_struct is used instead, with a warning */
                        reconcile?: "bottom_up" | "top_down_forecast_proportions" | "top_down_average_proportions" | "top_down_proportion_averages" | "middle_out" | "ols" | "wls_struct" | "wls_var" | "mint_shrink" | "mint_cov" | "erm";
                        /** @description with hierarchy: how the quantiles are reconciled (hierarchicalforecast's Normality, Bootstrap, PERMBU); default normality; bootstrap and permbu resample in-sample residuals (normality without them, with a warning) */
                        reconcile_intervals?: "normality" | "bootstrap" | "permbu";
                        /** @description with reconcile middle_out: the level it starts from (a level's label names joined with "/") */
                        reconcile_level?: string;
                        /** @description sample paths per series, drawn with the model's own sampling (`series[i][0].samples`: samples arrays of horizon values): chronos (Chronos-T5's token sampling) and the statistical models whose statsforecast class has simulate (naive, seasonal-naive, auto-ets, damped-ets, auto-arima, auto-theta, ces); others: 422 naming these. At most 2,000,000 values per request (series × samples × horizon) */
                        samples?: number;
                        /** @description with samples: mixed into each series' sampling seed (which is derived from its values: the same request always draws the same paths) */
                        seed?: number;
                        /** @description the series to forecast; required unless series_ids names stored series instead */
                        series?: components["schemas"]["InputSeries"][];
                        /** @description instead of series: ids of the account's stored series (PUT /v1/series/{id}), forecast from their whole stored history; the answer is the same as for the same series inline. freq may then be left out (it is theirs); an unknown id is 404 */
                        series_ids?: string[];
                        /** @description with series_ids: keep each series' forecast (issue time, model, request) and score it once the appended actuals cover it (GET /v1/series/{id}/accuracy) */
                        store?: boolean;
                    };
                };
            };
            responses: {
                /** @description Queued; poll the job at the Location header */
                202: {
                    headers: {
                        /** @description /v1/forecast-jobs/{job_id} */
                        location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "0b5e8f5e-4c1a-4f7e-9a51-2f4c3b1d9e77",
                         *       "status": "queued",
                         *       "model": "naive",
                         *       "created_at": "2026-01-05T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            job_id: string;
                            model: string;
                            /** @enum {string} */
                            status: "queued";
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account's model requests in flight (too_many_inflight, naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forecast-jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a forecast job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job; with the forecast once completed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "0b5e8f5e-4c1a-4f7e-9a51-2f4c3b1d9e77",
                         *       "status": "completed",
                         *       "model": "naive",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "started_at": "2026-01-05T09:30:00.120Z",
                         *       "finished_at": "2026-01-05T09:30:00.310Z",
                         *       "attempts": 1,
                         *       "model_size": "default",
                         *       "series": [
                         *         [
                         *           {
                         *             "prediction": {
                         *               "mean": [
                         *                 118,
                         *                 118,
                         *                 118
                         *               ],
                         *               "0.1": [
                         *                 95.6,
                         *                 86.3,
                         *                 79.2
                         *               ],
                         *               "0.5": [
                         *                 118,
                         *                 118,
                         *                 118
                         *               ],
                         *               "0.9": [
                         *                 140.4,
                         *                 149.7,
                         *                 156.8
                         *               ]
                         *             },
                         *             "index": [
                         *               "1950-01-01",
                         *               "1950-02-01",
                         *               "1950-03-01"
                         *             ]
                         *           }
                         *         ]
                         *       ],
                         *       "metrics": null,
                         *       "warnings": []
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** @description model "auto" only: which candidate forecast each series, and why */
                            auto?: {
                                /** @description the models cross-validated */
                                candidates: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description the candidates ranked by their score pooled over every series (as POST /v1/cross-validation ranks them); empty when no window fits any series */
                                leaderboard: {
                                    model: string;
                                    model_size: string;
                                    rank: number;
                                    score: number | null;
                                }[];
                                /** @description the cross-validation score that picked (wql, mase or smape; ties by MASE) */
                                metric: string;
                                /** @description rolling origins cross-validated per series (fewer for a series too short for them) */
                                n_windows: number;
                                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                pool?: {
                                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                    budget_ms?: number;
                                    /** @description `cost` only: the served statistical models over the budget on this request */
                                    left_out?: {
                                        /** @description its estimated ms per series on this request */
                                        estimate_ms: number;
                                        model: string;
                                    }[];
                                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                    source: "request" | "operator" | "foundation" | "cost" | "default";
                                };
                                scope: "series" | "request";
                                /** @description series[i]: what forecast input series i */
                                series: {
                                    /** @description the model that forecast this series */
                                    model: string;
                                    model_size: string;
                                    /** @description `series`: its own cross-validation winner (scope series: when its score beats the request winner's on this series by the switch margin, or is that winner); `request`: the request's winner (the leaderboard's first); `fallback`: no window fits this series, it got the request's winner (or the first candidate when no series has a window), with a warning */
                                    picked_by: "series" | "request" | "fallback";
                                    /** @description that model's cross-validation score on this series (the metric); null for a fallback */
                                    score: number | null;
                                    /** @description windows of this series scored */
                                    windows: number;
                                }[];
                                /** @description steps between origins (= horizon) */
                                step: number;
                            };
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            /** @description with `hierarchy` only: every node's base and reconciled forecast (series[i] is input series i's reconciled one) */
                            hierarchy?: {
                                /** @description the probabilistic reconciliation used (normality, bootstrap, permbu) */
                                intervals: string;
                                /** @description the reconciliation used: the requested `reconcile`, or wls_struct where it needed in-sample residuals the model has not (see warnings) */
                                method: string;
                                /** @description every node top-down: the aggregates (total first), then one per input series in its order */
                                nodes: {
                                    /** @description the model's own forecast of the node: "mean" plus one array per requested quantile level, as a series' prediction */
                                    base: {
                                        [key: string]: number[];
                                    };
                                    /** @description "total", then the label values of the node's level joined with "/" ("north", "north/n1"); in the explicit form the aggregate's name, and a bottom node's `names[i]` or "series[i]" */
                                    id: string;
                                    /** @description forecast dates */
                                    index: string[];
                                    /** @description "total", the level's label names joined with "/" ("region/store"); explicit form: "aggregates/<depth>", "series" */
                                    level: string;
                                    /** @description the id of the node it is part of; null at the top */
                                    parent: string | null;
                                    /** @description the coherent forecast: a parent's mean is the sum of its children's: "mean" plus one array per requested quantile level, as a series' prediction */
                                    reconciled: {
                                        [key: string]: number[];
                                    };
                                    /** @description the input series it sums (a bottom node: its own) */
                                    series: number[];
                                }[];
                                /** @description fallbacks and their reasons */
                                warnings: string[];
                            };
                            job_id: string;
                            metrics?: {
                                /** @description mean MASE and sMAPE over series; WQL weighted over all series */
                                aggregate: {
                                    mase: number | null;
                                    smape: number;
                                    wql: number | null;
                                };
                                holdout: number;
                                quantiles: number[];
                                season_length: number;
                                /** @description series[i] scores input series i */
                                series: {
                                    mase: number | null;
                                    smape: number;
                                    wql: number | null;
                                }[];
                            } | null;
                            model: string;
                            model_size?: string;
                            /** @description model "prism" only: the members it blended for this request */
                            prism?: {
                                /** @description the models blended */
                                members: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                pool: {
                                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                    budget_ms?: number;
                                    /** @description `cost` only: the served statistical models over the budget on this request */
                                    left_out?: {
                                        /** @description its estimated ms per series on this request */
                                        estimate_ms: number;
                                        model: string;
                                    }[];
                                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                    source: "request" | "operator" | "foundation" | "cost" | "default";
                                };
                            };
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            series?: {
                                /** @description with `explain: true`: each covariate's contribution to the mean forecast (SHAP values over every coalition of the series' covariates) */
                                contributions?: {
                                    /** @description per step: the mean forecast without any covariate */
                                    base: number[];
                                    /** @description per covariate (its name as sent), per step: its Shapley value; base + Σ features = mean */
                                    features: {
                                        [key: string]: number[];
                                    };
                                };
                                /** @description forecast dates */
                                index: string[];
                                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                prediction: {
                                    [key: string]: number[];
                                };
                                /** @description with `samples: N`: N sample paths of horizon values each, drawn with the model's own sampling */
                                samples?: number[][];
                            }[][];
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            warnings?: {
                                field: string;
                                message: string;
                                series?: number;
                            }[];
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Cancel a forecast job */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The cancelled job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "job_id": "0b5e8f5e-4c1a-4f7e-9a51-2f4c3b1d9e77",
                         *       "status": "cancelled",
                         *       "model": "naive",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "finished_at": "2026-01-05T09:30:00.310Z",
                         *       "attempts": 0
                         *     }
                         */
                        "application/json": {
                            attempts: number;
                            /** @description model "auto" only: which candidate forecast each series, and why */
                            auto?: {
                                /** @description the models cross-validated */
                                candidates: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description the candidates ranked by their score pooled over every series (as POST /v1/cross-validation ranks them); empty when no window fits any series */
                                leaderboard: {
                                    model: string;
                                    model_size: string;
                                    rank: number;
                                    score: number | null;
                                }[];
                                /** @description the cross-validation score that picked (wql, mase or smape; ties by MASE) */
                                metric: string;
                                /** @description rolling origins cross-validated per series (fewer for a series too short for them) */
                                n_windows: number;
                                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                pool?: {
                                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                    budget_ms?: number;
                                    /** @description `cost` only: the served statistical models over the budget on this request */
                                    left_out?: {
                                        /** @description its estimated ms per series on this request */
                                        estimate_ms: number;
                                        model: string;
                                    }[];
                                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                    source: "request" | "operator" | "foundation" | "cost" | "default";
                                };
                                scope: "series" | "request";
                                /** @description series[i]: what forecast input series i */
                                series: {
                                    /** @description the model that forecast this series */
                                    model: string;
                                    model_size: string;
                                    /** @description `series`: its own cross-validation winner (scope series: when its score beats the request winner's on this series by the switch margin, or is that winner); `request`: the request's winner (the leaderboard's first); `fallback`: no window fits this series, it got the request's winner (or the first candidate when no series has a window), with a warning */
                                    picked_by: "series" | "request" | "fallback";
                                    /** @description that model's cross-validation score on this series (the metric); null for a fallback */
                                    score: number | null;
                                    /** @description windows of this series scored */
                                    windows: number;
                                }[];
                                /** @description steps between origins (= horizon) */
                                step: number;
                            };
                            /** Format: date-time */
                            created_at: string;
                            error?: {
                                code: string;
                                detail: string;
                            };
                            /** Format: date-time */
                            finished_at?: string;
                            /** @description with `hierarchy` only: every node's base and reconciled forecast (series[i] is input series i's reconciled one) */
                            hierarchy?: {
                                /** @description the probabilistic reconciliation used (normality, bootstrap, permbu) */
                                intervals: string;
                                /** @description the reconciliation used: the requested `reconcile`, or wls_struct where it needed in-sample residuals the model has not (see warnings) */
                                method: string;
                                /** @description every node top-down: the aggregates (total first), then one per input series in its order */
                                nodes: {
                                    /** @description the model's own forecast of the node: "mean" plus one array per requested quantile level, as a series' prediction */
                                    base: {
                                        [key: string]: number[];
                                    };
                                    /** @description "total", then the label values of the node's level joined with "/" ("north", "north/n1"); in the explicit form the aggregate's name, and a bottom node's `names[i]` or "series[i]" */
                                    id: string;
                                    /** @description forecast dates */
                                    index: string[];
                                    /** @description "total", the level's label names joined with "/" ("region/store"); explicit form: "aggregates/<depth>", "series" */
                                    level: string;
                                    /** @description the id of the node it is part of; null at the top */
                                    parent: string | null;
                                    /** @description the coherent forecast: a parent's mean is the sum of its children's: "mean" plus one array per requested quantile level, as a series' prediction */
                                    reconciled: {
                                        [key: string]: number[];
                                    };
                                    /** @description the input series it sums (a bottom node: its own) */
                                    series: number[];
                                }[];
                                /** @description fallbacks and their reasons */
                                warnings: string[];
                            };
                            job_id: string;
                            metrics?: {
                                /** @description mean MASE and sMAPE over series; WQL weighted over all series */
                                aggregate: {
                                    mase: number | null;
                                    smape: number;
                                    wql: number | null;
                                };
                                holdout: number;
                                quantiles: number[];
                                season_length: number;
                                /** @description series[i] scores input series i */
                                series: {
                                    mase: number | null;
                                    smape: number;
                                    wql: number | null;
                                }[];
                            } | null;
                            model: string;
                            model_size?: string;
                            /** @description model "prism" only: the members it blended for this request */
                            prism?: {
                                /** @description the models blended */
                                members: {
                                    model: string;
                                    model_size: string;
                                }[];
                                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                                pool: {
                                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                                    budget_ms?: number;
                                    /** @description `cost` only: the served statistical models over the budget on this request */
                                    left_out?: {
                                        /** @description its estimated ms per series on this request */
                                        estimate_ms: number;
                                        model: string;
                                    }[];
                                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                                    source: "request" | "operator" | "foundation" | "cost" | "default";
                                };
                            };
                            /** @description present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series that each fit one worker call; set once it starts running, kept when it finishes */
                            progress?: {
                                /** @description chunks whose result is stored (a restarted job does not run them again) */
                                chunks_done: number;
                                /** @description chunks of the model calls made so far; with model "auto" it grows once the cross-validation has picked the models (their forecasts are chunked then) */
                                chunks_total: number;
                            };
                            series?: {
                                /** @description with `explain: true`: each covariate's contribution to the mean forecast (SHAP values over every coalition of the series' covariates) */
                                contributions?: {
                                    /** @description per step: the mean forecast without any covariate */
                                    base: number[];
                                    /** @description per covariate (its name as sent), per step: its Shapley value; base + Σ features = mean */
                                    features: {
                                        [key: string]: number[];
                                    };
                                };
                                /** @description forecast dates */
                                index: string[];
                                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                prediction: {
                                    [key: string]: number[];
                                };
                                /** @description with `samples: N`: N sample paths of horizon values each, drawn with the model's own sampling */
                                samples?: number[][];
                            }[][];
                            /** Format: date-time */
                            started_at?: string;
                            status: "queued" | "running" | "completed" | "failed" | "cancelled";
                            warnings?: {
                                field: string;
                                message: string;
                                series?: number;
                            }[];
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List served models */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The models this deployment serves */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            default_model: string;
                            models: {
                                /** @description whether this deployment serves the model now; when false, unavailable_reason says why and how to enable it */
                                available: boolean;
                                base_model?: string;
                                base_size?: string;
                                covariates: {
                                    future: boolean;
                                    past: boolean;
                                    static: boolean;
                                };
                                /** Format: date-time */
                                created_at?: string;
                                default_size: string;
                                description: string;
                                /** @description the fine-tuning job that made it */
                                job_id?: string | null;
                                license: {
                                    accepted: boolean;
                                    commercial: boolean;
                                    id: string;
                                    name: string;
                                    requires_opt_in: boolean;
                                };
                                loaded: string[];
                                /** @description of the default size */
                                max_context: number;
                                /** @description of the default size */
                                max_horizon: number;
                                model_id: string;
                                name: string;
                                /** @description a fine-tuned model of this account (DELETE /v1/models/{id} removes it) */
                                private?: boolean;
                                size_limits: {
                                    [key: string]: {
                                        max_context: number;
                                        max_horizon: number;
                                    };
                                };
                                sizes: string[];
                                supports_covariates: boolean;
                                /** @description the training summary: series, steps, mode, learning_rate, horizon, validation_windows, validation_wql_before, validation_wql_after, losses, train_seconds, steps_per_second, device */
                                training?: {
                                    [key: string]: unknown;
                                };
                                /** @description why a catalog model is not served by this deployment */
                                unavailable_reason?: {
                                    code: "runtime_not_installed" | "license_not_accepted" | "weights_missing" | "members_unavailable";
                                    /** @description the command that fixes it: weights_missing, the pull of the default size; runtime_not_installed, the setup */
                                    command?: string;
                                    /** @description what is missing and how the operator enables the model */
                                    detail: string;
                                    /** @description runtime_not_installed: the runtime group (virtualenv) that serves the model */
                                    runtime_group?: string;
                                    /** @description license_not_accepted: the variable that accepts the licence (HORIZON_ACCEPT_LICENSES) */
                                    variable?: string;
                                };
                            }[];
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one model */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The model */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description whether this deployment serves the model now; when false, unavailable_reason says why and how to enable it */
                            available: boolean;
                            base_model?: string;
                            base_size?: string;
                            covariates: {
                                future: boolean;
                                past: boolean;
                                static: boolean;
                            };
                            /** Format: date-time */
                            created_at?: string;
                            default_size: string;
                            description: string;
                            /** @description the fine-tuning job that made it */
                            job_id?: string | null;
                            license: {
                                accepted: boolean;
                                commercial: boolean;
                                id: string;
                                name: string;
                                requires_opt_in: boolean;
                            };
                            loaded: string[];
                            /** @description of the default size */
                            max_context: number;
                            /** @description of the default size */
                            max_horizon: number;
                            model_id: string;
                            name: string;
                            /** @description a fine-tuned model of this account (DELETE /v1/models/{id} removes it) */
                            private?: boolean;
                            size_limits: {
                                [key: string]: {
                                    max_context: number;
                                    max_horizon: number;
                                };
                            };
                            sizes: string[];
                            supports_covariates: boolean;
                            /** @description the training summary: series, steps, mode, learning_rate, horizon, validation_windows, validation_wql_before, validation_wql_after, losses, train_seconds, steps_per_second, device */
                            training?: {
                                [key: string]: unknown;
                            };
                            /** @description why a catalog model is not served by this deployment */
                            unavailable_reason?: {
                                code: "runtime_not_installed" | "license_not_accepted" | "weights_missing" | "members_unavailable";
                                /** @description the command that fixes it: weights_missing, the pull of the default size; runtime_not_installed, the setup */
                                command?: string;
                                /** @description what is missing and how the operator enables the model */
                                detail: string;
                                /** @description runtime_not_installed: the runtime group (virtualenv) that serves the model */
                                runtime_group?: string;
                                /** @description license_not_accepted: the variable that accepts the licence (HORIZON_ACCEPT_LICENSES) */
                                variable?: string;
                            };
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a private (fine-tuned) model */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List stored series */
        get: {
            parameters: {
                query?: {
                    /** @description next_cursor of the previous page */
                    cursor?: string;
                    /** @description page size, 1-1000; default 100 */
                    limit?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the account's series, by id */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_cursor: string | null;
                            series: {
                                created_at: string;
                                freq: string;
                                points: number;
                                series_id: string;
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/series/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a stored series */
        get: {
            parameters: {
                query?: {
                    /** @description stored forecasts returned, 0-1000; default 20 */
                    forecasts?: string;
                    /** @description dates of history returned (the last ones), 0-100000; default 1000 */
                    tail?: string;
                };
                header?: never;
                path: {
                    /** @description the series id: 1-128 of letters, digits and _ . : - (first a letter or digit) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The series */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            created_at: string;
                            drift: {
                                /** @description drift when an interval's rolling coverage is further than this from its nominal level (0.8 for "80") */
                                coverage_tolerance?: number;
                                /** @description drift when the rolling MASE is above this */
                                max_mase?: number;
                                /** @description drift when the rolling MASE is above this many times the model's own backtest MASE on the series (the mean over the window's forecasts that carry one: forecasts asked with `evaluation`, e.g. schedule.evaluation) */
                                max_mase_ratio?: number;
                                /** @description scored forecasts needed before the rule is checked; default 5 */
                                min_forecasts?: number;
                                /** @description scored forecasts in the rolling window; default 10 */
                                window?: number;
                            } | null;
                            /** @description GET only: whether the last drift event raised drift (and none cleared it since) */
                            drifting?: boolean;
                            /** @description GET only: the latest events (drift), newest first */
                            events?: {
                                created_at: string;
                                detail: unknown;
                                id: string;
                                kind: string;
                            }[];
                            first_date: string;
                            forecast_every: number | null;
                            /** @description GET only: the latest stored forecasts, newest first, with their actuals and scores */
                            forecasts?: {
                                /** @description the observed values at those dates, once all are stored (null before) */
                                actuals: (number | null)[] | null;
                                horizon: number;
                                id: string;
                                /** @description the forecast dates */
                                index: string[];
                                issued_at: string;
                                model: string;
                                model_size: string;
                                prediction: {
                                    [key: string]: number[];
                                };
                                scored_at: string | null;
                                scores: ({
                                    coverage: {
                                        [key: string]: number;
                                    };
                                    mase: number | null;
                                    observed: number;
                                    smape: number | null;
                                    wql: number | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                            }[];
                            freq: string;
                            /** @description GET only: the last `tail` dates of the history */
                            index?: string[];
                            last_date: string;
                            /** @description grid steps stored (gaps included) */
                            points: number;
                            schedule: {
                                context?: number;
                                /** @description as POST /v1/forecast's: each scheduled forecast also backtests the model on the series, and keeps its MASE and WQL (the baseline of a drift rule's max_mase_ratio) */
                                evaluation?: {
                                    holdout?: number;
                                    season_length?: number;
                                };
                                /** @description steps each scheduled forecast predicts */
                                horizon: number;
                                model?: string;
                                model_size?: string;
                                quantiles?: number[];
                            } | null;
                            series_id: string;
                            target?: (number | null)[];
                            updated_at: string;
                            /** @description the webhook URL (the secret is never shown) */
                            webhook: {
                                url: string;
                            } | null;
                            /** @description GET only: the webhook delivery log, newest first */
                            webhook_deliveries?: {
                                attempts: number;
                                created_at: string;
                                delivered_at: string | null;
                                event_id: string;
                                id: string;
                                last_error: string | null;
                                last_status: number | null;
                                next_attempt_at: string;
                                /** @description pending, delivered or failed */
                                status: string;
                            }[];
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        /** Create or replace a stored series */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the series id: 1-128 of letters, digits and _ . : - (first a letter or digit) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description a drift rule: an event (and webhook) when the rolling accuracy crosses it, another when it returns */
                        drift?: {
                            /** @description drift when an interval's rolling coverage is further than this from its nominal level (0.8 for "80") */
                            coverage_tolerance?: number;
                            /** @description drift when the rolling MASE is above this */
                            max_mase?: number;
                            /** @description drift when the rolling MASE is above this many times the model's own backtest MASE on the series (the mean over the window's forecasts that carry one: forecasts asked with `evaluation`, e.g. schedule.evaluation) */
                            max_mase_ratio?: number;
                            /** @description scored forecasts needed before the rule is checked; default 5 */
                            min_forecasts?: number;
                            /** @description scored forecasts in the rolling window; default 10 */
                            window?: number;
                        };
                        /** @description forecast (and store the forecast) after every `forecast_every` appended steps, as `schedule` says; needs schedule */
                        forecast_every?: number;
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description the history's dates, strictly ascending on the freq grid (gaps are stored as missing values) */
                        index: string[];
                        /** @description what a scheduled forecast asks (as POST /v1/forecast would); stored with store: true */
                        schedule?: {
                            context?: number;
                            /** @description as POST /v1/forecast's: each scheduled forecast also backtests the model on the series, and keeps its MASE and WQL (the baseline of a drift rule's max_mase_ratio) */
                            evaluation?: {
                                holdout?: number;
                                season_length?: number;
                            };
                            /** @description steps each scheduled forecast predicts */
                            horizon: number;
                            model?: string;
                            model_size?: string;
                            quantiles?: number[];
                        };
                        /** @description one value per index date; null = missing; at least one number */
                        target: (number | null)[];
                        webhook?: {
                            /** @description signs each delivery: X-Horizon-Signature: sha256=<hex HMAC-SHA256 of "<X-Horizon-Timestamp>.<body>"> */
                            secret: string;
                            /** @description receives each event as a POST (JSON) */
                            url: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Replaced */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            created_at: string;
                            drift: {
                                /** @description drift when an interval's rolling coverage is further than this from its nominal level (0.8 for "80") */
                                coverage_tolerance?: number;
                                /** @description drift when the rolling MASE is above this */
                                max_mase?: number;
                                /** @description drift when the rolling MASE is above this many times the model's own backtest MASE on the series (the mean over the window's forecasts that carry one: forecasts asked with `evaluation`, e.g. schedule.evaluation) */
                                max_mase_ratio?: number;
                                /** @description scored forecasts needed before the rule is checked; default 5 */
                                min_forecasts?: number;
                                /** @description scored forecasts in the rolling window; default 10 */
                                window?: number;
                            } | null;
                            /** @description GET only: whether the last drift event raised drift (and none cleared it since) */
                            drifting?: boolean;
                            /** @description GET only: the latest events (drift), newest first */
                            events?: {
                                created_at: string;
                                detail: unknown;
                                id: string;
                                kind: string;
                            }[];
                            first_date: string;
                            forecast_every: number | null;
                            /** @description GET only: the latest stored forecasts, newest first, with their actuals and scores */
                            forecasts?: {
                                /** @description the observed values at those dates, once all are stored (null before) */
                                actuals: (number | null)[] | null;
                                horizon: number;
                                id: string;
                                /** @description the forecast dates */
                                index: string[];
                                issued_at: string;
                                model: string;
                                model_size: string;
                                prediction: {
                                    [key: string]: number[];
                                };
                                scored_at: string | null;
                                scores: ({
                                    coverage: {
                                        [key: string]: number;
                                    };
                                    mase: number | null;
                                    observed: number;
                                    smape: number | null;
                                    wql: number | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                            }[];
                            freq: string;
                            /** @description GET only: the last `tail` dates of the history */
                            index?: string[];
                            last_date: string;
                            /** @description grid steps stored (gaps included) */
                            points: number;
                            schedule: {
                                context?: number;
                                /** @description as POST /v1/forecast's: each scheduled forecast also backtests the model on the series, and keeps its MASE and WQL (the baseline of a drift rule's max_mase_ratio) */
                                evaluation?: {
                                    holdout?: number;
                                    season_length?: number;
                                };
                                /** @description steps each scheduled forecast predicts */
                                horizon: number;
                                model?: string;
                                model_size?: string;
                                quantiles?: number[];
                            } | null;
                            series_id: string;
                            target?: (number | null)[];
                            updated_at: string;
                            /** @description the webhook URL (the secret is never shown) */
                            webhook: {
                                url: string;
                            } | null;
                            /** @description GET only: the webhook delivery log, newest first */
                            webhook_deliveries?: {
                                attempts: number;
                                created_at: string;
                                delivered_at: string | null;
                                event_id: string;
                                id: string;
                                last_error: string | null;
                                last_status: number | null;
                                next_attempt_at: string;
                                /** @description pending, delivered or failed */
                                status: string;
                            }[];
                        };
                    };
                };
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "series_id": "example",
                         *       "freq": "MS",
                         *       "points": 12,
                         *       "first_date": "1949-01-01",
                         *       "last_date": "1949-12-01",
                         *       "created_at": "2026-01-05T09:30:00.000Z",
                         *       "updated_at": "2026-01-05T09:30:00.000Z",
                         *       "forecast_every": null,
                         *       "schedule": null,
                         *       "drift": null,
                         *       "webhook": null
                         *     }
                         */
                        "application/json": {
                            created_at: string;
                            drift: {
                                /** @description drift when an interval's rolling coverage is further than this from its nominal level (0.8 for "80") */
                                coverage_tolerance?: number;
                                /** @description drift when the rolling MASE is above this */
                                max_mase?: number;
                                /** @description drift when the rolling MASE is above this many times the model's own backtest MASE on the series (the mean over the window's forecasts that carry one: forecasts asked with `evaluation`, e.g. schedule.evaluation) */
                                max_mase_ratio?: number;
                                /** @description scored forecasts needed before the rule is checked; default 5 */
                                min_forecasts?: number;
                                /** @description scored forecasts in the rolling window; default 10 */
                                window?: number;
                            } | null;
                            /** @description GET only: whether the last drift event raised drift (and none cleared it since) */
                            drifting?: boolean;
                            /** @description GET only: the latest events (drift), newest first */
                            events?: {
                                created_at: string;
                                detail: unknown;
                                id: string;
                                kind: string;
                            }[];
                            first_date: string;
                            forecast_every: number | null;
                            /** @description GET only: the latest stored forecasts, newest first, with their actuals and scores */
                            forecasts?: {
                                /** @description the observed values at those dates, once all are stored (null before) */
                                actuals: (number | null)[] | null;
                                horizon: number;
                                id: string;
                                /** @description the forecast dates */
                                index: string[];
                                issued_at: string;
                                model: string;
                                model_size: string;
                                prediction: {
                                    [key: string]: number[];
                                };
                                scored_at: string | null;
                                scores: ({
                                    coverage: {
                                        [key: string]: number;
                                    };
                                    mase: number | null;
                                    observed: number;
                                    smape: number | null;
                                    wql: number | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                            }[];
                            freq: string;
                            /** @description GET only: the last `tail` dates of the history */
                            index?: string[];
                            last_date: string;
                            /** @description grid steps stored (gaps included) */
                            points: number;
                            schedule: {
                                context?: number;
                                /** @description as POST /v1/forecast's: each scheduled forecast also backtests the model on the series, and keeps its MASE and WQL (the baseline of a drift rule's max_mase_ratio) */
                                evaluation?: {
                                    holdout?: number;
                                    season_length?: number;
                                };
                                /** @description steps each scheduled forecast predicts */
                                horizon: number;
                                model?: string;
                                model_size?: string;
                                quantiles?: number[];
                            } | null;
                            series_id: string;
                            target?: (number | null)[];
                            updated_at: string;
                            /** @description the webhook URL (the secret is never shown) */
                            webhook: {
                                url: string;
                            } | null;
                            /** @description GET only: the webhook delivery log, newest first */
                            webhook_deliveries?: {
                                attempts: number;
                                created_at: string;
                                delivered_at: string | null;
                                event_id: string;
                                id: string;
                                last_error: string | null;
                                last_status: number | null;
                                next_attempt_at: string;
                                /** @description pending, delivered or failed */
                                status: string;
                            }[];
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a stored series */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the series id: 1-128 of letters, digits and _ . : - (first a letter or digit) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted, with its forecasts and events */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                            series_id: string;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/series/{id}/accuracy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rolling accuracy of a stored series */
        get: {
            parameters: {
                query?: {
                    /** @description the latest scored forecasts aggregated, 1-10000; default 100 */
                    window?: string;
                };
                header?: never;
                path: {
                    /** @description the series id: 1-128 of letters, digits and _ . : - (first a letter or digit) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Rolling accuracy */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the same per model */
                            models: ({
                                model: string;
                            } & {
                                /** @description the same per horizon step (1 = the first forecast step) */
                                by_step: {
                                    coverage: {
                                        [key: string]: number;
                                    };
                                    forecasts: number;
                                    mase: number | null;
                                    step: number;
                                    wql: number | null;
                                }[];
                                /** @description per central interval ("80": quantiles 0.1 and 0.9), the fraction of observed actuals inside it */
                                coverage: {
                                    [key: string]: number;
                                };
                                /** @description scored forecasts in the window */
                                forecasts: number;
                                mase: number | null;
                                smape: number | null;
                                wql: number | null;
                            })[];
                            overall: {
                                /** @description the same per horizon step (1 = the first forecast step) */
                                by_step: {
                                    coverage: {
                                        [key: string]: number;
                                    };
                                    forecasts: number;
                                    mase: number | null;
                                    step: number;
                                    wql: number | null;
                                }[];
                                /** @description per central interval ("80": quantiles 0.1 and 0.9), the fraction of observed actuals inside it */
                                coverage: {
                                    [key: string]: number;
                                };
                                /** @description scored forecasts in the window */
                                forecasts: number;
                                mase: number | null;
                                smape: number | null;
                                wql: number | null;
                            };
                            series_id: string;
                            window: number;
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/series/{id}/observations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append observations to a stored series */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the series id: 1-128 of letters, digits and _ . : - (first a letter or digit) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description dates strictly ascending; a date already stored must repeat its stored value (a retried append is a no-op); later dates are appended */
                        index: string[];
                        /** @description one value per date; null = missing */
                        target: (number | null)[];
                    };
                };
            };
            responses: {
                /** @description Appended (or already stored: a retry changes nothing) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "series_id": "example",
                         *       "appended": 1,
                         *       "unchanged": 0,
                         *       "points": 13,
                         *       "last_date": "1950-01-01"
                         *     }
                         */
                        "application/json": {
                            /** @description dates added */
                            appended: number;
                            last_date: string;
                            /** @description grid steps stored now (gaps included) */
                            points: number;
                            /** @description present when this append made the series due for its scheduled forecast (forecast_every) */
                            scheduled_forecast?: {
                                /** @description why not, when status is not 200 (e.g. quota exceeded) */
                                detail?: string;
                                forecasts: number;
                                /** @description the status POST /v1/forecast answered (200: forecast and stored) */
                                status: number;
                            };
                            series_id: string;
                            /** @description dates already stored with these values (a retry): nothing changed for them */
                            unchanged: number;
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/series/observations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append observations to many stored series */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description one append per stored series (each id once), all applied in one transaction: all or nothing */
                        series: {
                            /** @description dates strictly ascending; a date already stored must repeat its stored value (a retried append is a no-op); later dates are appended */
                            index: string[];
                            series_id: string;
                            /** @description one value per date; null = missing */
                            target: (number | null)[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description Appended (all of them) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "series": [
                         *         {
                         *           "series_id": "example",
                         *           "appended": 1,
                         *           "unchanged": 1,
                         *           "points": 14,
                         *           "last_date": "1950-02-01"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            /** @description series[i]: what the append of series[i] did */
                            series: {
                                /** @description dates added */
                                appended: number;
                                last_date: string;
                                /** @description grid steps stored now (gaps included) */
                                points: number;
                                /** @description present when this append made the series due for its scheduled forecast (forecast_every) */
                                scheduled_forecast?: {
                                    /** @description why not, when status is not 200 (e.g. quota exceeded) */
                                    detail?: string;
                                    forecasts: number;
                                    /** @description the status POST /v1/forecast answered (200: forecast and stored) */
                                    status: number;
                                };
                                series_id: string;
                                /** @description dates already stored with these values (a retry): nothing changed for them */
                                unchanged: number;
                            }[];
                        };
                    };
                };
                /** @description The body is not valid JSON (NaN and Infinity are not JSON) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such resource for this account */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Conflicts with the current state (see `code`) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be (use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not sent as Content-Type: application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service health (no auth) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Service health; `degraded` when a worker is down */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "status": "ok",
                         *       "version": "0.1.0",
                         *       "store": "pglite",
                         *       "workers": [
                         *         {
                         *           "group": "core",
                         *           "state": "ready",
                         *           "restarts": 0
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            status: "ok" | "degraded";
                            store: string;
                            version: string;
                            workers: {
                                group: string;
                                restarts: number;
                                state: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/timeseries/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** KServe time-series protocol: forecast (POST /v1/forecast) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        inputs: ({
                            /** @description KServe's Frequency: second/S and minute/T are a 422 (Horizon forecasts hourly and longer grids); month/M is Horizon's MS grid on the start_timestamp's day of the month */
                            frequency: "second" | "S" | "minute" | "T" | "hour" | "H" | "day" | "D" | "week" | "W" | "month" | "M" | "quarter" | "Q" | "year" | "Y";
                            /** @description the series' name, echoed in its forecast */
                            name: string;
                            series: number[] | number[][];
                            /** @description ISO 8601 time of the first value; absent: the series is dated from 2000-01-01T00:00:00Z on its frequency's grid (the answer's start_timestamp is then on that synthetic calendar) */
                            start_timestamp?: string | null;
                            type: "univariate_time_series" | "multivariate_time_series";
                        } & {
                            [key: string]: unknown;
                        })[];
                        metadata?: {
                            [key: string]: unknown;
                        } | null;
                        /** @description a Horizon model id (GET /v1/timeseries/models) or "auto" */
                        model: string;
                        options: {
                            /** @description steps to forecast */
                            horizon: number;
                            quantiles?: number[] | null;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description KServe's ForecastResponse: one output per input, in the order sent */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "834a55dc-eebc-4cc3-aab1-c50b9124d5a3",
                         *       "created_at": 1795871924,
                         *       "status": "completed",
                         *       "error": null,
                         *       "model": "auto-ets",
                         *       "outputs": [
                         *         {
                         *           "type": "time_series_forecast",
                         *           "id": "834a55dc-eebc-4cc3-aab1-c50b9124d5a3-0",
                         *           "status": "completed",
                         *           "error": null,
                         *           "content": [
                         *             {
                         *               "type": "univariate_time_series",
                         *               "name": "airline",
                         *               "mean_forecast": [
                         *                 126,
                         *                 126,
                         *                 126
                         *               ],
                         *               "frequency": "D",
                         *               "start_timestamp": "2026-01-15T00:00:00Z",
                         *               "quantiles": {
                         *                 "0.1": [
                         *                   109.52,
                         *                   102.69,
                         *                   97.45
                         *                 ],
                         *                 "0.9": [
                         *                   142.48,
                         *                   149.31,
                         *                   154.54
                         *                 ]
                         *               }
                         *             }
                         *           ]
                         *         },
                         *         {
                         *           "type": "time_series_forecast",
                         *           "id": "834a55dc-eebc-4cc3-aab1-c50b9124d5a3-1",
                         *           "status": "completed",
                         *           "error": null,
                         *           "content": [
                         *             {
                         *               "type": "multivariate_time_series",
                         *               "name": "store",
                         *               "mean_forecast": [
                         *                 [
                         *                   14,
                         *                   5
                         *                 ],
                         *                 [
                         *                   14,
                         *                   5
                         *                 ],
                         *                 [
                         *                   14,
                         *                   5
                         *                 ]
                         *               ],
                         *               "frequency": "D",
                         *               "start_timestamp": "2026-01-07T00:00:00Z",
                         *               "quantiles": {
                         *                 "0.1": [
                         *                   [
                         *                     11.86,
                         *                     3.38
                         *                   ],
                         *                   [
                         *                     10.97,
                         *                     2.71
                         *                   ],
                         *                   [
                         *                     10.29,
                         *                     2.19
                         *                   ]
                         *                 ],
                         *                 "0.9": [
                         *                   [
                         *                     16.14,
                         *                     6.62
                         *                   ],
                         *                   [
                         *                     17.03,
                         *                     7.29
                         *                   ],
                         *                   [
                         *                     17.71,
                         *                     7.81
                         *                   ]
                         *                 ]
                         *               }
                         *             }
                         *           ]
                         *         }
                         *       ],
                         *       "usage": {
                         *         "prompt_tokens": 26,
                         *         "completion_tokens": 9,
                         *         "total_tokens": 35
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @description Unix seconds */
                            created_at: number;
                            error?: {
                                /** @description the HTTP status, as a string (KServe's create_error_response) */
                                code: string | null;
                                message: string;
                                /** @description the first field at fault, in KServe's terms (inputs[0].series, options.horizon …) */
                                param: string | null;
                                /** @description Horizon's error code (validation_failed, unauthorized, rate_limited …) */
                                type: string;
                            } | null;
                            /** @description the request id (X-Request-Id) */
                            id: string;
                            model: string;
                            outputs: {
                                content: {
                                    /** @description KServe's Frequency: second/S and minute/T are a 422 (Horizon forecasts hourly and longer grids); month/M is Horizon's MS grid on the start_timestamp's day of the month */
                                    frequency: "second" | "S" | "minute" | "T" | "hour" | "H" | "day" | "D" | "week" | "W" | "month" | "M" | "quarter" | "Q" | "year" | "Y";
                                    mean_forecast: number[] | number[][];
                                    name: string;
                                    quantiles?: {
                                        [key: string]: number[] | number[][];
                                    } | null;
                                    /** @description the first forecast step, YYYY-MM-DDTHH:MM:SSZ */
                                    start_timestamp: string;
                                    type: "univariate_time_series" | "multivariate_time_series";
                                }[];
                                error?: {
                                    /** @description the HTTP status, as a string (KServe's create_error_response) */
                                    code: string | null;
                                    message: string;
                                    /** @description the first field at fault, in KServe's terms (inputs[0].series, options.horizon …) */
                                    param: string | null;
                                    /** @description Horizon's error code (validation_failed, unauthorized, rate_limited …) */
                                    type: string;
                                } | null;
                                id: string;
                                status: string;
                                /** @description "time_series_forecast" */
                                type: string;
                            }[];
                            status: "completed" | "error" | "pending" | "partial";
                            usage?: {
                                /** @description mean values forecast */
                                completion_tokens: number;
                                /** @description observed values sent */
                                prompt_tokens: number;
                                total_tokens: number;
                            } | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Missing or invalid API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description The key may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Too large for a synchronous forecast */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Not application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Invalid request: error.param and errors[] name each input and field */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Rate limit or quota exceeded */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description A model worker failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Model not ready */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Model timed out */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/timeseries/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** KServe time-series protocol: the models */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the served model ids (GET /v1/models has their details) and "auto" */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       "naive",
                         *       "seasonal-naive",
                         *       "auto-ets",
                         *       "auto-arima",
                         *       "chronos-2",
                         *       "auto"
                         *     ]
                         */
                        "application/json": string[];
                    };
                };
                /** @description Missing or invalid API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Rate limit or quota exceeded */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KServeError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/warmup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Load a model ahead of use */
        get: {
            parameters: {
                query?: {
                    model?: string;
                    model_size?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The model is loaded */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "model": "naive",
                         *       "model_size": "default",
                         *       "status": "warm",
                         *       "load_ms": 0.4,
                         *       "device": "cpu"
                         *     }
                         */
                        "application/json": {
                            device: string;
                            load_ms: number;
                            model: string;
                            model_size: string;
                            /** @enum {string} */
                            status: "warm";
                        };
                    };
                };
                /** @description Its weights are being pulled (HORIZON_AUTO_PULL=1); ask again */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description bytes of the weights downloaded so far */
                            bytes_done: number;
                            /** @description null until the repository is resolved */
                            bytes_total: number | null;
                            files_done: number;
                            files_total: number | null;
                            model: string;
                            model_size: string;
                            /** Format: date-time */
                            started_at: string;
                            /** @enum {string} */
                            status: "pulling";
                        };
                    };
                };
                /** @description Missing or invalid API key (WWW-Authenticate says which) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The model's licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Invalid input: `errors[]` names each field (and series) with the reason */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference failed, or an unexpected error; `detail` describes it */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Pulling the model weights failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Model or worker not available right now (weights missing, being pulled, worker restarting), or the database cannot be reached (store_unavailable); Retry-After says when to retry */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Inference timed out (HORIZON_INFERENCE_TIMEOUT_MS); `detail` names the job API, which runs large requests in chunks that each fit one call */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ForecastRequest: {
            /** @description model "auto" only: the models it cross-validates; default: the operator's HORIZON_AUTO_CANDIDATES (`pool`: the statistical pool sized by the request's cost, HORIZON_POOL_BUDGET_MS), else the served foundation models then auto-ets, auto-theta, seasonal-naive (and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W), at most 4; `auto.pool` names where they came from */
            auto_candidates?: (string | {
                model: string;
                model_size?: string;
            })[];
            /** @description model "auto" only: the cross-validation score that picks (default mase, ties by MASE) */
            auto_metric?: "wql" | "mase" | "smape";
            /** @description model "auto" only: `request` (default) one model for every series, the best score pooled over the request; `series` a model per series: its own cross-validation winner when that beats the request's winner on it by 20 % (else the request's winner) */
            auto_scope?: "series" | "request";
            /** @description use at most the last `context` observations (capped at max_context) */
            context?: number;
            /** @description asks for a backtest: `metrics` then holds MASE, WQL (over the requested quantiles) and sMAPE per series and in aggregate */
            evaluation?: {
                /** @description steps held out at the end of each series; default: horizon */
                holdout?: number;
                /** @description MASE seasonality m; default from freq (H 24, D 7, W 52, MS 12, Q 4, Y 1), 1 when the history is too short */
                season_length?: number;
            };
            /** @description POST /v1/forecast only: also each covariate's contribution to the mean forecast, per step (`series[i][0].contributions`: SHAP values, base + Σ features = mean; the base is the forecast without covariates). For one model that uses covariates; 2^M forecasts per series of M covariates (at most 10), at most 4,096 per call (413 use_job_api above; docs/api.md#explanations) */
            explain?: boolean;
            /** @description with finetune_steps: the learning rate (default 1e-5; lora 1e-4) */
            finetune_learning_rate?: number;
            /** @description with finetune_steps: `full` (default) trains every weight, `lora` a low-rank adapter (peft), as a fine-tuning job's `mode` */
            finetune_mode?: "full" | "lora";
            /** @description POST /v1/forecast only: fine-tune the model (chronos-2) on this request's own series for this many steps first, forecast with the result and keep nothing (0: none; at most HORIZON_FINETUNE_INLINE_MAX_STEPS; quota: one more unit per started 100 steps; docs/fine-tuning.md). A model to keep: POST /v1/fine-tuning-jobs */
            finetune_steps?: number;
            freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
            /** @description forecast a hierarchy: the series are its bottom, every aggregate (their sums) is forecast with the same model, and the forecasts are reconciled so that every parent is the sum of its children (`series[i]` is then input series i's reconciled forecast; the answer's `hierarchy` holds every node's base and reconciled forecast). The series must end on the same date; no covariates */
            hierarchy?: {
                /** @description instead of labels and levels: node name → the indices of the series it sums (e.g. {"north": [0, 1], "south": [2]}); a "total" over every series is added unless one is given */
                aggregates?: {
                    [key: string]: number[];
                };
                /** @description one object per series (same order as series / series_ids): label name → value, e.g. {"region": "north", "store": "n1"} */
                labels?: {
                    [key: string]: string;
                }[];
                /** @description the aggregation levels from the top down, each a list of label names extending the one above (nested); a "total" node over every series is added on top; the last level must place each series in a node of its own */
                levels?: string[][];
                /** @description with aggregates: the bottom nodes' ids, one per series (default "series[i]") */
                names?: string[];
                /** @description instead of labels or aggregates, POST /v1/forecast and /v1/forecast-jobs: coarser periods each series is summed to and reconciled with (freq H: D, W; D: W; MS: Q, Y; Q: Y), counted back from its last step; the horizon must cover whole periods of each */
                temporal?: ("D" | "W" | "Q" | "Y")[];
            };
            /** @description steps to predict; at most the model's max_horizon */
            horizon: number;
            /** @description model id (GET /v1/models); default: the deployment default_model */
            model?: string;
            /** @description a size of the model; default: its default_size */
            model_size?: string;
            /** @description true: forecast the request's series jointly, as one group, with the model's own multivariate mode (chronos-2: cross-learning group attention; toto-2: the series as variates of one item; timesfm-3: the series as target variates, at most 32, without covariates; tirex-2: the series as the target variates of one item, at most 64, without covariates); each series' forecast then depends on the others. Other models: 422 naming these (docs/api.md#joint-forecasts-and-sample-paths) */
            multivariate?: boolean;
            /** @description model "prism" only: the models it combines instead of the deployment's (HORIZON_PRISM_MEMBERS, else the served foundation models, else the statistical pool sized by the request's cost: HORIZON_POOL_BUDGET_MS; the answer's `prism` names them); any model id this account may forecast with (catalog ids, its own private models by id or name), each checked as `model` would be; not prism or auto */
            prism_members?: (string | {
                model: string;
                model_size?: string;
            })[];
            /** @description levels to return, each once; default [0.1, 0.5, 0.9] */
            quantiles?: number[];
            /** @description with hierarchy: the reconciliation (hierarchicalforecast's BottomUp, TopDown, MiddleOut, MinTrace, ERM); default wls_var. wls_var, mint_shrink, mint_cov and erm weigh by the model's in-sample residuals: with a model that has none (foundation models, prism, auto) or a singular covariance, wls_struct is used instead, with a warning */
            reconcile?: "bottom_up" | "top_down_forecast_proportions" | "top_down_average_proportions" | "top_down_proportion_averages" | "middle_out" | "ols" | "wls_struct" | "wls_var" | "mint_shrink" | "mint_cov" | "erm";
            /** @description with hierarchy: how the quantiles are reconciled (hierarchicalforecast's Normality, Bootstrap, PERMBU); default normality; bootstrap and permbu resample in-sample residuals (normality without them, with a warning) */
            reconcile_intervals?: "normality" | "bootstrap" | "permbu";
            /** @description with reconcile middle_out: the level it starts from (a level's label names joined with "/") */
            reconcile_level?: string;
            /** @description sample paths per series, drawn with the model's own sampling (`series[i][0].samples`: samples arrays of horizon values): chronos (Chronos-T5's token sampling) and the statistical models whose statsforecast class has simulate (naive, seasonal-naive, auto-ets, damped-ets, auto-arima, auto-theta, ces); others: 422 naming these. At most 2,000,000 values per request (series × samples × horizon) */
            samples?: number;
            /** @description with samples: mixed into each series' sampling seed (which is derived from its values: the same request always draws the same paths) */
            seed?: number;
            /** @description the series to forecast; required unless series_ids names stored series instead */
            series?: components["schemas"]["InputSeries"][];
            /** @description instead of series: ids of the account's stored series (PUT /v1/series/{id}), forecast from their whole stored history; the answer is the same as for the same series inline. freq may then be left out (it is theirs); an unknown id is 404 */
            series_ids?: string[];
            /** @description with series_ids: keep each series' forecast (issue time, model, request) and score it once the appended actuals cover it (GET /v1/series/{id}/accuracy) */
            store?: boolean;
        };
        ForecastResponse: {
            /** @description model "auto" only: which candidate forecast each series, and why */
            auto?: {
                /** @description the models cross-validated */
                candidates: {
                    model: string;
                    model_size: string;
                }[];
                /** @description the candidates ranked by their score pooled over every series (as POST /v1/cross-validation ranks them); empty when no window fits any series */
                leaderboard: {
                    model: string;
                    model_size: string;
                    rank: number;
                    score: number | null;
                }[];
                /** @description the cross-validation score that picked (wql, mase or smape; ties by MASE) */
                metric: string;
                /** @description rolling origins cross-validated per series (fewer for a series too short for them) */
                n_windows: number;
                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                pool?: {
                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                    budget_ms?: number;
                    /** @description `cost` only: the served statistical models over the budget on this request */
                    left_out?: {
                        /** @description its estimated ms per series on this request */
                        estimate_ms: number;
                        model: string;
                    }[];
                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                    source: "request" | "operator" | "foundation" | "cost" | "default";
                };
                scope: "series" | "request";
                /** @description series[i]: what forecast input series i */
                series: {
                    /** @description the model that forecast this series */
                    model: string;
                    model_size: string;
                    /** @description `series`: its own cross-validation winner (scope series: when its score beats the request winner's on this series by the switch margin, or is that winner); `request`: the request's winner (the leaderboard's first); `fallback`: no window fits this series, it got the request's winner (or the first candidate when no series has a window), with a warning */
                    picked_by: "series" | "request" | "fallback";
                    /** @description that model's cross-validation score on this series (the metric); null for a fallback */
                    score: number | null;
                    /** @description windows of this series scored */
                    windows: number;
                }[];
                /** @description steps between origins (= horizon) */
                step: number;
            };
            /** @description with `hierarchy` only: every node's base and reconciled forecast (series[i] is input series i's reconciled one) */
            hierarchy?: {
                /** @description the probabilistic reconciliation used (normality, bootstrap, permbu) */
                intervals: string;
                /** @description the reconciliation used: the requested `reconcile`, or wls_struct where it needed in-sample residuals the model has not (see warnings) */
                method: string;
                /** @description every node top-down: the aggregates (total first), then one per input series in its order */
                nodes: {
                    /** @description the model's own forecast of the node: "mean" plus one array per requested quantile level, as a series' prediction */
                    base: {
                        [key: string]: number[];
                    };
                    /** @description "total", then the label values of the node's level joined with "/" ("north", "north/n1"); in the explicit form the aggregate's name, and a bottom node's `names[i]` or "series[i]" */
                    id: string;
                    /** @description forecast dates */
                    index: string[];
                    /** @description "total", the level's label names joined with "/" ("region/store"); explicit form: "aggregates/<depth>", "series" */
                    level: string;
                    /** @description the id of the node it is part of; null at the top */
                    parent: string | null;
                    /** @description the coherent forecast: a parent's mean is the sum of its children's: "mean" plus one array per requested quantile level, as a series' prediction */
                    reconciled: {
                        [key: string]: number[];
                    };
                    /** @description the input series it sums (a bottom node: its own) */
                    series: number[];
                }[];
                /** @description fallbacks and their reasons */
                warnings: string[];
            };
            /** @description null unless the request has `evaluation` */
            metrics: {
                /** @description mean MASE and sMAPE over series; WQL weighted over all series */
                aggregate: {
                    mase: number | null;
                    smape: number;
                    wql: number | null;
                };
                holdout: number;
                quantiles: number[];
                season_length: number;
                /** @description series[i] scores input series i */
                series: {
                    mase: number | null;
                    smape: number;
                    wql: number | null;
                }[];
            } | null;
            /** @description the model id; "auto" for model "auto" (then `auto.series[i].model` is the model of series i) */
            model: string;
            model_size: string;
            /** @description model "prism" only: the members it blended for this request */
            prism?: {
                /** @description the models blended */
                members: {
                    model: string;
                    model_size: string;
                }[];
                /** @description where the models of prism or auto came from, and (sized by cost) what was left out */
                pool: {
                    /** @description `cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series */
                    budget_ms?: number;
                    /** @description `cost` only: the served statistical models over the budget on this request */
                    left_out?: {
                        /** @description its estimated ms per series on this request */
                        estimate_ms: number;
                        model: string;
                    }[];
                    /** @description `request`: the models the request named; `operator`: the deployment's configured list; `foundation`: the served foundation models; `cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and seasonal-naive always; prism's default, auto's with HORIZON_AUTO_CANDIDATES=pool); `default`: auto's default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W) */
                    source: "request" | "operator" | "foundation" | "cost" | "default";
                };
            };
            /** @description series[i] holds the prediction of input series i (with a `hierarchy`: its reconciled forecast) */
            series: {
                /** @description with `explain: true`: each covariate's contribution to the mean forecast (SHAP values over every coalition of the series' covariates) */
                contributions?: {
                    /** @description per step: the mean forecast without any covariate */
                    base: number[];
                    /** @description per covariate (its name as sent), per step: its Shapley value; base + Σ features = mean */
                    features: {
                        [key: string]: number[];
                    };
                };
                /** @description forecast dates */
                index: string[];
                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                prediction: {
                    [key: string]: number[];
                };
                /** @description with `samples: N`: N sample paths of horizon values each, drawn with the model's own sampling */
                samples?: number[][];
            }[][];
            /** @enum {string} */
            status: "completed";
            warnings: {
                field: string;
                message: string;
                series?: number;
            }[];
        };
        InputSeries: {
            /** @description known-future covariates, one value per future_variables_index date; each also a hist variable */
            future_variables?: {
                [key: string]: number[];
            };
            /** @description dates continuing the grid right after the last index date, covering at least horizon steps */
            future_variables_index?: string[];
            /** @description past covariates, one value per index date */
            hist_variables?: {
                [key: string]: (number | null)[];
            };
            /** @description the dates of `target` (same length), strictly ascending on the `freq` grid (D +1 day, W +7 days, H +1 hour, MS/Q/Y +1/3/12 months keeping one day-of-month position); a missing step is filled with null and reported in `warnings` */
            index: string[];
            /** @description one value per static variable */
            static_variables?: {
                [key: string]: number;
            };
            /** @description observed values, one per index date, ascending time; null = missing; at least one number; each within ±1e100 */
            target: (number | null)[];
        };
        KServeError: {
            created_at: number;
            error: {
                /** @description the HTTP status, as a string (KServe's create_error_response) */
                code: string | null;
                message: string;
                /** @description the first field at fault, in KServe's terms (inputs[0].series, options.horizon …) */
                param: string | null;
                /** @description Horizon's error code (validation_failed, unauthorized, rate_limited …) */
                type: string;
            };
            /** @description 422: every field at fault */
            errors?: {
                field: string;
                reason: string;
            }[];
            id: string;
            model: string;
            outputs: unknown[];
            /** @description the X-Request-Id */
            request_id: string;
            /** @enum {string} */
            status: "error";
        } & {
            [key: string]: unknown;
        };
        /** @description application/problem+json */
        Problem: {
            code: string;
            detail: string;
            errors?: {
                field: string;
                reason: string;
                series?: number;
            }[];
            request_id: string;
            status: number;
            title: string;
            type: string;
            /** @description why a catalog model is not served by this deployment */
            unavailable_reason?: {
                code: "runtime_not_installed" | "license_not_accepted" | "weights_missing" | "members_unavailable";
                /** @description the command that fixes it: weights_missing, the pull of the default size; runtime_not_installed, the setup */
                command?: string;
                /** @description what is missing and how the operator enables the model */
                detail: string;
                /** @description runtime_not_installed: the runtime group (virtualenv) that serves the model */
                runtime_group?: string;
                /** @description license_not_accepted: the variable that accepts the licence (HORIZON_ACCEPT_LICENSES) */
                variable?: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
