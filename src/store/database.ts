// One Kysely instance over either the embedded PGlite (default, files under HORIZON_DATA_DIR) or
// PostgreSQL (HORIZON_DATABASE_URL). Both run the same plain-SQL migrations.
import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Kysely, PostgresDialect, PGliteDialect, sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { PGlite } from '@electric-sql/pglite';
import { useQuotaLedger, type QuotaLedger } from './quota-ledger.ts';
import { usePendingCharges, type PendingCharges } from './pending-charges.ts';
import { useSeriesCache } from './series-cache.ts';
import pg from 'pg';

// the table types live in schema.ts; re-exported for the store modules that take them from here
import type { Schema } from './schema.ts';
export type {
  AccountsTable, ApiKeysTable, QuotaUsageTable, ForecastJobsTable, JobChunksTable, JobKind, JobStatus, PrivateModelsTable, Schema,
} from './schema.ts';

export interface Database {
  db: Kysely<Schema>;
  kind: 'pglite' | 'postgres';
  /** the PGlite instance (embedded) — pg-boss attaches to the same one */
  pglite?: PGlite;
  /** the PostgreSQL connection string — pg-boss opens its own pool */
  connectionString?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded store is used */
  databaseUrl?: string;
  /** directory of the embedded store; `memory://` keeps it in memory (tests) */
  dataDir: string;
  /** the embedded store's quota journal: flush interval and rewrite size (tests) */
  quotaJournal?: { flushMs?: number; rotateBytes?: number };
  /** PostgreSQL: seconds without a renewal after which this process counts as dead and its pending charges are refunded (migration 008) */
  instanceLeaseSeconds?: number;
  /** the embedded store: bytes of stored histories kept in memory (series-cache.ts); absent or 0: none */
  seriesCacheBytes?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let database: Database;
  let ledger: QuotaLedger | undefined;
  let pending: PendingCharges | undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // an idle connection that dies (PostgreSQL restarted) is an 'error' event on the pool, which would end
    // the process unhandled; the pool drops that connection and the next query opens a new one
    pool.on('error', () => {});
    // the same for a connection that dies while checked out between two queries (a transaction's)
    pool.on('connect', (client) => { client.on('error', () => {}); });
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    // settlements of sent answers on connections of their own (pending-charges.ts): never queued behind other work
    const settlePool = new pg.Pool({ connectionString: options.databaseUrl, max: 4, idleTimeoutMillis: 0 });
    settlePool.on('error', () => {});
    settlePool.on('connect', (client) => { client.on('error', () => {}); });
    const settleDb = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: settlePool }) });
    const charges = pending = usePendingCharges(db, options.instanceLeaseSeconds ?? 30, settleDb);
    database = {
      db, kind: 'postgres', connectionString: options.databaseUrl, close: async () => { await charges.stop(); await settleDb.destroy(); await db.destroy(); },
    };
  } else {
    const inMemory = options.dataDir.startsWith('memory://');
    if (!inMemory) mkdirSync(options.dataDir, { recursive: true });
    const pglite = new PGlite(inMemory ? undefined : join(options.dataDir, 'pglite'));
    await pglite.waitReady;
    const db = new Kysely<Schema>({ dialect: new PGliteDialect({ pglite }) });
    // this process is the embedded store's only writer: quotas are decided in memory, units journaled
    const journaled = useQuotaLedger(db, inMemory ? undefined : { path: join(options.dataDir, 'quota-journal'), ...options.quotaJournal });
    ledger = journaled;
    // the only writer, one transaction at a time: its stored histories can be served from memory
    useSeriesCache(db, options.seriesCacheBytes ?? 0);
    database = {
      db, kind: 'pglite', pglite,
      close: async () => { await journaled.close(); await db.destroy(); if (!pglite.closed) await pglite.close(); },
    };
  }
  await migrate(database);
  await ledger?.open(); // replays the quota journal: needs migration 006
  await pending?.start(); // takes this process's lease and refunds dead processes' pending charges: migration 008
  return database;
}

/** Socket errors of a connection to the database that cannot be opened or was cut. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether `error` says the database cannot be reached now (as opposed to a query that failed): SQLSTATE
 * class 08 (connection exception), 57P01-57P03 (the server is shutting down, or starting: "cannot connect
 * now"), a socket error, or node-postgres's own messages for a connection that ended. */
export function isStoreUnreachable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code.startsWith('08') || /^57P0[123]$/.test(code) || UNREACHABLE_CODES.has(code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /^Connection terminated|connection error and is not queryable|^timeout exceeded when trying to connect/.test(message);
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Runs every `migrations/NNN_name.sql` not yet applied, in name order. */
export async function migrate(database: Database): Promise<void> {
  const { pglite } = database;
  const migrator = new Migrator({
    db: database.db,
    // PGlite's query() takes one statement; a script goes through exec() in its own BEGIN/COMMIT,
    // which a Kysely transaction (holding PGlite's exclusive lock) would deadlock against.
    disableTransactions: pglite !== undefined,
    migrationTableName: 'horizon_migrations',
    migrationLockTableName: 'horizon_migrations_lock',
    provider: {
      async getMigrations() {
        const migrations: Record<string, Migration> = {};
        for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
          const text = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
          migrations[file.replace(/\.sql$/, '')] = {
            up: async (tx) => {
              if (pglite) await pglite.exec(`BEGIN;\n${text}\nCOMMIT;`);
              else await sql.raw(text).execute(tx);
            },
          };
        }
        return migrations;
      },
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`, { cause: error });
  }
}
