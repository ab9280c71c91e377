// The model time `auto` is estimated at (413 use_job_api above the sync budget; job chunking): a statistical
// candidate costs 1 + windows forecasts with refits, 1 + BACKTEST_COST_FACTOR from one fit (refit false)
// or in its form (refit "form") on seasonal data; a non-seasonal fit searches again at every window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog, findModel } from '../src/runtime/catalog.ts';
import { ModelRegistry } from '../src/runtime/models.ts';
import { planAuto, type AutoRefit } from '../src/forecasting/auto.ts';
import { autoCostMs, forecastCostMs, BACKTEST_COST_FACTOR } from '../src/forecasting/cost.ts';
import { monthlyDates } from './helpers.ts';

const catalog = loadCatalog();
const served = ['naive', 'seasonal-naive', 'auto-ets', 'auto-theta'];
const registry = new ModelRegistry(catalog, {
  acceptedLicenses: [],
  modelsByGroup: () => new Map([['core', served.map((model) => ({ model, sizes: Object.keys(findModel(catalog, model)!.sizes), loaded: [] }))]]),
});

function estimate(freq: 'MS' | 'Y', refit: AutoRefit): { auto: number; singles: number; windows: number } {
  const target = Array.from({ length: 120 }, (_, i) => 100 + 10 * Math.sin((2 * Math.PI * i) / 12) + i);
  const index = freq === 'MS' ? monthlyDates('2010-01', 120) : Array.from({ length: 120 }, (_, i) => `${1900 + i}-01-01`);
  const plan = planAuto({ series: [{ target, index }, { target, index }], freq, horizon: 6, auto_candidates: ['auto-ets', 'auto-theta'] } as never, registry, { refit });
  return { auto: autoCostMs(registry, plan, 1), singles: plan.candidates.reduce((sum, c) => sum + forecastCostMs(registry, c.plan, 1), 0), windows: plan.nWindows };
}

test('auto\'s estimate: refits (1 + windows) × the candidates\' forecasts; one fit and the form (1 + BACKTEST_COST_FACTOR) ×', () => {
  const refit = estimate('MS', true);
  assert.ok(refit.singles > 0);
  assert.equal(refit.auto, refit.singles * (1 + refit.windows));
  assert.equal(estimate('MS', false).auto, refit.singles * (1 + BACKTEST_COST_FACTOR));
  assert.equal(estimate('MS', 'form').auto, refit.singles * (1 + BACKTEST_COST_FACTOR));
  assert.ok(estimate('MS', 'form').auto < refit.auto);
});

test('auto\'s estimate on non-seasonal (yearly) data: the form searches again at every window, as refits do', () => {
  const yearly = estimate('Y', 'form');
  assert.equal(yearly.auto, yearly.singles * (1 + yearly.windows));
  assert.equal(estimate('Y', false).auto, yearly.singles * (1 + BACKTEST_COST_FACTOR));
});
