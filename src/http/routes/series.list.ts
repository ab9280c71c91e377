import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { SeriesList, SeriesListQuery } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { listSeries } from '../../store/series.ts';
import { queryInt } from './series-view.ts';

/** GET /v1/series — the account's stored series by id, cursor-paginated (no histories). */
export const seriesList: Route = (app, deps) => {
  app.get('/v1/series', {
    schema: {
      summary: 'List stored series', tags: ['series'], querystring: SeriesListQuery,
      response: { 200: jsonResponse(SeriesList, 'A page of the account\'s series, by id'), ...problemResponses(401, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const limit = queryInt(request.query.limit, 'limit', 100, 1, 1000);
    let after: string | undefined;
    if (request.query.cursor !== undefined) {
      after = Buffer.from(request.query.cursor, 'base64url').toString();
      if (!after.startsWith('s:')) throw new HorizonError(
        'validation_failed', 'cursor is not one this API returned', { errors: [{ field: 'cursor', reason: 'not a cursor returned by this API' }] },
      );
      after = after.slice(2);
    }
    const rows = await listSeries(deps.database.db, owner.accountId, { limit: limit + 1, after });
    const page = rows.slice(0, limit);
    return {
      series: page.map(
        (r) => ({ series_id: r.series_id, freq: r.freq, points: r.points, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() }),
      ),
      next_cursor: rows.length > limit ? Buffer.from(`s:${page[page.length - 1].series_id}`).toString('base64url') : null,
    };
  });
};
