// A by-reference forecast (series_ids) for a forecast thread: the stored series travel as numbers — one
// Float64Array of every value, each series' length and grid — instead of the JSON text a client would have
// sent. The thread rebuilds that inline body (dates from the grid) and goes on exactly as for a large
// inline body: the same schema check, normalisation and encoding, so the answer is the same; what is saved
// is the loop's JSON.stringify of the body and the thread's JSON.parse of it (bench/README.md, stored-series).
import { dateAtStep, type Grid } from './calendar.ts';
import type { InputSeries } from './normalize.ts';

export interface StoredSeriesPayload {
  /** the request body without series */
  body: Record<string, unknown>;
  grids: Grid[];
  /** per series: its grid (index into grids), its number of values */
  gridOf: Int32Array;
  lengths: Int32Array;
  /** every series' values end to end, NaN = missing */
  values: Float64Array;
}

/** `histories`: each series' grid, its grid's JSON text (the key that groups series of one grid) and its
 * stored bytes (float64 little-endian, NaN = missing), copied as they are into one Float64Array. */
export function storedSeriesPayload(
  body: Record<string, unknown>, histories: readonly { grid: unknown; gridKey: string; bytes: Uint8Array }[],
): StoredSeriesPayload {
  const gridKeys = new Map<string, number>();
  const grids: Grid[] = [];
  const gridOf = new Int32Array(histories.length);
  const lengths = new Int32Array(histories.length);
  let total = 0;
  for (const [i, h] of histories.entries()) {
    let g = gridKeys.get(h.gridKey);
    if (g === undefined) { gridKeys.set(h.gridKey, g = grids.length); grids.push(h.grid as Grid); }
    gridOf[i] = g;
    lengths[i] = h.bytes.byteLength / 8;
    total += lengths[i];
  }
  const values = new Float64Array(total);
  if (LITTLE_ENDIAN) {
    const bytes = new Uint8Array(values.buffer);
    let at = 0;
    for (const h of histories) { bytes.set(h.bytes, at); at += h.bytes.byteLength; }
  } else {
    let at = 0;
    for (const h of histories) {
      const view = new DataView(h.bytes.buffer, h.bytes.byteOffset, h.bytes.byteLength);
      for (let k = 0; k < h.bytes.byteLength / 8; k++) values[at++] = view.getFloat64(k * 8, true);
    }
  }
  return { body, grids, gridOf, lengths, values };
}

const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;

/** The number of values a payload carries (the sync caps count points). */
export const payloadPoints = (payload: StoredSeriesPayload): number => payload.values.length;

/** The inline body the payload stands for. `shareDates`: series on the same grid with the same length get one
 * index array (read-only use: the thread's normalisation); otherwise each series gets its own copy. */
export function inlineBodyOf(payload: StoredSeriesPayload, shareDates: boolean): Record<string, unknown> & { series: InputSeries[] } {
  const dates = payload.grids.map(() => [] as string[]);
  const shared = new Map<string, string[]>();
  const series: InputSeries[] = [];
  let at = 0;
  for (let i = 0; i < payload.lengths.length; i++) {
    const g = payload.gridOf[i];
    const n = payload.lengths[i];
    const known = dates[g];
    for (let k = known.length; k < n; k++) known.push(dateAtStep(payload.grids[g], k));
    let index: string[];
    if (shareDates) {
      const key = `${g}:${n}`;
      index = shared.get(key) ?? known.slice(0, n);
      shared.set(key, index);
    } else {
      index = known.slice(0, n);
    }
    const target = new Array<number | null>(n);
    for (let k = 0; k < n; k++) { const v = payload.values[at + k]; target[k] = Number.isNaN(v) ? null : v; }
    at += n;
    series.push({ index, target });
  }
  return { ...payload.body, series };
}
