// The "Stored series" view: the account's stored series (GET /v1/series, paged) and, for the one
// picked, its history with its kept forecasts against the actuals (GET /v1/series/{id}), its rolling
// accuracy (GET /v1/series/{id}/accuracy) and its drift state. docs/stored-series.md has the rules.
import { drawStored } from './chart.js';

const PAGE = 100;
/** Kept forecasts drawn: the view's latest ones; older ones still count in the accuracy. */
const FORECASTS = 50;
const score = (v) => (v === null || v === undefined ? '—' : String(Math.round(v * 1e4) / 1e4));
const when = (iso) => iso.slice(0, 16).replace('T', ' ');

/** `api(path)` → {response, body}; `el` builds elements (app.js). Returns what app.js calls. */
export function storedSeriesView({ api, el }) {
  const $ = (id) => document.getElementById(id);
  const state = { cursor: null, loaded: false, picked: null, chart: null };

  function showProblem(body, status) {
    const slot = document.querySelector('[data-error-for="stored"]');
    slot.textContent = body && typeof body.detail === 'string' ? (status === 401 ? body.detail : `${body.title}: ${body.detail}`) : `HTTP ${status} without a problem body`;
  }

  async function loadPage() {
    document.querySelector('[data-error-for="stored"]').textContent = '';
    $('stored-state').textContent = 'loading…';
    const query = new URLSearchParams({ limit: String(PAGE), ...(state.cursor ? { cursor: state.cursor } : {}) });
    let answer;
    try { answer = await api(`/v1/series?${query}`); } catch (error) {
      $('stored-state').textContent = '';
      return showProblem({ title: 'the service did not answer', detail: error.message }, 0);
    }
    const { response, body } = answer;
    if (!response.ok) { $('stored-state').textContent = ''; return showProblem(body, response.status); }
    state.loaded = true;
    state.cursor = body.next_cursor;
    $('stored-list').append(...body.series.map((s) => el('li', {},
      el('button', { type: 'button', 'data-series-id': s.series_id, onclick: () => void pick(s.series_id) },
        el('span', { class: 'id' }, s.series_id), el('span', { class: 'muted small' }, ` ${s.freq} · ${s.points} points`)))));
    const count = $('stored-list').children.length;
    $('stored-state').textContent = count ? `${count}${state.cursor ? '+' : ''} series` : 'no stored series in this account yet';
    $('stored-more').hidden = !state.cursor;
  }

  async function pick(id) {
    state.picked = id;
    for (const b of document.querySelectorAll('#stored-list button')) b.toggleAttribute('aria-current', b.dataset.seriesId === id);
    document.querySelector('[data-error-for="stored"]').textContent = '';
    const path = `/v1/series/${encodeURIComponent(id)}`;
    let view;
    let accuracy;
    try {
      [view, accuracy] = await Promise.all([api(`${path}?tail=1000&forecasts=${FORECASTS}`), api(`${path}/accuracy`)]);
    } catch (error) {
      return showProblem({ title: 'the service did not answer', detail: error.message }, 0);
    }
    if (state.picked !== id) return; // another series was picked meanwhile
    for (const a of [view, accuracy]) if (!a.response.ok) return showProblem(a.body, a.response.status);
    render(view.body, accuracy.body);
  }

  function accuracyTable(accuracy) {
    const intervals = [...new Set([accuracy.overall, ...accuracy.models].flatMap((a) => Object.keys(a.coverage)))].sort((a, b) => Number(a) - Number(b));
    const row = (label, a) => el('tr', {}, el('th', {}, label), el('td', { 'data-key': 'forecasts' }, String(a.forecasts)),
      el('td', { 'data-key': 'mase' }, score(a.mase)), el('td', { 'data-key': 'wql' }, score(a.wql)),
      ...intervals.map((k) => el('td', { 'data-key': `coverage-${k}` }, score(a.coverage[k]))));
    return el('table', { class: 'metrics', 'data-accuracy': '' },
      el('caption', {}, accuracy.overall.forecasts
        ? `Rolling accuracy · latest ${accuracy.overall.forecasts} scored (window ${accuracy.window})`
        : 'Rolling accuracy: no kept forecast is scored yet (a forecast is scored once every date it forecast has its actual)'),
      el('thead', {}, el('tr', {}, el('th'), el('th', {}, 'forecasts'), el('th', {}, 'MASE'), el('th', {}, 'WQL'), ...intervals.map((k) => el('th', { title: `share of the actuals inside the central ${k} % interval` }, `cov ${k} %`)))),
      el('tbody', {}, row('all models', accuracy.overall), ...(accuracy.models.length > 1 ? accuracy.models.map((m) => row(m.model, m)) : [])));
  }

  /** The drift rule's state: no rule, drifting (since the latest drift_raised, with its reasons), or not. */
  function driftState(view) {
    if (!view.drift) return el('p', { class: 'drift', 'data-drift': 'off' }, 'Drift: no rule set (PUT the series with drift: {…})');
    const rule = Object.entries(view.drift).map(([k, v]) => `${k} ${v}`).join(', ');
    const latest = view.events.find((e) => e.kind === 'drift_raised' || e.kind === 'drift_cleared');
    if (view.drifting) {
      return el('p', { class: 'drift raised', 'data-drift': 'raised' }, `Drifting since ${when(latest.created_at)}: ${(latest.detail?.reasons ?? []).join('; ')}`, el('span', { class: 'muted' }, ` · rule: ${rule}`));
    }
    return el('p', { class: 'drift', 'data-drift': 'clear' }, latest ? `No drift (cleared ${when(latest.created_at)})` : 'No drift', el('span', { class: 'muted' }, ` · rule: ${rule}`));
  }

  function forecastsTable(forecasts) {
    return el('div', { class: 'table-wrap' }, el('table', { class: 'forecast', 'data-kept-forecasts': '' },
      el('thead', {}, el('tr', {}, ...['issued', 'model', 'first date', 'steps', 'MASE', 'WQL', 'coverage'].map((h) => el('th', {}, h)))),
      el('tbody', {}, ...forecasts.map((f) => {
        const coverage = f.scores ? Object.entries(f.scores.coverage).map(([k, v]) => `${k} %: ${score(v)}`).join(' · ') : 'not scored yet';
        return el('tr', { 'data-forecast-id': f.id }, el('td', {}, when(f.issued_at)), el('td', {}, `${f.model} ${f.model_size}`), el('td', {}, f.index[0]),
          el('td', {}, String(f.horizon)), el('td', {}, score(f.scores?.mase)), el('td', {}, score(f.scores?.wql)), el('td', {}, coverage));
      }))));
  }

  function render(view, accuracy) {
    state.chart?.dispose();
    const forecasts = [...view.forecasts].reverse(); // the view lists the newest first; drawn oldest first, newest on top
    const chartNode = el('div', { class: 'chart' });
    const panel = el('article', { class: 'panel result', 'data-stored-panel': view.series_id },
      el('header', {}, el('h3', {}, view.series_id, el('span', { class: 'muted' }, ` · ${view.freq} · ${view.points} points · ${view.first_date} … ${view.last_date}`))),
      driftState(view),
      accuracyTable(accuracy),
      chartNode,
      el('p', { class: 'muted small' }, forecasts.length
        ? `${forecasts.length} kept forecast${forecasts.length === 1 ? '' : 's'} drawn at the dates forecast, each as its mean and its widest central band, over the last ${view.index.length} actuals.`
        : 'No kept forecast yet: forecast with series_ids and store: true.'),
      el('details', { open: '' }, el('summary', {}, `Kept forecasts (${forecasts.length}, newest first)`), forecastsTable(view.forecasts)));
    $('stored-detail').replaceChildren(panel);
    state.chart = drawStored(chartNode, { index: view.index, target: view.target, forecasts });
  }

  $('stored-more').addEventListener('click', () => void loadPage());
  window.addEventListener('resize', () => state.chart?.resize());

  return {
    /** The view was opened: the first page, once per key. */
    show() { if (!state.loaded) void loadPage(); },
    /** A (new) key was connected: what was listed belonged to the previous one. */
    reset() {
      state.chart?.dispose();
      Object.assign(state, { cursor: null, loaded: false, picked: null, chart: null });
      $('stored-list').replaceChildren();
      $('stored-more').hidden = true;
      $('stored-detail').replaceChildren(el('div', { class: 'empty muted' }, 'Pick a stored series to see its past forecasts against the actuals.'));
    },
  };
}
