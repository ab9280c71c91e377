// The soak's short variant (issue 24; bench/soak.sh runs the long one): three kill -9 trials — the API
// process, a model worker, PostgreSQL (a throw-away cluster of its own, never the shared one) — during
// mixed load, each followed by recovery and the checks: usage == answers, no job lost, every job
// completed (its state written once), none stuck. Needs the PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const hasPostgres = existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));

describe('soak, short variant', () => {
  it('kill -9 of the API, a worker and PostgreSQL under mixed load: every check holds after each recovery', { skip: hasPostgres ? false : 'no PostgreSQL server binaries' }, () => {
    const run = spawnSync(process.execPath, ['bench/soak.ts', '--trials', '3', '--concurrency', '3'], { encoding: 'utf8', timeout: 600_000 });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.match(output, /3\/3 trials passed every check/, output);
    for (const target of ['api', 'worker', 'postgres']) assert.match(output, new RegExp(`kill -9 ${target}: ok — usage (\\d+) vs answers \\1 `), output);
  });
});
