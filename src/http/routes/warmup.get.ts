import type { Route } from '../app-types.ts';
import { WarmupPulling, WarmupQuery, WarmupResponse, problemResponses, jsonResponse } from '../schemas.ts';
import { checkWeights } from '../../forecasting/forecast.ts';
import { HorizonError } from '../../errors.ts';
import { findModel } from '../../runtime/catalog.ts';
import { PRISM_ID } from '../../forecasting/prism.ts';

/** GET /v1/warmup?model=&model_size= — loads the model on its worker (idempotent, not charged). With
 * HORIZON_AUTO_PULL=1 and its weights missing, starts (or joins) their pull and answers 202 with progress. */
export const warmupGet: Route = (app, deps) => {
  app.get('/v1/warmup', {
    schema: { summary: 'Load a model ahead of use', tags: ['models'], querystring: WarmupQuery, response: {
      200: jsonResponse(WarmupResponse, 'The model is loaded'),
      202: jsonResponse(WarmupPulling, 'Its weights are being pulled (HORIZON_AUTO_PULL=1); ask again'), ...problemResponses(401, 403, 422, 500, 502, 503, 504),
    } },
  }, async (request, reply) => {
    const modelId = request.query.model ?? deps.registry.defaultModel;
    const group = deps.registry.groupFor(modelId);
    const model = findModel(deps.registry.catalog, modelId)!;
    const size = request.query.model_size ?? deps.registry.defaultSize(model);
    if (!model.sizes[size]) {
      const sizes = Object.keys(model.sizes).join(', ');
      throw new HorizonError(
        'validation_failed', `model "${modelId}" has no size "${size}"; sizes: ${sizes}`,
        { errors: [{ field: 'model_size', reason: `unknown size "${size}"; sizes of ${modelId}: ${sizes}` }] },
      );
    }
    const pulling = checkWeights(deps.registry, deps.pulls, modelId, size, 'warmup');
    if (pulling) {
      return reply.code(202).header('retry-after', '2').send({
        model: modelId, model_size: size, status: 'pulling' as const, bytes_done: pulling.bytes_done, bytes_total: pulling.bytes_total,
        files_done: pulling.files_done, files_total: pulling.files_total, started_at: pulling.started_at,
      });
    }
    if (modelId === PRISM_ID) {
      // warming the ensemble warms its members, side by side
      const loads = await Promise.all(deps.registry.prismMembers().map((m) => deps.inference.load(m.group, m.model, m.size)));
      const devices = [...new Set(loads.map((l) => l.device))].join(',');
      return { model: modelId, model_size: size, status: 'warm' as const, load_ms: Math.max(0, ...loads.map((l) => l.load_ms)), device: devices };
    }
    const loaded = await deps.inference.load(group, modelId, size);
    return { model: modelId, model_size: size, status: 'warm' as const, load_ms: loaded.load_ms, device: loaded.device };
  });
};
