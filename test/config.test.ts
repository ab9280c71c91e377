// Defaults that depend on the machine: worker processes per runtime group follow the device.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configFromEnv, defaultWorkersPerGroup } from '../src/config.ts';

test('three workers per group on a GPU, one on a CPU, whatever the operator sets wins', () => {
  const gpu = () => true, none = () => false;
  assert.equal(defaultWorkersPerGroup({ HORIZON_DEVICE: 'cuda' }, none), 3);
  assert.equal(defaultWorkersPerGroup({}, gpu), 3, 'auto with a GPU visible');
  assert.equal(defaultWorkersPerGroup({ HORIZON_DEVICE: '' }, gpu), 3, 'empty is auto, as in the runtime');
  assert.equal(defaultWorkersPerGroup({}, none), 1, 'auto without a GPU');
  assert.equal(defaultWorkersPerGroup({ HORIZON_DEVICE: 'cpu' }, gpu), 1, 'cpu even where a GPU is present');
  assert.equal(configFromEnv({ HORIZON_DEVICE: 'cuda', HORIZON_WORKERS_PER_GROUP: '2' }).workersPerGroup, 2);
  assert.equal(configFromEnv({ HORIZON_DEVICE: 'cuda' }).workersPerGroup, 3);
  assert.equal(configFromEnv({ HORIZON_DEVICE: 'cpu' }).workersPerGroup, 1);
});

test('a model call is cut into chunks of one worker batch by default', () => {
  assert.equal(configFromEnv({}).fairChunkSeries, 256);
  assert.equal(configFromEnv({ HORIZON_FAIR_CHUNK_SERIES: '0' }).fairChunkSeries, 0);
});

test('HORIZON_AUTO_REFIT: form, 1/true, 0/false; anything else refuses to start', () => {
  assert.equal(configFromEnv({}).autoRefit, undefined, 'unset: auto\'s default (AUTO_DEFAULT_REFIT)');
  assert.equal(configFromEnv({ HORIZON_AUTO_REFIT: 'form' }).autoRefit, 'form');
  assert.equal(configFromEnv({ HORIZON_AUTO_REFIT: '1' }).autoRefit, true);
  assert.equal(configFromEnv({ HORIZON_AUTO_REFIT: 'true' }).autoRefit, true);
  assert.equal(configFromEnv({ HORIZON_AUTO_REFIT: '0' }).autoRefit, false);
  assert.equal(configFromEnv({ HORIZON_AUTO_REFIT: 'false' }).autoRefit, false);
  assert.throws(() => configFromEnv({ HORIZON_AUTO_REFIT: 'yes' }), /HORIZON_AUTO_REFIT must be one of form, 1, true, 0, false/);
});
