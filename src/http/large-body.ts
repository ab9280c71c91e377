// A large request body left as bytes for a forecast thread (large-forecast.ts installs the parser that makes
// one). A module of its own: the Nixtla routes test for it, and their thread-side translation must not load
// large-forecast.ts (which names the thread's types) in a value-import circle.
import type { StoredSeriesPayload } from '../forecasting/stored-payload.ts';

/** A request body left as bytes for a forecast thread, or (by reference, series-refs.ts) the stored series as numbers. */
export class LargeBody {
  readonly bytes: Buffer;
  readonly stored?: StoredSeriesPayload;
  constructor(bytes: Buffer, stored?: StoredSeriesPayload) { this.bytes = bytes; this.stored = stored; }
}
