// The playground's data side: CSV text → series for the API, frequency inference, the forecast as
// CSV, and where an API error belongs in the form. No DOM here.

/** A CSV problem the page reports itself (the API never sees such input). */
export class CsvError extends Error {}

const DATE = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?)?$/;
const MISSING = new Set(['', 'na', 'nan', 'null', 'none', '?']);

/**
 * Parses `text` (first row = header, first column = dates) with Papa Parse, which handles quoting,
 * CR/LF/CRLF line ends and comma/semicolon/tab delimiters.
 * Returns { names, dates: [{date, time}], columns: (number|null)[][], rowOfDate: number[] }.
 */
export function parseCsv(text) {
  const result = globalThis.Papa.parse(text.trim(), { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const rows = result.data;
  if (rows.length < 2) throw new CsvError('the CSV needs a header row and at least one data row');
  const header = rows[0].map((h) => String(h).trim());
  if (header.length < 2) throw new CsvError(`the header "${rows[0].join(',')}" has one column; put the dates first, then one or more value columns, separated by commas`);
  const names = header.slice(1).map((name, i) => name || `value ${i + 1}`);
  const dates = [];
  const columns = names.map(() => []);
  const decimals = names.map(() => 0); // per column: the most digits after the point any of its cells has
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r];
    const line = r + 1; // 1-based, header = line 1
    if (cells.length !== header.length) throw new CsvError(`row ${line} has ${cells.length} cells but the header has ${header.length}`);
    const m = DATE.exec(String(cells[0]).trim());
    if (!m) throw new CsvError(`row ${line}: "${cells[0]}" is not a date (YYYY-MM, YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS])`);
    const [, y, mo, d = '01', hh, mi, ss = '00'] = m;
    dates.push({ date: `${y}-${mo}-${d}`, time: hh === undefined ? null : `${hh}:${mi}:${ss}` });
    for (let c = 1; c < header.length; c++) {
      const raw = String(cells[c]).trim();
      if (MISSING.has(raw.toLowerCase())) { columns[c - 1].push(null); continue; }
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new CsvError(`row ${line}, column "${names[c - 1]}": "${raw}" is not a number (leave the cell empty for a missing value)`);
      columns[c - 1].push(value);
      decimals[c - 1] = Math.max(decimals[c - 1], decimalsOf(raw));
    }
  }
  return { names, dates, columns, decimals };
}

/** Digits after the point as written ("12.50" → 2, "3" → 0); an exponent counts what it shifts. */
function decimalsOf(raw) {
  const m = /^[+-]?\d*(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!m) return 0;
  return Math.min(Math.max((m[1]?.length ?? 0) - Number(m[2] ?? 0), 0), 12);
}

/** At most this many decimals in a table: float32 exports (ETTh1's 5.827000141143799) carry noise, not precision. */
const MAX_TABLE_DECIMALS = 4;

/** `value` with as many decimals as the data has (at most 4): what a forecast table shows; the CSV keeps every digit. */
export function roundToData(value, decimals) {
  return value.toFixed(Math.min(decimals ?? MAX_TABLE_DECIMALS, MAX_TABLE_DECIMALS));
}

const DAY = 86_400_000;
const stamp = (d) => Date.parse(`${d.date}T${d.time ?? '00:00:00'}Z`);

/** The frequency of the dates from their median step; null when it matches none of the API's. */
export function inferFreq(dates) {
  const steps = [];
  for (let i = 1; i < Math.min(dates.length, 200); i++) steps.push(stamp(dates[i]) - stamp(dates[i - 1]));
  if (steps.length === 0) return null;
  steps.sort((a, b) => a - b);
  const days = steps[Math.floor(steps.length / 2)] / DAY;
  if (days === 1 / 24) return 'H';
  if (days === 1) return 'D';
  if (days === 7) return 'W';
  if (days >= 28 && days <= 31) return 'MS';
  if (days >= 89 && days <= 92) return 'Q';
  if (days >= 365 && days <= 366) return 'Y';
  return null;
}

/** The API's `index` strings: date-times for hourly data, dates otherwise. */
export function apiIndex(dates, freq) {
  return dates.map((d) => (freq === 'H' ? `${d.date}T${(d.time ?? '00:00:00').slice(0, 5)}` : d.date));
}

/** Default horizon per frequency: one season (two weeks of days, two years of quarters). */
export const DEFAULT_HORIZON = { H: 24, D: 14, W: 8, MS: 12, Q: 8, Y: 4 };

/** "0.1, 0.5 0.9" → [0.1, 0.5, 0.9]; the API checks the range, the page only that they are numbers. */
export function parseQuantiles(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const levels = parts.map(Number);
  const bad = parts.find((p, i) => !Number.isFinite(levels[i]));
  if (bad !== undefined) throw new CsvError(`"${bad}" is not a number; write levels such as 0.1, 0.5, 0.9`);
  return levels;
}

/** Quantile keys of a prediction, ascending by level. */
export function levelsOf(prediction) {
  return Object.keys(prediction).filter((k) => k !== 'mean').sort((a, b) => Number(a) - Number(b));
}

/** The forecast as CSV: one row per series and date, exactly the API's numbers. */
export function forecastCsv(names, response) {
  const levels = levelsOf(response.series[0][0].prediction);
  const lines = [['series', 'date', 'mean', ...levels.map((l) => `q${l}`)].join(',')];
  response.series.forEach(([p], i) => {
    p.index.forEach((date, t) => {
      lines.push([csvCell(names[i]), date, p.prediction.mean[t], ...levels.map((l) => p.prediction[l][t])].join(','));
    });
  });
  return lines.join('\n') + '\n';
}

const csvCell = (s) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** The form field an API error `field` names (contract B.8's errors[].field). */
export function formFieldOf(field) {
  if (field.startsWith('series') || field === 'context' || field.startsWith('hierarchy')) return 'data';
  if (field.startsWith('reconcile')) return 'reconcile';
  if (field === 'model' || field === 'model_size') return 'model';
  if (field.startsWith('evaluation')) return 'evaluation';
  if (field === 'horizon' || field === 'quantiles' || field === 'freq') return field;
  return 'request';
}

// ---- hierarchies (docs/api.md "Hierarchies") ----------------------------------------------------

/**
 * Hierarchy mode's CSV, long: the dates first, then the label columns from the top level down, the values last
 * (`week,group,atm,withdrawals`); one series per combination of labels, its rows in any order. Returns
 * { hierarchy: true, names, labelNames, levels, series: [{ dates, target, labels, lines }], dates, decimals }:
 * `names[i]` the series' path ("A/T1"), `levels` the API's (top down: [["group"], ["group", "atm"]]), `lines` the CSV
 * line of each value (for the API's series[i].index[k] errors), `dates` the first series' (for the frequency).
 */
export function parseHierarchyCsv(text) {
  const rows = globalThis.Papa.parse(text.trim(), { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] }).data;
  if (rows.length < 2) throw new CsvError('the CSV needs a header row and at least one data row');
  const header = rows[0].map((h) => String(h).trim());
  if (header.length < 3) {
    throw new CsvError(`the header "${rows[0].join(',')}" has ${header.length} columns; a hierarchy's CSV is long: the dates, the label columns from the top ` +
      'level down, then the values (e.g. week,region,store,sales)');
  }
  const labelNames = header.slice(1, -1);
  const valueName = header.at(-1);
  const byPath = new Map();
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r];
    const line = r + 1;
    if (cells.length !== header.length) throw new CsvError(`row ${line} has ${cells.length} cells but the header has ${header.length}`);
    const m = DATE.exec(String(cells[0]).trim());
    if (!m) throw new CsvError(`row ${line}: "${cells[0]}" is not a date (YYYY-MM, YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS])`);
    const [, y, mo, d = '01', hh, mi, ss = '00'] = m;
    const labels = labelNames.map((name, c) => {
      const value = String(cells[c + 1]).trim();
      if (!value) throw new CsvError(`row ${line}, column "${name}": no label (every row names its node at every level)`);
      return value;
    });
    const raw = String(cells.at(-1)).trim();
    const value = MISSING.has(raw.toLowerCase()) ? null : Number(raw);
    if (value !== null && !Number.isFinite(value)) {
      throw new CsvError(`row ${line}, column "${valueName}": "${raw}" is not a number (leave the cell empty for a missing value)`);
    }
    const path = labels.join('/');
    if (!byPath.has(path)) byPath.set(path, { labels, rows: [], decimals: 0 });
    const series = byPath.get(path);
    series.rows.push({ date: { date: `${y}-${mo}-${d}`, time: hh === undefined ? null : `${hh}:${mi}:${ss}` }, value, line });
    if (value !== null) series.decimals = Math.max(series.decimals, decimalsOf(raw));
  }
  const series = [...byPath.entries()].map(([path, s]) => {
    s.rows.sort((a, b) => stamp(a.date) - stamp(b.date));
    s.rows.forEach((row, k) => {
      if (k > 0 && stamp(row.date) === stamp(s.rows[k - 1].date)) {
        throw new CsvError(`rows ${s.rows[k - 1].line} and ${row.line}: series ${path} has the date ${row.date.date} twice`);
      }
    });
    const labels = Object.fromEntries(labelNames.map((name, c) => [name, s.labels[c]]));
    return { dates: s.rows.map((row) => row.date), target: s.rows.map((row) => row.value), labels, lines: s.rows.map((row) => row.line), decimals: s.decimals };
  });
  return {
    hierarchy: true, names: [...byPath.keys()], labelNames, valueName, series, dates: series[0].dates, decimals: series.map((s) => s.decimals),
    levels: labelNames.map((_, k) => labelNames.slice(0, k + 1)),
  };
}

/**
 * A node's history as the API sums it: at each date of its series, the sum of those that have a value there (a series
 * adds nothing before it starts); null where none has. Returns { index (the API's strings), values }.
 */
export function nodeHistory(data, seriesOfNode, freq) {
  const sums = new Map();
  for (const i of seriesOfNode) {
    const s = data.series[i];
    apiIndex(s.dates, freq).forEach((date, k) => {
      const value = s.target[k];
      const sum = sums.has(date) ? sums.get(date) : null;
      sums.set(date, value === null ? sum : (sum ?? 0) + value);
    });
  }
  const index = [...sums.keys()].sort();
  return { index, values: index.map((date) => sums.get(date)) };
}

/** `hierarchy.nodes` as a tree: [{ node, children }] roots, children in the answer's order (as the TypeScript SDK's hierarchyTree). */
export function nodeTree(nodes) {
  const byId = new Map(nodes.map((node) => [node.id, { node, children: [] }]));
  const roots = [];
  for (const item of byId.values()) {
    const parent = item.node.parent === null ? undefined : byId.get(item.node.parent);
    if (parent) parent.children.push(item); else roots.push(item);
  }
  return roots;
}

/** Every node's forecast as CSV: node, level, parent, date, the reconciled mean and quantiles, then the base ones. */
export function hierarchyCsv(response) {
  const nodes = response.hierarchy.nodes;
  const levels = levelsOf(nodes[0].reconciled);
  const keys = ['mean', ...levels];
  const name = (k) => (k === 'mean' ? 'mean' : `q${k}`);
  const lines = [['node', 'level', 'parent', 'date', ...keys.map(name), ...keys.map((k) => `base_${name(k)}`)].join(',')];
  for (const n of nodes) {
    n.index.forEach((date, t) => {
      const values = [...keys.map((k) => n.reconciled[k][t]), ...keys.map((k) => n.base[k][t])];
      lines.push([csvCell(n.id), csvCell(n.level), csvCell(n.parent ?? ''), date, ...values].join(','));
    });
  }
  return lines.join('\n') + '\n';
}
