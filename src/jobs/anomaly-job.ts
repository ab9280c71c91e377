// What an anomaly job runs (POST /v1/anomaly-jobs). As a cross-validation job does, it stores the request as
// sent, validated at submit, and plans it again here (planning is deterministic and cheap; mode windows' plan
// copies a window of history per scored timestep, many times the body), then runs it exactly as POST
// /v1/anomalies runs it, so the result equals the synchronous answer. Its model calls are chunked over their
// series by the job's client when the job is over the chunk budget (jobs/chunks.ts): mode in-sample's
// series are whole histories, one fit each; mode windows' are the windows, one fit each.
import { HorizonError } from '../errors.ts';
import { planAnomalies, runAnomalies, type AnomaliesBody, type AnomaliesPlan } from '../forecasting/anomalies.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';

export interface AnomalyJobSettings { registry: ModelRegistry; pulls?: PullManager; autoCandidates?: string[] }

/** The job's plan: the body planned as at submit (mode 'job': missing weights are pulled rather than refused). */
export function planAnomalyJob(body: AnomaliesBody, settings: AnomalyJobSettings): AnomaliesPlan {
  return planAnomalies(body, settings.registry, { pulls: settings.pulls, mode: 'job', autoCandidates: settings.autoCandidates });
}

export async function runAnomalyJob(body: AnomaliesBody, inference: InferenceClient, settings: AnomalyJobSettings): Promise<ReturnType<typeof runAnomalies>> {
  const { registry, pulls } = settings;
  const plan = planAnomalyJob(body, settings);
  // a job accepted while a model's weights were missing waits for their pull (auto-pull), as a forecast job does
  if (pulls) {
    for (const call of plan.calls) {
      if (!registry.weightsMissing(call.model, call.size)) continue;
      await pulls.ensure(call.model, call.size).catch((error: Error) => {
        throw new HorizonError('pull_failed', `pulling the weights of ${call.model} ${call.size} failed: ${error.message}`);
      });
    }
  }
  return runAnomalies(plan, inference, registry);
}

/** What the job lists of its plan (the answer's model, model_size and mode, known at submit). */
export function anomalyJobSummary(plan: AnomaliesPlan): { model: string; model_size: string; mode: AnomaliesPlan['mode'] } {
  return { model: plan.model, model_size: plan.size, mode: plan.mode };
}
