// The playground's files (web/ and the browser builds of its npm libraries), read once when the
// routes are registered: a handful of small files, so no static-file plugin and no disk reads per
// request. Only the names listed here are served, so nothing else under web/ or node_modules leaks.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PlaygroundFile { body: Buffer; type: string; cacheControl: string }

const web = fileURLToPath(new URL('../../../web/', import.meta.url));
const require = createRequire(import.meta.url);
// the packages' main entries sit next to their minified browser builds
const echartsDist = dirname(require.resolve('echarts'));
const papaparseDir = dirname(require.resolve('papaparse'));

/** Security headers of every playground response: scripts only from this origin, no framing.
 * 'unsafe-inline' styles: ECharts writes its tooltip as HTML with style attributes. */
export const PLAYGROUND_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8', '.md': 'text/markdown; charset=utf-8', '.svg': 'image/svg+xml', '': 'text/plain; charset=utf-8',
};

function file(path: string, cacheControl = 'no-cache'): PlaygroundFile {
  const ext = /\.[a-z]+$/.exec(path)?.[0] ?? '';
  return { body: readFileSync(path), type: TYPES[ext] ?? TYPES[''], cacheControl };
}

let loaded: { page: PlaygroundFile; assets: Map<string, PlaygroundFile> } | undefined;

export function playgroundFiles(): { page: PlaygroundFile; assets: Map<string, PlaygroundFile> } {
  if (loaded) return loaded;
  const versioned = 'public, max-age=31536000, immutable'; // the URL names the library's version
  const echartsVersion = (require('echarts/package.json') as { version: string }).version;
  const papaparseVersion = (require('papaparse/package.json') as { version: string }).version;
  const assets = new Map<string, PlaygroundFile>([
    ['app.js', file(join(web, 'app.js'))],
    ['data.js', file(join(web, 'data.js'))],
    ['chart.js', file(join(web, 'chart.js'))],
    ['series.js', file(join(web, 'series.js'))],
    ['hierarchy.js', file(join(web, 'hierarchy.js'))],
    ['style.css', file(join(web, 'style.css'))],
    ['horizon-logo.svg', file(join(web, 'horizon-logo.svg'))],
    [`echarts-${echartsVersion}.min.js`, file(join(echartsDist, 'echarts.common.min.js'), versioned)],
    [`papaparse-${papaparseVersion}.min.js`, file(join(papaparseDir, 'papaparse.min.js'), versioned)],
  ]);
  for (const name of ['airpassengers.csv', 'etth1-first-14-days.csv', 'nn5-weekly.csv', 'nn5-weekly-hierarchy.csv', 'SOURCES.md', 'ETT-LICENSE']) {
    assets.set(`samples/${name}`, file(join(web, 'samples', name)));
  }
  const html = readFileSync(join(web, 'index.html'), 'utf8')
    .replaceAll('{{echarts}}', `echarts-${echartsVersion}.min.js`)
    .replaceAll('{{papaparse}}', `papaparse-${papaparseVersion}.min.js`);
  loaded = { page: { body: Buffer.from(html), type: TYPES['.html'], cacheControl: 'no-cache' }, assets };
  return loaded;
}
