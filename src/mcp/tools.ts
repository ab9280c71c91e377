// The MCP tools for agents (issue 21): list_models, forecast, cross_validate, detect_anomalies, embed_series and
// job_status, a thin layer over the HTTP API. Each tool turns its arguments into /v1 requests and the
// answers into compact JSON (structuredContent, and the same JSON as text) after a one-line summary.
// It never forecasts, validates or charges by itself: it is given `callApi`, which sends a request
// with the caller's API key — fetch to HORIZON_URL for `horizon mcp` (src/cli/mcp.ts), app.inject for
// POST /mcp (src/http/routes/mcp.ts) — so authentication, quotas and the 422 reasons are the API's own.
// A refused request (any non-2xx, or arguments that cannot become a request) is a tool result with
// isError: true naming the fields, never an exception that would end the agent's session.
// Layer: above forecasting (calendar.ts places `start` dates as the API would) and below http and cli,
// which give it the caller; it imports neither.
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema, ErrorCode, InitializeRequestSchema, isJSONRPCRequest, ListToolsRequestSchema, PingRequestSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { dateAtStep, parseIndex } from '../forecasting/calendar.ts';
import { suggestFreq } from '../forecasting/did-you-mean.ts';
import { FREQS, type Freq } from '../runtime/catalog.ts';
import { apiIndex, CsvError, inferFreq, parseCsv } from '../../web/data.js';

// web/data.js (the CSV reading of the playground and `horizon forecast`) uses the Papa Parse global
(globalThis as { Papa?: unknown }).Papa ??= createRequire(import.meta.url)('papaparse');

/** One HTTP answer of the API: status and parsed JSON body (undefined when the body is not JSON). */
export interface ApiAnswer { status: number; body: unknown }
/** Sends one request to the API with the caller's key; rejects only when no answer came back. */
export type CallApi = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ApiAnswer>;

interface FieldError { series?: number; field: string; reason: string }
/** A refused tool call: the API's problem (status, code, detail, errors), or the tool's own 422-like check. */
class ToolError extends Error {
  readonly problem: { status?: number; code: string; detail: string; errors: FieldError[] };
  constructor(problem: ToolError['problem']) { super(problem.detail); this.problem = problem; }
}
const invalid = (field: string, reason: string, series?: number) => new ToolError({
  code: 'validation_failed', detail: 'the arguments cannot be sent to the API (checked by the tool)',
  errors: [{ ...(series === undefined ? {} : { series }), field, reason }],
});

// ---- input schemas: types only; ranges, enums and cross-field rules are the API's (its 422 names the field)

const FREQ = z.string().describe('MS (month start), D, W, H (hourly), Q or Y; with csv it is inferred from the dates when left out');
const Series = z.strictObject({
  target: z.array(z.number().nullable()).describe('the observed values, oldest first; null = missing'),
  index: z.array(z.string()).optional().describe('one date per target value: YYYY-MM-DD, or YYYY-MM-DDTHH:MM for freq H'),
  start: z.string().optional().describe('instead of index: the first date; the following ones step by freq'),
  name: z.string().optional().describe('a label, echoed in the answer'),
});
const DATA = {
  series: z.array(Series).optional().describe('one or a few series; or give csv instead'),
  csv: z.string().optional().describe('instead of series: CSV text with a header row, the dates in the first column and one column per series (an empty cell ' +
    'is missing), as `horizon forecast` reads it'),
  freq: FREQ.optional(),
};
const MODEL = {
  model: z.string().optional().describe('a model id from list_models; default: the deployment\'s default model'),
  model_size: z.string().optional().describe('a size of the model; default: its default size'),
};
const QUANTILES = z.array(z.number()).optional().describe('quantile levels in (0, 1); default [0.1, 0.5, 0.9]');
const AS_JOB = z.boolean().optional().describe('true: queue it as a job and answer its job_id at once (for long runs); poll it with job_status');

// ---- arguments → request bodies

interface Data { series: { target: (number | null)[]; index: string[] }[]; freq?: string; names: (string | undefined)[] }

/** The API's `series` (and `freq`) from either `series` or `csv`. */
function dataOf(args: { series?: z.infer<typeof Series>[]; csv?: string; freq?: string }): Data {
  if (args.series !== undefined && args.csv !== undefined) throw invalid('csv', 'give either series or csv, not both');
  if (args.csv !== undefined) {
    let csv: ReturnType<typeof parseCsv>;
    try { csv = parseCsv(args.csv); } catch (error) {
      if (error instanceof CsvError) throw invalid('csv', error.message);
      throw error;
    }
    const freq = args.freq ?? inferFreq(csv.dates);
    if (!freq) throw invalid('freq', 'cannot be inferred from the CSV dates (their usual step is not an hour, day, week, month, quarter or year); give freq');
    const index = apiIndex(csv.dates, freq);
    return { series: csv.columns.map((target) => ({ target, index })), freq, names: csv.names };
  }
  if (args.series === undefined) throw invalid('series', 'required: give series (a list of {target, index or start}) or csv');
  const series = args.series.map((s, i) => {
    if (s.index !== undefined && s.start !== undefined) throw invalid(`series[${i}].start`, 'give index or start, not both', i);
    if (s.index !== undefined) return { target: s.target, index: s.index };
    if (s.start === undefined) throw invalid(`series[${i}].index`, 'required: one date per target value, or start (the first date; the rest follow freq)', i);
    return { target: s.target, index: datesFrom(s.start, s.target.length, args.freq, i) };
  });
  return { series, freq: args.freq, names: args.series.map((s) => s.name) };
}

/** `n` dates on the freq grid from `start`, as the API's calendar places them. */
function datesFrom(start: string, n: number, freq: string | undefined, i: number): string[] {
  if (freq === undefined) throw invalid('freq', `required: series[${i}].start needs it to place the following dates`);
  if (!(FREQS as readonly string[]).includes(freq)) {
    // the API's own hint (freq "M" → "MS"): this check answers before the API sees the request
    const near = suggestFreq(freq);
    throw invalid('freq', `must be one of ${FREQS.join(', ')}, got ${JSON.stringify(freq)}${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`);
  }
  const parsed = parseIndex(freq as Freq, [start]);
  if (!parsed.ok) throw invalid(`series[${i}].start`, parsed.error.reason, i);
  return Array.from({ length: n }, (_, k) => dateAtStep(parsed.index.grid, k));
}

/** The defined entries of `args` named in `keys` (an absent argument stays absent from the body). */
function pick<T extends object>(args: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]])) as Partial<T>;
}

// ---- calling the API

async function api(callApi: CallApi, method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
  const answer = await callApi(method, path, body);
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  const problem = answer.body as { code?: unknown; detail?: unknown; errors?: unknown } | undefined;
  if (typeof problem?.code === 'string' && typeof problem.detail === 'string') {
    throw new ToolError(
      { status: answer.status, code: problem.code, detail: problem.detail, errors: Array.isArray(problem.errors) ? problem.errors as FieldError[] : [] },
    );
  }
  throw new ToolError({ status: answer.status, code: 'http_error', detail: `HTTP ${answer.status} from ${method} ${path}`, errors: [] });
}

function result(summary: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: summary }, { type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Runs a tool body; a refusal (or an API that cannot be reached) becomes an isError result. */
async function run(names: () => (string | undefined)[], work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try { return await work(); } catch (error) {
    if (!(error instanceof ToolError)) {
      const message = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
      return { isError: true, content: [{ type: 'text', text: `the Horizon API could not be reached: ${message}` }] };
    }
    const p = error.problem;
    const labels = names();
    const lines = [`${p.status ? `${p.status} ` : ''}${p.code}: ${p.detail}`, ...p.errors.map((e) => {
      const label = e.series !== undefined && labels[e.series] ? ` ("${labels[e.series]}")` : '';
      return `- ${e.field}${label}: ${e.reason}`;
    })];
    return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { error: p } };
  }
}

// ---- answers → compact JSON and a summary line

const num = (x: number | null | undefined): string => {
  if (x === null || x === undefined) return 'null';
  const a = Math.abs(x);
  return String(a >= 1000 ? Math.round(x) : a >= 1 ? Number(x.toPrecision(4)) : Number(x.toPrecision(3)));
};
const seriesLabel = (names: (string | undefined)[], i: number) => (names[i] ? `"${names[i]}"` : `series ${i}`);
const more = (shown: number, total: number) => (total > shown ? `; … (${total - shown} more)` : '');

/** The widest central interval among the levels: [lo key, hi key, percent], or null. */
function widestInterval(levels: string[]): [string, string, number] | null {
  for (const lo of [...levels].sort((a, b) => Number(a) - Number(b))) {
    if (Number(lo) >= 0.5) break;
    const hi = levels.find((l) => Math.abs(Number(l) - (1 - Number(lo))) < 1e-9);
    if (hi) return [lo, hi, Math.round((1 - 2 * Number(lo)) * 1000) / 10];
  }
  return null;
}

interface Prediction { prediction: Record<string, number[]>; index: string[] }
interface ForecastAnswer {
  model: string; model_size: string; series: Prediction[][]; warnings: { series?: number; field: string; message: string }[]; auto?: any;
}

function compactForecast(r: ForecastAnswer, names: (string | undefined)[]) {
  return {
    model: r.model, model_size: r.model_size,
    series: r.series.map(([p], i) => ({ ...(names[i] ? { name: names[i] } : {}), index: p.index, prediction: p.prediction })),
    warnings: r.warnings,
    ...(r.auto ? { auto: { metric: r.auto.metric, leaderboard: r.auto.leaderboard, picked: r.auto.series.map((s: any) => s.model) } } : {}),
  };
}

function forecastSummary(r: ForecastAnswer, names: (string | undefined)[]): string {
  const steps = r.series[0]?.[0]?.index.length ?? 0;
  const picked = r.auto ? [...new Set<string>(r.auto.series.map((s: { model: string }) => s.model))] : [];
  const size = r.auto ? ` (picked ${picked.join(', ')})` : r.model_size === 'default' ? '' : ` (${r.model_size})`;
  const shown = r.series.slice(0, 3).map(([p], i) => {
    const interval = widestInterval(Object.keys(p.prediction).filter((k) => k !== 'mean'));
    const band = interval ? ` (${interval[2]} % interval ${num(p.prediction[interval[0]][0])}–${num(p.prediction[interval[1]][0])})` : '';
    return `${seriesLabel(names, i)} next ${num(p.prediction.mean[0])}${band} at ${p.index[0]}`;
  });
  const warnings = r.warnings.length ? ` [${r.warnings.length} ` +
    `warning${r.warnings.length > 1 ? 's' : ''}: ${r.warnings[0].message}${r.warnings.length > 1 ? ' …' : ''}]` : '';
  return `${r.model}${size}, ${r.series.length} series, ${steps} steps: ${shown.join('; ')}${more(shown.length, r.series.length)}${warnings}`;
}

function compactCrossValidation(r: any) {
  return {
    metric: r.metric, horizon: r.horizon, n_windows: r.n_windows, step: r.step, refit: r.refit, season_length: r.season_length, quantiles: r.quantiles,
    leaderboard: r.leaderboard,
    models: r.models.map((m: any) => ({ model: m.model, model_size: m.model_size, scores: m.scores, series_scores: m.series.map((s: any) => s.scores) })),
    warnings: r.warnings,
  };
}

function crossValidationSummary(r: any): string {
  const board = r.leaderboard.map((e: any) => `${e.rank}. ${e.model}${e.model_size === 'default' ? '' : ` (${e.model_size})`} ${num(e.score)}`).join(', ');
  const nSeries = r.models[0]?.series.length ?? 0;
  return `leaderboard by ${r.metric} (${r.n_windows} window${r.n_windows > 1 ? 's' : ''} of ${r.horizon} steps, ${nSeries} ` +
    `series): ${board}${r.warnings.length ? ` [${r.warnings.length} warning${r.warnings.length > 1 ? 's' : ''}]` : ''}`;
}

function compactAnomalies(r: any, names: (string | undefined)[]) {
  return {
    model: r.model, model_size: r.model_size, level: r.level, step: r.step, context: r.context, min_history: r.min_history,
    n_windows: r.n_windows, n_anomalies: r.n_anomalies,
    series: r.series.map((s: any, i: number) => ({
      ...(names[i] ? { name: names[i] } : {}), scored_from: s.scored_from, scored: s.index.length,
      anomalies: s.anomalies.map((position: number) => {
        const k = position - s.scored_from;
        return { position, index: s.index[k], actual: s.actual[k], forecast: s.forecast[k], lo: s.lo[k], hi: s.hi[k], score: s.score[k] };
      }),
    })),
    warnings: r.warnings,
  };
}

function anomaliesSummary(c: ReturnType<typeof compactAnomalies>, names: (string | undefined)[]): string {
  const all = c.series.flatMap((s: any, i: number) => s.anomalies.map((a: any) => ({ ...a, i })));
  const shown = all.slice(0, 5).map((a: any) => `${seriesLabel(names, a.i)} at ${a.index}: ${num(a.actual)} outside ${num(a.lo)}…${num(a.hi)} ` +
    `(score ${num(a.score)})`);
  const head = `${c.model}, level ${c.level} %: ${c.n_anomalies} anomal${c.n_anomalies === 1 ? 'y' : 'ies'} in ${c.series.length} series ` +
    `(${c.n_windows} timesteps scored)`;
  return shown.length ? `${head}: ${shown.join('; ')}${more(shown.length, all.length)}` : head;
}

function compactEmbeddings(r: any, names: (string | undefined)[]) {
  return {
    model: r.model, model_size: r.model_size, granularity: r.granularity, dimension: r.dimension, patch_size: r.patch_size,
    series: r.embeddings.map((e: any, i: number) => ({ ...(names[i] ? { name: names[i] } : {}), ...e })),
    warnings: r.warnings,
  };
}

/** The cosine similarity of two vectors (0 when either is all zeros). */
function cosine(a: number[], b: number[]): number {
  let ab = 0, aa = 0, bb = 0;
  for (let k = 0; k < a.length; k++) { ab += a[k] * b[k]; aa += a[k] * a[k]; bb += b[k] * b[k]; }
  return aa && bb ? ab / Math.sqrt(aa * bb) : 0;
}

function embeddingsSummary(r: any, names: (string | undefined)[]): string {
  const vectors: number[][] = r.embeddings.map((e: any) => e.embedding);
  const head = `${r.model} (${r.model_size}): ${vectors.length} series embedded in ${r.dimension} values` +
    `${r.granularity === 'patch' ? ` (and per patch of ${r.patch_size})` : ''}`;
  let best: [number, number, number] | undefined;
  for (let i = 0; i < vectors.length && i < 200; i++) {
    for (let j = i + 1; j < vectors.length && j < 200; j++) {
      const c = cosine(vectors[i], vectors[j]);
      if (!best || c > best[2]) best = [i, j, c];
    }
  }
  const pair = best ? `; most alike${vectors.length > 200 ? ' among the first 200' : ''}: ${seriesLabel(names, best[0])} and ` +
    `${seriesLabel(names, best[1])} (cosine ${best[2].toFixed(3)})` : '';
  return `${head}${pair}${r.warnings.length ? ` [${r.warnings.length} warning${r.warnings.length > 1 ? 's' : ''}]` : ''}`;
}

// ---- the server

const TOOL_NOTE = 'Calls the Horizon API with your API key: the same validation (a refused argument comes back as isError naming the field) and ' +
  'quota as the HTTP API.';

// ---- malformed requests: JSON-RPC −32602 Invalid params, in one line
//
// The SDK (1.32) parses a request against its method's schema before any handler runs and answers a mismatch
// with −32603 Internal error and the zod issues as the message (even for tools/call, whose own InvalidParams
// check sits behind that parse). So the requests this server answers are checked as they arrive from the
// transport, and a malformed one is answered here, before the SDK sees it.

type RequestSchema = typeof CallToolRequestSchema | typeof InitializeRequestSchema | typeof ListToolsRequestSchema | typeof PingRequestSchema;
const REQUEST_SCHEMAS: Record<string, RequestSchema> = {
  'tools/call': CallToolRequestSchema, 'tools/list': ListToolsRequestSchema, initialize: InitializeRequestSchema, ping: PingRequestSchema,
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a value is, for a message: "a string", "an array", "number 3", "null". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Why a request's params are invalid (one line naming the member), or undefined when they are valid or the
 * method is not one this server answers (the SDK then answers −32601 Method not found). */
function invalidParams(request: { method: string; params?: unknown }): string | undefined {
  const schema = REQUEST_SCHEMAS[request.method];
  if (!schema) return undefined;
  if (request.method === 'tools/call') {
    const { params } = request;
    if (!isObject(params)) return `params: must be an object {name, arguments}, got ${params === undefined ? 'none' : kindOf(params)}`;
    if (params.name === undefined) return 'params.name: required: the tool to call (tools/list names them)';
    if (typeof params.name !== 'string') return `params.name: must be a string, the tool to call; got ${kindOf(params.name)}`;
    if (params.arguments !== undefined && !isObject(params.arguments)) {
      return `params.arguments: must be an object of the tool's arguments by name ({} for none); got ${kindOf(params.arguments)}`;
    }
  }
  const parsed = schema.safeParse(request);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return `${issue.path.length ? issue.path.join('.') : 'params'}: ${issue.message}`;
}

/** Connects as McpServer.connect does, then answers requests with invalid params with −32602 itself. Wrapped after
 * the SDK has set its onmessage: one set before would be called and then the SDK's too. */
async function connectChecked(server: McpServer, transport: Transport): Promise<void> {
  await server.server.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const invalid = isJSONRPCRequest(message) ? invalidParams(message) : undefined;
    if (invalid === undefined || !isJSONRPCRequest(message)) {
      deliver?.(message, extra);
      return;
    }
    transport.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${invalid}` } })
      .catch((error: unknown) => server.server.onerror?.(error instanceof Error ? error : new Error(String(error))));
  };
}

/** The job kinds job_status reads, in the order it looks an id up. */
const JOB_PATHS = {
  forecast: '/v1/forecast-jobs', cross_validation: '/v1/cross-validation-jobs', anomalies: '/v1/anomaly-jobs', embeddings: '/v1/embedding-jobs',
} as const;
type JobKind = keyof typeof JOB_PATHS;
const JOB_NOUNS: Record<JobKind, string> = { forecast: 'forecast', cross_validation: 'cross-validation', anomalies: 'anomaly', embeddings: 'embedding' };

/** An MCP server with Horizon's tools, each calling the API through `callApi`. Its connect() answers requests with
 * invalid params (tools/call without a name, arguments that are not an object, …) with −32602 Invalid params. */
export function createMcpServer(callApi: CallApi, version: string): McpServer {
  const server = new McpServer({ name: 'horizon', title: 'Horizon forecasting API', version }, {
    instructions: 'Forecast time series, compare models by cross-validation and flag anomalies with the models this Horizon deployment serves. Start with ' +
      'list_models; forecast takes series as {target, index or start} or a CSV string.',
  });
  // both transports (POST /mcp and `horizon mcp` on stdio) connect through this
  server.connect = (transport) => connectChecked(server, transport);

  registerListModels(server, callApi);
  registerForecast(server, callApi);
  registerCrossValidate(server, callApi);
  registerDetectAnomalies(server, callApi);
  registerEmbedSeries(server, callApi);
  registerJobStatus(server, callApi);
  return server;
}

/** The tool list_models: the catalog and what this deployment serves. */
function registerListModels(server: McpServer, callApi: CallApi): void {
  server.registerTool('list_models', {
    title: 'List models',
    description: `The models this deployment knows: which are served now (available), their sizes, context and horizon limits, covariates and licence, and ` +
      `the default model. Free (no quota). ${TOOL_NOTE}`,
    inputSchema: z.strictObject({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async () => run(() => [], async () => {
    const r = await api(callApi, 'GET', '/v1/models');
    const models = r.models.map((m: any) => ({
      model_id: m.model_id, available: m.available, description: m.description, sizes: m.sizes, default_size: m.default_size,
      max_context: m.max_context, max_horizon: m.max_horizon, covariates: m.covariates, license: m.license.id, commercial: m.license.commercial,
      ...(m.unavailable_reason ? { unavailable_reason: m.unavailable_reason.code } : {}),
    }));
    const served = models.filter((m: any) => m.available).map((m: any) => m.model_id);
    const notServed = models.filter((m: any) => !m.available);
    const notServedList = notServed.map((m: any) => `${m.model_id} (${m.unavailable_reason})`).join(', ');
    const summary = `${served.length} of ${models.length} models served (default ${r.default_model}): ${served.join(', ')}`
      + `${notServed.length ? `; not served here: ${notServedList}` : ''}`;
    return result(summary, { default_model: r.default_model, models });
  }));
}

/** The tool forecast: POST /v1/forecast, or a forecast job. */
function registerForecast(server: McpServer, callApi: CallApi): void {
  server.registerTool('forecast', {
    title: 'Forecast',
    description: `Forecasts \`horizon\` steps of each series with one model (POST /v1/forecast): the mean and the quantiles per future date. One quota unit ` +
      `per call. ${TOOL_NOTE}`,
    inputSchema: z.strictObject({
      ...MODEL,
      horizon: z.number().describe('steps to forecast (at most the model\'s max_horizon)'),
      ...DATA,
      quantiles: QUANTILES,
      context: z.number().optional().describe('use at most the last `context` values of each series'),
      as_job: AS_JOB,
    }),
    annotations: { readOnlyHint: false, openWorldHint: false },
  }, async (args) => {
    let names: (string | undefined)[] = args.series?.map((s) => s.name) ?? [];
    return run(() => names, async () => {
      const data = dataOf(args);
      names = data.names;
      const body = {
        series: data.series, horizon: args.horizon, ...(data.freq === undefined ? {} : { freq: data.freq }),
        ...pick(args, ['model', 'model_size', 'quantiles', 'context']),
      };
      if (args.as_job) {
        const job = await api(callApi, 'POST', '/v1/forecast-jobs', body);
        return result(`forecast job ${job.job_id} ${job.status} (${job.model}, ${data.series.length} series, ${args.horizon} steps); ` +
          `poll it with job_status`, { kind: 'forecast', ...job });
      }
      const r = await api(callApi, 'POST', '/v1/forecast', body) as ForecastAnswer;
      return result(forecastSummary(r, names), compactForecast(r, names));
    });
  });
}

/** The tool cross_validate: POST /v1/cross-validation, or a cross-validation job. */
function registerCrossValidate(server: McpServer, callApi: CallApi): void {
  server.registerTool('cross_validate', {
    title: 'Cross-validate models',
    description: `Compares models on rolling origins of the series (POST /v1/cross-validation): each of n_windows windows is forecast from the history ` +
      `before it and scored (MASE, WQL, sMAPE, interval coverage); the answer is the leaderboard and each model's scores. One quota unit per ` +
      `model. ${TOOL_NOTE}`,
    inputSchema: z.strictObject({
      models: z.array(z.union([z.string(), z.strictObject({ model: z.string(), model_size: z.string().optional() })])).describe(
        '1–10 models to compare: ids, or {model, model_size}',
      ),
      horizon: z.number().describe('steps forecast at each window'),
      ...DATA,
      n_windows: z.number().optional().describe('rolling origins, 1–20; default 1'),
      step: z.number().optional().describe('steps between origins; default: horizon'),
      metric: z.string().optional().describe('what ranks the leaderboard: wql (default), mase or smape'),
      season_length: z.number().optional().describe('MASE seasonality; default from freq'),
      quantiles: QUANTILES,
      refit: z.boolean().optional().describe('default true; false: one fit per series for the statistical models (faster, optimistic)'),
      as_job: AS_JOB,
    }),
    annotations: { readOnlyHint: false, openWorldHint: false },
  }, async (args) => {
    let names: (string | undefined)[] = args.series?.map((s) => s.name) ?? [];
    return run(() => names, async () => {
      const data = dataOf(args);
      names = data.names;
      const body = {
        series: data.series, horizon: args.horizon, models: args.models, ...(data.freq === undefined ? {} : { freq: data.freq }),
        ...pick(args, ['n_windows', 'step', 'metric', 'season_length', 'quantiles', 'refit']),
      };
      if (args.as_job) {
        const job = await api(callApi, 'POST', '/v1/cross-validation-jobs', body);
        return result(`cross-validation job ${job.job_id} ${job.status} (${job.models.map((m: any) => m.model).join(', ')}); ` +
          `poll it with job_status`, { kind: 'cross_validation', ...job });
      }
      const r = await api(callApi, 'POST', '/v1/cross-validation', body);
      return result(crossValidationSummary(r), compactCrossValidation(r));
    });
  });
}

/** The tool detect_anomalies: POST /v1/anomalies, or an anomaly job. */
function registerDetectAnomalies(server: McpServer, callApi: CallApi): void {
  server.registerTool('detect_anomalies', {
    title: 'Detect anomalies',
    description: `Scores each series' history (POST /v1/anomalies): every timestep from min_history on is forecast \`step\` steps ahead with a central ` +
      `interval at \`level\` percent; an observation outside it is an anomaly. Answers the flagged timesteps with their band and score (|score| > 1 ` +
      `outside). One quota unit per call. ${TOOL_NOTE}`,
    inputSchema: z.strictObject({
      ...MODEL,
      ...DATA,
      level: z.number().optional().describe('the interval in percent (above 0, at most 99.99); default 99'),
      step: z.number().optional().describe('forecast steps ahead; default 1'),
      context: z.number().optional().describe('history per window; default 128'),
      min_history: z.number().optional().describe('values before the first scored timestep; default two seasons of freq'),
      as_job: AS_JOB,
    }),
    annotations: { readOnlyHint: false, openWorldHint: false },
  }, async (args) => {
    let names: (string | undefined)[] = args.series?.map((s) => s.name) ?? [];
    return run(() => names, async () => {
      const data = dataOf(args);
      names = data.names;
      const body = {
        series: data.series, ...(data.freq === undefined ? {} : { freq: data.freq }),
        ...pick(args, ['model', 'model_size', 'level', 'step', 'context', 'min_history']),
      };
      if (args.as_job) {
        const job = await api(callApi, 'POST', '/v1/anomaly-jobs', body);
        return result(`anomaly job ${job.job_id} ${job.status} (${job.model}, mode ${job.mode}, ${data.series.length} series); ` +
          `poll it with job_status`, { kind: 'anomalies', ...job });
      }
      const r = await api(callApi, 'POST', '/v1/anomalies', body);
      const compact = compactAnomalies(r, names);
      return result(anomaliesSummary(compact, names), compact);
    });
  });
}

/** The tool embed_series: POST /v1/embeddings, or an embedding job. */
function registerEmbedSeries(server: McpServer, callApi: CallApi): void {
  server.registerTool('embed_series', {
    title: 'Embed series',
    description: 'Turns each series into a vector from a foundation model\'s encoder (POST /v1/embeddings): for similarity search, clustering or ' +
      'features. Models: chronos, chronos-bolt, chronos-2 (also per patch with granularity "patch") and tirex (list_models says which are served). ' +
      'Answers each series\' vector; the summary names the most alike pair of series (cosine similarity). One quota unit per call. ' + TOOL_NOTE,
    inputSchema: z.strictObject({
      ...MODEL,
      series: z.array(z.strictObject({
        target: z.array(z.number().nullable()).describe('the values at regular steps, oldest first; null = missing (no dates: embeddings take none)'),
        name: z.string().optional().describe('a label, echoed in the answer'),
      })).optional().describe('the series to embed; or give csv instead'),
      csv: z.string().optional().describe('instead of series: CSV text with a header row, the dates in the first column and one column per series'),
      granularity: z.string().optional().describe('"series" (default): one vector per series; "patch": also one per patch of values'),
      context: z.number().optional().describe('embed at most the last `context` values of each series; default: the model\'s max_context'),
      as_job: AS_JOB,
    }),
    annotations: { readOnlyHint: false, openWorldHint: false },
  }, async (args) => {
    let names: (string | undefined)[] = args.series?.map((s) => s.name) ?? [];
    return run(() => names, async () => {
      const data = targetsOf(args);
      names = data.names;
      const body = { series: data.series, ...pick(args, ['model', 'model_size', 'granularity', 'context']) };
      if (args.as_job) {
        const job = await api(callApi, 'POST', '/v1/embedding-jobs', body);
        return result(`embedding job ${job.job_id} ${job.status} (${job.model}, ${data.series.length} series); poll it with job_status`,
          { kind: 'embeddings', ...job });
      }
      const r = await api(callApi, 'POST', '/v1/embeddings', body);
      return result(embeddingsSummary(r, names), compactEmbeddings(r, names));
    });
  });
}

/** The API's `series` of an embeddings request (targets only) from either `series` or `csv` (its dates are not used). */
function targetsOf(args: { series?: { target: (number | null)[]; name?: string }[]; csv?: string }): {
  series: { target: (number | null)[] }[]; names: (string | undefined)[];
} {
  if (args.series !== undefined && args.csv !== undefined) throw invalid('csv', 'give either series or csv, not both');
  if (args.csv === undefined) {
    if (args.series === undefined) throw invalid('series', 'required: give series (a list of {target}) or csv');
    return { series: args.series.map((s) => ({ target: s.target })), names: args.series.map((s) => s.name) };
  }
  try {
    const csv = parseCsv(args.csv);
    return { series: csv.columns.map((target) => ({ target })), names: csv.names };
  } catch (error) {
    if (error instanceof CsvError) throw invalid('csv', error.message);
    throw error;
  }
}

/** The tool job_status: a job of any kind, looked up by id. */
function registerJobStatus(server: McpServer, callApi: CallApi): void {
  server.registerTool('job_status', {
    title: 'Job status',
    description: `The state of a forecast, cross-validation, anomaly or embedding job (from forecast, cross_validate, detect_anomalies or embed_series with ` +
      `as_job): queued, running, ` +
      `completed (with the result, as those tools answer it), failed (with the error) or cancelled. Free (no quota). ${TOOL_NOTE}`,
    inputSchema: z.strictObject({
      job_id: z.string().describe('the job_id the job was created with'),
      kind: z.enum(['forecast', 'cross_validation', 'anomalies', 'embeddings']).optional()
        .describe('which kind of job; default: looked up as each kind in turn'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async (args) => run(() => [], async () => {
    const id = encodeURIComponent(args.job_id);
    const kinds = args.kind ? [args.kind] : (Object.keys(JOB_PATHS) as JobKind[]);
    let kind: JobKind | undefined;
    let job: any;
    for (const k of kinds) {
      try {
        job = await api(callApi, 'GET', `${JOB_PATHS[k]}/${id}`);
        kind = k;
        break;
      } catch (error) {
        if (args.kind !== undefined || !(error instanceof ToolError) || error.problem.status !== 404) throw error;
        if (k === kinds.at(-1)) throw new ToolError({ ...error.problem, detail: `no forecast, cross-validation, anomaly or embedding ` +
          `job ${JSON.stringify(args.job_id)} for this account` });
      }
    }
    const { series, metrics: _metrics, warnings, auto, model_size, result: jobResult, ...state } = job;
    let outcome = '';
    let compact: Record<string, unknown> = { kind, ...state };
    if (kind === 'forecast' && job.status === 'completed' && series) {
      const answer = { model: job.model, model_size, series, warnings: warnings ?? [], auto } as ForecastAnswer;
      compact = { ...compact, result: compactForecast(answer, []) };
      outcome = ` — ${forecastSummary(answer, [])}`;
    } else if (kind === 'cross_validation' && job.status === 'completed' && jobResult) {
      compact = { ...compact, result: compactCrossValidation(jobResult) };
      outcome = ` — ${crossValidationSummary(jobResult)}`;
    } else if (kind === 'anomalies' && job.status === 'completed' && jobResult) {
      const answer = compactAnomalies(jobResult, []);
      compact = { ...compact, model_size, result: answer };
      outcome = ` — ${anomaliesSummary(answer, [])}`;
    } else if (kind === 'embeddings' && job.status === 'completed' && jobResult) {
      compact = { ...compact, model_size, result: compactEmbeddings(jobResult, []) };
      outcome = ` — ${embeddingsSummary(jobResult, [])}`;
    } else if (job.error) {
      outcome = `: ${job.error.code}: ${job.error.detail}`;
    } else if (job.progress) {
      outcome = ` (${job.progress.chunks_done} of ${job.progress.chunks_total} chunks done)`;
    }
    return result(`${JOB_NOUNS[kind!]} job ${job.job_id}: ${job.status}${outcome}`, compact);
  }));
}
