// Request and response examples of the OpenAPI document, keyed by operation. They are real: the
// request examples are sent to a real server by test/openapi.test.ts (and by Schemathesis' examples
// phase) and must answer 2xx; each response example has the shape of the real answer. Only models of
// the core runtime group (installed by every setup, no weights) are used, so they work everywhere.

export interface OperationExamples {
  /** name → request body, for operations with a body */
  request?: Record<string, { summary: string; value: unknown }>;
  /** status → an example body of that success response */
  response?: Record<number, unknown>;
}

const monthly = {
  series: [{
    target: [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118],
    index: ['1949-01-01', '1949-02-01', '1949-03-01', '1949-04-01', '1949-05-01', '1949-06-01', '1949-07-01', '1949-08-01', '1949-09-01', '1949-10-01', '1949-11-01', '1949-12-01'],
  }],
  horizon: 3,
  freq: 'MS',
  model: 'naive',
};

// as pandas writes an hourly Europe/Paris index (str(pd.Timestamp)): a space and a UTC offset
const hourlyPandas = {
  series: [{
    target: [41.2, 39.8, 38.5, null, 37.9, 40.3, 45.1, 52.6],
    index: ['2024-03-01 00:00:00+01:00', '2024-03-01 01:00:00+01:00', '2024-03-01 02:00:00+01:00', '2024-03-01 03:00:00+01:00', '2024-03-01 04:00:00+01:00', '2024-03-01 05:00:00+01:00', '2024-03-01 06:00:00+01:00', '2024-03-01 07:00:00+01:00'],
  }],
  horizon: 2,
  freq: 'H',
  model: 'naive',
  quantiles: [0.1, 0.5, 0.9],
};

const backtest = { ...monthly, model: 'auto-ets', evaluation: { holdout: 3 } };

const forecastResponse = {
  status: 'completed',
  model: 'naive',
  model_size: 'default',
  series: [[{
    prediction: { mean: [118, 118, 118], '0.1': [95.6, 86.3, 79.2], '0.5': [118, 118, 118], '0.9': [140.4, 149.7, 156.8] },
    index: ['1950-01-01', '1950-02-01', '1950-03-01'],
  }]],
  metrics: null,
  warnings: [],
};

const job = { job_id: '0b5e8f5e-4c1a-4f7e-9a51-2f4c3b1d9e77', status: 'completed', model: 'naive', created_at: '2026-01-05T09:30:00.000Z', started_at: '2026-01-05T09:30:00.120Z', finished_at: '2026-01-05T09:30:00.310Z', attempts: 1 };
const apiKey = { id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', name: 'ci-pipeline', prefix: 'hzn_Ab3dE', created_at: '2026-01-05T09:30:00.000Z', revoked_at: null };

/** Keyed `METHOD /path` as in the document (`{id}` for parameters). */
export const OPENAPI_EXAMPLES: Record<string, OperationExamples> = {
  'POST /v1/forecast': {
    request: {
      monthly: { summary: 'Monthly series, naive model', value: monthly },
      hourly_pandas: { summary: 'Hourly, timestamps as pandas writes them (space, UTC offset), a missing value', value: hourlyPandas },
      backtest: { summary: 'Forecast plus a backtest over the last 3 months (metrics: MASE, WQL, sMAPE)', value: backtest },
    },
    response: { 200: forecastResponse },
  },
  'POST /v1/forecast-jobs': {
    request: { monthly: { summary: 'Queue the monthly forecast as a job', value: monthly } },
    response: { 202: { job_id: job.job_id, status: 'queued', model: 'naive', created_at: job.created_at } },
  },
  'GET /v1/forecast-jobs/{id}': { response: { 200: { ...job, model_size: 'default', series: forecastResponse.series, metrics: null, warnings: [] } } },
  'GET /v1/forecast-jobs': { response: { 200: { jobs: [job], next_cursor: null } } },
  'DELETE /v1/forecast-jobs/{id}': { response: { 200: { ...job, status: 'cancelled', started_at: undefined, attempts: 0 } } },
  'POST /v1/api-keys': {
    request: { ci: { summary: 'A key for a CI pipeline', value: { name: 'ci-pipeline' } } },
    response: { 201: { id: apiKey.id, name: apiKey.name, key: 'hzn_Ab3dE…(secret, shown once)', prefix: apiKey.prefix, created_at: apiKey.created_at } },
  },
  'GET /v1/api-keys': { response: { 200: { keys: [apiKey] } } },
  'DELETE /v1/api-keys/{id}': { response: { 200: { ...apiKey, revoked_at: '2026-01-06T10:00:00.000Z' } } },
  'GET /v1/status': { response: { 200: { status: 'ok', version: '0.1.0', store: 'pglite', workers: [{ group: 'core', state: 'ready', restarts: 0 }] } } },
  'GET /v1/warmup': { response: { 200: { model: 'naive', model_size: 'default', status: 'warm', load_ms: 0.4, device: 'cpu' } } },
};

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { examples?: unknown; example?: unknown }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

/** Puts the examples into a generated document (@fastify/swagger's transformObject); drops undefined. */
export function addExamples<T extends { paths?: Record<string, Record<string, OpenApiOperation>> }>(document: T): T {
  for (const [key, examples] of Object.entries(OPENAPI_EXAMPLES)) {
    const [method, path] = key.split(' ');
    const operation = document.paths?.[path]?.[method.toLowerCase()];
    if (!operation) continue; // a route this build does not register
    const media = operation.requestBody?.content?.['application/json'];
    if (media && examples.request) {
      delete media.example;
      media.examples = JSON.parse(JSON.stringify(examples.request));
    }
    for (const [status, body] of Object.entries(examples.response ?? {})) {
      const response = operation.responses?.[status]?.content?.['application/json'];
      if (response) response.example = JSON.parse(JSON.stringify(body));
    }
  }
  return document;
}
