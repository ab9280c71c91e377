import type { Route } from '../app-types.ts';
import { playgroundFiles } from './playground-files.ts';

/** GET /favicon.ico — the Horizon logo (the playground's icon, SVG), for browsers that ask the root for one:
 * a 404 here filled every browser visit's log and console. Public, like the playground. */
export const faviconGet: Route = (app) => {
  const icon = playgroundFiles().assets.get('horizon-logo.svg')!;
  app.get('/favicon.ico', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type(icon.type).send(icon.body));
};
