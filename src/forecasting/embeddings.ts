// Series embeddings (POST /v1/embeddings, issue 38 part 3): the encoder embeddings of a model whose library gives them
// (catalog `embeddings`: chronos, chronos-bolt and chronos-2 per series and per patch, tirex per series), from the
// worker's POST /embed (docs/runtime-protocol.md). The plan decides every 4xx before anything is charged or stored;
// a job (POST /v1/embedding-jobs) plans the same body again and runs it the same way, so its result is the sync answer.
//
// What is embedded of a series: its last `context` values (default and cap: the size's max_context, as a forecast's
// context), from its first observed value on (leading missing values carry nothing a model could read). Nulls inside
// are missing values, which the models mask. Dates play no part: the models embed values at regular steps.
import { HorizonError, type FieldError } from '../errors.ts';
import { findModel, type CatalogModel } from '../runtime/catalog.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import { noteLogFields } from '../contract/request-context.ts';
import { didYouMean, modelHint } from './did-you-mean.ts';
import { checkWeights } from './forecast.ts';
import { describeModels } from './joint-and-samples.ts';
import { RequestValidationError, type RequestWarning } from './normalize.ts';

export type Granularity = 'series' | 'patch';

export interface EmbeddingsBody {
  series: { target: (number | null)[] }[];
  model?: string;
  model_size?: string;
  granularity?: Granularity;
  context?: number;
}

export interface EmbeddingsPlan {
  model: string;
  size: string;
  granularity: Granularity;
  /** the context in effect: the request's, capped at max_context, else max_context */
  context: number;
  /** values per patch of the model (catalog `embeddings.patch_size`) */
  patchSize: number;
  /** per series: the values embedded, from its first observed value among its last `context` */
  series: { target: (number | null)[] }[];
  /** per series: the position (0-based, in the series as sent) of its first embedded value */
  embeddedFrom: number[];
  warnings: RequestWarning[];
}

/** One series' answer: `patches` and `summary` with granularity patch. */
export interface SeriesEmbedding {
  embedding: number[];
  embedded_from: number;
  patches?: (number[] | null)[];
  summary?: number[] | null;
}

export interface EmbeddingsResult {
  model: string;
  model_size: string;
  granularity: Granularity;
  dimension: number;
  patch_size: number;
  context: number;
  embeddings: SeriesEmbedding[];
  warnings: RequestWarning[];
}

/** Vectors one synchronous answer may hold (a series' vector, and with patches each patch's and the summary): at 768
 * values each (chronos-2 base) about 60 MB of JSON. Above: 413 use_job_api. */
export const EMBED_SYNC_MAX_VECTORS = 4096;
/** Vectors one job's result may hold (about 1 GB of JSON at 768 values); above: 413, split the series across jobs. */
export const EMBED_JOB_MAX_VECTORS = 65_536;

/** The catalog models whose library gives embeddings (catalog order); `patches`: those that give them per patch. */
export function embeddingModels(registry: ModelRegistry, patches = false): CatalogModel[] {
  return registry.catalog.models.filter((m) => m.embeddings !== undefined && (!patches || m.embeddings.patches));
}

/** The model of a request that names none: the deployment's default model when it embeds, else the first served one
 * that does, else the first in the catalog that does (its 422 then says how to serve it). */
function defaultEmbeddingModel(registry: ModelRegistry): string {
  const candidates = embeddingModels(registry);
  const served = new Set(registry.availableIds());
  const preferred = candidates.find((m) => m.id === registry.defaultModel && served.has(m.id)) ?? candidates.find((m) => served.has(m.id));
  return (preferred ?? candidates[0])?.id ?? registry.defaultModel;
}

function resolveModel(body: EmbeddingsBody, registry: ModelRegistry, errors: FieldError[]): CatalogModel | undefined {
  const id = body.model ?? defaultEmbeddingModel(registry);
  const model = findModel(registry.catalog, id);
  const which = `models that give embeddings: ${describeModels(registry, embeddingModels(registry))}`;
  if (!model) {
    const hint = modelHint(id, embeddingModels(registry).map((m) => m.id));
    errors.push({ field: 'model', reason: `model ${JSON.stringify(id)} is not a known model id${hint}; ${which}` });
  } else if (!model.embeddings) {
    errors.push({ field: 'model', reason: `${id} gives no embeddings (its library has no embedding path); ${which}` });
  } else {
    return model;
  }
  return undefined;
}

function resolveSize(model: CatalogModel, requested: string | undefined, registry: ModelRegistry, errors: FieldError[]): string | undefined {
  const size = requested ?? registry.defaultSize(model);
  if (Object.hasOwn(model.sizes, size)) return size;
  const sizes = Object.keys(model.sizes);
  errors.push({ field: 'model_size', reason: `model_size ${JSON.stringify(size)} is not a size of model ${model.id}${didYouMean(size, sizes)}; ` +
    `its sizes: ${sizes.join(', ')}` });
  return undefined;
}

/** Each series' embedded values and where they start; a series with no observed value among them is a 422. */
function embeddedWindows(
  series: EmbeddingsBody['series'], context: number, errors: FieldError[],
): { windows: { target: (number | null)[] }[]; from: number[]; cut: number } {
  const windows: { target: (number | null)[] }[] = [];
  const from: number[] = [];
  let cut = 0;
  series.forEach(({ target }, i) => {
    const start = Math.max(0, target.length - context);
    if (start > 0) cut++;
    let first = start;
    while (first < target.length && typeof target[first] !== 'number') first++;
    if (first === target.length) {
      const what = start > 0 ? `its last ${context} values (context ${context}) hold` : 'it holds';
      errors.push({ series: i, field: `series[${i}].target`, reason: `${what} no observed value: nothing to embed` +
        `${start > 0 ? '; raise context or send more recent observations' : ''}` });
      return;
    }
    windows.push({ target: target.slice(first) });
    from.push(first);
  });
  return { windows, from, cut };
}

/**
 * Everything that can make an embeddings request a 4xx: the model (unknown, or without embeddings: a 422 naming the
 * models that give them and whether this deployment serves each), its size, `granularity` "patch" for a model that
 * gives one vector per series, the context (capped at max_context with a warning), series without an observed value,
 * a model not served (422, licence 403, missing weights as a forecast's: checkWeights).
 */
export function planEmbeddings(body: EmbeddingsBody, registry: ModelRegistry, options: { pulls?: PullManager; mode?: 'sync' | 'job' } = {}): EmbeddingsPlan {
  const errors: FieldError[] = [];
  const warnings: RequestWarning[] = [];
  const model = resolveModel(body, registry, errors);
  const size = model && resolveSize(model, body.model_size, registry, errors);
  const granularity = body.granularity ?? 'series';
  if (model?.embeddings && granularity === 'patch' && !model.embeddings.patches) {
    errors.push({ field: 'granularity', reason: `"patch": ${model.id}'s library gives one embedding per series, none per patch; models that give them ` +
      `per patch: ${describeModels(registry, embeddingModels(registry, true))}` });
  }
  const cap = model && size ? model.sizes[size].max_context : undefined;
  const context = cap === undefined ? body.context ?? 0 : Math.min(body.context ?? cap, cap);
  if (cap !== undefined && body.context !== undefined && body.context > cap) {
    warnings.push({ field: 'context', message: `context ${body.context} exceeds the max_context ${cap} of model ${model!.id} (size ${size}); using ${cap}` });
  }
  noteLogFields({ model: model?.id ?? body.model, size, series: body.series.length });
  const { windows, from, cut } = cap === undefined ? { windows: [], from: [], cut: 0 } : embeddedWindows(body.series, context, errors);
  if (errors.length > 0) throw new RequestValidationError(errors);
  if (cut > 0) {
    warnings.push({ field: 'context', message: `${cut} series ${cut === 1 ? 'is' : 'are'} longer than the context ${context} of model ${model!.id} ` +
      `(size ${size}): only the last ${context} values of each were embedded (embedded_from says where each embedding starts)` });
  }
  registry.groupFor(model!.id);
  checkWeights(registry, options.pulls, model!.id, size!, options.mode ?? 'sync');
  return {
    model: model!.id, size: size!, granularity, context, patchSize: model!.embeddings!.patch_size, series: windows, embeddedFrom: from, warnings,
  };
}

/** The vectors the plan's answer holds: one per series, and with patches one per patch and the summary token. */
export function embeddingVectors(plan: EmbeddingsPlan): number {
  if (plan.granularity === 'series') return plan.series.length;
  return plan.series.reduce((n, s) => n + 2 + Math.ceil(s.target.length / plan.patchSize), 0);
}

/** 413 when the answer would hold more vectors than a synchronous call (use_job_api: the job route takes the same body)
 * or a job (payload_too_large: split the series across requests) may hold; checked before anything is charged. */
export function checkEmbeddingsSize(plan: EmbeddingsPlan, mode: 'sync' | 'job'): void {
  const vectors = embeddingVectors(plan);
  const what = `this request's answer holds ${vectors} vectors (${plan.series.length} series` +
    `${plan.granularity === 'patch' ? `, each with a vector per patch of ${plan.patchSize} values and its summary token` : ''})`;
  if (mode === 'sync' && vectors > EMBED_SYNC_MAX_VECTORS) {
    throw new HorizonError('use_job_api', `${what}, over the ${EMBED_SYNC_MAX_VECTORS} a synchronous call may answer; send the same body to ` +
      'POST /v1/embedding-jobs: a job stores the result, and GET /v1/embedding-jobs/{job_id} gives it');
  }
  if (mode === 'job' && vectors > EMBED_JOB_MAX_VECTORS) {
    throw new HorizonError('payload_too_large', `${what}, over the ${EMBED_JOB_MAX_VECTORS} one job may store; split the series across several jobs` +
      `${plan.granularity === 'patch' ? ', or ask for granularity "series" (one vector per series)' : ''}`);
  }
}

/** Runs a plan: one /embed call (cut into fair chunks by the client), the answer in the API's shape. A job's plan whose
 * weights were missing at submit waits for their pull (auto-pull), as a forecast job does. */
export async function runEmbeddings(plan: EmbeddingsPlan, inference: InferenceClient, registry: ModelRegistry, pulls?: PullManager): Promise<EmbeddingsResult> {
  if (pulls && registry.weightsMissing(plan.model, plan.size)) {
    await pulls.ensure(plan.model, plan.size).catch((error: Error) => {
      throw new HorizonError('pull_failed', `pulling the weights of ${plan.model} ${plan.size} failed: ${error.message}`);
    });
  }
  const answer = await inference.embed(registry.groupFor(plan.model), {
    model: plan.model, size: plan.size, granularity: plan.granularity, series: plan.series,
  });
  if (answer.embeddings.length !== plan.series.length) {
    throw new HorizonError('internal_error', `the worker answered ${answer.embeddings.length} embeddings for ${plan.series.length} series`);
  }
  const embeddings = answer.embeddings.map((e, i): SeriesEmbedding => (plan.granularity === 'patch'
    ? { embedding: e.vector, embedded_from: plan.embeddedFrom[i], patches: e.patches ?? [], summary: e.summary ?? null }
    : { embedding: e.vector, embedded_from: plan.embeddedFrom[i] }));
  return {
    model: plan.model, model_size: plan.size, granularity: plan.granularity, dimension: answer.dimension, patch_size: answer.patch_size,
    context: plan.context, embeddings, warnings: [...plan.warnings, ...answer.warnings.map((message) => ({ field: 'model', message }))],
  };
}
