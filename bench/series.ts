// The synthetic daily series the model benches send: series i, rounded to 2 decimals, with the same
// formula as series() in bench/model_throughput.py, so that the Node and Python halves of a bench
// forecast identical values; and their dates.

export function seriesValues(i: number, length: number): number[] {
  return Array.from({ length }, (_, t) => Math.round((100 + 10 * i + 10 * Math.sin((2 * Math.PI * t) / 24 + i) + 5 * Math.sin((2 * Math.PI * t) / 168) + 0.05 * t) * 100) / 100);
}

/** `length` consecutive days from `start` (YYYY-MM-DD), as the API's index. */
export function dailyIndex(length: number, start = '2020-01-01'): string[] {
  const t0 = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length }, (_, t) => new Date(t0 + t * 86_400_000).toISOString().slice(0, 10));
}
