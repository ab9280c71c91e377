// The playground's hierarchy mode in real headless Chromium (Debian's chromium, driven by playwright-core) against a
// real server: a long CSV with label columns becomes a request with `hierarchy`; the page shows the answer's tree, and
// for the node picked its history (the sum of its series), base and reconciled forecast with the API's numbers.
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

/** The hierarchy sample as the test reads it, independently of the page: one series per ATM, in the file's order. */
function nn5Hierarchy(): { series: { index: string[]; target: number[] }[]; labels: { group: string; atm: string }[] } {
  const rows = readFileSync(join(import.meta.dirname, '..', 'web', 'samples', 'nn5-weekly-hierarchy.csv'), 'utf8').trim().split('\n').slice(1);
  const byAtm = new Map<string, { group: string; index: string[]; target: number[] }>();
  for (const row of rows) {
    const [week, group, atm, value] = row.split(',');
    if (!byAtm.has(atm)) byAtm.set(atm, { group, index: [], target: [] });
    byAtm.get(atm)!.index.push(week);
    byAtm.get(atm)!.target.push(Number(value));
  }
  const atms = [...byAtm.entries()];
  return { series: atms.map(([, s]) => ({ index: s.index, target: s.target })), labels: atms.map(([atm, s]) => ({ group: s.group, atm })) };
}

async function openConnected(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (r) => { if (!r.url().startsWith(server.url) && !/^(blob|data):/.test(r.url())) problems.push(`request off the service: ${r.url()}`); });
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`); });
  assert.equal((await page.goto(`${server.url}/playground`))?.status(), 200);
  await page.fill('#api-key', server.key);
  await page.click('#connect');
  await page.waitForSelector('#model option[value="seasonal-naive"]', { state: 'attached' });
  return { page, problems };
}

async function submit(page: Page): Promise<{ sent: any; status: number; answer: any }> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/v1/forecast') && r.request().method() === 'POST');
  await page.click('#run');
  const response = await answered;
  return { sent: JSON.parse(response.request().postData()!), status: response.status(), answer: await response.json() };
}

/** The tooltip's numbers at x position `i` of the picked node's chart (model panel 0). */
async function tooltipAt(page: Page, i: number, date: string): Promise<Record<string, number>> {
  const chart = page.locator('[data-model-panel="0"] .chart');
  const box = (await chart.boundingBox())!;
  const x = await page.evaluate((k) => (globalThis as any).echarts.getInstanceByDom(document.querySelector('[data-model-panel="0"] .chart')).convertToPixel({ xAxisIndex: 0 }, k), i);
  await page.mouse.move(box.x + x, box.y + box.height / 2);
  const tooltip = page.locator('.hz-tooltip');
  await tooltip.locator('.tt-date', { hasText: date }).waitFor();
  const rows = await tooltip.locator('[data-key]').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-key'), n.textContent]));
  return Object.fromEntries(rows.map(([k, v]) => [k, Number(v)]));
}

test('hierarchy sample: the request carries labels and levels; the tree is the answer\'s; a picked node shows its history, base and reconciled forecast', async () => {
  const { page, problems } = await openConnected();
  await page.selectOption('#model', 'seasonal-naive');
  await page.selectOption('#sample', 'nn5-hierarchy');
  await page.waitForFunction(() => document.getElementById('data-summary')!.textContent!.startsWith('678 rows · 6 series under group → atm'));
  assert.equal(await page.isChecked('#hierarchy-mode'), true);
  assert.equal(await page.isVisible('#reconcile'), true);
  assert.equal(await page.isDisabled('#backtest'), true, 'no backtest with a hierarchy (the API cross-validates one instead)');

  const { sent, status, answer } = await submit(page);
  assert.equal(status, 200, JSON.stringify(answer));
  const nn5 = nn5Hierarchy();
  assert.deepEqual(sent.series, nn5.series);
  assert.deepEqual(sent.hierarchy, { labels: nn5.labels, levels: [['group'], ['group', 'atm']] });
  assert.equal(sent.reconcile, 'wls_var', 'the default method is selected');
  assert.equal(sent.evaluation, undefined);
  const direct = await server.request('POST', '/v1/forecast', { body: { model: 'seasonal-naive', freq: 'W', horizon: 8, quantiles: [0.1, 0.5, 0.9], series: nn5.series,
    hierarchy: sent.hierarchy, reconcile: 'wls_var' } });
  assert.equal(direct.status, 200, direct.text);
  assert.deepEqual(direct.body.hierarchy, answer.hierarchy);

  // the tree: every node once, under the node the answer names as its parent; "total" picked first
  await page.waitForSelector('#hierarchy-tree button[data-node-id="total"][aria-current]');
  const tree = await page.$$eval('#hierarchy-tree button[data-node-id]', (buttons) => buttons.map((b) => [
    b.getAttribute('data-node-id'), b.parentElement!.parentElement!.closest('li')?.querySelector(':scope > button')?.getAttribute('data-node-id') ?? null]));
  const byId = (x: (string | null)[], y: (string | null)[]) => String(x[0]).localeCompare(String(y[0]));
  assert.deepEqual([...tree].sort(byId), answer.hierarchy.nodes.map((n: any) => [n.id, n.parent]).sort(byId));
  assert.deepEqual(tree.map(([id]) => id), ['total', 'A', 'A/T1', 'A/T2', 'A/T3', 'B', 'B/T4', 'B/T5', 'B/T6']);

  // pick group A: its history is the sum of T1..T3; the forecast steps show base and reconciled as the API sent them
  await page.click('#hierarchy-tree button[data-node-id="A"]');
  await page.waitForSelector('[data-model-panel="0"][data-node="A"] .chart svg');
  const a = answer.hierarchy.nodes.find((n: any) => n.id === 'A');
  assert.match((await page.textContent('[data-model-panel="0"] .method'))!, new RegExp(`reconciled with ${answer.hierarchy.method}`));
  const n = nn5.series[0].target.length;
  const shown = await tooltipAt(page, 50, nn5.series[0].index[50]);
  assert.equal(shown.history, nn5.series[0].target[50] + nn5.series[1].target[50] + nn5.series[2].target[50]);
  const step = 3;
  const forecast = await tooltipAt(page, n + step, a.index[step]);
  for (const key of ['mean', '0.1', '0.5', '0.9']) {
    const name = key === 'mean' ? 'mean' : `q${key}`;
    assert.equal(forecast[`reconciled ${name}`], a.reconciled[key][step], `reconciled ${key}`);
    assert.equal(forecast[`base ${name}`], a.base[key][step], `base ${key}`);
  }
  assert.notDeepEqual(a.base.mean, a.reconciled.mean, 'reconciling changed the group\'s forecast');
  // the table: reconciled, then base, rounded to 4 decimals (the data has more)
  const table = await page.$$eval('[data-model-panel="0"] table.forecast tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
  const keys = ['mean', '0.1', '0.5', '0.9'];
  assert.deepEqual(table, a.index.map((date: string, t: number) => [date, ...keys.map((k) => a.reconciled[k][t].toFixed(4)), ...keys.map((k) => a.base[k][t].toFixed(4))]));
  await page.mouse.move(10, 10);
  await page.screenshot({ path: join(PLAYGROUND_OUT, 'hierarchy-nn5-group-a.png'), fullPage: true });

  // the download: every node's rows, reconciled then base, with every digit
  const downloaded = page.waitForEvent('download');
  await page.click('[data-model-panel="0"] button.download');
  const csv = readFileSync(await (await downloaded).path(), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'node,level,parent,date,mean,q0.1,q0.5,q0.9,base_mean,base_q0.1,base_q0.5,base_q0.9');
  assert.equal(csv.length, 1 + 9 * 8);
  assert.equal(csv.find((l) => l.startsWith(`A,group,total,${a.index[step]},`)), ['A', 'group', 'total', a.index[step], ...keys.map((k) => a.reconciled[k][step]),
    ...keys.map((k) => a.base[k][step])].join(','));
  assert.deepEqual(problems, []);
  await page.close();
});

test('hierarchy mode: a row without a label is the page\'s own error; the API\'s 422 lands under the data with the series\' CSV row; middle-out sends its level', async () => {
  const { page, problems } = await openConnected();
  let posts = 0;
  page.on('request', (r) => { if (r.url().endsWith('/v1/forecast')) posts += 1; });
  await page.check('#hierarchy-mode');
  await page.selectOption('#model', 'seasonal-naive');
  await page.fill('#csv', 'month,region,store,sales\n2020-01-01,north,n1,10\n2020-01-01,,n2,11\n');
  await page.click('#run');
  assert.equal(await page.textContent('[data-error-for="data"]'), 'row 3, column "region": no label (every row names its node at every level)');
  assert.equal(posts, 0);

  // three stores, 24 months; s1 stops a month early: the series end on different dates, which the API refuses
  const months = Array.from({ length: 24 }, (_, i) => `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
  const stores = [['north', 'n1'], ['north', 'n2'], ['south', 's1']];
  const csv = (last: number) => `month,region,store,sales\n${stores.flatMap(([r, s], k) => months.slice(0, k === 2 ? last : 24)
    .map((m, i) => `${m},${r},${s},${100 + 10 * k + i + (i % 3)}`)).join('\n')}\n`;
  await page.fill('#csv', csv(23));
  await page.fill('#horizon', '3');
  const refused = await submit(page);
  assert.equal(refused.status, 422, JSON.stringify(refused.answer));
  await page.waitForFunction(() => document.querySelector('[data-error-for="data"]')!.textContent !== '');
  assert.equal(await page.textContent('[data-error-for="data"]'), refused.answer.detail);
  const at = /^series\[(\d+)\]\.index\[(\d+)\]/.exec(refused.answer.errors[0].field);
  assert.ok(at, refused.answer.errors[0].field);
  const row = 2 + 24 * Number(at[1]) + Number(at[2]); // the rows are in series order, each in date order
  assert.equal(await page.textContent('[data-hint-for="data"]'), `→ CSV row ${row} (series ${stores[Number(at[1])].join('/')})`);

  // middle-out from the region level: the request names it, the panel says what reconciled
  await page.fill('#csv', csv(24));
  await page.selectOption('#reconcile', 'middle_out');
  assert.equal(await page.isVisible('#reconcile-level'), true);
  await page.selectOption('#reconcile-level', 'region');
  const middle = await submit(page);
  assert.equal(middle.status, 200, JSON.stringify(middle.answer));
  assert.deepEqual([middle.sent.reconcile, middle.sent.reconcile_level], ['middle_out', 'region']);
  await page.waitForSelector('[data-model-panel="0"][data-node="total"] .chart svg');
  assert.match((await page.textContent('[data-model-panel="0"] .method'))!, new RegExp(`reconciled with ${middle.answer.hierarchy.method}`));
  assert.equal(await page.textContent('[data-error-for="data"]'), '');
  assert.deepEqual(problems, []);
  await page.close();
});
