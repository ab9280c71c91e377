// The operator CLI (contract B.9) as a user runs it: `npx horizon …` from the checkout.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/store/database.ts';
import { authenticateKey } from '../src/store/api-keys.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'horizon-cli-'));
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
  });

  it('refuses to open the embedded store while a live server holds it', async () => {
    writeFileSync(join(dataDir, 'horizon.lock'), String(process.pid === 1 ? 2 : process.ppid));
    const res = await horizon('accounts', 'create', 'while-running');
    assert.equal(res.code, 2);
    assert.match(res.stderr, /in use by process/);
    rmSync(join(dataDir, 'horizon.lock'));
  });
});
