import type { Route } from '../app-types.ts';
import { PLAYGROUND_HEADERS, playgroundFiles } from './playground-files.ts';

/** GET /playground — the browser playground (web/index.html). Public: the page holds no data; its
 * API calls carry the key the user types. */
export const playgroundGet: Route = (app) => {
  const { page } = playgroundFiles();
  app.get('/playground', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.headers(PLAYGROUND_HEADERS).header('cache-control', page.cacheControl).type(page.type).send(page.body));
  // the address as typed with a slash; the page's asset paths are absolute, so either would work
  app.get('/playground/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/playground', 308));
};
