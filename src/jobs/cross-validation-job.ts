// What a cross-validation job runs (POST /v1/cross-validation-jobs). The job stores the request as sent,
// validated at submit; it is planned again here (planning is deterministic and cheap, and the stored
// body is a fraction of the plan, which copies every window of every series per model), then run
// exactly as the synchronous route runs it, so the result equals POST /v1/cross-validation's answer.
import { HorizonError } from '../errors.ts';
import { planCrossValidation, runCrossValidation, type CrossValidationResult } from '../forecasting/cross-validation.ts';
import { planHierarchyCv, runHierarchyCv, type HierarchyCvBody, type HierarchyCvResult } from '../forecasting/hierarchy-cv.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';

export async function runCrossValidationJob(
  body: HierarchyCvBody, inference: InferenceClient, registry: ModelRegistry, pulls?: PullManager,
): Promise<CrossValidationResult | HierarchyCvResult> {
  // with a hierarchy: its nodes' cross-validation, each window reconciled (src/forecasting/hierarchy-cv.ts)
  const hierarchical = body.hierarchy !== undefined ? planHierarchyCv(body, registry, { pulls, mode: 'job' }) : undefined;
  const cv = hierarchical?.cv ?? planCrossValidation(body, registry, { pulls, mode: 'job' });
  // a job accepted while a model's weights were missing waits for their pull (auto-pull), as a forecast job does
  if (pulls) {
    for (const { plan } of cv.plans) {
      if (!registry.weightsMissing(plan.model, plan.size)) continue;
      await pulls.ensure(plan.model, plan.size).catch((error: Error) => {
        throw new HorizonError('pull_failed', `pulling the weights of ${plan.model} ${plan.size} failed: ${error.message}`);
      });
    }
  }
  return hierarchical ? runHierarchyCv(hierarchical, inference, registry) : runCrossValidation(cv, inference, registry);
}

/** The models of a cross-validation body as the job lists them (ids and sizes, after planning). */
export function jobModels(cv: ReturnType<typeof planCrossValidation>): { model: string; model_size: string }[] {
  return cv.plans.map(({ plan }) => ({ model: plan.model, model_size: plan.size }));
}
