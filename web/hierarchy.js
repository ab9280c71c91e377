// The forecast view's hierarchy mode (docs/playground.md "Hierarchies"): the tree of the answer's nodes and, for the
// node picked, each model's base forecast (the model's own) against its reconciled one: chart, table and the node's
// history (the sum of its series, as the API sums them). No request here: app.js sends the forecast.
import { hierarchyCsv, levelsOf, nodeHistory, nodeTree, roundToData } from './data.js';
import { drawNode } from './chart.js';

/** `el` builds elements (app.js). Returns { show, reset, resize }. */
export function hierarchyView({ el }) {
  const $ = (id) => document.getElementById(id);
  const state = { results: [], data: null, freq: null, picked: null, charts: [] };

  const nodesOf = (result) => result.response.hierarchy.nodes;

  /** Shows the answers (one per model, the same request) of a hierarchy forecast of `data` (parseHierarchyCsv's). */
  function show(results, data, freq) {
    Object.assign(state, { results, data, freq });
    const ids = new Set(nodesOf(results[0]).map((n) => n.id));
    if (!ids.has(state.picked)) state.picked = nodesOf(results[0])[0].id;
    renderTree();
    renderPanels();
  }

  function reset() {
    for (const chart of state.charts) chart.dispose();
    Object.assign(state, { results: [], data: null, picked: null, charts: [] });
    $('hierarchy-tree').hidden = true;
    $('hierarchy-tree').replaceChildren();
    $('results-body').classList.remove('with-tree');
  }

  function renderTree() {
    const item = ({ node, children }) => el('li', {},
      el('button', { type: 'button', 'data-node-id': node.id, title: `${node.id} · ${node.level} · ${node.series.length} series`,
        onclick: () => pick(node.id) },
        node.parent !== null && node.id.startsWith(`${node.parent}/`) ? node.id.slice(node.parent.length + 1) : node.id,
        el('span', { class: 'muted small' }, ` ${node.level}`)),
      children.length ? el('ul', {}, ...children.map(item)) : null);
    const nodes = nodesOf(state.results[0]);
    $('hierarchy-tree').replaceChildren(el('h2', {}, `Hierarchy · ${nodes.length} nodes`), el('ul', { class: 'tree' }, ...nodeTree(nodes).map(item)));
    $('hierarchy-tree').hidden = false;
    $('results-body').classList.add('with-tree');
    markPicked();
  }

  function markPicked() {
    for (const button of $('hierarchy-tree').querySelectorAll('button[data-node-id]')) {
      if (button.dataset.nodeId === state.picked) button.setAttribute('aria-current', 'true'); else button.removeAttribute('aria-current');
    }
  }

  function pick(id) {
    state.picked = id;
    markPicked();
    renderPanels();
  }

  function table(node, decimals) {
    const levels = levelsOf(node.reconciled);
    const keys = ['mean', ...levels];
    const name = (k) => (k === 'mean' ? 'mean' : `q${k}`);
    return el('div', { class: 'table-wrap' }, el('table', { class: 'forecast' },
      el('thead', {}, el('tr', {}, el('th', {}, 'date'), ...keys.map((k) => el('th', {}, name(k))),
        ...keys.map((k) => el('th', { class: 'base' }, `base ${name(k)}`)))),
      el('tbody', {}, ...node.index.map((date, t) => el('tr', {}, el('td', {}, date),
        ...keys.map((k) => el('td', { 'data-key': name(k) }, roundToData(node.reconciled[k][t], decimals))),
        ...keys.map((k) => el('td', { 'data-key': `base ${name(k)}`, class: 'base' }, roundToData(node.base[k][t], decimals))))))));
  }

  function download(response) {
    const blob = new Blob([hierarchyCsv(response)], { type: 'text/csv' });
    const link = el('a', { href: URL.createObjectURL(blob), download: `hierarchy-${response.model}-${response.model_size}.csv` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  }

  function panel(result, i) {
    const { response } = result;
    const node = response.hierarchy.nodes.find((n) => n.id === state.picked);
    const decimals = Math.max(...node.series.map((s) => state.data.decimals[s]));
    const h = response.hierarchy;
    const own = response.warnings.filter((w) => w.series === undefined || node.series.includes(w.series));
    const warnings = [...h.warnings, ...own.map((w) => `${w.field}: ${w.message}`)];
    const chartNode = el('div', { class: 'chart' });
    const article = el('article', { class: 'panel result', 'data-model-panel': String(i), 'data-node': node.id },
      el('header', {}, el('h3', {}, response.model, el('span', { class: 'muted' }, ` · ${response.model_size} · ${node.id} (${node.level})`)),
        el('button', { type: 'button', class: 'download', onclick: () => download(response) }, 'Download CSV')),
      el('p', { class: 'muted small method' }, `reconciled with ${h.method} (intervals: ${h.intervals}) · base: the model's own forecast of this node · ` +
        `${node.series.length} series: ${node.series.map((s) => state.data.names[s]).join(', ')}`),
      warnings.length ? el('ul', { class: 'warnings' }, ...warnings.map((w) => el('li', {}, w))) : null,
      chartNode,
      el('details', { open: '' },
        el('summary', {}, `Forecast values: reconciled, then base (${node.index.length} steps, rounded like the data; the CSV has every digit)`),
        table(node, decimals)));
    return { article, chartNode, node, result };
  }

  function renderPanels() {
    for (const chart of state.charts) chart.dispose();
    const panels = state.results.map(panel);
    $('panels').replaceChildren(...panels.map((p) => p.article));
    $('panels').classList.toggle('two', panels.length > 1);
    const history = nodeHistory(state.data, panels[0].node.series, state.freq);
    state.charts = panels.map(({ chartNode, node, result }) =>
      drawNode(chartNode, { historyIndex: history.index, history: history.values, node, colors: result.colors }));
  }

  return { show, reset, resize: () => { for (const chart of state.charts) chart.resize(); } };
}
