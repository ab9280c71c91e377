// The registry shows what is possible (issue 15 item 4): GET /v1/models lists every catalog model with
// `available` and, when false, `unavailable_reason`; a forecast, job or warm-up of such a model answers
// with the same reason. A real server with only the core runtime and no weights installed.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, simpleRequest, type TestServer } from './helpers.ts';
import { loadCatalog, findModel } from '../src/runtime/catalog.ts';
import { ModelRegistry } from '../src/runtime/models.ts';

const catalog = loadCatalog();

describe('GET /v1/models: every catalog model, with the reason it is not served', () => {
  let server: TestServer;
  let models: Map<string, any>;
  before(async () => {
    server = await startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_PRISM_MEMBERS: 'chronos,moirai-2' });
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    models = new Map(res.body.models.map((m: { model_id: string }) => [m.model_id, m]));
  });
  after(async () => server.close());

  it('lists every catalog id, in catalog order, with the contract fields', () => {
    assert.deepEqual([...models.keys()], catalog.models.map((m) => m.id));
    for (const m of models.values()) {
      for (const field of ['model_id', 'name', 'sizes', 'max_context', 'max_horizon', 'supports_covariates', 'default_size', 'license', 'loaded']) assert.ok(field in m, `${m.model_id}.${field}`);
      assert.equal(typeof m.available, 'boolean');
      assert.equal('unavailable_reason' in m, !m.available, `${m.model_id}: a reason exactly when unavailable`);
      assert.ok(m.sizes.length > 0, `${m.model_id} lists its sizes`);
    }
  });

  it('served models are available; each unavailable one names its precise reason', () => {
    for (const id of ['naive', 'seasonal-naive', 'auto-ets', 'auto-theta', 'auto-arima']) assert.equal(models.get(id).available, true, id);
    assert.deepEqual(models.get('timesfm').unavailable_reason, {
      code: 'runtime_not_installed', runtime_group: 'timesfm1', command: 'bash runtime/setup.sh timesfm1',
      detail: 'the runtime group "timesfm1" is not running on this deployment: install its virtualenv (runtime/.venv-timesfm1) with `bash runtime/setup.sh timesfm1` (or `./horizon models pull timesfm`, which installs it first) and restart the server, keeping the group in HORIZON_RUNTIME_GROUPS if that is set',
    });
    const chronos = models.get('chronos');
    assert.equal(chronos.available, false);
    assert.equal(chronos.unavailable_reason.code, 'weights_missing');
    assert.equal(chronos.unavailable_reason.command, './horizon models pull chronos --size small');
    assert.match(chronos.unavailable_reason.detail, /no weights of chronos are installed/);
    assert.deepEqual(chronos.sizes, ['tiny', 'small', 'base', 'large'], 'the catalog sizes: what a pull can install');
    const moirai = models.get('moirai-2');
    assert.equal(moirai.unavailable_reason.code, 'license_not_accepted');
    assert.equal(moirai.unavailable_reason.variable, 'HORIZON_ACCEPT_LICENSES');
    assert.match(moirai.unavailable_reason.detail, /HORIZON_ACCEPT_LICENSES=moirai-2/);
    assert.equal(moirai.license.accepted, false);
    const prism = models.get('prism');
    assert.equal(prism.unavailable_reason.code, 'members_unavailable');
    assert.match(prism.unavailable_reason.detail, /HORIZON_PRISM_MEMBERS \(chronos, moirai-2\); none is served/);
  });

  it('a forecast, a job or a warm-up of an unavailable model answers with the same reason', async () => {
    const cases: [string, number, string][] = [
      ['timesfm', 422, 'validation_failed'], ['chronos', 422, 'validation_failed'], ['prism', 422, 'validation_failed'], ['moirai-2', 403, 'license_not_accepted'],
    ];
    for (const [id, status, code] of cases) {
      const listed = models.get(id).unavailable_reason;
      const answers = [
        await server.request('POST', '/v1/forecast', { body: simpleRequest({ model: id }) }),
        await server.request('POST', '/v1/forecast-jobs', { body: simpleRequest({ model: id }) }),
        await server.request('GET', `/v1/warmup?model=${id}`),
      ];
      for (const res of answers) {
        assert.equal(res.status, status, `${id}: ${res.text}`);
        assert.equal(res.body.code, code);
        assert.deepEqual(res.body.unavailable_reason, listed, `${id}: the reason of GET /v1/models`);
        if (status === 422) assert.equal(res.body.errors[0].field, 'model');
        assert.ok(res.body.detail.includes(listed.code === 'weights_missing' ? listed.command : listed.detail), `${id}: ${res.body.detail}`);
      }
    }
    const served = await server.request('POST', '/v1/forecast', { body: simpleRequest({ model: 'naive' }) });
    assert.equal(served.status, 200, 'nothing else changed');
    assert.equal(served.headers.get('x-ratelimit-remaining'), '199', 'the refused requests were not charged');
  });

  it('the OpenAPI document describes available, unavailable_reason and the problem\'s unavailable_reason', async () => {
    const doc = (await server.request('GET', '/v1/openapi.json', { key: null })).body;
    const info = doc.paths['/v1/models'].get.responses['200'].content['application/json'].schema.properties.models.items;
    assert.deepEqual(info.properties.unavailable_reason.properties.code.anyOf.map((c: { const?: string; enum?: string[] }) => c.const ?? c.enum?.[0]),
      ['runtime_not_installed', 'license_not_accepted', 'weights_missing', 'members_unavailable']);
    assert.ok(doc.components.schemas.Problem.properties.unavailable_reason);
  });
});

describe('ModelRegistry.unavailableReason', () => {
  const registry = (models: Record<string, string[]>, missing: Record<string, string[]> = {}, accepted: string[] = []) => new ModelRegistry(catalog, {
    acceptedLicenses: accepted,
    modelsByGroup: () => new Map(Object.entries(models).map(([group, ids]) => [group, ids.map((model) => ({ model, sizes: Object.keys(findModel(catalog, model)!.sizes), loaded: [] }))])),
    missingWeightsByGroup: () => new Map(Object.entries(missing).map(([group, ids]) => [group, ids.map((model) => ({ model, sizes: Object.keys(findModel(catalog, model)!.sizes) }))])),
  });
  const reason = (r: ModelRegistry, id: string) => r.unavailableReason(findModel(catalog, id)!);

  it('a running group that does not provide a model: its library did not import', () => {
    const r = registry({ core: ['naive'] });
    assert.match(reason(r, 'tirex')!.detail, /runs but does not provide tirex/);
    assert.equal(reason(r, 'tirex')!.runtime_group, 'core');
  });

  it('runtime, then licence, then weights: the first thing the operator has to fix', () => {
    assert.equal(reason(registry({}), 'tirex')!.code, 'runtime_not_installed');
    assert.equal(reason(registry({ core: [] }, { core: ['tirex'] }), 'tirex')!.code, 'license_not_accepted');
    const weights = reason(registry({ core: [] }, { core: ['tirex'] }, ['tirex']), 'tirex')!;
    assert.equal(weights.code, 'weights_missing');
    assert.equal(weights.command, './horizon models pull tirex --size default --accept-license');
    assert.equal(reason(registry({ core: ['tirex'] }, {}, ['*']), 'tirex'), undefined);
  });

  it('prism: served with two members, else members_unavailable', () => {
    assert.equal(reason(registry({ core: ['auto-ets', 'auto-theta'] }), 'prism'), undefined);
    assert.match(reason(registry({ core: ['auto-ets'] }), 'prism')!.detail, /only auto-ets is served/);
  });
});
