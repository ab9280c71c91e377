// What an embedding job runs (POST /v1/embedding-jobs). As an anomaly job does, it stores the request as sent,
// validated at submit, and plans it again here (planning is deterministic and cheap), then runs it exactly as POST
// /v1/embeddings runs it, so the result equals the synchronous answer. Its one /embed call is cut into fair chunks by
// the inference client (a foundation model's batch each: the job is never estimated over the chunk budget, foundation
// models cost 0 there); a call that finds no worker up waits for one (jobs/worker-wait.ts).
import {
  checkEmbeddingsSize, planEmbeddings, runEmbeddings, type EmbeddingsBody, type EmbeddingsPlan, type EmbeddingsResult,
} from '../forecasting/embeddings.ts';
import { runInContext } from '../contract/request-context.ts';
import type { CatalogModel } from '../runtime/catalog.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import { JsonText } from '../store/job-payloads.ts';
import { checkPrivateModelsExist } from './fine-tuning-job.ts';
import { WorkerWaitingInference, type WorkerWaitLogger, type WorkerWaitSettings } from './worker-wait.ts';

export interface EmbeddingJobSettings { registry: ModelRegistry; pulls?: PullManager }

/** The job's plan: the body planned as at submit (mode 'job': missing weights are pulled rather than refused), the
 * answer's size checked against a job's cap. */
export function planEmbeddingJob(body: EmbeddingsBody, settings: EmbeddingJobSettings): EmbeddingsPlan {
  const plan = planEmbeddings(body, settings.registry, { pulls: settings.pulls, mode: 'job' });
  checkEmbeddingsSize(plan, 'job');
  return plan;
}

export function runEmbeddingJob(body: EmbeddingsBody, inference: InferenceClient, settings: EmbeddingJobSettings): Promise<EmbeddingsResult> {
  return runEmbeddings(planEmbeddingJob(body, settings), inference, settings.registry, settings.pulls);
}

/** What the job lists of its plan (the model, its size and the granularity, known at submit). */
export function embeddingJobSummary(plan: EmbeddingsPlan): { model: string; model_size: string; granularity: EmbeddingsPlan['granularity'] } {
  return { model: plan.model, model_size: plan.size, granularity: plan.granularity };
}

export interface EmbeddingAttemptDeps extends EmbeddingJobSettings {
  /** the server's inference client (the attempt's waits for workers around it) */
  shared: InferenceClient;
  wait: WorkerWaitSettings;
  logger: WorkerWaitLogger & { info(o: object, m?: string): void };
  /** the account's private models: in the catalog for its job, as for its requests */
  privateModels: CatalogModel[];
}

/** One attempt of a queued embedding job (the server's job executor), logged as every job attempt is; its worker calls
 * and log lines carry the job id as their request id. A stored body over 1 MiB comes as JsonText. */
export function runEmbeddingJobAttempt(request: unknown, jobId: string, deps: EmbeddingAttemptDeps): Promise<EmbeddingsResult> {
  const body = (request instanceof JsonText ? request.parse() : request) as EmbeddingsBody;
  const fields = { request_id: jobId, job_id: jobId, kind: 'embeddings', model: body.model, series: body.series.length };
  const started = performance.now();
  return runInContext({ requestId: jobId, fields, privateModels: deps.privateModels }, async () => {
    const waiting = new WorkerWaitingInference(deps.shared, jobId, deps.wait, deps.logger);
    const took = () => ({
      duration_ms: Math.round((performance.now() - started) * 1e3) / 1e3, ...(waiting.waitedMs > 0 && { worker_wait_ms: Math.round(waiting.waitedMs) }),
    });
    try {
      checkPrivateModelsExist(body, deps.privateModels);
      const result = await runEmbeddingJob(body, waiting, deps);
      deps.logger.info({ ...fields, ...took() }, 'job attempt completed');
      return result;
    } catch (error) {
      deps.logger.warn({ ...fields, code: (error as { code?: string }).code ?? 'internal_error', ...took() }, 'job attempt failed');
      throw error;
    }
  });
}
