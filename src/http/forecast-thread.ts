// A forecast thread (HORIZON_ANSWER_THREADS): besides the large answers of answer-thread.ts, it takes a large
// POST /v1/forecast body as bytes and does everything that grows with the body — JSON parse, the route's
// schema validation (the same compiler and options as the app), normalisation, the cost estimate and the
// worker request's base64 encoding — so the event loop does none of it (issue 26 item 5; bench/README.md,
// "Request threads"). Requests that need more than a plain model call (auto, prism, evaluation) come back
// as 'fallback': the loop parses them as before (the schema has been checked here already).
// Forecast jobs the same (issue 32): a large POST /v1/forecast-jobs body becomes the job's stored plan as JSON
// bytes ('planned-job'), a large stored plan becomes the worker's requests when the job runs ('job-plan'),
// and a large stored result becomes GET /v1/forecast-jobs/{id}'s answer ('job-view').
import { parentPort, workerData } from 'node:worker_threads';
import secureJson from 'secure-json-parse';
import { answerReply, collectPart, postReply, type AnswerJob, type AnswerPart } from '../forecasting/answer-thread.ts';
import { contractShape, type ContractShape } from '../forecasting/contract.ts';
import type { ForecastPlan } from '../forecasting/forecast.ts';
import { jobView } from './routes/job-view.ts';
import type { JobViewRow } from '../store/jobs.ts';
import type { JobPlanJob, JobPlanReply } from '../jobs/threaded-job.ts';
import { MIN_REQUEST_OBSERVED, normalizeForecastRequest, RequestValidationError, type ForecastRequestBody } from '../forecasting/normalize.ts';
import { callCostMs } from '../forecasting/cost.ts';
import { AUTO_FIELDS, AUTO_ID } from '../forecasting/auto.ts';
import { PRISM_ID } from '../forecasting/prism.ts';
import { encodeInferRequest } from '../runtime/wire.ts';
import { inlineBodyOf, type StoredSeriesPayload } from '../forecasting/stored-payload.ts';
import { findModel, isCpuModel, type Catalog } from '../runtime/catalog.ts';
import { HorizonError, type FieldError } from '../errors.ts';
import { ForecastRequest } from './schemas.ts';
import { fieldErrorsFromAjv } from './validation-errors.ts';
import { bodyValidator } from './body-validator.ts';
import { nixtlaAnswerReply, nixtlaForecastReply } from './nixtla/thread.ts';
import type { NixtlaAnswerJob, NixtlaForecastJob } from './nixtla/thread-messages.ts';

/** What the thread needs of the deployment's state (the registry lives on the event loop). */
export interface RequestContext {
  catalog: Catalog; defaultModel: string;
  /** each model's default size on this deployment (registry.defaultSize: the catalog's, if its weights are here) */
  defaultSizes: Record<string, string>;
  float32: boolean; cpuWorkers: number;
  /** a plan of more series is encoded as chunks of this many (the inference client's fair chunks; 0: one body);
   * cpuChunkSeries for a CPU model's (catalog `cost`) */
  chunkSeries?: number;
  cpuChunkSeries?: number;
  /** the caller's private models by name → id: a name as `model` is the id (http/private-models-hook.ts) */
  privateModelIds?: Record<string, string>;
}
/** A large body as bytes, or a by-reference forecast's stored series as numbers (stored-payload.ts); `job`:
 * the body of POST /v1/forecast-jobs, answered with the plan to store ('planned-job') instead of worker requests. */
export interface RequestJob {
  id: number; kind: 'request'; bytes?: Uint8Array; stored?: StoredSeriesPayload; context: RequestContext; job?: boolean;
}
/** A job row without its result, and the result's JSON text: GET /v1/forecast-jobs/{id}'s answer. */
export interface JobViewJob { id: number; kind: 'job-view'; row: Omit<JobViewRow, 'result'>; result: string | readonly string[] }
export type JobViewReply = { id: number; body: Uint8Array } | { id: number; error: { message: string } };
export type RequestReply =
  | {
    id: number; kind: 'planned'; model: string; size: string; seriesCount: number; points: number; estimateMs: number; shape: ContractShape; inferBody: string;
    inferBodies?: string[]; chunkSeries: number;
  }
  /** `body`: the job's stored plan, JSON.stringify(plan) as the loop's path writes it */
  | { id: number; kind: 'planned-job'; model: string; size: string; seriesCount: number; body: Uint8Array }
  | { id: number; kind: 'fallback' }
  | { id: number; kind: 'bad_json' }
  | { id: number; kind: 'invalid'; errors: FieldError[] }
  | { id: number; kind: 'failed'; code?: string; message: string };

// the same validator the app compiles for the route (Fastify: @fastify/ajv-compiler, the shared schemas, AJV_OPTIONS)
const validate = bodyValidator(ForecastRequest);
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export function planRequest({ id, bytes, stored, context, job }: RequestJob): RequestReply {
  let body: Record<string, unknown>;
  try {
    body = stored ? inlineBodyOf(stored, true) : secureJson.parse(decoder.decode(bytes!), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { id, kind: 'bad_json' };
  }
  // stored series were checked when they were stored (stored-series.ts): the schema checks the rest of the
  // body with the first of them, not every stored value again
  const checked = stored ? { ...body, series: (body.series as unknown[]).slice(0, 1) } : body;
  if (!validate(checked)) return { id, kind: 'invalid', errors: fieldErrorsFromAjv(validate.errors ?? [], 'body') };
  const { catalog, defaultModel } = context;
  // a private model's name means its id, as on the loop (http/private-models-hook.ts renames after the schema check)
  const ids = context.privateModelIds;
  if (ids && typeof body.model === 'string' && Object.hasOwn(ids, body.model)) body.model = ids[body.model];
  // model "auto" (unless the catalog has such a model), prism and a backtest make more than one model call
  const auto = body.model === AUTO_ID && !findModel(catalog, AUTO_ID);
  // inline fine-tuning (finetune_steps) and explanations (explain) run on the loop's path too
  if (auto || body.model === PRISM_ID || body.evaluation !== undefined || body.finetune_steps || body.explain) return { id, kind: 'fallback' };
  // a hierarchy (forecasting/hierarchy.ts) and its fields, which a request without one refuses
  if (body.hierarchy !== undefined || body.reconcile !== undefined || body.reconcile_intervals !== undefined || body.reconcile_level !== undefined) {
    return { id, kind: 'fallback' };
  }
  // a joint forecast (multivariate) and sample paths: the loop's path too, whose model call goes whole (inference.ts)
  if (body.multivariate || body.samples) return { id, kind: 'fallback' };
  // auto fields or prism_members with another model: rejectAutoFields and planForecast answer it on the loop
  if (AUTO_FIELDS.some((f) => body[f] !== undefined) || body.prism_members !== undefined) return { id, kind: 'fallback' };
  try {
    const model = findModel(catalog, (body.model as string | undefined) ?? defaultModel);
    const sized = body.model_size === undefined && model ? { ...body, model_size: context.defaultSizes[model.id] } : body;
    const plan = normalizeForecastRequest(sized as unknown as ForecastRequestBody, catalog, defaultModel, { minObserved: MIN_REQUEST_OBSERVED });
    // a job stores its plan (forecast.ts planForecast's, for a plain model call: the normalised request)
    if (job) {
      const planText = encoder.encode(JSON.stringify(plan));
      return { id, kind: 'planned-job', model: plan.model, size: plan.size, seriesCount: plan.series.length, body: planText };
    }
    const request = { model: plan.model, size: plan.size, freq: plan.freq, horizon: plan.horizon, quantiles: plan.quantiles, series: plan.series };
    return {
      id, kind: 'planned', model: plan.model, size: plan.size, seriesCount: plan.series.length, points: (body.series as { target: unknown[] }[]).reduce(
        (n, s) => n + s.target.length, 0,
      ),
      estimateMs: callCostMs(catalog, request, context.cpuWorkers), shape: contractShape(plan),
      ...chunkedBodies(request, context),
    };
  } catch (error) {
    if (error instanceof RequestValidationError) return { id, kind: 'invalid', errors: error.errors };
    return { id, kind: 'failed', code: error instanceof HorizonError ? error.code : undefined, message: (error as Error).message };
  }
}

/** The worker request: one body, or (more series than a fair chunk: the inference client's rule,
 * InferenceClient.chunkSeriesFor) one body per chunk of that many series. */
function chunkedBodies(
  request: Parameters<typeof encodeInferRequest>[0], context: Pick<RequestContext, 'catalog' | 'float32' | 'chunkSeries' | 'cpuChunkSeries'>,
): { inferBody: string; inferBodies?: string[]; chunkSeries: number } {
  const size = (isCpuModel(context.catalog, request.model) ? context.cpuChunkSeries : undefined) ?? context.chunkSeries ?? 0;
  if (size <= 0 || request.series.length <= size) return { inferBody: JSON.stringify(encodeInferRequest(request, context.float32)), chunkSeries: size };
  const inferBodies: string[] = [];
  for (let start = 0; start < request.series.length; start += size) inferBodies.push(
    JSON.stringify(encodeInferRequest({ ...request, series: request.series.slice(start, start + size) }, context.float32)),
  );
  return { inferBody: '', inferBodies, chunkSeries: size };
}

/** A stored job plan to run: 'planned' (the worker's requests, as for a sync forecast) where it is one plain
 * model call within the chunk budget; 'fallback' for the loop's path (prism, a backtest, auto, stored series
 * to keep, a chunked job, or anything this cannot read: the loop then reports it as before). */
export function planStoredJob({ id, plan: text, context }: JobPlanJob): JobPlanReply {
  try {
    const plan = JSON.parse(typeof text === 'string' ? text : text.join('')) as ForecastPlan & Record<string, unknown>;
    const more = plan.backtest || plan.prism_members || plan.model === PRISM_ID || plan.auto_request !== undefined || plan.stored_series !== undefined
      || plan.hierarchy !== undefined;
    if (more) return { id, kind: 'fallback' };
    const request = { model: plan.model, size: plan.size, freq: plan.freq, horizon: plan.horizon, quantiles: plan.quantiles, series: plan.series };
    const estimateMs = callCostMs(context.catalog, request, context.cpuWorkers);
    if (!(estimateMs <= context.budgetMs)) return { id, kind: 'fallback' };
    const bodies = chunkedBodies(request, context);
    return { id, kind: 'planned', model: plan.model, size: plan.size, seriesCount: plan.series.length, shape: contractShape(plan), ...bodies };
  } catch {
    return { id, kind: 'fallback' };
  }
}

/** GET /v1/forecast-jobs/{id}'s JSON bytes for a row and its stored result, as the route writes them on the loop. */
export function jobViewReply({ id, row, result }: JobViewJob): JobViewReply {
  try {
    const parsed = JSON.parse(typeof result === 'string' ? result : result.join('')) as unknown;
    return { id, body: encoder.encode(JSON.stringify(jobView({ ...row, result: parsed } as JobViewRow))) };
  } catch (error) {
    return { id, error: { message: (error as Error).message } };
  }
}

if (parentPort && import.meta.url === (workerData as { entry?: string } | null)?.entry) {
  parentPort.on('message', (job: RequestJob | JobPlanJob | JobViewJob | NixtlaForecastJob | NixtlaAnswerJob | AnswerJob | AnswerPart) => {
    if (job.kind === 'answer-part') collectPart(job);
    else if (job.kind === 'request') postReply(planRequest(job) as { id: number; body?: Uint8Array });
    else if (job.kind === 'job-plan') parentPort!.postMessage(planStoredJob(job));
    else if (job.kind === 'job-view') postReply(jobViewReply(job) as { id: number; body?: Uint8Array });
    else if (job.kind === 'nixtla-forecast') postReply(nixtlaForecastReply(job) as { id: number; body?: Uint8Array });
    else if (job.kind === 'nixtla-answer') postReply(nixtlaAnswerReply(job) as { id: number; body?: Uint8Array });
    else postReply(answerReply(job));
  });
}
