// `horizon series accuracy <id>` as a person reads it: one row per model (and all models), one per horizon
// step, aligned columns, instead of ~150 lines of JSON (which --json still prints).

interface Rolling {
  forecasts: number;
  mase: number | null;
  wql: number | null;
  smape?: number | null;
  coverage: Record<string, number>;
}

export interface SeriesAccuracy {
  series_id: string;
  window: number;
  overall: Rolling & { by_step: (Rolling & { step: number })[] };
  models: (Rolling & { model: string })[];
}

const number = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toFixed(3));

/** Rows of cells as columns padded to their widest cell (the first left-aligned, the rest right-aligned). */
export function alignColumns(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}

/** The intervals any row reports, narrowest first ("50", "80", …). */
function intervals(rows: Rolling[]): string[] {
  return [...new Set(rows.flatMap((r) => Object.keys(r.coverage)))].sort((a, b) => Number(a) - Number(b));
}

function cells(rolling: Rolling, levels: string[], withSmape: boolean): string[] {
  const coverage = levels.map((level) => (rolling.coverage[level] === undefined ? '—' : rolling.coverage[level].toFixed(2)));
  return [String(rolling.forecasts), number(rolling.mase), number(rolling.wql), ...(withSmape ? [number(rolling.smape)] : []), ...coverage];
}

/** The accuracy answer as text: a header line, the per-model table and the per-step table. */
export function accuracyTable(accuracy: SeriesAccuracy): string {
  const { overall, models } = accuracy;
  if (overall.forecasts === 0) {
    return `${accuracy.series_id}: no scored forecast yet (a forecast kept with store: true is scored once appended actuals cover it)`;
  }
  const levels = intervals([overall, ...models]);
  const head = ['forecasts', 'MASE', 'WQL'];
  const coverageHead = levels.map((level) => `cover ${level}%`);
  const byModel = [['model', ...head, 'sMAPE', ...coverageHead], ['all models', ...cells(overall, levels, true)],
    ...models.map((m) => [m.model, ...cells(m, levels, true)])];
  const byStep = [['step', ...head, ...coverageHead], ...overall.by_step.map((s) => [String(s.step), ...cells(s, levels, false)])];
  return [
    `${accuracy.series_id}: rolling accuracy of the latest ${overall.forecasts} scored forecasts (window ${accuracy.window})`,
    '', alignColumns(byModel), '', 'by horizon step (all models):', alignColumns(byStep),
    '', 'MASE below 1: smaller errors than the seasonal naive forecast in-sample; cover N%: the share of actuals inside the N% interval (ideally N/100).',
  ].join('\n');
}
