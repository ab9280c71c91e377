// Which private models a stored job names, and the job's failure when one was deleted after it was accepted
// (the end-to-end case, a forecast job waiting behind another while its model is deleted, is in
// api.fine-tuning.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPrivateModelsExist, privateIdsIn } from '../src/jobs/fine-tuning-job.ts';
import { HorizonError } from '../src/errors.ts';
import type { CatalogModel } from '../src/runtime/catalog.ts';

const A = 'ft-0123456789abcdef01234567', B = 'ft-89abcdef0123456789abcdef', C = 'ft-fedcba9876543210fedcba98';

test('privateIdsIn: a forecast plan\'s model and prism members, auto\'s candidates, a cross-validation\'s models', () => {
  assert.deepEqual(privateIdsIn({ model: A, size: 'small', series: [] }), [A]);
  assert.deepEqual(privateIdsIn({ model: 'prism', prism_members: [{ model: A, size: 'small' }, { model: 'auto-ets', size: 'default' }] }), [A]);
  assert.deepEqual(privateIdsIn({ model: 'auto', auto_request: { auto_candidates: [`${B}:small`, 'seasonal-naive', { model: C }] } }).sort(), [B, C].sort());
  assert.deepEqual(privateIdsIn({ models: ['naive', { model: A, model_size: 'small' }], series: [] }), [A]);
  assert.deepEqual(privateIdsIn({ model: 'chronos-2', size: 'small' }), [], 'catalog models are not private');
  assert.deepEqual(privateIdsIn({ model: 'sales' }), [], 'a name is resolved (or refused) by the plan, not here');
});

test('checkPrivateModelsExist: 410 model_deleted naming the ids the account no longer has', () => {
  const entries = [{ id: A } as CatalogModel];
  checkPrivateModelsExist({ model: A }, entries);
  assert.throws(() => checkPrivateModelsExist({ models: [A, B] }, entries), (error: unknown) => {
    assert.ok(error instanceof HorizonError);
    assert.equal(error.code, 'model_deleted');
    assert.equal(error.status, 410);
    assert.match(error.message, new RegExp(`model "${B}" was deleted after this job was accepted`));
    return true;
  });
});
