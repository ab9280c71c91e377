// The server that scripts/schemathesis.sh fuzzes: test/helpers.ts's real server (fresh data dir,
// PGlite, real Python workers) plus an account whose quotas the run cannot exhaust, so that a 429
// never hides what a request would have got. Writes "URL KEY" to the file named by argv[2] when ready;
// stops on SIGTERM/SIGINT and removes its data dir.
import { writeFileSync } from 'node:fs';
import { startTestServer } from '../test/helpers.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/schemathesis-server.ts <ready-file>');
const server = await startTestServer({ HORIZON_DEFAULT_MODEL: 'naive' });
const { key } = await server.newAccount({ daily: 1_000_000_000, weekly: 1_000_000_000 });
writeFileSync(out, `${server.url} ${key}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => { void server.close().then(() => process.exit(0)); });
}
