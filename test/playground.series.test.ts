// The playground's "Stored series" view in real headless Chromium (Debian's chromium, driven by
// playwright-core) against a real server: a series stored, appended, forecast with store: true and
// scored through the API must show in the page with the API's numbers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers.ts';
import { launchChromium, PLAYGROUND_OUT } from './browser.ts';

let server: TestServer;
let browser: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;

before(async () => {
  server = await startTestServer({ HORIZON_RUNTIME_GROUPS: 'core' });
  ({ browser, close: closeBrowser } = await launchChromium());
});

after(async () => {
  await closeBrowser?.();
  await server?.close();
});

const day = (k: number) => new Date(Date.UTC(2024, 0, 1 + k)).toISOString().slice(0, 10);
/** A weekly pattern with a trend and a wobble no model reproduces exactly (so MASE > 0). */
const value = (k: number) => Math.round((100 + 12 * Math.sin((2 * Math.PI * k) / 7) + k / 3 + 5 * Math.sin(k * 1.7)) * 100) / 100;
const days = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

test('stored series: the page lists the account\'s series and draws a scored past forecast against the actuals, with its accuracy and drift state', async () => {
  // through the API: store 60 days, append 10, forecast 7 with store: true, append those 7 actuals
  const put = await server.request('PUT', '/v1/series/shop-1', { body: {
    freq: 'D', index: days(0, 60).map(day), target: days(0, 60).map(value),
    // a rule any real forecast breaks: the scored forecast raises drift
    drift: { window: 5, min_forecasts: 1, max_mase: 0.000001 },
  } });
  assert.equal(put.status, 201, put.text);
  assert.equal((await server.request('PUT', '/v1/series/shop-2', { body: { freq: 'W', index: ['2024-01-01', '2024-01-08', '2024-01-15'], target: [1, 2, 3] } })).status, 201);
  const appended = await server.request('POST', '/v1/series/shop-1/observations', { body: { index: days(60, 70).map(day), target: days(60, 70).map(value) } });
  assert.equal(appended.status, 200, appended.text);
  const forecast = await server.request('POST', '/v1/forecast', { body: { series_ids: ['shop-1'], horizon: 7, model: 'auto-ets', quantiles: [0.1, 0.5, 0.9], store: true } });
  assert.equal(forecast.status, 200, forecast.text);
  const predicted = forecast.body.series[0][0];
  assert.deepEqual(predicted.index, days(70, 77).map(day));
  const actuals = await server.request('POST', '/v1/series/shop-1/observations', { body: { index: days(70, 77).map(day), target: days(70, 77).map(value) } });
  assert.equal(actuals.status, 200, actuals.text);
  // the append wakes the scorer; wait until it has scored the forecast and checked the drift rule
  let view: any;
  for (;;) {
    view = (await server.request('GET', '/v1/series/shop-1')).body;
    if (view.forecasts[0]?.scored_at && view.drifting) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // a second kept forecast, with other quantiles, for dates not observed yet: it extends the chart past the last actual
  const next = await server.request('POST', '/v1/forecast', { body: { series_ids: ['shop-1'], horizon: 7, model: 'auto-ets', quantiles: [0.25, 0.5, 0.75], store: true } });
  assert.equal(next.status, 200, next.text);
  const ahead = next.body.series[0][0];
  assert.deepEqual(ahead.index, days(77, 84).map(day));
  view = (await server.request('GET', '/v1/series/shop-1')).body;
  assert.equal(view.forecasts.length, 2);
  const [unscored, scored] = view.forecasts; // newest first
  const accuracy = (await server.request('GET', '/v1/series/shop-1/accuracy')).body;
  assert.equal(accuracy.overall.forecasts, 1);
  assert.ok(accuracy.overall.mase > 0);

  // the page
  const page = await browser.newPage();
  const seen: string[] = [];
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  // Chromium's own favicon request 404s ("Failed to load resource", no response event); the page's requests are checked by status
  page.on('console', (message) => { if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) seen.push(`console: ${message.text()}`); });
  page.on('request', (r) => { if (!r.url().startsWith(server.url)) seen.push(`request off the service: ${r.url()}`); });
  page.on('response', (r) => { if (r.status() >= 400) seen.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(`${server.url}/playground`);
  await page.fill('#api-key', server.key);
  await page.click('#connect');
  await page.waitForSelector('#model option[value="auto-ets"]', { state: 'attached' });
  await page.click('#show-stored');
  assert.equal(await page.isVisible('#forecast-form'), false);
  await page.waitForSelector('#stored-list button[data-series-id="shop-2"]');
  assert.deepEqual(await page.$$eval('#stored-list button', (bs) => bs.map((b) => (b as HTMLElement).dataset.seriesId)), ['shop-1', 'shop-2']);
  assert.equal(await page.textContent('#stored-list button[data-series-id="shop-1"] .muted'), ' D · 77 points');

  await page.click('#stored-list button[data-series-id="shop-1"]');
  await page.waitForSelector('[data-stored-panel="shop-1"] .chart svg');

  // what was drawn: the actuals over their 77 dates, each kept forecast's mean and band at its 7 dates
  const drawn = await page.evaluate(() => {
    const node = document.querySelector<HTMLElement>('[data-stored-panel="shop-1"] .chart')!;
    const chart = (globalThis as any).echarts.getInstanceByDom(node);
    const option = chart.getOption();
    const rgb = (c: string | null) => { const probe = document.createElement('i'); probe.style.color = c ?? ''; document.body.append(probe); const v = getComputedStyle(probe).color; probe.remove(); return v; };
    const paths = [...node.querySelectorAll('svg path')].map((p) => {
      const box = (p as SVGGraphicsElement).getBBox();
      return { stroke: rgb(p.getAttribute('stroke')), fill: rgb(p.getAttribute('fill')), x0: box.x, x1: box.x + box.width };
    });
    const x = (i: number): number => chart.convertToPixel({ xAxisIndex: 0 }, i);
    return {
      dates: option.xAxis[0].data, series: option.series.map((s: any) => ({ name: s.name, data: s.data })), paths,
      colors: { actuals: rgb('#334155'), forecast: rgb('#2563eb'), band: rgb('#3b82f6') }, xs: [x(0), x(70), x(76), x(77), x(83)],
    };
  });
  assert.deepEqual(drawn.dates, days(0, 84).map(day));
  const blank = (n: number) => Array(n).fill(null);
  assert.deepEqual(drawn.series.find((s: any) => s.name === 'actuals').data, [...days(0, 77).map(value), ...blank(7)]);
  assert.deepEqual(drawn.series.filter((s: any) => s.name === 'past forecasts (mean)').map((s: any) => s.data),
    [[...blank(70), ...predicted.prediction.mean, ...blank(7)], [...blank(77), ...ahead.prediction.mean]]);
  const width = (p: any, lo: string, hi: string) => p.prediction[hi].map((u: number, k: number) => u - p.prediction[lo][k]);
  assert.deepEqual(drawn.series.filter((s: any) => s.name === '0.1–0.9 band').map((s: any) => s.data),
    [[...blank(70), ...predicted.prediction['0.1'], ...blank(7)], [...blank(70), ...width(predicted, '0.1', '0.9'), ...blank(7)]]);
  assert.deepEqual(drawn.series.filter((s: any) => s.name === '0.25–0.75 band').map((s: any) => s.data),
    [[...blank(77), ...ahead.prediction['0.25']], [...blank(77), ...width(ahead, '0.25', '0.75')]]);
  const [xFirst, xScoredFirst, xScoredLast, xAheadFirst, xAheadLast] = drawn.xs;
  const near = (a: number, b: number) => Math.abs(a - b) < 1.5;
  assert.ok(drawn.paths.some((p) => p.stroke === drawn.colors.actuals && near(p.x0, xFirst) && near(p.x1, xScoredLast)), 'no actuals line over the 77 observed dates');
  for (const [from, to] of [[xScoredFirst, xScoredLast], [xAheadFirst, xAheadLast]]) {
    assert.ok(drawn.paths.some((p) => p.stroke === drawn.colors.forecast && near(p.x0, from) && near(p.x1, to)), `no forecast line from x=${from} to ${to}`);
    assert.ok(drawn.paths.some((p) => p.fill === drawn.colors.band && near(p.x0, from) && near(p.x1, to)), `no band from x=${from} to ${to}`);
  }

  // the scored accuracy: the API's numbers, rounded to 4 decimals
  const rounded = (v: number | null) => (v === null ? '—' : String(Math.round(v * 1e4) / 1e4));
  const cells = await page.$$eval('[data-accuracy] tbody tr:first-child td', (tds) => Object.fromEntries(tds.map((td) => [(td as HTMLElement).dataset.key, td.textContent])));
  assert.deepEqual(cells, { forecasts: '1', mase: rounded(accuracy.overall.mase), wql: rounded(accuracy.overall.wql), 'coverage-80': rounded(accuracy.overall.coverage['80']) });
  // each kept forecast's own scores (the newer one not scored yet), and the drift the rule raised
  const row = (id: string) => page.$$eval(`[data-kept-forecasts] tr[data-forecast-id="${id}"] td`, (tds) => tds.map((td) => td.textContent));
  assert.deepEqual((await row(scored.id)).slice(1), [`auto-ets ${scored.model_size}`, day(70), '7', rounded(scored.scores.mase), rounded(scored.scores.wql), `80 %: ${rounded(scored.scores.coverage['80'])}`]);
  assert.deepEqual((await row(unscored.id)).slice(1), [`auto-ets ${unscored.model_size}`, day(77), '7', '—', '—', 'not scored yet']);
  assert.equal(await page.getAttribute('[data-stored-panel="shop-1"] .drift', 'data-drift'), 'raised');
  assert.match((await page.textContent('[data-stored-panel="shop-1"] .drift'))!, /^Drifting since .*rolling MASE .* is above 0\.000001/);
  await page.screenshot({ path: join(PLAYGROUND_OUT, 'stored-series.png'), fullPage: true });

  // a series with no forecast yet: no rule, nothing scored, only its actuals drawn
  await page.click('#stored-list button[data-series-id="shop-2"]');
  await page.waitForSelector('[data-stored-panel="shop-2"] .chart svg');
  assert.equal(await page.getAttribute('[data-stored-panel="shop-2"] .drift', 'data-drift'), 'off');
  assert.match((await page.textContent('[data-stored-panel="shop-2"] [data-accuracy] caption'))!, /no kept forecast is scored yet/);
  assert.deepEqual(seen, []);
  await page.close();
});

test('stored series: the list pages 100 at a time, and a series deleted after it was listed shows the API\'s 404 detail', async () => {
  // 100 more series after the first test's two: the first page is 100, More brings the other 2
  for (let i = 0; i < 100; i++) {
    const put = await server.request('PUT', `/v1/series/z-${String(i).padStart(3, '0')}`, { body: { freq: 'D', index: ['2024-01-01', '2024-01-02'], target: [i, i + 1] } });
    assert.equal(put.status, 201, put.text);
  }
  const page = await browser.newPage();
  await page.goto(`${server.url}/playground`);
  await page.fill('#api-key', server.key);
  await page.click('#connect');
  await page.waitForSelector('#model option[value="auto-ets"]', { state: 'attached' });
  await page.click('#show-stored');
  await page.waitForSelector('#stored-list button[data-series-id="z-097"]');
  const ids = () => page.$$eval('#stored-list button', (bs) => bs.map((b) => (b as HTMLElement).dataset.seriesId));
  assert.equal((await ids()).length, 100);
  assert.equal(await page.textContent('#stored-state'), '100+ series');
  await page.click('#stored-more');
  await page.waitForSelector('#stored-list button[data-series-id="z-099"]');
  const all = await ids();
  assert.deepEqual(all, ['shop-1', 'shop-2', ...Array.from({ length: 100 }, (_, i) => `z-${String(i).padStart(3, '0')}`)]);
  assert.equal(await page.isVisible('#stored-more'), false);

  // deleted after it was listed: the 404's detail shows under the list, nothing is drawn for it
  assert.equal((await server.request('DELETE', '/v1/series/shop-2')).status, 200);
  const gone = await server.request('GET', '/v1/series/shop-2');
  assert.equal(gone.status, 404);
  await page.click('#stored-list button[data-series-id="shop-2"]');
  await page.waitForFunction(() => document.querySelector('[data-error-for="stored"]')!.textContent !== '');
  assert.equal(await page.textContent('[data-error-for="stored"]'), `${gone.body.title}: ${gone.body.detail}`);
  assert.equal(await page.$('[data-stored-panel="shop-2"]'), null);
  await page.close();
});
