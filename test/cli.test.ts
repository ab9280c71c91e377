// The operator CLI (contract B.9) as a user runs it: `npx horizon …` from the checkout.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/store/database.ts';
import { authenticateKey } from '../src/store/api-keys.ts';
import { seedEmbeddedStore } from './helpers.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'horizon-cli-'));
before(() => seedEmbeddedStore(dataDir));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `npx horizon …` with the machine's PATH (its old Node included), as an operator would. */
async function horizon(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['--no-install', 'horizon', ...args], { env: { ...process.env, HORIZON_DATA_DIR: dataDir }, cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('horizon CLI', () => {
  it('accounts create, keys create/list/revoke against the embedded store', async () => {
    const account = await horizon('accounts', 'create', 'acme', '--daily-quota', '50', '--weekly-quota', '300', '--json');
    assert.equal(account.code, 0, account.stderr);
    const parsed = JSON.parse(account.stdout);
    assert.equal(parsed.name, 'acme');
    assert.equal(parsed.daily_quota, 50);
    assert.equal(parsed.weekly_quota, 300);
    const dup = await horizon('accounts', 'create', 'acme');
    assert.equal(dup.code, 2);
    assert.match(dup.stderr, /already exists/);

    const key = await horizon('keys', 'create', '--account', 'acme', '--name', 'ci', '--json');
    assert.equal(key.code, 0, key.stderr);
    const created = JSON.parse(key.stdout);
    assert.match(created.key, /^hzn_/);
    const plain = await horizon('keys', 'create', '--account', 'acme', '--name', 'ops');
    assert.match(plain.stdout, /hzn_\S+/);
    const dupKey = await horizon('keys', 'create', '--account', 'acme', '--name', 'ci');
    assert.equal(dupKey.code, 2);
    const list = await horizon('keys', 'list', '--account', 'acme', '--json');
    const keys = JSON.parse(list.stdout).keys;
    assert.equal(keys.length, 2);
    assert.ok(!list.stdout.includes(created.key.slice(18)), 'no secrets listed');
    const revoke = await horizon('keys', 'revoke', '--account', 'acme', '--id', created.id);
    assert.equal(revoke.code, 0, revoke.stderr);

    const database = await openDatabase({ dataDir });
    try {
      assert.equal(await authenticateKey(database.db, created.key), undefined, 'revoked');
      assert.ok(await authenticateKey(database.db, /hzn_\S+/.exec(plain.stdout)![0]));
    } finally { await database.close(); }
  });

  it('accounts list/update/disable/enable against the stopped embedded store; 0 = unlimited', async () => {
    const made = await horizon('accounts', 'create', 'ops', '--json');
    assert.equal(made.code, 0, made.stderr);
    assert.deepEqual([JSON.parse(made.stdout).daily_quota, JSON.parse(made.stdout).weekly_quota], [200, 1000], 'the contract\'s defaults');
    const update = await horizon('accounts', 'update', 'ops', '--daily-quota', '0', '--weekly-quota', '5000', '--json');
    assert.equal(update.code, 0, update.stderr);
    const updated = JSON.parse(update.stdout);
    assert.deepEqual([updated.name, updated.daily_quota, updated.weekly_quota, updated.disabled], ['ops', 0, 5000, false]);
    const disable = await horizon('accounts', 'disable', 'ops');
    assert.equal(disable.code, 0, disable.stderr);
    assert.match(disable.stdout, /^ops: daily quota unlimited \(used today 0\), weekly quota 5000 \(used this week 0\), disabled since \d{4}-/);
    const list = await horizon('accounts', 'list', '--json');
    assert.equal(list.code, 0, list.stderr);
    const ops = JSON.parse(list.stdout).accounts.find((a: { name: string }) => a.name === 'ops');
    assert.equal(ops.disabled, true);
    const table = await horizon('accounts', 'list');
    assert.match(table.stdout, /^ops +unlimited +0 +5000 +0 +disabled$/m);
    const enable = await horizon('accounts', 'enable', 'ops', '--json');
    assert.equal(JSON.parse(enable.stdout).disabled, false);

    const defaults = await run('npx', ['--no-install', 'horizon', 'accounts', 'create', 'defaults', '--json'], {
      env: { ...process.env, HORIZON_DATA_DIR: dataDir, HORIZON_DEFAULT_DAILY_QUOTA: '0', HORIZON_DEFAULT_WEEKLY_QUOTA: '0' },
    });
    assert.deepEqual([JSON.parse(defaults.stdout).daily_quota, JSON.parse(defaults.stdout).weekly_quota], [0, 0], 'HORIZON_DEFAULT_*_QUOTA');

    const noFlags = await horizon('accounts', 'update', 'ops');
    assert.equal(noFlags.code, 2);
    assert.match(noFlags.stderr, /needs --daily-quota N and\/or --weekly-quota N/);
    const nobody = await horizon('accounts', 'disable', 'nobody');
    assert.equal(nobody.code, 2);
    assert.match(nobody.stderr, /no account named "nobody"/);
    const negative = await horizon('accounts', 'update', 'ops', '--daily-quota=-3');
    assert.equal(negative.code, 2);
    assert.match(negative.stderr, /--daily-quota must be a non-negative integer, got "-3"/);
    const ambiguous = await horizon('accounts', 'update', 'ops', '--daily-quota', '-3');
    assert.equal(ambiguous.code, 2, 'a parse error is a usage error');
  });

  it('eval runs the evaluation harness through the service', async () => {
    const out = mkdtempSync(join(tmpdir(), 'horizon-eval-'));
    try {
      const res = await horizon('eval', '--models', 'seasonal-naive', '--datasets', 'airpassengers', '--out', out, '--name', 'cli');
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /airpassengers/);
      assert.match(res.stdout, /seasonal-naive/);
    } finally { rmSync(out, { recursive: true, force: true }); }
  });

  it('usage errors exit 2 with a message', async () => {
    const unknownAccount = await horizon('keys', 'create', '--account', 'nobody', '--name', 'x');
    assert.equal(unknownAccount.code, 2);
    assert.match(unknownAccount.stderr, /no account named "nobody"/);
    const unknown = await horizon('frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /usage/);
    // a misspelled flag names the right one (issue 37), for the operator commands as for forecast and series
    const typo = await horizon('accounts', 'create', 'typo', '--daily-quot', '5');
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^horizon: unknown option --daily-quot; did you mean --daily-quota\?\n\nusage:/);
    const mcp = await horizon('mcp', '--ur', 'http://x');
    assert.equal(mcp.code, 2);
    assert.match(mcp.stderr, /^horizon: unknown option --ur; did you mean --url\?/);
  });

  it('serve exits 1 naming the port when it is taken, its workers stopped (no hung process)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const own = mkdtempSync(join(tmpdir(), 'horizon-cli-port-'));
    await seedEmbeddedStore(own);
    try {
      // the timeout only bounds a regression (a serve that hangs after the failed listen), it asserts no speed
      const res = await run('npx', ['--no-install', 'horizon', 'serve'], {
        env: { ...process.env, HORIZON_DATA_DIR: own, PORT: String(port), HOST: '127.0.0.1' }, cwd: process.cwd(), timeout: 240_000,
      }).then(() => ({ code: 0, stderr: '', signal: null }), (e: { code: number; stderr: string; signal: string | null }) => e);
      assert.equal(res.signal, null, 'serve had to be killed: it did not exit after the failed listen');
      assert.equal(res.code, 1);
      assert.match(res.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use \\(set PORT\\)`));
    } finally {
      taken.close();
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('refuses to open the embedded store while a live server holds it', async () => {
    writeFileSync(join(dataDir, 'horizon.lock'), String(process.pid === 1 ? 2 : process.ppid));
    const res = await horizon('accounts', 'create', 'while-running');
    assert.equal(res.code, 2);
    assert.match(res.stderr, /in use by process/);
    // a live lock without the server's horizon.server.json (e.g. still starting): not reachable, same message
    const list = await horizon('accounts', 'list');
    assert.equal(list.code, 2);
    assert.match(list.stderr, /in use by process/);
    rmSync(join(dataDir, 'horizon.lock'));
  });
});
