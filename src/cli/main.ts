// The operator CLI (contract B.9): serve; accounts; keys; models; forecast; mcp; eval.
// Account and key commands open the same store the server uses; an embedded store held by a running
// server is reached through that server's admin API instead (cli/accounts.ts).
import { parseCliArgs } from './args.ts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../config.ts';
import { openDatabase, type Database } from '../store/database.ts';
import { acquireStoreLock, StoreLockedError } from '../store/lock.ts';
import { AccountExistsError } from '../store/accounts.ts';
import { DuplicateKeyNameError } from '../store/api-keys.ts';
import { startServer } from '../server.ts';
import { modelsCommand, CliError } from './models.ts';
import { withAccounts, describeAccount, accountsTable, NoSuchAccountError, OperatorError } from './accounts.ts';
import { forecastCommand, ForecastUsageError, FORECAST_USAGE } from './forecast.ts';
import { fineTuneCommand, FINE_TUNE_USAGE } from './fine-tune.ts';
import { seriesCommand, SeriesUsageError, SERIES_USAGE } from './series.ts';
import { mcpCommand, McpUsageError, MCP_USAGE } from './mcp.ts';

const USAGE = `usage:
  horizon serve
  horizon accounts create <name> [--daily-quota N] [--weekly-quota N] [--json]
  horizon accounts list [--json]
  horizon accounts update <name> [--daily-quota N] [--weekly-quota N] [--json]   (0 = unlimited)
  horizon accounts disable <name> [--json]
  horizon accounts enable <name> [--json]
  horizon keys create --account <name> --name <key-name> [--json]
  horizon keys list --account <name> [--json]
  horizon keys revoke --account <name> --id <key-id> [--json]
  horizon models list [--json]
  horizon models pull <id> [--size S | --all-sizes] [--accept-license] [--revision R] [--force] [--json]
  horizon models rm <id> [--size S] [--json]
  horizon forecast <data.csv> --horizon N [--model M] [--freq F] [--out f.csv] [--job]   (against a running server; --help)
  horizon fine-tune <data.csv> --horizon N [--model chronos-2] [--steps 100] [--name NAME]   (a private model, against a running server; --help)
  horizon series append <data.csv> [--create] | series accuracy <id>   (stored series on a running server; --help)
  horizon mcp [--url URL] [--key KEY]   (MCP server on stdio for agents, against a running server; docs/mcp.md)
  horizon eval [--models a,b] [--datasets all|a,b] [--url URL --key KEY] …   (see eval/README.md)

accounts and keys commands also work while the server runs (through it, embedded store; directly, PostgreSQL).

environment: PORT (8080), HORIZON_DATA_DIR (./data), HORIZON_MODEL_DIR (./models), HF_ENDPOINT / HF_TOKEN (pulls), HORIZON_DATABASE_URL (PostgreSQL instead ` +
  `of the embedded store); see README`;

class UsageError extends Error {}

function quota(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a non-negative integer, got "${value}"`);
  return n;
}

async function withStore<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const config = configFromEnv();
  const release = config.databaseUrl ? async () => {} : await acquireStoreLock(config.dataDir);
  try {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try { return await work(database); } finally { await database.close(); }
  } finally { await release(); }
}

function accountFlag(name: string | undefined): string {
  if (!name) throw new UsageError('--account <name> is required');
  return name;
}

function output(json: boolean, value: object, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

/** `horizon eval …` is the evaluation harness (eval/run.ts) with its own flags. */
function runEval(args: string[]): Promise<number> {
  const harness = fileURLToPath(new URL('../../eval/run.ts', import.meta.url));
  const child = spawn(process.execPath, [harness, ...args], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

/** `horizon serve`: runs until SIGINT or SIGTERM, then shuts down in order. */
async function serve(): Promise<number> {
  const server = await startServer(configFromEnv());
  process.stdout.write(`horizon: listening on ${server.url} (store: ${server.database.kind})\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`horizon: ${signal}, shutting down\n`);
    server.close().then(() => process.exit(0), (error: Error) => { process.stderr.write(`horizon: shutdown failed: ${error.message}\n`); process.exit(1); });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return new Promise<number>(() => {}); // runs until a signal
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'eval') return runEval(argv.slice(1));
  if (argv[0] === 'forecast') return forecastCommand(argv.slice(1));
  if (argv[0] === 'fine-tune') return fineTuneCommand(argv.slice(1));
  if (argv[0] === 'series') return seriesCommand(argv.slice(1));
  if (argv[0] === 'mcp') return mcpCommand(argv.slice(1));
  const { values, positionals } = parseCliArgs({
    args: argv, allowPositionals: true, strict: true,
    options: {
      json: { type: 'boolean', default: false },
      'daily-quota': { type: 'string' },
      'weekly-quota': { type: 'string' },
      account: { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      size: { type: 'string' },
      'all-sizes': { type: 'boolean', default: false },
      'accept-license': { type: 'boolean', default: false },
      revision: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  }, (message) => new UsageError(message));
  const [group, command, ...rest] = positionals;
  const json = values.json ?? false;
  if (values.help || !group) { process.stdout.write(`${USAGE}\n`); return values.help ? 0 : 2; }

  if (group === 'serve') return serve();

  if (group === 'models') {
    return modelsCommand(command, rest, {
      json, size: values.size, allSizes: values['all-sizes'] ?? false, acceptLicense: values['accept-license'] ?? false,
      revision: values.revision, force: values.force ?? false,
    });
  }

  if (group === 'accounts' && command === 'create') {
    const name = rest[0];
    if (!name) throw new UsageError('accounts create needs a <name>');
    const config = configFromEnv();
    const quotas = {
      dailyQuota: quota(values['daily-quota'], '--daily-quota') ?? config.defaultDailyQuota,
      weeklyQuota: quota(values['weekly-quota'], '--weekly-quota') ?? config.defaultWeeklyQuota,
    };
    const account = await withAccounts(config, withStore, (b) => b.create(name, quotas));
    output(json, { id: account.id, name: account.name, daily_quota: account.daily_quota, weekly_quota: account.weekly_quota, created_at: account.created_at },
      `created account "${account.name}" (daily quota ${account.daily_quota}, weekly quota ${account.weekly_quota})`);
    return 0;
  }

  if (group === 'accounts' && command === 'list') {
    const accounts = await withAccounts(configFromEnv(), withStore, (b) => b.list());
    output(json, { accounts }, accountsTable(accounts));
    return 0;
  }

  if (group === 'accounts' && (command === 'update' || command === 'disable' || command === 'enable')) {
    const name = rest[0];
    if (!name) throw new UsageError(`accounts ${command} needs a <name>`);
    const changes = command === 'update'
      ? { dailyQuota: quota(values['daily-quota'], '--daily-quota'), weeklyQuota: quota(values['weekly-quota'], '--weekly-quota') }
      : { disabled: command === 'disable' };
    if (command === 'update' && changes.dailyQuota === undefined && changes.weeklyQuota === undefined) {
      throw new UsageError('accounts update needs --daily-quota N and/or --weekly-quota N (0 = unlimited)');
    }
    const account = await withAccounts(configFromEnv(), withStore, (b) => b.update(name, changes));
    output(json, account, describeAccount(account));
    return 0;
  }

  if (group === 'keys' && command === 'create') {
    if (!values.name) throw new UsageError('--name <key-name> is required');
    const account = accountFlag(values.account);
    const key = await withAccounts(configFromEnv(), withStore, (b) => b.createKey(account, values.name!));
    output(json, { id: key.id, name: key.name, key: key.key, prefix: key.prefix, created_at: key.created_at },
      `created key "${key.name}" (id ${key.id}); the secret is shown only now:\n${key.key}`);
    return 0;
  }

  if (group === 'keys' && command === 'list') {
    const account = accountFlag(values.account);
    const keys = await withAccounts(configFromEnv(), withStore, (b) => b.listKeys(account));
    output(json, { keys }, keys.map((k) => `${k.id}  ${k.prefix}  ${k.revoked_at ? 'revoked' : 'active '}  ${k.name}`).join('\n') || '(no keys)');
    return 0;
  }

  if (group === 'keys' && command === 'revoke') {
    if (!values.id) throw new UsageError('--id <key-id> is required');
    const account = accountFlag(values.account);
    const key = await withAccounts(configFromEnv(), withStore, (b) => b.revokeKey(account, values.id!));
    output(json, key, `revoked key "${key.name}" (${key.id})`);
    return 0;
  }

  throw new UsageError(`unknown command "${positionals.join(' ')}"`);
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error: Error) => {
  if (error instanceof McpUsageError) { process.stderr.write(`horizon: ${error.message}\n\n${MCP_USAGE}\n`); process.exitCode = 2; return; }
  if (error instanceof SeriesUsageError) { process.stderr.write(
    `horizon: ${error.message}\n${error.showUsage ? `\n${SERIES_USAGE}\n` : ''}`,
  ); process.exitCode = 2; return; }
  if (error instanceof ForecastUsageError) { process.stderr.write(
    `horizon: ${error.message}\n${error.showUsage ? `\n${process.argv[2] === 'fine-tune' ? FINE_TUNE_USAGE : FORECAST_USAGE}\n` : ''}`,
  ); process.exitCode = 2; return; }
  if (error instanceof CliError) { process.stderr.write(`horizon: ${error.message}\n`); process.exitCode = error.exitCode; return; }
  const expected = error instanceof UsageError || error instanceof NoSuchAccountError || error instanceof OperatorError || error instanceof AccountExistsError
    || error instanceof DuplicateKeyNameError || error instanceof StoreLockedError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS_');
  process.stderr.write(`horizon: ${error.message}\n${expected && error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
  process.exitCode = expected ? 2 : 1;
});
