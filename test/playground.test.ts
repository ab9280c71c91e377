// The playground in real headless Chromium (Debian's chromium, driven by playwright-core) against a
// real server: the page's numbers must be the API's numbers, and errors must land next to their field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers.ts';
import { launchChromium, PLAYGROUND_OUT } from './browser.ts';

let server: TestServer;
let browser: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;

before(async () => {
  server = await startTestServer({ HORIZON_RUNTIME_GROUPS: 'core' });
  ({ browser, close: closeBrowser } = await launchChromium({ acceptDownloads: true }));
});

after(async () => {
  await closeBrowser?.();
  await server?.close();
});

/** AirPassengers as the test reads it, independently of the page (CR line endings). */
function airPassengers(): { index: string[]; target: number[] } {
  const rows = readFileSync(join(import.meta.dirname, '..', 'web', 'samples', 'airpassengers.csv'), 'utf8').split(/\r\n|\r|\n/).filter(Boolean).slice(1);
  return { index: rows.map((r) => `${r.split(',')[0]}-01`), target: rows.map((r) => Number(r.split(',')[1])) };
}

/** Script errors, console errors (CSP violations are reported there too) and requests off the
 * service, per page; HTTP errors the tests provoke are logged as "Failed to load resource" and left out. */
const problems = new WeakMap<Page, string[]>();

async function openConnected(): Promise<Page> {
  const page = await browser.newPage();
  const seen: string[] = [];
  problems.set(page, seen);
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  // offline: nothing is fetched from anywhere but the service (the CSV download is a blob: URL)
  page.on('request', (r) => { if (!r.url().startsWith(server.url) && !/^(blob|data):/.test(r.url())) seen.push(`request off the service: ${r.url()}`); });
  page.on('console', (message) => { if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) seen.push(`console: ${message.text()}`); });
  const response = await page.goto(`${server.url}/playground`);
  assert.equal(response?.status(), 200);
  assert.match(response!.headers()['content-security-policy'], /script-src 'self'/);
  await page.fill('#api-key', server.key);
  await page.click('#connect');
  await page.waitForSelector('#model option[value="auto-ets"]', { state: 'attached' });
  return page;
}

async function closeClean(page: Page): Promise<void> {
  assert.deepEqual(problems.get(page), []);
  await page.close();
}

/** Submits the form and returns the request body the page sent and the API's answer to it. */
async function submit(page: Page): Promise<{ sent: any; status: number; answer: any }> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/v1/forecast') && r.request().method() === 'POST');
  await page.click('#run');
  const response = await answered;
  return { sent: JSON.parse(response.request().postData()!), status: response.status(), answer: await response.json() };
}

test('AirPassengers with auto-ets: the chart draws history, forecast and band; tooltip, table and CSV equal the API', async () => {
  const page = await openConnected();
  await page.selectOption('#model', 'auto-ets');
  await page.selectOption('#sample', 'airpassengers');
  await page.waitForFunction(() => document.getElementById('data-summary')!.textContent!.startsWith('144 rows'));
  assert.equal(await page.inputValue('#horizon'), '24');

  const { sent, status, answer } = await submit(page);
  assert.equal(status, 200, JSON.stringify(answer));
  // the page built the request a client would: the CSV's dates and values, monthly, auto-ets
  const air = airPassengers();
  assert.deepEqual(sent.series, [air]);
  assert.deepEqual({ model: sent.model, freq: sent.freq, horizon: sent.horizon, quantiles: sent.quantiles }, { model: 'auto-ets', freq: 'MS', horizon: 24, quantiles: [0.1, 0.5, 0.9] });
  // and the API answers the same request the same way when the test sends it itself
  const direct = await server.request('POST', '/v1/forecast', { body: { model: 'auto-ets', freq: 'MS', horizon: 24, quantiles: [0.1, 0.5, 0.9], series: [air] } });
  assert.equal(direct.status, 200, direct.text);
  assert.deepEqual(direct.body.series, answer.series);
  const forecast = answer.series[0][0];
  assert.equal(forecast.index.length, 24);

  await page.waitForSelector('[data-model-panel="0"] .chart svg');
  // what was drawn: the SVG paths of each colour and where they lie on the chart
  const drawn = await page.evaluate(() => {
    const node = document.querySelector<HTMLElement>('[data-model-panel="0"] .chart')!;
    const chart = (globalThis as any).echarts.getInstanceByDom(node);
    const rgb = (c: string | null) => { const probe = document.createElement('i'); probe.style.color = c ?? ''; document.body.append(probe); const v = getComputedStyle(probe).color; probe.remove(); return v; };
    const paths = [...node.querySelectorAll('svg path')].map((p) => {
      const box = (p as SVGGraphicsElement).getBBox();
      return { stroke: rgb(p.getAttribute('stroke')), fill: rgb(p.getAttribute('fill')), strokeOpacity: p.getAttribute('stroke-opacity'), x0: box.x, x1: box.x + box.width, y0: box.y, y1: box.y + box.height };
    });
    const x = (i: number): number => chart.convertToPixel({ xAxisIndex: 0 }, i);
    return { paths, colors: { history: rgb('#334155'), forecast: rgb('#2563eb'), band: rgb('#3b82f6') }, xs: [x(0), x(143), x(144), x(167)] };
  });
  const [xFirst, xLastHistory, xFirstForecast, xLast] = drawn.xs;
  const near = (a: number, b: number) => Math.abs(a - b) < 1.5;
  const history = drawn.paths.find((p) => p.stroke === drawn.colors.history && near(p.x0, xFirst));
  assert.ok(history && near(history.x1, xLastHistory), `no history line from x=${xFirst} to ${xLastHistory}: ${JSON.stringify(drawn.paths)}`);
  const mean = drawn.paths.find((p) => p.stroke === drawn.colors.forecast && near(p.x0, xFirstForecast));
  assert.ok(mean && near(mean.x1, xLast), `no forecast line from x=${xFirstForecast} to ${xLast}`);
  const band = drawn.paths.find((p) => p.fill === drawn.colors.band && near(p.x0, xFirstForecast) && near(p.x1, xLast));
  assert.ok(band, 'no shaded band over the forecast steps');
  // the band spans the 0.1 and 0.9 quantiles: its box reaches the lowest q0.1 and the highest q0.9
  const [yLow, yHigh] = await page.evaluate(([lo, hi]) => {
    const chart = (globalThis as any).echarts.getInstanceByDom(document.querySelector('[data-model-panel="0"] .chart'));
    return [chart.convertToPixel({ yAxisIndex: 0 }, lo), chart.convertToPixel({ yAxisIndex: 0 }, hi)];
  }, [Math.min(...forecast.prediction['0.1']), Math.max(...forecast.prediction['0.9'])]);
  assert.ok(near(band.y1, yLow) && near(band.y0, yHigh), `band box ${band.y0}..${band.y1}, quantiles at ${yHigh}..${yLow}`);

  // hovering a forecast step shows its date and the API's values, unrounded
  const box = (await page.locator('[data-model-panel="0"] .chart').boundingBox())!;
  const step = 5;
  const xStep = await page.evaluate((i) => (globalThis as any).echarts.getInstanceByDom(document.querySelector('[data-model-panel="0"] .chart')).convertToPixel({ xAxisIndex: 0 }, i), 144 + step);
  await page.mouse.move(box.x + xStep, box.y + box.height / 2);
  const tooltip = page.locator('.hz-tooltip');
  await tooltip.locator('.tt-date', { hasText: forecast.index[step] }).waitFor();
  for (const key of ['mean', '0.1', '0.5', '0.9']) {
    const shown = await tooltip.locator(`[data-key="${key === 'mean' ? 'mean' : `q${key}`}"]`).textContent();
    assert.equal(Number(shown), forecast.prediction[key][step], `tooltip ${key}`);
  }
  // and a history step shows the observation
  const xHistory = await page.evaluate(() => (globalThis as any).echarts.getInstanceByDom(document.querySelector('[data-model-panel="0"] .chart')).convertToPixel({ xAxisIndex: 0 }, 100));
  await page.mouse.move(box.x + xHistory, box.y + box.height / 2);
  await tooltip.locator('.tt-date', { hasText: air.index[100] }).waitFor();
  assert.equal(Number(await tooltip.locator('[data-key="history"]').textContent()), air.target[100]);

  // the table holds every forecast value rounded to the data's precision (AirPassengers: whole numbers)
  const table = await page.$$eval('[data-model-panel="0"] table.forecast tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
  assert.deepEqual(table, forecast.index.map((date: string, t: number) => [date, ...['mean', '0.1', '0.5', '0.9'].map((k) => forecast.prediction[k][t].toFixed(0))]));
  assert.ok(forecast.prediction.mean.some((v: number) => !Number.isInteger(v)), 'the API\'s numbers have decimals the table leaves out');

  await page.mouse.move(box.x + xStep, box.y + box.height / 2);
  await tooltip.locator('.tt-date', { hasText: forecast.index[step] }).waitFor();
  await page.screenshot({ path: join(PLAYGROUND_OUT, 'airpassengers-auto-ets.png'), fullPage: true });

  // the download is the forecast as CSV with the same numbers
  const downloaded = page.waitForEvent('download');
  await page.click('[data-model-panel="0"] button.download');
  const file = await (await downloaded).path();
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  assert.equal(lines[0], 'series,date,mean,q0.1,q0.5,q0.9');
  assert.deepEqual(lines.slice(1), forecast.index.map((date: string, t: number) => ['#Passengers', date, ...['mean', '0.1', '0.5', '0.9'].map((k) => String(forecast.prediction[k][t]))].join(',')));

  // the wheel zooms in around the pointer: the visible window shrinks from the whole series
  const zoomWindow = () => page.evaluate(() => {
    const zoom = (globalThis as any).echarts.getInstanceByDom(document.querySelector('[data-model-panel="0"] .chart')).getOption().dataZoom[0];
    return [zoom.start, zoom.end];
  });
  assert.deepEqual(await zoomWindow(), [0, 100]);
  await page.mouse.move(box.x + xStep, box.y + box.height / 2);
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -300);
  await page.waitForFunction(() => (globalThis as any).echarts.getInstanceByDom(document.querySelector('[data-model-panel="0"] .chart')).getOption().dataZoom[0].start > 0);
  const [start, end] = await zoomWindow();
  assert.ok(end - start < 100, `zoom window ${start}..${end}`);
  await closeClean(page);
});

test('backtest and a second model side by side: both panels, each with the API\'s metrics', async () => {
  const page = await openConnected();
  await page.selectOption('#model', 'auto-ets');
  await page.selectOption('#compare-model', 'seasonal-naive');
  await page.selectOption('#sample', 'airpassengers');
  await page.waitForFunction(() => document.getElementById('data-summary')!.textContent!.startsWith('144 rows'));
  await page.check('#backtest');
  await page.fill('#holdout', '12');
  const answers = new Map<string, Promise<any>>();
  page.on('response', (r) => { if (r.url().endsWith('/v1/forecast')) answers.set(JSON.parse(r.request().postData()!).model, r.json()); });
  await page.click('#run');
  await page.waitForSelector('[data-model-panel="1"] .chart svg');
  for (const [i, model] of [[0, 'auto-ets'], [1, 'seasonal-naive']] as const) {
    const { metrics } = await answers.get(model);
    assert.equal(metrics.holdout, 12);
    assert.equal(await page.textContent(`[data-model-panel="${i}"] h3`), `${model} · default · #Passengers`);
    const cells = await page.$$eval(`[data-model-panel="${i}"] table.metrics tbody tr:first-child td`, (tds) => tds.map((td) => td.textContent));
    const rounded = (v: number | null) => (v === null ? '—' : String(Math.round(v * 1e4) / 1e4));
    assert.deepEqual(cells, [rounded(metrics.series[0].mase), rounded(metrics.series[0].wql), rounded(metrics.series[0].smape)]);
  }
  // side by side: the second panel starts to the right of the first, on the same row
  const [a, b] = await Promise.all([0, 1].map((i) => page.locator(`[data-model-panel="${i}"]`).boundingBox()));
  assert.ok(b!.x > a!.x + a!.width - 1 && Math.abs(b!.y - a!.y) < 1, `panels at ${JSON.stringify([a, b])}`);
  await page.screenshot({ path: join(PLAYGROUND_OUT, 'compare-backtest.png'), fullPage: true });
  await closeClean(page);
});

test('the hourly and weekly samples and an uploaded file: every column is a series, the series picker switches the panel', async () => {
  const page = await openConnected();
  await page.selectOption('#model', 'seasonal-naive');
  for (const [sample, freq, columns, first] of [['etth1', 'H', 7, '2016-07-01T00:00'], ['nn5', 'W', 3, '1996-03-18']] as const) {
    await page.selectOption('#sample', sample);
    await page.waitForFunction((n) => document.getElementById('data-summary')!.textContent!.includes(`${n} series`), columns);
    const { sent, status, answer } = await submit(page);
    assert.equal(status, 200, JSON.stringify(answer));
    assert.equal(sent.freq, freq);
    assert.equal(sent.series.length, columns);
    assert.equal(sent.series[0].index[0], first);
    // this answer's panel, not the previous sample's: the picker lists this sample's columns
    await page.waitForFunction((n) => document.querySelectorAll('#series-pick option').length === n, columns);
    await page.waitForSelector('[data-model-panel="0"] .chart svg');
    // every label of the chart lies inside it: ETTh1's last x-axis date was cut at the right edge (issue 37)
    const outside = await page.$eval('[data-model-panel="0"] .chart svg', (svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
        .map(({ text, r }) => `"${text}" spans ${Math.round(r.left)}–${Math.round(r.right)} px, the chart ${Math.round(box.left)}–${Math.round(box.right)}`);
    });
    assert.deepEqual(outside, [], `${sample}: chart labels cut at its edge`);
    // …and the forecast's last date is one of them (in the CSV's format: no seconds)
    const lastDate = (answer.series[0][0].index.at(-1) as string).replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d):00Z?$/, '$1');
    const labels = await page.$$eval('[data-model-panel="0"] .chart svg text', (texts) => texts.map((t) => t.textContent));
    assert.ok(labels.includes(lastDate), `${sample}: no label ${lastDate} among ${labels.join(', ')}`);
    // the last column: the panel's title and table follow the picker
    await page.selectOption('#series-pick', String(columns - 1));
    const name = await page.$eval('#series-pick', (s: HTMLSelectElement) => s.options[s.selectedIndex].textContent);
    assert.match((await page.textContent('[data-model-panel="0"] h3'))!, new RegExp(`· ${name}$`));
    const firstMean = await page.textContent('[data-model-panel="0"] table.forecast tbody tr:first-child td[data-key="mean"]');
    // both samples are written with more than 4 decimals: the table stops at 4 (the CSV keeps all)
    assert.equal(firstMean, answer.series[columns - 1][0].prediction.mean[0].toFixed(4));
  }
  await page.screenshot({ path: join(PLAYGROUND_OUT, 'nn5-weekly.png'), fullPage: true });

  // an uploaded file: semicolons, an empty cell sent as a missing value, daily steps inferred
  const days = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10));
  const csv = `day;a;b\n${days.map((d, i) => `${d};${10 + (i % 7)};${i === 3 ? '' : 20 + i}`).join('\n')}\n`;
  await page.setInputFiles('#file', { name: 'upload.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForFunction(() => document.getElementById('data-summary')!.textContent!.startsWith('30 rows · 2 series (a, b)'));
  assert.equal(await page.inputValue('#horizon'), '14');
  const uploaded = await submit(page);
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.answer));
  assert.equal(uploaded.sent.freq, 'D');
  assert.deepEqual(uploaded.sent.series[1].target.slice(0, 5), [20, 21, 22, null, 24]);
  await closeClean(page);
});

test('invalid input: the page names a bad CSV cell itself; the API\'s detail lands next to the field it names', async () => {
  const page = await openConnected();
  let posts = 0;
  page.on('request', (r) => { if (r.url().endsWith('/v1/forecast')) posts += 1; });

  // a value that is not a number: the page says where, and sends nothing
  await page.fill('#csv', 'month,sales\n2020-01-01,112\n2020-02-01,abc\n2020-03-01,132\n');
  await page.click('#run');
  assert.equal(await page.textContent('[data-error-for="data"]'), 'row 3, column "sales": "abc" is not a number (leave the cell empty for a missing value)');
  assert.equal(posts, 0);

  // a date off the monthly grid: valid CSV, rejected by the API; its detail shows under the data
  const months = Array.from({ length: 24 }, (_, i) => `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
  months[5] = '2020-06-15';
  await page.fill('#csv', `month,sales\n${months.map((m, i) => `${m},${100 + i}`).join('\n')}\n`);
  await page.fill('#horizon', '6');
  const offGrid = await submit(page);
  assert.equal(offGrid.status, 422);
  assert.match(offGrid.answer.errors[0].field, /^series\[0\]\.index\[5\]/);
  await page.waitForFunction(() => document.querySelector('[data-error-for="data"]')!.textContent !== '');
  assert.equal(await page.textContent('[data-error-for="data"]'), offGrid.answer.detail);
  assert.equal(await page.getAttribute('#csv', 'aria-invalid'), 'true');
  await page.screenshot({ path: join(PLAYGROUND_OUT, 'invalid-csv.png'), fullPage: true });

  // a horizon beyond the model's cap: the detail shows next to the horizon
  months[5] = '2020-06-01';
  await page.fill('#csv', `month,sales\n${months.map((m, i) => `${m},${100 + i}`).join('\n')}\n`);
  await page.selectOption('#model', 'auto-ets');
  await page.fill('#horizon', '5000');
  const tooLong = await submit(page);
  assert.equal(tooLong.status, 422);
  await page.waitForFunction(() => document.querySelector('[data-error-for="horizon"]')!.textContent !== '');
  assert.equal(await page.textContent('[data-error-for="horizon"]'), tooLong.answer.detail);
  assert.equal(await page.textContent('[data-error-for="data"]'), '');

  // a wrong key: the 401's detail shows next to the key
  await page.fill('#api-key', 'hzn_notakey');
  await page.click('#connect');
  await page.waitForFunction(() => document.querySelector('[data-error-for="key"]')!.textContent !== '');
  const unauthorized = await server.request('GET', '/v1/models', { key: 'hzn_notakey' });
  assert.equal(await page.textContent('[data-error-for="key"]'), unauthorized.body.detail);
  await closeClean(page);
});

test('the page and its assets are public, unknown assets are a problem+json 404, the key stays in session storage', async () => {
  const page = await server.request('GET', '/playground', { key: null });
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type')!, /text\/html/);
  const scripts = [...page.text.matchAll(/src="(\/playground\/assets\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(scripts.some((s) => /echarts-[\d.]+\.min\.js$/.test(s)), page.text);
  for (const src of scripts) assert.equal((await server.request('GET', src, { key: null })).status, 200, src);
  const slash = await fetch(`${server.url}/playground/`, { redirect: 'manual' });
  assert.equal(slash.status, 308);
  assert.equal(slash.headers.get('location'), '/playground');
  const missing = await server.request('GET', '/playground/assets/../package.json', { key: null });
  assert.equal(missing.status, 404);
  const unknown = await server.request('GET', '/playground/assets/secret.txt', { key: null });
  assert.equal(unknown.status, 404);
  assert.match(unknown.headers.get('content-type')!, /application\/problem\+json/);
  // the browser's icon: the page links the logo, and /favicon.ico (asked for by browsers anyway) is it, not a 404
  const icon = [...page.text.matchAll(/<link rel="icon" href="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(icon, ['/playground/assets/horizon-logo.svg']);
  for (const path of [...icon, '/favicon.ico']) {
    const res = await server.request('GET', path, { key: null });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml', path);
    assert.match(res.text, /^<svg[\s\S]*<\/svg>\s*$/, path);
  }

  const browserPage = await openConnected();
  assert.equal(await browserPage.evaluate(() => sessionStorage.getItem('horizon.apiKey')), server.key);
  assert.equal(await browserPage.evaluate(() => localStorage.length), 0);
  await closeClean(browserPage);
});

test('first hour: the model list reads whole before connecting; after a failed request earlier results are dimmed; tables keep the data\'s decimals', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/playground`);
  // the text a select shows must fit its box (it read "connect f" when the empty size list took the row)
  const cut = () => page.evaluate(() => [...document.querySelectorAll<HTMLSelectElement>('form select')].filter((s) => s.offsetParent !== null).map((s) => {
    const style = getComputedStyle(s);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = s.options[s.selectedIndex]?.text ?? '';
    // the box less its padding and the arrow (about 20 px in Chromium)
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return { id: s.id, text, width: Math.ceil(context.measureText(text).width), room };
  }).filter((s) => s.width > s.room));
  assert.equal(await page.textContent('#model option'), 'connect first');
  assert.deepEqual(await cut(), []);
  await page.close();

  const connected = await openConnected();
  // values written with 2 decimals: the table shows 2, the API's numbers have more
  const rows = Array.from({ length: 36 }, (_, i) => `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01,${(100 + 10 * Math.sin(i / 2) + i / 7).toFixed(2)}`);
  await connected.selectOption('#model', 'auto-ets');
  await connected.fill('#csv', `month,sales\n${rows.join('\n')}\n`);
  await connected.fill('#horizon', '6');
  const ok = await submit(connected);
  assert.equal(ok.status, 200, JSON.stringify(ok.answer));
  await connected.waitForSelector('[data-model-panel="0"] table.forecast');
  const cells = await connected.$$eval('[data-model-panel="0"] table.forecast tbody tr td[data-key="mean"]', (tds) => tds.map((td) => td.textContent!));
  const mean: number[] = ok.answer.series[0][0].prediction.mean;
  assert.deepEqual(cells, mean.map((v) => v.toFixed(2)));
  assert.ok(mean.some((v) => v.toFixed(2) !== String(v)), 'the API\'s numbers have more digits than the table shows');
  assert.equal(await connected.$eval('#panels', (p) => p.classList.contains('stale')), false);
  assert.equal(await connected.isVisible('#stale-note'), false);

  // a CSV error: the page's own, before any request; the earlier panel stays but is dimmed and marked
  await connected.fill('#csv', 'month,sales\n2020-01-01,112\n2020-02-01,abc\n');
  await connected.click('#run');
  assert.match((await connected.textContent('[data-error-for="data"]'))!, /"abc" is not a number/);
  assert.equal(await connected.$eval('#panels', (p) => p.classList.contains('stale')), true);
  assert.equal(await connected.isVisible('#stale-note'), true);
  assert.ok(Number(await connected.$eval('#panels', (p) => getComputedStyle(p).opacity)) < 0.5, 'dimmed');

  // a good request again: fresh panels, not dimmed
  await connected.selectOption('#sample', 'airpassengers');
  await connected.waitForFunction(() => document.getElementById('data-summary')!.textContent!.startsWith('144 rows'));
  assert.equal((await submit(connected)).status, 200);
  await connected.waitForFunction(() => !document.getElementById('panels')!.classList.contains('stale'));
  assert.equal(await connected.isVisible('#stale-note'), false);

  // an API refusal (422) also dims what is shown
  await connected.fill('#horizon', '5000');
  assert.equal((await submit(connected)).status, 422);
  await connected.waitForFunction(() => document.getElementById('panels')!.classList.contains('stale'));
  await closeClean(connected);
});
