// Every fenced code block of README.md runs as printed against a fresh server (issue 37), so the front door cannot
// rot again: `bash scripts/run.sh` starts the server (PORT set to a free port: the one substitution of the server's
// address, with `localhost:8080` in the curl and CLI blocks; the key is the one it prints, exported as the README
// says), then the curl, Python, TypeScript and command-line blocks run in a fresh directory holding `./horizon` and
// `web/` of the checkout, the Python block in the client's own virtualenv (what `pip install './clients/python[pandas]'`
// installs), the TypeScript block in a new npm project after the README's `npm install …/clients/typescript`, and the
// operator block against the running server, `models pull` from a Hugging Face stand-in (HF_ENDPOINT, as the CLI's
// usage documents). A block this test does not know fails it: a new example needs a runner here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { HubStandIn } from './hub-standin.ts';
import { REPO, writeFixtures } from './parity.ts';
import { findModel, loadCatalog } from '../src/runtime/catalog.ts';

interface Block { lang: string; code: string; line: number }

/** The fenced blocks of a Markdown text, with the line each starts on. */
export function fencedBlocks(text: string): Block[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2], line: text.slice(0, m.index).split('\n').length }));
}

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const BLOCKS = fencedBlocks(README);
const exec = promisify(execFile);

/** The one block that `match` picks (a block no runner picks fails the last test). */
const taken = new Set<Block>();
function block(match: (b: Block) => boolean, what: string): Block {
  const found = BLOCKS.filter(match);
  assert.equal(found.length, 1, `README.md has one ${what} block (found ${found.length})`);
  taken.add(found[0]);
  return found[0];
}

describe('README.md\'s examples, as printed, against a fresh server', () => {
  let tmp: string;
  let sandbox: string;
  let server: ChildProcess;
  let serverOut = '';
  let url: string;
  let key: string;
  let hub: HubStandIn;
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, HORIZON_URL: url, HORIZON_API_KEY: key, HORIZON_DATA_DIR: join(tmp, 'data'), HORIZON_MODEL_DIR: join(tmp, 'models') });
  /** A block's shell commands in the sandbox (bash -e), with the server's address for localhost:8080. */
  const shell = (code: string, extra: NodeJS.ProcessEnv = {}, unset: string[] = []) => {
    const vars = { ...env(), ...extra };
    for (const name of unset) delete vars[name];
    return exec('bash', ['-e', '-c', code.replaceAll('localhost:8080', new URL(url).host)], { cwd: sandbox, env: vars, encoding: 'utf8', timeout: 240_000 });
  };

  before(async () => {
    // run.sh sets up before serving: with the checkout set up (scripts/setup-test.sh) that is a no-op, never an install
    assert.ok(readFileSync(join(REPO, 'package-lock.json')).equals(readFileSync(join(REPO, 'node_modules', '.horizon-lock'))), 'run bash scripts/setup-test.sh first');
    tmp = mkdtempSync(join(tmpdir(), 'horizon-readme-'));
    sandbox = join(tmp, 'sandbox');
    mkdirSync(sandbox);
    symlinkSync(join(REPO, 'horizon'), join(sandbox, 'horizon'));
    symlinkSync(join(REPO, 'web'), join(sandbox, 'web'));
    const run = block((b) => b.lang === 'sh' && b.code.trim() === 'bash scripts/run.sh', 'scripts/run.sh');
    const port = await freePort();
    url = `http://localhost:${port}`;
    server = spawn('bash', ['-c', run.code], { cwd: REPO, env: { ...process.env, PORT: String(port), HORIZON_DATA_DIR: join(tmp, 'data'), HORIZON_MODEL_DIR: join(tmp, 'models') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    server.stdout!.on('data', (chunk: Buffer) => { serverOut += chunk.toString(); });
    server.stderr!.on('data', (chunk: Buffer) => { serverOut += chunk.toString(); });
    for (let waited = 0; !/horizon: listening on/.test(serverOut); waited += 200) {
      assert.ok(waited < 240_000 && server.exitCode === null, `scripts/run.sh did not start the server:\n${serverOut}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    key = /hzn_[A-Za-z0-9_-]+/.exec(serverOut)![0];
  });
  after(async () => {
    if (server?.pid && server.exitCode === null) {
      process.kill(-server.pid, 'SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    await hub?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the first start prints the key as the README shows it', () => {
    const shown = block((b) => b.lang === '' && b.code.includes('hzn_AbCdEfGh1234_'), 'first-key');
    // the README's lines with its example key as a pattern: the same words, the same layout
    const pattern = shown.code.trimEnd().split('\n').map((line) => line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('hzn_AbCdEfGh1234_…', 'hzn_[A-Za-z0-9]{12}_[A-Za-z0-9_-]+')).join('\n');
    assert.match(serverOut, new RegExp(pattern), serverOut);
  });

  it('curl: the first 8 months of AirPassengers, 6 months ahead, with the 80 % interval', async () => {
    const curl = block((b) => b.lang === 'sh' && b.code.startsWith('curl '), 'curl');
    const { stdout } = await shell(curl.code);
    const answer = JSON.parse(stdout);
    const p = answer.series[0][0];
    assert.deepEqual(p.index, ['1949-09-01', '1949-10-01', '1949-11-01', '1949-12-01', '1950-01-01', '1950-02-01']);
    assert.deepEqual(Object.keys(p.prediction).sort(), ['0.1', '0.5', '0.9', 'mean'], 'mean, "0.1", "0.5", "0.9" as the README says');
    for (let t = 0; t < 6; t++) assert.ok(p.prediction['0.1'][t] < p.prediction['0.9'][t], stdout);
  });

  it('Python: the client forecasts AirPassengers 24 months ahead', async () => {
    const python = block((b) => b.lang === 'python', 'Python');
    const interpreter = join(REPO, 'clients', 'python', '.venv', 'bin', 'python');
    assert.ok(existsSync(interpreter), 'clients/python/.venv is missing: run bash scripts/setup-test.sh');
    const { stdout } = await exec(interpreter, ['-c', python.code], { cwd: sandbox, env: env(), encoding: 'utf8', timeout: 240_000 });
    const lines = stdout.trim().split('\n');
    assert.deepEqual(lines[0].trim().split(/\s+/), ['unique_id', 'Month', 'mean', '0.1', '0.5', '0.9'], stdout);
    assert.equal(lines.length, 4, 'head(3)');
    assert.match(lines[1], /AirPassengers\s+1961-01-01/);
  });

  it('TypeScript: npm install of the package as the README says, then `node forecast.mts`', async () => {
    const ts = block((b) => b.lang === 'ts', 'TypeScript');
    const install = /`npm install (\/path\/to\/horizon\/clients\/typescript)`/.exec(README);
    assert.ok(install, 'README.md says how to install the TypeScript package');
    assert.match(README, /save this as `forecast\.mts` and run `node forecast\.mts`/);
    const project = join(tmp, 'my-app');
    mkdirSync(project);
    // a project of the user's own (no package.json of ours, no "type": "module"), offline: the package has no dependencies
    await exec('npm', ['install', install[1].replace('/path/to/horizon', REPO), '--offline', '--no-audit', '--no-fund'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    writeFileSync(join(project, 'forecast.mts'), ts.code);
    const { stdout } = await exec(process.execPath, ['forecast.mts'], { cwd: project, env: env(), encoding: 'utf8', timeout: 120_000 });
    const rows = [...stdout.matchAll(/^(\S+) ([\d.]+) ([\d.]+) ([\d.]+)$/gm)];
    assert.equal(rows.length, 6, stdout);
    assert.match(rows[0][1], /^1961-01-01/);
    for (const [, , mean, low, high] of rows) assert.ok(Number(low) < Number(mean) && Number(mean) < Number(high), stdout);
  });

  it('command line: the forecast CSV of AirPassengers', async () => {
    const cli = block((b) => b.lang === 'sh' && b.code.includes('./horizon forecast '), 'command-line forecast');
    await shell(cli.code, {}, ['HORIZON_URL']); // the block exports it
    const out = readFileSync(join(sandbox, 'forecast.csv'), 'utf8').trim().split('\n');
    assert.equal(out[0], 'series,date,mean,q0.1,q0.5,q0.9');
    assert.equal(out.length, 1 + 24);
    assert.match(out[1], /^#Passengers,1961-01-01,/);
  });

  it('the operator CLI while the server runs: an account, its key, the list, a model pull', async () => {
    const operator = block((b) => b.lang === 'sh' && b.code.includes('./horizon accounts create'), 'operator CLI');
    const catalog = loadCatalog();
    const chronos2 = findModel(catalog, 'chronos-2')!;
    const fixtures = writeFixtures(['chronos-2'], 'core', join(tmp, 'fixtures'));
    hub = new HubStandIn({ repos: { [chronos2.sizes[chronos2.default_size].checkpoint!]: { dir: join(fixtures, 'chronos-2', chronos2.default_size), extra: {} } } });
    await hub.start();
    const { stdout } = await shell(operator.code, { HF_ENDPOINT: hub.url, HF_HOME: join(tmp, 'hf-home'), HF_TOKEN: '' });
    assert.match(stdout, /created account "acme" \(daily quota 500,/);
    const secret = /^(hzn_\S+)$/m.exec(stdout)?.[1];
    assert.ok(secret, `keys create prints the secret: ${stdout}`);
    assert.match(stdout, /acme/);
    assert.ok(existsSync(join(tmp, 'models', 'chronos-2', chronos2.default_size)), `chronos-2 pulled: ${stdout}`);
    // the new key works on the running server
    const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(res.status, 200);
  });

  it('every block has a runner (the suite itself, scripts/test.sh, is the one left out: it runs this test)', () => {
    block((b) => b.lang === 'sh' && b.code.trim() === 'bash scripts/test.sh', 'scripts/test.sh');
    const left = BLOCKS.filter((b) => !taken.has(b));
    assert.deepEqual(left.map((b) => `README.md:${b.line} \`\`\`${b.lang}`), [], 'README blocks without a runner in test/readme-examples.test.ts');
  });
});
