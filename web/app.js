// The playground page: API key, data, model choice, forecast requests and result panels.
import {
  CsvError, DEFAULT_HORIZON, apiIndex, forecastCsv, formFieldOf, inferFreq, levelsOf, parseCsv, parseHierarchyCsv, parseQuantiles, roundToData,
} from './data.js';
import { PALETTE, drawForecast } from './chart.js';
import { storedSeriesView } from './series.js';
import { hierarchyView } from './hierarchy.js';

const $ = (id) => document.getElementById(id);
const KEY_STORAGE = 'horizon.apiKey'; // sessionStorage only: the key leaves with the tab
const SAMPLES = {
  airpassengers: { file: 'airpassengers.csv', horizon: 24 },
  etth1: { file: 'etth1-first-14-days.csv', horizon: 24 },
  nn5: { file: 'nn5-weekly.csv', horizon: 8 },
  'nn5-hierarchy': { file: 'nn5-weekly-hierarchy.csv', horizon: 8, hierarchy: true },
};
const FREQ_NAMES = { H: 'hourly', D: 'daily', W: 'weekly', MS: 'monthly', Q: 'quarterly', Y: 'yearly' };

const state = { models: [], defaultModel: null, data: null, results: [], charts: [] };
let typing; // the debounce timer of re-parsing the CSV while it is typed

/** Builds an element: el('div', {class: 'x'}, child, 'text'). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v; else if (k.startsWith('on')) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** The input an error slot belongs to, where the ids differ. */
const FIELD_INPUT = { data: 'csv', key: 'api-key', compare: 'compare-model', request: 'run', evaluation: 'holdout' };
const HIERARCHY_HINT = 'date,region,store,sales\n2024-01-01,north,n1,112\n2024-01-01,north,n2,64\n2024-01-01,south,s1,90';
const WIDE_HINT = 'date,sales\n2024-01-01,112\n2024-02-01,118';

/** Shows `text` under a field; a second error for it (the compared model's) goes on the next line. */
function showError(field, text) {
  const node = document.querySelector(`[data-error-for="${field}"]`);
  node.textContent = node.textContent ? `${node.textContent}\n${text}` : text;
  $(FIELD_INPUT[field] ?? field)?.setAttribute('aria-invalid', 'true');
}

function clearErrors() {
  for (const node of document.querySelectorAll('.field-error, .hint')) node.textContent = '';
  for (const node of document.querySelectorAll('[aria-invalid]')) node.removeAttribute('aria-invalid');
}

async function api(path, init = {}) {
  const key = $('api-key').value.trim();
  const response = await fetch(path, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const body = await response.json().catch(() => null);
  return { response, body };
}

/** Puts a problem+json answer next to the fields it names (`prefix` marks the compared model's). */
function showProblem(problem, status, { compare = false } = {}) {
  const prefix = compare ? `${$('compare-model').value}: ` : '';
  if (!problem || typeof problem.detail !== 'string') return showError('request', `${prefix}HTTP ${status} without a problem body`);
  if (status === 401) return showError('key', problem.detail);
  if (problem.code === 'license_not_accepted') return showError(compare ? 'compare' : 'model', prefix + problem.detail);
  if (!problem.errors?.length) return showError('request', `${prefix}${problem.title}: ${problem.detail}`);
  const byField = new Map();
  for (const e of problem.errors) {
    let field = formFieldOf(e.field);
    if (compare && field === 'model') field = 'compare';
    byField.set(field, [...(byField.get(field) ?? []), `${e.field}: ${e.reason}`]);
  }
  rowHint(problem.errors);
  // one field named: its text is the API's detail as sent; several: each gets its own reasons
  if (byField.size === 1) return showError([...byField.keys()][0], prefix + problem.detail);
  for (const [field, reasons] of byField) showError(field, prefix + reasons.join('; '));
}

/** series[i].index[k] / series[i].target[k] → where that is in the CSV the user sees. */
function rowHint(errors) {
  const at = errors.map((e) => /^series\[(\d+)\]\.(index|target)\[(\d+)\]/.exec(e.field)).find(Boolean);
  const hint = document.querySelector('[data-hint-for="data"]');
  if (state.data?.hierarchy) {
    // a long CSV: the series' own row; a label error names the series by its labels
    const labelled = errors.map((e) => /^hierarchy\.labels\[(\d+)\]/.exec(e.field)).find(Boolean);
    if (at) hint.textContent = `→ CSV row ${state.data.series[Number(at[1])].lines[Number(at[3])]} (series ${state.data.names[Number(at[1])]})`;
    else if (labelled) hint.textContent = `→ series ${state.data.names[Number(labelled[1])]}`;
    return;
  }
  if (!at || !state.data) return;
  const [, series, field, step] = at;
  const column = field === 'target' ? `, column "${state.data.names[Number(series)]}"` : '';
  document.querySelector('[data-hint-for="data"]').textContent = `→ CSV row ${Number(step) + 2}${column} (row 1 is the header)`;
}

// ---- API key and models ----------------------------------------------------------------------

/** A model's option text: its id; the account's private (fine-tuned) models by their name and base (docs/fine-tuning.md). */
const modelLabel = (m) => (m.private ? `${m.name} · fine-tuned ${m.base_model} ${m.base_size}` : m.model_id);

/** GET /v1/models unavailable_reason.code → the short label next to a model that cannot run here. */
const UNAVAILABLE = {
  runtime_not_installed: 'runtime not installed',
  license_not_accepted: 'licence not accepted',
  weights_missing: 'weights missing',
  members_unavailable: 'members unavailable',
};

async function connect() {
  clearErrors();
  const key = $('api-key').value.trim();
  if (!key) return showError('key', 'enter an API key (hzn_…); `./horizon keys create` makes one');
  sessionStorage.setItem(KEY_STORAGE, key);
  $('key-state').textContent = 'connecting…';
  let answer;
  try { answer = await api('/v1/models'); } catch (error) {
    $('key-state').textContent = '';
    return showError('key', `the service did not answer: ${error.message}`);
  }
  const { response, body } = answer;
  if (!response.ok) { $('key-state').textContent = ''; return showProblem(body, response.status); }
  // every catalog model is listed; the ones this deployment cannot serve show why (their option is disabled)
  state.models = body.models;
  state.defaultModel = body.default_model;
  const options = (select, withNone) => {
    select.replaceChildren(...(withNone ? [el('option', { value: '' }, '—')] : []), ...state.models.map((m) =>
      el('option', { value: m.model_id, ...(m.available ? {} : { disabled: '', title: m.unavailable_reason?.detail ?? '' }) }, m.available ? modelLabel(m) : `${modelLabel(m)} (${UNAVAILABLE[m.unavailable_reason?.code] ?? 'not available'})`)));
    select.disabled = false;
  };
  options($('model'), false);
  options($('compare-model'), true);
  $('model').value = body.default_model;
  onModelChange('model', 'model-size');
  onModelChange('compare-model', 'compare-size');
  $('key-state').textContent = `connected · ${state.models.filter((m) => m.available).length} models`;
  $('run').disabled = false;
  stored.reset();
  if (!$('stored-view').hidden) stored.show();
}

function onModelChange(modelId, sizeId) {
  const model = state.models.find((m) => m.model_id === $(modelId).value);
  const sizes = $(sizeId);
  sizes.replaceChildren(...(model?.sizes ?? []).map((s) => el('option', { value: s }, s)));
  sizes.disabled = !model || model.sizes.length < 2;
  if (model) sizes.value = model.default_size;
  if (modelId === 'model') describeModel();
}

function describeModel() {
  const model = state.models.find((m) => m.model_id === $('model').value);
  if (!model) return;
  const limits = model.size_limits[$('model-size').value] ?? model;
  $('model-info').textContent = `${model.name} · context ≤ ${limits.max_context} · horizon ≤ ${limits.max_horizon} · ${model.license.name}`;
  $('horizon-hint').textContent = `≤ ${limits.max_horizon}`;
}

// ---- data ------------------------------------------------------------------------------------

function onDataChange() {
  document.querySelector('[data-error-for="data"]').textContent = '';
  $('csv').removeAttribute('aria-invalid');
  state.data = null;
  const text = $('csv').value;
  if (!text.trim()) { $('data-summary').textContent = ''; return; }
  try {
    const data = $('hierarchy-mode').checked ? parseHierarchyCsv(text) : parseCsv(text);
    data.freq = inferFreq(data.dates);
    state.data = data;
    const first = data.dates[0];
    const last = data.dates.at(-1);
    const span = (d) => (d.time ? `${d.date} ${d.time.slice(0, 5)}` : d.date);
    $('data-summary').textContent = data.hierarchy
      ? `${data.series.reduce((n, s) => n + s.target.length, 0)} rows · ${data.names.length} series under ${data.labelNames.join(' → ')} · ` +
        `${span(first)} … ${span(last)}`
      : `${data.dates.length} rows · ${data.names.length} series (${data.names.join(', ')}) · ${span(first)} … ${span(last)}`;
    if (data.hierarchy) {
      const level = $('reconcile-level').value;
      $('reconcile-level').replaceChildren(...data.levels.map((l) => el('option', { value: l.join('/') }, l.join('/'))));
      if (data.levels.some((l) => l.join('/') === level)) $('reconcile-level').value = level;
    }
    $('freq').options[0].textContent = data.freq ? `auto: ${FREQ_NAMES[data.freq]} (${data.freq})` : 'auto: not recognised';
  } catch (error) {
    $('data-summary').textContent = '';
    if (!(error instanceof CsvError)) throw error;
    showError('data', error.message);
    markStale();
  }
}

/** Results of an earlier request stay readable but dimmed, marked as not the answer to what is in the form now. */
function markStale() {
  if (!state.results.length) return;
  $('panels').classList.add('stale');
  $('stale-note').hidden = false;
}

async function loadSample() {
  const sample = SAMPLES[$('sample').value];
  if (!sample) return;
  const response = await fetch(`/playground/assets/samples/${sample.file}`);
  $('csv').value = await response.text();
  setHierarchyMode(Boolean(sample.hierarchy));
  $('file').value = '';
  $('horizon').value = String(sample.horizon);
  onDataChange();
}

async function loadFile() {
  const file = $('file').files[0];
  if (!file) return;
  $('csv').value = await file.text();
  $('sample').value = '';
  onDataChange();
  if (state.data?.freq) $('horizon').value = String(DEFAULT_HORIZON[state.data.freq]);
}

// ---- forecast --------------------------------------------------------------------------------

/** The request body, or null after showing why the page could not build one. */
function buildRequest() {
  clearTimeout(typing); // parsed now: a pending re-parse must not clear the errors this request gets
  onDataChange();
  if (!state.data) {
    if (!$('csv').value.trim()) showError('data', 'paste a CSV, upload a file or pick a sample');
    return null;
  }
  const freq = $('freq').value || state.data.freq;
  if (!freq) { showError('freq', 'the dates do not step by an hour, day, week, month, quarter or year; choose the frequency'); return null; }
  let quantiles;
  try { quantiles = parseQuantiles($('quantiles').value); } catch (error) { showError('quantiles', error.message); return null; }
  const body = {
    model: $('model').value, model_size: $('model-size').value, freq,
    // sent as typed: the API's answer names what is wrong with it
    horizon: $('horizon').value.trim() === '' ? null : Number($('horizon').value),
    quantiles,
  };
  if (state.data.hierarchy) {
    body.series = state.data.series.map((s) => ({ index: apiIndex(s.dates, freq), target: s.target }));
    body.hierarchy = { labels: state.data.series.map((s) => s.labels), levels: state.data.levels };
    body.reconcile = $('reconcile').value;
    if (body.reconcile === 'middle_out') body.reconcile_level = $('reconcile-level').value;
    return body;
  }
  const index = apiIndex(state.data.dates, freq);
  body.series = state.data.columns.map((target) => ({ index, target }));
  if ($('backtest').checked) body.evaluation = $('holdout').value.trim() ? { holdout: Number($('holdout').value) } : {};
  return body;
}

async function runForecast(event) {
  event.preventDefault();
  clearErrors();
  const body = buildRequest();
  if (!body) return;
  const data = state.data; // the CSV may be edited while the requests run
  const runs = [{ body, compare: false }];
  if ($('compare-model').value) runs.push({ body: { ...body, model: $('compare-model').value, model_size: $('compare-size').value }, compare: true });
  $('run').disabled = true;
  $('run-state').textContent = `forecasting with ${runs.map((r) => r.body.model).join(' and ')}…`;
  const started = performance.now();
  let answers;
  try {
    answers = await Promise.all(runs.map(async (run, i) => ({ run, colors: PALETTE[i], ...(await api('/v1/forecast', { method: 'POST', body: JSON.stringify(run.body) })) })));
  } catch (error) {
    showError('request', `the request did not reach the service: ${error.message}`);
    $('run-state').textContent = '';
    return;
  } finally {
    $('run').disabled = false;
  }
  for (const a of answers.filter((a) => !a.response.ok)) showProblem(a.body, a.response.status, { compare: a.run.compare });
  const succeeded = answers.filter((a) => a.response.ok);
  if (succeeded.length === 0) { $('run-state').textContent = ''; markStale(); return; }
  const remaining = succeeded.at(-1).response.headers.get('x-ratelimit-remaining');
  $('run-state').textContent = `done in ${Math.round(performance.now() - started)} ms${remaining === null ? '' : ` · ${remaining} requests left in the quota`}`;
  state.results = succeeded.map((a) => ({ response: a.body, colors: a.colors }));
  if (data.hierarchy) {
    for (const chart of state.charts) chart.dispose();
    state.charts = [];
    $('series-pick').closest('.results-bar').hidden = true;
    $('stale-note').hidden = true;
    $('panels').classList.remove('stale');
    hierarchy.show(state.results, data, body.freq);
    return;
  }
  hierarchy.reset();
  state.names = data.names;
  state.columns = data.columns;
  state.decimals = data.decimals;
  state.historyIndex = body.series[0].index;
  const pick = $('series-pick');
  pick.replaceChildren(...state.names.map((name, i) => el('option', { value: String(i) }, name)));
  pick.closest('.results-bar').hidden = state.names.length < 2;
  renderPanels();
}

// ---- results ---------------------------------------------------------------------------------

const decimalsText = (n) => (n === 0 ? 'whole numbers' : n > 4 ? '4 decimals' : `${n} decimal${n === 1 ? '' : 's'}`);
const score = (v) => (v === null || v === undefined ? '—' : String(Math.round(v * 1e4) / 1e4));

function metricsTable(metrics, s) {
  const row = (label, m) => el('tr', {}, el('th', {}, label), el('td', {}, score(m.mase)), el('td', {}, score(m.wql)), el('td', {}, score(m.smape)));
  return el('table', { class: 'metrics' },
    el('caption', {}, `Backtest: last ${metrics.holdout} steps held out · MASE season ${metrics.season_length}`),
    el('thead', {}, el('tr', {}, el('th'), el('th', {}, 'MASE'), el('th', {}, 'WQL'), el('th', {}, 'sMAPE %'))),
    el('tbody', {}, row('this series', metrics.series[s]), ...(metrics.series.length > 1 ? [row('all series', metrics.aggregate)] : [])));
}

function forecastTable(prediction, decimals) {
  const levels = levelsOf(prediction.prediction);
  return el('div', { class: 'table-wrap' }, el('table', { class: 'forecast' },
    el('thead', {}, el('tr', {}, el('th', {}, 'date'), el('th', {}, 'mean'), ...levels.map((l) => el('th', {}, `q${l}`)))),
    el('tbody', {}, ...prediction.index.map((date, t) => el('tr', {}, el('td', {}, date),
      ...['mean', ...levels].map((k) => el('td', { 'data-key': k }, roundToData(prediction.prediction[k][t], decimals))))))));
}

function download(result) {
  const blob = new Blob([forecastCsv(state.names, result.response)], { type: 'text/csv' });
  const link = el('a', { href: URL.createObjectURL(blob), download: `forecast-${result.response.model}-${result.response.model_size}.csv` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

function renderPanels() {
  for (const chart of state.charts) chart.dispose();
  state.charts = [];
  const s = Number($('series-pick').value || 0);
  const panels = state.results.map((result, i) => {
    const { response } = result;
    const prediction = response.series[s][0];
    const chartNode = el('div', { class: 'chart' });
    const warnings = response.warnings.filter((w) => w.series === undefined || w.series === s);
    const panel = el('article', { class: 'panel result', 'data-model-panel': String(i) },
      el('header', {}, el('h3', {}, `${response.model}`, el('span', { class: 'muted' }, ` · ${response.model_size} · ${state.names[s]}`)),
        el('button', { type: 'button', class: 'download', onclick: () => download(result) }, 'Download CSV')),
      response.metrics ? metricsTable(response.metrics, s) : null,
      warnings.length ? el('ul', { class: 'warnings' }, ...warnings.map((w) => el('li', {}, `${w.field}: ${w.message}`))) : null,
      chartNode,
      el('details', { open: '' }, el('summary', {}, `Forecast values (${prediction.index.length} steps, rounded to ${decimalsText(state.decimals[s])} like the data; the CSV has every digit)`), forecastTable(prediction, state.decimals[s])));
    return { panel, chartNode, prediction, result };
  });
  $('panels').replaceChildren(...panels.map((p) => p.panel));
  $('panels').classList.remove('stale');
  $('stale-note').hidden = true;
  $('panels').classList.toggle('two', panels.length > 1);
  for (const { chartNode, prediction, result } of panels) {
    state.charts.push(drawForecast(chartNode, { historyIndex: state.historyIndex, history: state.columns[s], prediction, colors: result.colors }));
  }
}

// ---- views -----------------------------------------------------------------------------------

const stored = storedSeriesView({ api, el });
const hierarchy = hierarchyView({ el });

/** Hierarchy mode reads the CSV long (dates, labels top down, values) and asks for a reconciliation; no backtest then
 * (the API cross-validates a hierarchy instead). */
function setHierarchyMode(on) {
  $('hierarchy-mode').checked = on;
  $('reconcile-row').hidden = !on;
  $('backtest').disabled = on;
  if (on) { $('backtest').checked = false; $('holdout').disabled = true; }
  $('csv').placeholder = on ? HIERARCHY_HINT : WIDE_HINT;
  $('csv-label').textContent = on ? 'CSV, long: a date column, the label columns from the top level down, then the values'
    : 'CSV: a date column, then one or more value columns';
}
$('reconcile').addEventListener('change', () => { $('reconcile-level').hidden = $('reconcile').value !== 'middle_out'; });
$('hierarchy-mode').addEventListener('change', () => { setHierarchyMode($('hierarchy-mode').checked); onDataChange(); });

/** Forecast (the form) or Stored series: one <main> shows at a time. */
function showView(name) {
  $('forecast-view').hidden = name !== 'forecast';
  $('stored-view').hidden = name !== 'stored';
  $('show-forecast').setAttribute('aria-pressed', String(name === 'forecast'));
  $('show-stored').setAttribute('aria-pressed', String(name === 'stored'));
  if (name === 'stored' && state.models.length) stored.show();
  else if (name === 'forecast') { for (const chart of state.charts) chart.resize(); hierarchy.resize(); }
}

// ---- wiring ----------------------------------------------------------------------------------

$('show-forecast').addEventListener('click', () => showView('forecast'));
$('show-stored').addEventListener('click', () => showView('stored'));

$('key-form').addEventListener('submit', (e) => { e.preventDefault(); void connect(); });
$('model').addEventListener('change', () => onModelChange('model', 'model-size'));
$('model-size').addEventListener('change', describeModel);
$('compare-model').addEventListener('change', () => onModelChange('compare-model', 'compare-size'));
$('sample').addEventListener('change', () => void loadSample());
$('file').addEventListener('change', () => void loadFile());
$('csv').addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(onDataChange, 300); });
$('backtest').addEventListener('change', () => { $('holdout').disabled = !$('backtest').checked; });
$('forecast-form').addEventListener('submit', (e) => void runForecast(e));
$('series-pick').addEventListener('change', renderPanels);
window.addEventListener('resize', () => { for (const chart of state.charts) chart.resize(); hierarchy.resize(); });

const saved = sessionStorage.getItem(KEY_STORAGE);
if (saved) { $('api-key').value = saved; void connect(); }
