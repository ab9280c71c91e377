// Setup in layers (issue 23): scripts/run.sh installs what serving needs and serves the statistical
// models from core's first stage; the test tooling is scripts/setup-test.sh's. Checked here: the first
// stage is core.txt's own pins and exactly the closure of what the worker imports at load time (a new
// module-level import of a library outside it fails this test), and each script installs its layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pins = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

test('core-first.txt: a subset of core.txt, pin for pin', () => {
  const core = new Set(pins(read('runtime/requirements/core.txt')));
  const first = pins(read('runtime/requirements/core-first.txt'));
  assert.ok(first.length > 10, 'the first stage names the statistical models\' libraries');
  assert.deepEqual(first.filter((line) => !core.has(line)), [], 'every first-stage line is a line of core.txt');
  for (const needed of ['aiohttp==', 'numpy==', 'statsforecast==', 'orjson==', 'prometheus_client==', 'huggingface_hub==']) {
    assert.ok(first.some((line) => line.startsWith(needed)), `${needed} is in the first stage`);
  }
  for (const heavy of ['torch==', 'transformers==', 'chronos-forecasting==']) {
    assert.ok(!first.some((line) => line.startsWith(heavy)), `${heavy} waits for the second stage`);
  }
});

test('core-first.txt is what runtime/requirements/first-stage.py derives from the worker\'s imports now', { skip: !existsSync(join(ROOT, 'runtime/.venv-core/bin/python')) && 'no core venv' }, () => {
  const derived = execFileSync(join(ROOT, 'runtime/.venv-core/bin/python'), [join(ROOT, 'runtime/requirements/first-stage.py')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  assert.deepEqual(pins(derived), pins(read('runtime/requirements/core-first.txt')));
});

test('scripts/run.sh sets up serving only; scripts/test.sh sets up the test tooling too', () => {
  const serving = read('scripts/run.sh') + read('scripts/setup.sh');
  for (const tooling of ['schemathesis', 'venv-nixtla', 'clients/python/setup.sh', 'clients/typescript', 'chromium', 'timesfm1.txt']) {
    assert.ok(!serving.includes(tooling), `run.sh/setup.sh do not set up ${tooling}`);
  }
  assert.match(read('scripts/setup.sh'), /npm ci --omit=dev/);
  assert.match(read('scripts/setup.sh'), /runtime\/setup\.sh" --first core/);
  assert.match(read('scripts/setup.sh'), /runtime\/setup\.sh" core/);
  assert.match(read('scripts/run.sh'), /setup\.sh" --first/);
  const testSetup = read('scripts/setup-test.sh');
  for (const tooling of ['scripts/setup.sh', 'npm ci --silent', 'venv-schemathesis', 'venv-nixtla', 'clients/python/setup.sh', 'clients/typescript', 'chromium', 'runtime/setup.sh" --with ray,test']) {
    assert.ok(testSetup.includes(tooling), `setup-test.sh sets up ${tooling}`);
  }
  assert.match(read('scripts/test.sh'), /scripts\/setup-test\.sh/);
  assert.match(read('.ci/run'), /scripts\/test\.sh/);
});

test('runtime/setup.sh: every group but the first-stage files; --first installs the first stage only', () => {
  const setup = read('runtime/setup.sh');
  assert.match(setup, /\*-first\.txt\) continue/);
  assert.match(setup, /--first/);
  assert.match(setup, /\.horizon-installing/);
});

test('GET /v1/models\' reason for a model whose libraries install behind the server: still loading, then the usual one', async () => {
  const { loadCatalog, findModel } = await import('../src/runtime/catalog.ts');
  const { ModelRegistry } = await import('../src/runtime/models.ts');
  const { mkdirSync, rmSync, writeFileSync } = await import('node:fs');
  const base = loadCatalog();
  // a group of its own, so that the marker never touches a real venv other tests use
  const group = `first-stage-test-${process.pid}`;
  const catalog = { ...base, models: base.models.map((m) => (m.id === 'tirex' ? { ...m, group } : m)) };
  const registry = new ModelRegistry(catalog, {
    acceptedLicenses: ['*'],
    modelsByGroup: () => new Map([['core', [{ model: 'auto-ets', sizes: ['default'], loaded: [] }]], [group, []]]),
    missingWeightsByGroup: () => new Map(),
  });
  const venv = join(ROOT, 'runtime', `.venv-${group}`);
  mkdirSync(venv, { recursive: true });
  try {
    writeFileSync(join(venv, '.horizon-installing'), '2026-11-26T12:00:00Z\n');
    const loading = registry.unavailableReason(findModel(catalog, 'tirex')!)!;
    assert.equal(loading.code, 'runtime_not_installed');
    assert.match(loading.detail, /^still loading: the libraries of the runtime group "first-stage-test-\d+" are being installed behind the running server \(since 2026-11-26T12:00:00Z/);
    assert.match(loading.detail, /The statistical models answer meanwhile$/);
    assert.equal(registry.unavailableReason(findModel(catalog, 'auto-ets')!), undefined, 'a statistical model is served meanwhile');
    rmSync(join(venv, '.horizon-installing'));
    assert.match(registry.unavailableReason(findModel(catalog, 'tirex')!)!.detail, /runs but does not provide tirex/);
  } finally { rmSync(venv, { recursive: true, force: true }); }
});
