// Getting a model (issue 10): `horizon models pull` through the real huggingface_hub client against a
// local stand-in for the Hub (test/hub-standin.ts) that serves the tiny random-weight checkpoint of every
// foundation-model family in its published file layout. After the pull, a forecast through the HTTP API
// equals the official library called directly on the pulled checkpoint (the parity reference scripts).
// Then: resume after the server stops mid-file, a corrupted file refused, one-line errors with documented
// exit codes, list/rm, a running server noticing new weights, and auto-pull (warm-up 202 → 200, one
// download for concurrent warm-ups, 503 for a sync forecast, a job that waits).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubStandIn } from './hub-standin.ts';
import { startTestServer, waitForJob, type TestServer } from './helpers.ts';
import {
  assertForecast, forecastOk, parityTolerance, reference, REPO, seriesSeeds, writeFixtures, type Prediction, HORIZON, QUANTILES, forecastIndex, index, target,
} from './parity.ts';
import { loadCatalog, findModel } from '../src/runtime/catalog.ts';

const catalog = loadCatalog();
const TOKEN = 'hf_standin_token';

// one size per id: the repo the catalog names for it holds that family's tiny fixture
const PULLS: Record<string, string> = {
  chronos: 'tiny', 'chronos-bolt': 'tiny', 'chronos-2': 'small', timesfm: '200m', 'timesfm-2': '200m', 'timesfm-3': '330m',
  'moirai-2': 'small', 'tabpfn-ts': 'default', tirex: 'default', 'tirex-2': 'default', 'house-tsfm': 'base', 'toto-2': '2.5b',
  'toto-2-ft': '2.5b',
};
const repoOf = (id: string, size = PULLS[id]) => findModel(catalog, id)!.sizes[size].checkpoint!;

let fixtures: string;
let hub: HubStandIn;
let scratch: string;

interface CliResult { code: number; stdout: string; stderr: string }

/** `node src/cli/main.ts …` as a user runs it, with HF_ENDPOINT at the stand-in. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['src/cli/main.ts', ...args], {
      cwd: REPO, env: { ...process.env, HF_ENDPOINT: hub.url, HF_HOME: join(scratch, 'hf-home'), HF_TOKEN: '', ...env }, maxBuffer: 16 << 20,
    }, (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

const pull = (modelDir: string, id: string, size = PULLS[id], extra: string[] = [], env: Record<string, string | undefined> = {}) =>
  cli(['models', 'pull', id, '--size', size, ...extra], { HORIZON_MODEL_DIR: modelDir, HF_TOKEN: TOKEN, ...env });

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'horizon-pull-'));
  fixtures = writeFixtures(Object.keys(PULLS).filter((id) => id !== 'timesfm'));
  writeFixtures(['timesfm'], 'timesfm1', fixtures);
  const repos: Record<string, { dir: string; extra: Record<string, string | Buffer>; gated?: boolean }> = {};
  for (const [id, size] of Object.entries(PULLS)) {
    // files a published repo also holds that the adapter does not load: a pull must leave them
    repos[repoOf(id)] = { dir: join(fixtures, id, size), extra: { '.gitattributes': '*.safetensors filter=lfs\n', 'README.md': `# ${id}\n`, 'onnx/model.onnx': Buffer.alloc(4096, 7) }, gated: id === 'tabpfn-ts' };
  }
  hub = new HubStandIn({ repos, tokens: [TOKEN] });
  await hub.start();
});
after(async () => {
  await hub?.stop();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(fixtures, { recursive: true, force: true });
});

describe('models pull: every family through the real client, then a forecast equal to the library', () => {
  let modelDir: string;
  let server: TestServer;
  before(() => { modelDir = join(scratch, 'all'); });
  after(async () => { await server?.close(); });

  it('pulls each id (licences accepted on the command line), fetching only the files the adapter loads', async () => {
    for (const [id, size] of Object.entries(PULLS)) {
      const model = findModel(catalog, id)!;
      const result = await pull(modelDir, id, size, model.license.requires_opt_in ? ['--accept-license'] : []);
      assert.equal(result.code, 0, `${id}: ${result.stderr}${result.stdout}`);
      const dir = join(modelDir, id, size);
      const source = readdirSync(join(fixtures, id, size)).filter((f) => model.weights!.files.some((p) => new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`).test(f)));
      assert.deepEqual(readdirSync(dir).sort(), [...source, '.horizon-pull.json'].sort(), `${id}: only the adapter's files`);
      for (const file of source) assert.equal(sha256(join(dir, file)), sha256(join(fixtures, id, size, file)), `${id}/${file} identical`);
      const record = JSON.parse(readFileSync(join(dir, '.horizon-pull.json'), 'utf8'));
      assert.equal(record.commit, hub.commit(repoOf(id)), `${id}: the commit is recorded`);
      assert.equal(record.repo, repoOf(id));
      assert.equal(record.revision, 'main');
    }
    assert.equal(hub.log.filter((l) => l.path.endsWith('README.md') || l.path.endsWith('.onnx')).length, 0, 'files outside allow_patterns are never requested');
  });

  it('models list shows every pulled size installed with its bytes, commit and licence', async () => {
    const result = await cli(['models', 'list', '--json'], { HORIZON_MODEL_DIR: modelDir });
    assert.equal(result.code, 0, result.stderr);
    const rows = JSON.parse(result.stdout).models as { model: string; size: string; installed: boolean; bytes: number | null; commit: string | null; served: boolean; license_accepted: boolean }[];
    for (const [id, size] of Object.entries(PULLS)) {
      const row = rows.find((r) => r.model === id && r.size === size)!;
      assert.equal(row.installed, true, id);
      assert.ok(row.bytes! > 0, id);
      assert.equal(row.commit, hub.commit(repoOf(id)), id);
      assert.equal(row.license_accepted, true, `${id}: accepted (recorded by --accept-license)`);
    }
    const chronosBase = rows.find((r) => r.model === 'chronos' && r.size === 'base')!;
    assert.deepEqual([chronosBase.installed, chronosBase.commit], [false, null]);
  });

  it('a server on the pulled directory forecasts every id equal to the official library on the same checkpoint', async () => {
    // no HORIZON_ACCEPT_LICENSES: the acceptances recorded by `pull --accept-license` are the opt-in
    server = await startTestServer({ HORIZON_MODEL_DIR: modelDir, HORIZON_INFERENCE_TIMEOUT_MS: '600000' });
    const weights = (id: string) => join(modelDir, id, PULLS[id]);
    const plain = { horizon: HORIZON, quantiles: QUANTILES, series: [{ target }] };
    const seeded = (model: 'chronos' | 'house-tsfm') => ({ series: [{ target, seed: seriesSeeds(model, [target])[0] }] });
    // each within its measured parity tolerance (runtime/tests/parity-tolerances.json)
    const references: [string, string, Record<string, unknown>, string | undefined][] = [
      ['chronos', 'chronos_reference.py', seeded('chronos'), undefined],
      ['chronos-bolt', 'chronos_reference.py', {}, undefined],
      ['chronos-2', 'chronos_reference.py', {}, undefined],
      ['timesfm-2', 'timesfm_reference.py', {}, undefined],
      ['timesfm-3', 'timesfm_reference.py', {}, undefined],
      ['moirai-2', 'moirai_toto_reference.py', {}, undefined],
      ['toto-2', 'moirai_toto_reference.py', {}, undefined],
      ['toto-2-ft', 'moirai_toto_reference.py', {}, undefined],
      ['tirex', 'tirex_yug_reference.py', { freq: 'MS' }, undefined],
      ['tirex-2', 'tirex_2_reference.py', {}, undefined],
      ['house-tsfm', 'tirex_yug_reference.py', { freq: 'MS', ...seeded('house-tsfm') }, undefined],
      ['tabpfn-ts', 'tabpfn_ts_reference.py', {
        weights: join(weights('tabpfn-ts'), findModel(catalog, 'tabpfn-ts')!.weights!.files[0]), series: [{ target, index, forecast_index: forecastIndex }],
      }, undefined],
      ['timesfm', 'timesfm1_reference.py', { freq: 'MS', architecture: { num_layers: 2, num_heads: 16, model_dims: 64 } }, 'timesfm1'],
    ];
    // one reference process per script, each case naming its pulled directory
    const byScript = new Map<string, { id: string; group?: string; case: Record<string, unknown> }[]>();
    for (const [id, script, extra, group] of references) {
      const list = byScript.get(script) ?? [];
      list.push({ id, group, case: { weights: weights(id), model: id, ...plain, ...extra } });
      byScript.set(script, list);
    }
    const covered = new Set<string>();
    for (const [script, cases] of byScript) {
      const wanted: Prediction[][] = reference(script, cases.map((c) => c.case), cases[0].group);
      for (const [i, c] of cases.entries()) {
        const body = await forecastOk(server, { model: c.id, model_size: PULLS[c.id], series: [{ target, index }] });
        assertForecast(body.series[0][0], wanted[i][0], { index: forecastIndex, quantiles: QUANTILES, tol: parityTolerance(c.id) }, `${c.id} pulled`);
        covered.add(c.id);
      }
    }
    assert.deepEqual([...covered].sort(), Object.keys(PULLS).sort(), 'every family was checked');
  });
});

describe('models pull: failures', () => {
  it('a pull cut off mid-file (the server stops) fails with exit 3, and the rerun resumes from the partial file', async () => {
    const modelDir = join(scratch, 'resume');
    const repo = repoOf('tabpfn-ts');
    const file = findModel(catalog, 'tabpfn-ts')!.weights!.files[0];
    const total = statSync(join(fixtures, 'tabpfn-ts', 'default', file)).size;
    const port = hub.port;
    const earlier = hub.downloads(repo, file).length; // the first describe pulled this file too
    hub.stopAfter = { path: file, bytes: (4 << 20) + 4096 };
    let cut: CliResult;
    try {
      cut = await pull(modelDir, 'tabpfn-ts', 'default', ['--accept-license']);
    } finally {
      hub.stopAfter = undefined;
      await hub.stop();
      await hub.start(port);
    }
    assert.equal(cut.code, 3, cut.stderr);
    assert.equal(cut.stderr.trim().split('\n').length, 1, `one line: ${cut.stderr}`);
    assert.match(cut.stderr, /cannot reach the Hugging Face Hub.*rerun to resume/);
    assert.equal(existsSync(join(modelDir, 'tabpfn-ts', 'default')), false, 'nothing installed');
    const part = join(modelDir, '.pulls', 'tabpfn-ts', 'default', `${file}.part`);
    const kept = statSync(part).size;
    // the client writes whole 1 MiB chunks (pull.py CHUNK_BYTES): what arrived before the cut, to the last chunk
    assert.ok(kept >= 3 << 20 && kept <= 4 << 20 && kept % (1 << 20) === 0, `the partial file stays (${kept} of ${total} bytes)`);

    const before = hub.log.length;
    const rerun = await pull(modelDir, 'tabpfn-ts', 'default', ['--accept-license']);
    assert.equal(rerun.code, 0, rerun.stderr + rerun.stdout);
    assert.match(rerun.stdout, new RegExp(`${file.replace(/\./g, '\\.')}: resuming at`));
    const ranged = hub.log.slice(before).filter((l) => l.method === 'GET' && l.path.startsWith('/cdn/'));
    assert.deepEqual(ranged.map((l) => l.range), [`bytes=${kept}-`], 'the rerun asked only for the rest');
    assert.equal(sha256(join(modelDir, 'tabpfn-ts', 'default', file)), sha256(join(fixtures, 'tabpfn-ts', 'default', file)));
    assert.equal(hub.downloads(repo, file).length - earlier, 2, 'the cut download and the resumed one');
  });

  it('a corrupted file (its sha256 differs from the Hub\'s) is refused with exit 6: nothing installed, nothing kept', async () => {
    const modelDir = join(scratch, 'corrupt');
    hub.corrupt.add('model.safetensors');
    try {
      const result = await pull(modelDir, 'chronos-bolt');
      assert.equal(result.code, 6, result.stderr);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, /model\.safetensors is corrupted: its sha256 is [0-9a-f]{64}, the Hub lists [0-9a-f]{64}; the file was deleted and nothing was installed/);
      assert.equal(existsSync(join(modelDir, 'chronos-bolt', 'tiny')), false);
      assert.equal(existsSync(join(modelDir, '.pulls', 'chronos-bolt', 'tiny', 'model.safetensors.part')), false);
    } finally { hub.corrupt.clear(); }
    const again = await pull(modelDir, 'chronos-bolt');
    assert.equal(again.code, 0, again.stderr);
    assert.ok(existsSync(join(modelDir, 'chronos-bolt', 'tiny', 'model.safetensors')));
  });

  it('no network, an unknown repo or revision, a gated repo without a token, an unaccepted licence: one line each, documented exit codes', async () => {
    const modelDir = join(scratch, 'errors');
    const before = hub.log.length;
    const cases: [string, Promise<CliResult>, number, RegExp][] = [
      ['no network', pull(modelDir, 'chronos-2', 'small', [], { HF_ENDPOINT: 'http://127.0.0.1:9' }), 3, /cannot reach the Hugging Face Hub at http:\/\/127\.0\.0\.1:9 .*HF_ENDPOINT/],
      ['unknown repo', pull(modelDir, 'chronos', 'large'), 4, /repository amazon\/chronos-t5-large was not found/],
      ['unknown revision', pull(modelDir, 'chronos-2', 'small', ['--revision', 'v9']), 4, /revision 'v9' does not exist in autogluon\/chronos-2-small/],
      ['gated without token', pull(modelDir, 'tabpfn-ts', 'default', ['--accept-license'], { HF_TOKEN: '' }), 5, /gated repository.*HF_TOKEN/],
      ['licence not accepted', pull(join(scratch, 'no-licence'), 'tirex'), 7, /NXAI Community License.*rerun with --accept-license/],
      ['unknown model', cli(['models', 'pull', 'gpt-5']), 2, /unknown model "gpt-5"/],
    ];
    for (const [what, running, code, message] of cases) {
      const result = await running;
      assert.equal(result.code, code, `${what}: ${result.stderr}`);
      assert.equal(result.stderr.trim().split('\n').length, 1, `${what}: one line: ${result.stderr}`);
      assert.match(result.stderr, message, what);
    }
    assert.equal(existsSync(join(modelDir, 'chronos-2')), false);
    const tirexRequests = hub.log.slice(before).filter((l) => l.path.includes(repoOf('tirex')));
    assert.equal(tirexRequests.length, 0, 'an unaccepted licence downloads nothing');
  });

  it('models rm removes a size; removing it again is exit 4', async () => {
    const modelDir = join(scratch, 'rm');
    assert.equal((await pull(modelDir, 'chronos-bolt')).code, 0);
    const removed = await cli(['models', 'rm', 'chronos-bolt', '--size', 'tiny', '--json'], { HORIZON_MODEL_DIR: modelDir });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(JSON.parse(removed.stdout), { model: 'chronos-bolt', removed: ['tiny'] });
    assert.equal(existsSync(join(modelDir, 'chronos-bolt', 'tiny')), false);
    const again = await cli(['models', 'rm', 'chronos-bolt'], { HORIZON_MODEL_DIR: modelDir });
    assert.equal(again.code, 4, again.stderr);
  });
});

describe('a running server and new weights', () => {
  it('without auto-pull: the error names the pull command; after a CLI pull the size is listed and served within seconds', async () => {
    const modelDir = join(scratch, 'live');
    const server = await startTestServer({ HORIZON_MODEL_DIR: modelDir, HORIZON_RUNTIME_GROUPS: 'core' });
    try {
      const before = hub.log.length;
      const missing = await server.request('POST', '/v1/forecast', { body: { model: 'chronos-2', model_size: 'small', freq: 'MS', horizon: HORIZON, series: [{ target, index }] } });
      assert.equal(missing.status, 422, missing.text);
      assert.match(missing.body.detail, /`\.\/horizon models pull chronos-2 --size small`/);
      assert.equal(hub.log.length, before, 'nothing is downloaded at request time without HORIZON_AUTO_PULL');

      assert.equal((await pull(modelDir, 'chronos-2')).code, 0);
      const deadline = Date.now() + 15_000;
      let sizes: string[] = [];
      while (Date.now() < deadline) {
        const listed = await server.request('GET', '/v1/models');
        // before the pull it is listed unavailable (weights_missing) with its catalog sizes
        const model = (listed.body.models as { model_id: string; sizes: string[]; available: boolean }[]).find((m) => m.model_id === 'chronos-2');
        sizes = model?.available ? model.sizes : [];
        if (sizes.includes('small')) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.deepEqual(sizes, ['small'], 'GET /v1/models shows the pulled size without a restart');
      await forecastOk(server, { model: 'chronos-2', model_size: 'small', series: [{ target, index }] });
    } finally { await server.close(); }
  });

  it('HORIZON_AUTO_PULL=1: warm-up answers 202 with progress, concurrent warm-ups start one download, a sync forecast gets 503, a job waits; then 200 warm', async () => {
    const modelDir = join(scratch, 'auto');
    const repo = repoOf('timesfm-2');
    process.env.HF_ENDPOINT = hub.url; // the server's pull runs with this process's environment
    process.env.HF_HOME = join(scratch, 'hf-home');
    const server = await startTestServer({ HORIZON_MODEL_DIR: modelDir, HORIZON_RUNTIME_GROUPS: 'core', HORIZON_AUTO_PULL: '1' });
    const earlier = hub.downloads(repo, 'model.safetensors').length; // the first describe pulled it too
    hub.bytesPerSecond = 1 << 20; // ~3 s for the 3 MB checkpoint: long enough to watch
    try {
      const warmups = await Promise.all(Array.from({ length: 5 }, () => server.request('GET', '/v1/warmup?model=timesfm-2&model_size=200m')));
      for (const w of warmups) {
        assert.equal(w.status, 202, w.text);
        assert.equal(w.body.status, 'pulling');
        assert.equal(w.headers.get('retry-after'), '2');
      }
      const sync = await server.request('POST', '/v1/forecast', { body: { model: 'timesfm-2', freq: 'MS', horizon: HORIZON, series: [{ target, index }] } });
      assert.equal(sync.status, 503, sync.text);
      assert.equal(sync.body.code, 'model_pulling');
      assert.ok(Number(sync.headers.get('retry-after')) > 0);
      assert.match(sync.body.detail, /being pulled from the Hub/);
      const job = await server.request('POST', '/v1/forecast-jobs', { body: { model: 'timesfm-2', freq: 'MS', horizon: HORIZON, quantiles: QUANTILES, series: [{ target, index }] } });
      assert.equal(job.status, 202, job.text);

      let last = warmups[0];
      const progress: number[] = [];
      const deadline = Date.now() + 60_000;
      while (last.status === 202 && Date.now() < deadline) {
        progress.push(last.body.bytes_done);
        if (last.body.bytes_total !== null) assert.ok(last.body.bytes_done <= last.body.bytes_total);
        await new Promise((resolve) => setTimeout(resolve, 300));
        last = await server.request('GET', '/v1/warmup?model=timesfm-2&model_size=200m');
      }
      assert.equal(last.status, 200, last.text);
      assert.equal(last.body.status, 'warm');
      assert.ok(progress.some((b) => b > 0), `progress was reported (${progress.join(', ')})`);
      assert.equal(hub.downloads(repo, 'model.safetensors').length - earlier, 1, 'one download for every warm-up, forecast and job');

      const done = await waitForJob(server, job.body.job_id, undefined, (s) => s === 'completed' || s === 'failed');
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const now = await forecastOk(server, { model: 'timesfm-2', series: [{ target, index }] });
      assert.deepEqual(done.series, now.series, 'the job waited for the pull and forecast like the sync call');
    } finally {
      hub.bytesPerSecond = undefined;
      await server.close();
    }
  });
});
