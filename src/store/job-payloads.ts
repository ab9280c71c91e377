// A job's request and result as JSON text, and a large one in parts (migration 013, issue 32). The embedded
// store (PGlite, WebAssembly) runs each statement on the event loop: writing a 5.5 MB json value held the
// loop for 75-130 ms and reading one back (PGlite parses json columns) 30-100 ms, while another account's
// requests waited. A payload over PARTS_OVER_BYTES is therefore written as parts of PART_BYTES of text (64 KiB:
// ~1-2 ms of the loop each on an idle machine, a turn between them; 256 KiB parts took 4-7 ms and left the loop's
// longest block under another account's 100,000-series job at ~30 ms of CPU, 64 KiB ~20 ms: bench/README.md
// fairness), the row's column holding a reference to them; the text comes from a forecast thread (JsonText) and
// goes back to one, so that neither JSON.stringify nor JSON.parse of it runs on the event loop. PostgreSQL takes the same path (one code path for both stores).
import { randomUUID } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Schema } from './database.ts';

/** the text of one part (characters of JSON, which are bytes for ASCII) */
export const PART_BYTES = 64 * 1024;
/** a payload of more than this is written in parts */
export const PARTS_OVER_BYTES = 1024 * 1024;
/** parts whose job row is gone (expired, or never written: the process died in between) are deleted after this */
const ORPHAN_AFTER_MS = 10 * 60_000;

const decoder = new TextDecoder();

/** JSON kept as its text (a thread's bytes, a string, or the parts read back): the store writes it as it is. */
export class JsonText {
  readonly value: string | Uint8Array | readonly string[];
  constructor(value: string | Uint8Array | readonly string[]) { this.value = value; }

  /** its size: bytes, or UTF-16 units of text (the same for ASCII) */
  get length(): number {
    const v = this.value;
    if (typeof v === 'string') return v.length;
    if (v instanceof Uint8Array) return v.byteLength;
    return v.reduce((n, s) => n + s.length, 0);
  }

  text(): string {
    const v = this.value;
    if (typeof v === 'string') return v;
    return v instanceof Uint8Array ? decoder.decode(v) : v.join('');
  }

  /** Parsed on the calling thread (a small payload, or a caller that needs the object and has no thread). */
  parse(): unknown {
    return JSON.parse(this.text());
  }

  /** The text in pieces of about `size`, never cutting a character (a UTF-8 sequence, a surrogate pair). */
  *pieces(size: number): Generator<string> {
    const v = this.value;
    if (typeof v !== 'string' && !(v instanceof Uint8Array)) { yield* v; return; }
    for (let start = 0; start < v.length;) {
      let end = Math.min(v.length, start + size);
      if (typeof v === 'string') {
        // a high surrogate stays with its low one
        if (end < v.length && (v.charCodeAt(end - 1) & 0xfc00) === 0xd800) end += end - 1 > start ? -1 : 1;
        yield v.slice(start, end);
      } else {
        // back to the first byte of a sequence (forward past it when the piece would be empty)
        while (end < v.length && (v[end] & 0xc0) === 0x80) end--;
        if (end === start) do end++; while (end < v.length && (v[end] & 0xc0) === 0x80);
        yield decoder.decode(v.subarray(start, end));
      }
      start = end;
    }
  }
}

/** What a row's json column holds for a payload written in parts. */
export interface PartsRef { stored_in_parts: { payload: string; parts: number } }

export function isPartsRef(value: unknown): value is PartsRef {
  return typeof value === 'object' && value !== null && typeof (value as PartsRef).stored_in_parts?.payload === 'string';
}

/** The text for job `jobId`'s json column: the JSON itself, or (over PARTS_OVER_BYTES) a reference to its
 * parts, written here one statement at a time. Call it outside a transaction: on PGlite a transaction holds
 * the one connection, and every other request's query would wait for all the parts. */
export async function writePayload(db: Kysely<Schema>, jobId: string, json: JsonText): Promise<string> {
  if (json.length <= PARTS_OVER_BYTES) return json.text();
  const payload = randomUUID();
  let part = 0;
  for (const text of json.pieces(PART_BYTES)) {
    // a turn of the loop between parts: PGlite's statements resolve as microtasks, so without it the
    // parts would run back to back, one block as long as the whole payload's
    if (part > 0) await turn();
    await db.insertInto('job_payload_parts').values({ payload, part, job_id: jobId, text }).execute();
    part += 1;
  }
  return JSON.stringify({ stored_in_parts: { payload, parts: part } } satisfies PartsRef);
}

/** The parts a reference names, read one statement at a time, as text (not parsed). */
export async function readPayload(db: Kysely<Schema>, ref: PartsRef): Promise<JsonText> {
  const { payload, parts } = ref.stored_in_parts;
  const texts: string[] = [];
  for (let part = 0; part < parts; part++) {
    if (part > 0) await turn(); // as in writePayload
    const row = await db.selectFrom('job_payload_parts').select('text').where('payload', '=', payload).where('part', '=', part).executeTakeFirst();
    if (!row) throw new Error(`part ${part} of the stored job payload ${payload} is missing`);
    texts.push(row.text);
  }
  return new JsonText(texts);
}

/** Parts that no row will name: those of a write whose row update did not apply (a cancelled job). */
export async function deletePayload(db: Kysely<Schema>, columnText: string): Promise<void> {
  if (!columnText.startsWith('{"stored_in_parts"')) return;
  const ref = JSON.parse(columnText) as PartsRef;
  await db.deleteFrom('job_payload_parts').where('payload', '=', ref.stored_in_parts.payload).execute();
}

/** Deletes the parts of jobs that are gone (expired or deleted), and of rows never written. */
export async function deleteOrphanParts(db: Kysely<Schema>, now: Date = new Date()): Promise<number> {
  const result = await db.deleteFrom('job_payload_parts')
    .where('written_at', '<', new Date(now.getTime() - ORPHAN_AFTER_MS))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('forecast_jobs').select('id').whereRef('forecast_jobs.id', '=', 'job_payload_parts.job_id'))))
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
