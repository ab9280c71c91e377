// Generated from the server's /v1/openapi.json by openapi-typescript (clients/typescript/scripts/generate.ts).
// Do not edit: regenerate with `HORIZON_UPDATE_SDK_TYPES=1 node --test test/client.typescript.test.ts`.

export interface paths {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
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
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
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
                /** @description application/problem+json */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
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
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                        /** @description use at most the last `context` observations (capped at max_context) */
                        context?: number;
                        /** @description asks for a backtest: `metrics` then holds MASE, WQL (over the requested quantiles) and sMAPE per series and in aggregate */
                        evaluation?: {
                            /** @description steps held out at the end of each series; default: horizon */
                            holdout?: number;
                            /** @description MASE seasonality m; default from freq (H 24, D 7, W 52, MS 12, Q 4, Y 1), 1 when the history is too short */
                            season_length?: number;
                        };
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description steps to predict; at most the model's max_horizon */
                        horizon: number;
                        /** @description model id (GET /v1/models); default: the deployment default_model */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description levels to return; default [0.1, 0.5, 0.9] */
                        quantiles?: number[];
                        series: components["schemas"]["InputSeries"][];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                            model: string;
                            model_size: string;
                            /** @description series[i] holds the prediction of input series i */
                            series: {
                                /** @description forecast dates */
                                index: string[];
                                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                prediction: {
                                    [key: string]: number[];
                                };
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
                /** @description application/problem+json */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
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
                                series?: {
                                    /** @description forecast dates */
                                    index: string[];
                                    /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                    prediction: {
                                        [key: string]: number[];
                                    };
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
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                        /** @description use at most the last `context` observations (capped at max_context) */
                        context?: number;
                        /** @description asks for a backtest: `metrics` then holds MASE, WQL (over the requested quantiles) and sMAPE per series and in aggregate */
                        evaluation?: {
                            /** @description steps held out at the end of each series; default: horizon */
                            holdout?: number;
                            /** @description MASE seasonality m; default from freq (H 24, D 7, W 52, MS 12, Q 4, Y 1), 1 when the history is too short */
                            season_length?: number;
                        };
                        freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
                        /** @description steps to predict; at most the model's max_horizon */
                        horizon: number;
                        /** @description model id (GET /v1/models); default: the deployment default_model */
                        model?: string;
                        /** @description a size of the model; default: its default_size */
                        model_size?: string;
                        /** @description levels to return; default [0.1, 0.5, 0.9] */
                        quantiles?: number[];
                        series: components["schemas"]["InputSeries"][];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
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
                /** @description application/problem+json */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                /** @description Default Response */
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
                            series?: {
                                /** @description forecast dates */
                                index: string[];
                                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                prediction: {
                                    [key: string]: number[];
                                };
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
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                /** @description Default Response */
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
                            series?: {
                                /** @description forecast dates */
                                index: string[];
                                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                                prediction: {
                                    [key: string]: number[];
                                };
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
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            default_model: string;
                            models: {
                                /** @description false when the licence needs the operator's opt-in (HORIZON_ACCEPT_LICENSES) */
                                available: boolean;
                                covariates: {
                                    future: boolean;
                                    past: boolean;
                                    static: boolean;
                                };
                                default_size: string;
                                description: string;
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
                                size_limits: {
                                    [key: string]: {
                                        max_context: number;
                                        max_horizon: number;
                                    };
                                };
                                sizes: string[];
                                supports_covariates: boolean;
                            }[];
                        };
                    };
                };
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
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
                /** @description HORIZON_AUTO_PULL=1 and the weights are missing: their pull is under way (ask again; Retry-After says when) */
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
                /** @description application/problem+json */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
                    };
                };
                /** @description application/problem+json */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Problem"];
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
            /** @description use at most the last `context` observations (capped at max_context) */
            context?: number;
            /** @description asks for a backtest: `metrics` then holds MASE, WQL (over the requested quantiles) and sMAPE per series and in aggregate */
            evaluation?: {
                /** @description steps held out at the end of each series; default: horizon */
                holdout?: number;
                /** @description MASE seasonality m; default from freq (H 24, D 7, W 52, MS 12, Q 4, Y 1), 1 when the history is too short */
                season_length?: number;
            };
            freq: "MS" | "D" | "W" | "H" | "Q" | "Y";
            /** @description steps to predict; at most the model's max_horizon */
            horizon: number;
            /** @description model id (GET /v1/models); default: the deployment default_model */
            model?: string;
            /** @description a size of the model; default: its default_size */
            model_size?: string;
            /** @description levels to return; default [0.1, 0.5, 0.9] */
            quantiles?: number[];
            series: components["schemas"]["InputSeries"][];
        };
        ForecastResponse: {
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
            model: string;
            model_size: string;
            /** @description series[i] holds the prediction of input series i */
            series: {
                /** @description forecast dates */
                index: string[];
                /** @description "mean" plus one array per requested quantile level, keyed by the level as a string */
                prediction: {
                    [key: string]: number[];
                };
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
            /** @description dates YYYY-MM-DD (for freq H also YYYY-MM-DDTHH:MM[:SS][Z]), same length as target */
            index: string[];
            /** @description one value per static variable */
            static_variables?: {
                [key: string]: number;
            };
            /** @description observed values, one per timestep, ascending time; null = missing */
            target: (number | null)[];
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
