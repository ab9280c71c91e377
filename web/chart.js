// One forecast chart: history, the mean forecast and one shaded band per symmetric pair of quantile
// levels (0.1–0.9, 0.25–0.75, …), with zoom and a tooltip that prints the API's numbers unrounded.
import { levelsOf } from './data.js';

export const PALETTE = [
  { forecast: '#2563eb', band: '#3b82f6' },
  { forecast: '#c2410c', band: '#f97316' },
];
export const HISTORY_COLOR = '#334155';

const escape = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** Draws into `element` (SVG renderer: crisp at any zoom, and the drawn paths are inspectable). */
export function drawForecast(element, { historyIndex, history, prediction, colors }) {
  const levels = levelsOf(prediction.prediction);
  const n = history.length;
  // one date format on the axis: the API's hourly dates carry seconds (T23:00:00), the CSV's do not (T23:00)
  const dates = [...historyIndex, ...prediction.index].map((d) => d.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d):00Z?$/, '$1'));
  const pad = (values, before) => [...Array(before).fill(null), ...values, ...Array(dates.length - before - values.length).fill(null)];
  const mean = prediction.prediction.mean;

  const series = [
    { name: 'history', type: 'line', data: pad(history, 0), showSymbol: false, color: HISTORY_COLOR, lineStyle: { width: 1.5 } },
    { name: 'forecast (mean)', type: 'line', data: pad(mean, n), showSymbol: false, color: colors.forecast, lineStyle: { width: 2 }, z: 3 },
  ];
  // a band is drawn as the lower edge (invisible) plus the stacked upper−lower area on top of it;
  // both carry the band's name, so the legend shows and toggles them as one item
  for (let i = 0; i < Math.floor(levels.length / 2); i++) {
    const lo = levels[i];
    const hi = levels[levels.length - 1 - i];
    const name = `${lo}–${hi} band`;
    const lower = prediction.prediction[lo];
    const upper = prediction.prediction[hi];
    const stack = `band-${i}`;
    series.push(
      { name, type: 'line', stack, data: pad(lower, n), symbol: 'none', lineStyle: { opacity: 0 }, color: colors.band, silent: true },
      { name, type: 'line', stack, data: pad(upper.map((u, t) => u - lower[t]), n), symbol: 'none', lineStyle: { opacity: 0 },
        color: colors.band, areaStyle: { color: colors.band, opacity: 0.16 + 0.12 * i }, silent: true },
    );
  }

  const tooltip = (params) => {
    const t = params[0]?.dataIndex;
    if (t === undefined) return '';
    const rows = t < n
      ? [['history', history[t]]]
      : [['mean', mean[t - n]], ...levels.map((l) => [`q${l}`, prediction.prediction[l][t - n]])];
    return `<div class="tt-date">${escape(dates[t])}</div>` + rows.map(([k, v]) =>
      `<div class="tt-row"><span>${escape(k)}</span><b data-key="${escape(k)}">${v === null ? '—' : escape(String(v))}</b></div>`).join('');
  };

  return timeChart(element, dates, series, series.filter((s, i) => i < 2 || s.areaStyle).map((s) => s.name), tooltip);
}

/** A hierarchy node's base forecast (the model's own): grey, dashed, under the reconciled one in the panel's colours. */
export const BASE_COLORS = { forecast: '#6b7280', band: '#9ca3af' };

/** One node of a hierarchy: its history (the sum of its series), the base forecast and the reconciled one, each as its
 * mean and its widest central band; the tooltip prints both, unrounded. */
export function drawNode(element, { historyIndex, history, node, colors }) {
  const levels = levelsOf(node.reconciled);
  const n = history.length;
  const dates = [...historyIndex, ...node.index].map((d) => d.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d):00Z?$/, '$1'));
  const pad = (values, before) => [...Array(before).fill(null), ...values, ...Array(dates.length - before - values.length).fill(null)];
  const series = [{ name: 'history', type: 'line', data: pad(history, 0), showSymbol: false, color: HISTORY_COLOR, lineStyle: { width: 1.5 } }];
  const forecasts = [['base', node.base, BASE_COLORS, 'dashed'], ['reconciled', node.reconciled, colors, 'solid']];
  for (const [label, forecast, palette, type] of forecasts) {
    series.push({ name: `${label} (mean)`, type: 'line', data: pad(forecast.mean, n), showSymbol: false, color: palette.forecast,
      lineStyle: { width: 2, type }, z: 3 });
    if (levels.length < 2) continue;
    const [lo, hi] = [levels[0], levels.at(-1)];
    const name = `${label} ${lo}–${hi}`;
    const lower = forecast[lo];
    series.push(
      { name, type: 'line', stack: label, data: pad(lower, n), symbol: 'none', lineStyle: { opacity: 0 }, color: palette.band, silent: true },
      { name, type: 'line', stack: label, data: pad(forecast[hi].map((u, t) => u - lower[t]), n), symbol: 'none', lineStyle: { opacity: 0 },
        color: palette.band, areaStyle: { color: palette.band, opacity: label === 'base' ? 0.12 : 0.2 }, silent: true },
    );
  }
  const tooltip = (params) => {
    const t = params[0]?.dataIndex;
    if (t === undefined) return '';
    const step = (label, forecast) => [[`${label} mean`, forecast.mean[t - n]], ...levels.map((l) => [`${label} q${l}`, forecast[l][t - n]])];
    const rows = t < n ? [['history', history[t]]] : [...step('reconciled', node.reconciled), ...step('base', node.base)];
    return `<div class="tt-date">${escape(dates[t])}</div>` + rows.map(([k, v]) =>
      `<div class="tt-row"><span>${escape(k)}</span><b data-key="${escape(k)}">${v === null ? '—' : escape(String(v))}</b></div>`).join('');
  };
  return timeChart(element, dates, series, series.filter((s) => s.type === 'line' && (s.areaStyle || !s.stack)).map((s) => s.name), tooltip);
}

export const ACTUALS_COLOR = HISTORY_COLOR;
export const PAST_FORECAST = PALETTE[0];

/** A stored series: its actuals, and each kept forecast (oldest first) as its mean plus its widest
 * central interval, at the dates it forecast. Forecasts past the last actual extend the axis. */
export function drawStored(element, { index, target, forecasts }) {
  const future = [...new Set(forecasts.flatMap((f) => f.index))].filter((d) => d > index.at(-1)).sort();
  const dates = [...index, ...future];
  const position = new Map(dates.map((d, i) => [d, i]));
  const at = (f, values) => {
    const row = Array(dates.length).fill(null);
    f.index.forEach((d, k) => { if (position.has(d)) row[position.get(d)] = values[k]; });
    return row;
  };
  const series = [{ name: 'actuals', type: 'line', data: [...target, ...future.map(() => null)], showSymbol: false, color: ACTUALS_COLOR, lineStyle: { width: 1.5 }, z: 4 }];
  const bandNames = new Set(); // forecasts kept with other quantiles get a band (and legend item) of their own
  forecasts.forEach((f, i) => {
    const levels = levelsOf(f.prediction);
    series.push({ name: 'past forecasts (mean)', id: `mean-${f.id}`, type: 'line', data: at(f, f.prediction.mean), showSymbol: false, color: PAST_FORECAST.forecast, lineStyle: { width: 1.5 }, z: 3 });
    if (levels.length < 2) return;
    const lo = levels[0];
    const hi = levels.at(-1);
    const bandName = `${lo}–${hi} band`;
    bandNames.add(bandName);
    const lower = f.prediction[lo];
    const upper = f.prediction[hi];
    // as in drawForecast: the lower edge invisible, the width stacked on it and filled; one stack per forecast
    series.push(
      { name: bandName, id: `lower-${f.id}`, type: 'line', stack: `band-${i}`, data: at(f, lower), symbol: 'none', lineStyle: { opacity: 0 }, color: PAST_FORECAST.band, silent: true },
      { name: bandName, id: `band-${f.id}`, type: 'line', stack: `band-${i}`, data: at(f, upper.map((u, k) => u - lower[k])), symbol: 'none', lineStyle: { opacity: 0 },
        color: PAST_FORECAST.band, areaStyle: { color: PAST_FORECAST.band, opacity: 0.14 }, silent: true },
    );
  });

  const tooltip = (params) => {
    const t = params[0]?.dataIndex;
    if (t === undefined) return '';
    const rows = [['actual', t < target.length ? target[t] : null]];
    for (const f of forecasts) {
      const k = f.index.indexOf(dates[t]);
      if (k >= 0) rows.push([`mean, issued ${f.issued_at.slice(0, 16).replace('T', ' ')}`, f.prediction.mean[k]]);
    }
    return `<div class="tt-date">${escape(dates[t])}</div>` + rows.map(([k, v]) =>
      `<div class="tt-row"><span>${escape(k)}</span><b>${v === null ? '—' : escape(String(v))}</b></div>`).join('');
  };

  return timeChart(element, dates, series, ['actuals', ...(forecasts.length ? ['past forecasts (mean)'] : []), ...bandNames], tooltip);
}

/** The playground's one chart setup: dates on a category axis, zoom, an axis tooltip, the given legend. The first
 * and last dates are always labelled, aligned inwards: centred on the edge, the last one was cut (ETTh1's hourly dates). */
function timeChart(element, dates, series, legend, tooltip) {
  const chart = globalThis.echarts.init(element, null, { renderer: 'svg' });
  chart.setOption({
    animation: false,
    grid: { left: 56, right: 20, top: 36, bottom: 72 },
    legend: { top: 4, left: 0, data: legend },
    tooltip: { trigger: 'axis', className: 'hz-tooltip', formatter: tooltip, textStyle: { color: '#0f172a' }, axisPointer: { type: 'line' } },
    toolbox: { right: 8, feature: { dataZoom: { yAxisIndex: 'none', title: { zoom: 'zoom to a selection', back: 'undo zoom' } }, restore: { title: 'reset' } } },
    dataZoom: [{ type: 'inside' }, { type: 'slider', bottom: 14, height: 22 }],
    xAxis: { type: 'category', data: dates, boundaryGap: false, axisLabel: { hideOverlap: true, showMinLabel: true, showMaxLabel: true, alignMinLabel: 'left', alignMaxLabel: 'right' } },
    yAxis: { type: 'value', scale: true, splitLine: { lineStyle: { color: '#e5e7eb' } } },
    series,
  });
  return chart;
}
