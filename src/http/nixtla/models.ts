import { Type } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { validationError } from '../../errors.ts';
import { findModel } from '../../runtime/catalog.ts';
import { AUTO_ID, defaultCandidates } from '../../forecasting/auto.ts';
import { didYouMean } from '../../forecasting/did-you-mean.ts';
import { ModelParams, ModelParamsQuery } from './schemas.ts';
import { sayModel, TIMEGPT_NAME, type NixtlaContext } from './common.ts';

/** TimeGPT's names as nixtla==0.9.0 documents them: accepted as `model`, each meaning HORIZON_NIXTLA_DEFAULT_MODEL. */
export const TIMEGPT_MODELS = ['timegpt-1', 'timegpt-1-long-horizon', 'timegpt-2', 'timegpt-2-mini', 'timegpt-2-pro', 'timegpt-2.1', 'azureai'];

const ModelList = Type.Object({
  models: Type.Array(Type.Object({
    name: Type.String({ description: 'a Horizon model id, or "auto"' }),
    description: Type.String(),
    max_context: Type.Integer(),
    max_horizon: Type.Integer(),
    covariates: Type.Object({ past: Type.Boolean(), future: Type.Boolean(), static: Type.Boolean() }),
  })),
  timegpt_names: Type.Object(
    { names: Type.Array(Type.String()), model: Type.String({ description: 'HORIZON_NIXTLA_DEFAULT_MODEL' }) },
    { description: 'TimeGPT names, accepted as `model`: each runs this Horizon model' },
  ),
});

/** The caps of a model for the SDK's model_params: `auto` takes the widest of its candidates. */
function caps(ctx: NixtlaContext, model: string): { input_size: number; horizon: number } | undefined {
  const sized = (id: string, size?: string) => {
    const entry = findModel(ctx.registry.catalog, id);
    const limits = entry && entry.sizes[size ?? ctx.registry.defaultSize(entry)];
    return limits && { input_size: limits.max_context, horizon: limits.max_horizon };
  };
  if (model !== AUTO_ID) return ctx.registry.availableIds().includes(model) ? sized(model) : undefined;
  const candidates = ctx.config.autoCandidates?.length ? ctx.config.autoCandidates : defaultCandidates(ctx.registry);
  const all = candidates.map((c) => sized(...(c.split(':') as [string, string?]))).filter((c) => c !== undefined);
  return all.length ? { input_size: Math.max(...all.map((c) => c.input_size)), horizon: Math.max(...all.map((c) => c.horizon)) } : undefined;
}

export function modelRoutes(app: App, ctx: NixtlaContext): void {
  // GET /nixtla/v2/models — NixtlaClient.list_models(): the ids this deployment serves, and "auto"
  app.get('/v2/models', {
    schema: {
      summary: 'Nixtla SDK: list_models (the served model ids)', tags: ['nixtla'],
      response: { 200: jsonResponse(ModelList, 'Served models; `timegpt_names` says what a TimeGPT name runs'), ...problemResponses(401) },
    },
  }, async () => {
    const served = ctx.registry.list().filter((m) => m.available).map(
      (m) => ({ name: m.model_id, description: m.description, max_context: m.max_context, max_horizon: m.max_horizon, covariates: m.covariates }),
    );
    const auto = caps(ctx, AUTO_ID);
    if (auto) served.push({ name: AUTO_ID, description: 'Horizon\'s model "auto": cross-validates candidate models on the request\'s series and forecasts ' +
      'with the winner (forecasts only)', max_context: auto.input_size, max_horizon: auto.horizon, covariates: { past: false, future: false, static: false } });
    return { models: served, timegpt_names: { names: TIMEGPT_MODELS, model: ctx.nixtlaDefaultModel } };
  });

  // GET /nixtla/model_params?model=&freq= — the SDK asks before each call how much history to send
  app.get('/model_params', {
    schema: { summary: 'Nixtla SDK: a model\'s input size and horizon', tags: ['nixtla'], querystring: ModelParamsQuery, response: {
      200: jsonResponse(ModelParams, 'input_size: the max_context of its default size (the SDK sends at most that much history); horizon: its max_horizon'),
      ...problemResponses(401, 422),
    } },
  }, async (request, reply) => {
    const { model: requested } = request.query as { model: string };
    const model = TIMEGPT_NAME.test(requested) ? ctx.nixtlaDefaultModel : requested;
    const found = caps(ctx, model);
    if (!found) {
      const served = [...ctx.registry.availableIds(), AUTO_ID];
      throw validationError([{ field: 'model', reason: `"${requested}" is not a model this deployment serves${didYouMean(requested, served)}; ` +
        `served: ${served.join(', ')} (and the TimeGPT names, meaning ${ctx.nixtlaDefaultModel})` }]);
    }
    sayModel(ctx, reply, model);
    return { detail: found, model };
  });
}
