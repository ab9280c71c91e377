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
  const dates = [...historyIndex, ...prediction.index];
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

  const chart = globalThis.echarts.init(element, null, { renderer: 'svg' });
  chart.setOption({
    animation: false,
    grid: { left: 56, right: 20, top: 36, bottom: 72 },
    legend: { top: 4, left: 0, data: series.filter((s, i) => i < 2 || s.areaStyle).map((s) => s.name) },
    tooltip: { trigger: 'axis', className: 'hz-tooltip', formatter: tooltip, textStyle: { color: '#0f172a' }, axisPointer: { type: 'line' } },
    toolbox: { right: 8, feature: { dataZoom: { yAxisIndex: 'none', title: { zoom: 'zoom to a selection', back: 'undo zoom' } }, restore: { title: 'reset' } } },
    dataZoom: [{ type: 'inside' }, { type: 'slider', bottom: 14, height: 22 }],
    xAxis: { type: 'category', data: dates, boundaryGap: false, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', scale: true, splitLine: { lineStyle: { color: '#e5e7eb' } } },
    series,
  });
  return chart;
}
