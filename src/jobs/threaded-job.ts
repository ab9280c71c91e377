// A large forecast job run off the event loop (issue 32), the way the sync route runs a large forecast
// (http/large-forecast.ts). Its stored plan (over 1 MiB: read back from its parts as text, store/job-payloads.ts)
// goes to a forecast thread, which parses it and encodes the worker's requests, one per fair chunk; the loop
// sends them and collects the answers' text; a thread joins and shapes them into the result's JSON, which is
// stored as it is. The result is the one runForecast gives on the loop: the same functions in the thread
// (test/jobs.large-threads.test.ts compares them). A plan that is more than one plain model call (prism, a
// backtest, auto, stored series to keep) or that runs in stored chunks (jobs/chunks.ts) is parsed and run on
// the loop as before.
import type { AnswerThreads } from '../forecasting/answer-threads.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import type { Catalog, CatalogModel } from '../runtime/catalog.ts';
import type { ContractShape } from '../forecasting/contract.ts';
import { JsonText } from '../store/job-payloads.ts';
import { HorizonError } from '../errors.ts';
import { runInContext } from '../contract/request-context.ts';
import { checkPrivateModelsExist } from './fine-tuning-job.ts';

/** A stored plan for a forecast thread to read (http/forecast-thread.ts planStoredJob); the parts it was stored in, as they are. */
export interface JobPlanJob {
  id: number; kind: 'job-plan'; plan: string | readonly string[];
  /** the inference client's fair chunks (0: none; cpuChunkSeries for a CPU model); over `budgetMs` of estimated
   * model time the job runs in stored chunks (jobs/chunks.ts), which is the loop's path */
  context: { catalog: Catalog; float32: boolean; cpuWorkers: number; chunkSeries: number; cpuChunkSeries: number; budgetMs: number };
}
/** The worker's requests (one per fair chunk) and what shaping the answer needs; or the loop's path. */
export interface PlannedJobRun {
  id: number; kind: 'planned'; model: string; size: string; seriesCount: number; shape: ContractShape;
  inferBody: string; inferBodies?: string[]; chunkSeries: number;
}
export type JobPlanReply = PlannedJobRun | { id: number; kind: 'fallback' };

export interface ThreadedJobSettings {
  threads: AnswerThreads;
  registry: ModelRegistry;
  /** the server's client: its fair chunk sizes are the ones the thread cuts the calls into */
  inference: InferenceClient;
  float32: boolean;
  cpuWorkers: number;
  /** HORIZON_JOB_CHUNK_BUDGET_MS: a job estimated over it runs in stored chunks, on the loop's path */
  budgetMs: number;
  pulls?: PullManager;
  logger: { info(o: object, m?: string): void; warn(o: object, m?: string): void };
}

/** The stored plan read in a thread: 'planned', or parsed here for the loop's path. Called within the job's
 * request context, where the registry's catalog has the account's private models. */
export async function readStoredPlan(text: JsonText, settings: ThreadedJobSettings): Promise<{ planned: PlannedJobRun } | { request: unknown }> {
  const { registry, inference } = settings;
  const context: JobPlanJob['context'] = {
    catalog: registry.catalog, float32: settings.float32, cpuWorkers: settings.cpuWorkers,
    chunkSeries: inference.chunkSeries, cpuChunkSeries: inference.cpuChunkSeries, budgetMs: settings.budgetMs,
  };
  const plan = text.value instanceof Uint8Array ? text.text() : text.value;
  const reply = await settings.threads.run({ kind: 'job-plan', plan, context } satisfies Omit<JobPlanJob, 'id'>) as JobPlanReply;
  if (reply.kind === 'planned') return { planned: reply };
  return { request: text.parse() };
}

/** One attempt of a planned job, logged as the loop's attempts are: its model calls through `client` (the
 * attempt's), the answers shaped into the result's JSON in a thread. */
export async function runThreadedJob(
  planned: PlannedJobRun, jobId: string, privateModels: CatalogModel[], client: InferenceClient, settings: ThreadedJobSettings,
): Promise<JsonText> {
  const fields = { request_id: jobId, job_id: jobId, model: planned.model, size: planned.size, series: planned.seriesCount, request: 'thread' as const };
  const started = performance.now();
  const took = () => ({ duration_ms: Math.round((performance.now() - started) * 1e3) / 1e3, ...waited(client) });
  return runInContext({ requestId: jobId, fields, privateModels }, async () => {
    try {
      checkPrivateModelsExist({ model: planned.model }, privateModels);
      const result = await runPlannedJob(planned, client, settings);
      settings.logger.info({ ...fields, ...took() }, 'job attempt completed');
      return result;
    } catch (error) {
      settings.logger.warn({ ...fields, code: (error as { code?: string }).code ?? 'internal_error', ...took() }, 'job attempt failed');
      throw error;
    }
  });
}

/** A client that waited for workers says how long (jobs/worker-wait.ts), as the loop's attempts log it. */
function waited(client: InferenceClient): { worker_wait_ms?: number } {
  const ms = (client as { waitedMs?: number }).waitedMs ?? 0;
  return ms > 0 ? { worker_wait_ms: Math.round(ms) } : {};
}

async function runPlannedJob(planned: PlannedJobRun, client: InferenceClient, settings: ThreadedJobSettings): Promise<JsonText> {
  const { registry, pulls } = settings;
  // a job accepted while its weights were missing waits for their pull (auto-pull), as runForecast does
  if (pulls && registry.weightsMissing(planned.model, planned.size)) {
    await pulls.ensure(planned.model, planned.size).catch((error: Error) => {
      throw new HorizonError('pull_failed', `pulling the weights of ${planned.model} ${planned.size} failed: ${error.message}`);
    });
  }
  const group = registry.groupFor(planned.model);
  const send = (body: string) => client.inferEncodedText(group, body);
  const { threads } = settings;
  const shaped = planned.inferBodies
    ? await threads.shapeChunks(planned.inferBodies, send, planned.shape, planned.chunkSeries)
    : await threads.shape(await send(planned.inferBody), planned.shape, planned.chunkSeries);
  return new JsonText(shaped.body);
}
