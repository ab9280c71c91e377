import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse, syncOnlyResponses } from '../schemas.ts';
import { EmbeddingsRequest, EmbeddingsResponse } from '../embedding-schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { checkEmbeddingsSize, planEmbeddings, runEmbeddings, type EmbeddingsBody } from '../../forecasting/embeddings.ts';

/** POST /v1/embeddings — each series' encoder embedding (and with granularity "patch" a vector per patch and the summary
 * token) from a model whose library gives them (src/forecasting/embeddings.ts; the worker's POST /embed). Every 4xx is
 * decided before the charge; an answer of more vectors than a synchronous call may hold is 413 use_job_api (POST
 * /v1/embedding-jobs takes the same body). Charged one request, as a forecast of the same series; a 5xx gives it back. */
export const embeddingsCreate: Route = (app, deps) => {
  app.post('/v1/embeddings', {
    schema: {
      summary: 'Embed series: a vector per series (or per patch) from a foundation model\'s encoder', tags: ['forecast'],
      body: EmbeddingsRequest,
      response: {
        200: jsonResponse(EmbeddingsResponse, 'The embeddings: `embeddings[i]` is input series i\'s'),
        ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504),
        ...syncOnlyResponses('/v1/embedding-jobs'),
      },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const plan = planEmbeddings(request.body as EmbeddingsBody, deps.registry, { pulls: deps.pulls, mode: 'sync' });
    checkEmbeddingsSize(plan, 'sync'); // too large for one answer: 413 use_job_api at once, nothing charged
    const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
    return withRefundOn5xx(charge, () => runEmbeddings(plan, deps.inference, deps.registry));
  });
};
