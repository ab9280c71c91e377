// NixtlaClient.simulate() / jobs.simulate() (nixtla==0.9.0: POST v2/simulate/async, then GET v2/simulate/jobs/{id}):
// sample paths, as a Horizon forecast job with `samples` (POST /v1/forecast-jobs); POST v2/simulate, the synchronous
// form, is POST /v1/forecast with `samples`. The paths are the model's library's own draws (chronos, the statistical
// models with statsforecast's simulate; src/forecasting/joint-and-samples.ts); a TimeGPT name runs a model that draws
// them. What the SDK parses: `samples` flat, path after path, each path the series' h steps one series after another
// (its frame is the future grid tiled n_paths times), `sizes` (h per series), `n_paths`, `h`, `coupled`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { validationError } from '../../errors.ts';
import { NixtlaJob, NixtlaJobAccepted, NixtlaJobParams, NixtlaSeries } from './schemas.ts';
import { FREQ_REASON, horizonFreq, JOB_STATUS, splitSeries } from './translate.ts';
import { forecastColumns } from './columns.ts';
import { callHorizon, checkCovariates, resolveModel, sayModel, throwIfAny, unsupportedSettings, type NixtlaContext } from './common.ts';

export const NixtlaSimulateRequest = Type.Object({
  series: NixtlaSeries,
  model: Type.String({ description: 'a Horizon model that draws sample paths (chronos, naive, seasonal-naive, auto-ets, damped-ets, auto-arima, auto-theta, ' +
    'ces), or a TimeGPT name: the first served of them' }),
  h: Type.Integer({ minimum: 1, description: 'steps in every path' }),
  freq: Type.String({ description: 'a pandas offset alias (as for forecast)' }),
  n_paths: Type.Integer({ minimum: 1, maximum: 10000, description: 'paths per series (POST /v1/forecast\'s samples)' }),
  quantiles: Type.Optional(Type.Union([Type.Array(Type.Number()), Type.Null()], { description: 'null only: the paths are the library\'s own draws, not ' +
    'refined to a quantile grid' })),
  seed: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'mixed into each series\' seed (POST /v1/forecast\'s seed); the same call ' +
    'always draws the same paths' })),
  finetuned_model_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'the account\'s fine-tuned model to run instead of `model` (it ' +
    'must draw sample paths)' })),
  clean_ex_first: Type.Optional(Type.Boolean({ description: 'accepted; no effect' })),
  multivariate: Type.Optional(Type.Boolean({ description: 'false only: no model draws joint (coupled) paths; the answer\'s `coupled` is false' })),
  job_options: Type.Optional(Type.Object(
    { timeout_seconds: Type.Optional(Type.Integer()) }, { additionalProperties: false, description: 'as for forecast jobs: without timeout_seconds' },
  )),
}, { additionalProperties: false });
type SimulateBody = Static<typeof NixtlaSimulateRequest>;

export const NixtlaSimulateResponse = Type.Object({
  samples: Type.Array(Type.Number(), { description: 'path after path; in each, the h steps of each series in the order sent' }),
  sizes: Type.Array(Type.Integer(), { description: 'h per series' }),
  n_paths: Type.Integer(), h: Type.Integer(),
  coupled: Type.Boolean({ description: 'false: each series\' paths are drawn on their own' }),
  model: Type.String({ description: 'the Horizon model that drew them' }), warnings: Type.Array(Type.Unknown()),
});

/** The SDK's simulate payload → POST /v1/forecast's body with `samples`; every 422 at once. */
function simulateRequest(ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, body: SimulateBody, job: boolean): Record<string, unknown> {
  const errors = unsupportedSettings({ ...body, multivariate: false }, 'forecast', job);
  if (body.multivariate) errors.push({ field: 'multivariate', reason: 'true: no Horizon model draws joint (coupled) sample paths: chronos and the ' +
    'statistical models draw each series on its own; call with multivariate=False (a joint forecast: forecast(multivariate=True))' });
  if (body.quantiles != null) errors.push({ field: 'quantiles', reason: 'the paths are the model\'s own draws, not refined to a quantile grid: leave ' +
    'quantiles out (forecast(quantiles=…) gives quantiles)' });
  if (body.seed != null && !Number.isSafeInteger(body.seed)) errors.push({ field: 'seed', reason: `${body.seed}: at most ±2^53 − 1 (a JSON number ` +
    `Horizon reads exactly)` });
  const columns = body.series.X?.length ?? 0;
  const future = body.series.X_future?.length ?? 0;
  const sdkColumns = forecastColumns(columns, future);
  const model = resolveModel(
    ctx, request, reply, 'forecast', { requested: body.model, finetunedModelId: body.finetuned_model_id, columns: sdkColumns, needs: 'samples' },
  );
  const freq = horizonFreq(body.freq);
  if (!freq) errors.push({ field: 'freq', reason: `"${body.freq}": ${FREQ_REASON}` });
  checkCovariates(ctx, model, body.model, sdkColumns, errors);
  throwIfAny(errors);
  const series = splitSeries(body.series, { freq: freq!, h: body.h, futureColumns: new Set(Array.from({ length: future }, (_, j) => j)) }, errors);
  throwIfAny(errors);
  return { series, horizon: body.h, freq, model, quantiles: [], samples: body.n_paths, ...(body.seed == null ? {} : { seed: body.seed }) };
}

type Forecast = { model: string; series: { samples?: number[][] }[][]; warnings?: unknown[] };

/** POST /v1/forecast's answer with samples (or a completed job's) → the SDK's: path k holds every series' path k. */
export function simulateAnswer(result: Forecast, nPaths: number, h: number) {
  const paths = result.series.map((s) => s[0].samples ?? []);
  if (paths.some((p) => p.length !== nPaths || p.some((path) => path.length !== h))) {
    throw validationError([{ field: 'n_paths', reason: `the forecast holds no ${nPaths} paths of ${h} steps per series` }]);
  }
  const samples: number[] = [];
  for (let k = 0; k < nPaths; k++) for (const p of paths) samples.push(...p[k]);
  return { samples, sizes: paths.map(() => h), n_paths: nPaths, h, coupled: false, model: result.model, warnings: result.warnings ?? [] };
}

/** The paths and steps of a stored answer (a job's: the GET carries no request). */
function shapeOf(result: Forecast): { nPaths: number; h: number } {
  const first = result.series[0]?.[0]?.samples ?? [];
  return { nPaths: first.length, h: first[0]?.length ?? 0 };
}

export function simulateRoutes(app: App, ctx: NixtlaContext): void {
  app.post('/v2/simulate', {
    schema: {
      summary: 'Nixtla SDK: simulate, synchronously (POST /v1/forecast with samples)', tags: ['nixtla'], body: NixtlaSimulateRequest,
      response: {
        200: jsonResponse(NixtlaSimulateResponse, 'The sample paths as the SDK reads them'),
        ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504),
      },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const body = request.body as SimulateBody;
    const { body: result } = await callHorizon(app, request, reply, 'POST', '/v1/forecast', simulateRequest(ctx, request, reply, body, false));
    return simulateAnswer(result, body.n_paths, body.h);
  });

  app.post('/v2/simulate/async', {
    schema: {
      summary: 'Nixtla SDK: simulate() and jobs.simulate() (POST /v1/forecast-jobs with samples)', tags: ['nixtla'], body: NixtlaSimulateRequest,
      response: { 202: jsonResponse(NixtlaJobAccepted, 'Queued as a Horizon forecast job'), ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502) },
    },
  }, async (request, reply) => {
    const { body: job } = await callHorizon(
      app, request, reply, 'POST', '/v1/forecast-jobs', simulateRequest(ctx, request, reply, request.body as SimulateBody, true),
    );
    return reply.code(202).send({ job_id: job.job_id, status: 'pending' as const });
  });

  app.get('/v2/simulate/jobs/:id', {
    schema: {
      summary: 'Nixtla SDK: a simulate job (GET /v1/forecast-jobs/{id})', tags: ['nixtla'], params: NixtlaJobParams,
      response: { 200: jsonResponse(NixtlaJob, 'The job: `result` is what the synchronous call answers, once succeeded'), ...problemResponses(401, 404) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { body: job } = await callHorizon(app, request, reply, 'GET', `/v1/forecast-jobs/${encodeURIComponent(id)}`);
    sayModel(ctx, reply, job.model);
    const status = JOB_STATUS[job.status];
    const shape = status === 'succeeded' ? shapeOf(job) : undefined;
    return { job_id: job.job_id, status, result: shape ? simulateAnswer(job, shape.nPaths, shape.h) : null, error: job.error ?? null };
  });
}
