import type { Route } from '../app-types.ts';
import { HorizonError } from '../../errors.ts';
import { PLAYGROUND_HEADERS, playgroundFiles } from './playground-files.ts';

/** GET /playground/assets/* — the playground's scripts, styles, chart/CSV libraries and samples. */
export const playgroundAssetsGet: Route = (app) => {
  const { assets } = playgroundFiles();
  app.get<{ Params: { '*': string } }>('/playground/assets/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get(request.params['*']);
    if (!asset) throw new HorizonError('not_found', `no playground asset ${request.params['*']}`);
    return reply.headers(PLAYGROUND_HEADERS).header('cache-control', asset.cacheControl).type(asset.type).send(asset.body);
  });
};
