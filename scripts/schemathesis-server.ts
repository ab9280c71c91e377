// The server that scripts/schemathesis.sh fuzzes: test/helpers.ts's real server (fresh data dir,
// PGlite, real Python workers) plus an account whose quotas the run cannot exhaust, so that a 429
// never hides what a request would have got. Writes "URL KEY KEY_ID" to the file named by argv[2] when ready;
// stops on SIGTERM/SIGINT and removes its data dir.
import { writeFileSync } from 'node:fs';
import { startTestServer } from '../test/helpers.ts';
import { createAccount } from '../src/store/accounts.ts';
import { createApiKey } from '../src/store/api-keys.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/schemathesis-server.ts <ready-file>');
const server = await startTestServer({ HORIZON_DEFAULT_MODEL: 'naive' });
const account = await createAccount(server.database.db, { name: 'schemathesis', dailyQuota: 1_000_000_000, weeklyQuota: 1_000_000_000 });
const key = await createApiKey(server.database.db, account.id, 'schemathesis');
// the key's id too: the hooks keep the run from revoking its own key (DELETE /v1/api-keys/{id})
writeFileSync(out, `${server.url} ${key.key} ${key.id}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => { void server.close().then(() => process.exit(0)); });
}
