// `horizon mcp`: the MCP tools (src/mcp/tools.ts) over stdio, for an agent host that spawns its tools
// (Claude Desktop and the like). Like `horizon forecast` it talks to a running server over HTTP
// (HORIZON_URL, HORIZON_API_KEY), so the API's auth, quotas and validation apply to every tool call.
// stdout carries the protocol only; anything for a person goes to stderr.
import { parseCliArgs } from './args.ts';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type CallApi } from '../mcp/tools.ts';
import { VERSION } from '../server.ts';

export const MCP_USAGE = `usage: horizon mcp [--url URL] [--key KEY]
  an MCP server on stdin/stdout whose tools (list_models, forecast, cross_validate, detect_anomalies,
  job_status) call a running Horizon server: --url or HORIZON_URL (default http://localhost:8080),
  key: --key or HORIZON_API_KEY (docs/mcp.md)`;

export class McpUsageError extends Error {}

/** Calls the API at `baseUrl` with `key`, as the HTTP /mcp endpoint does with app.inject. */
export function fetchCaller(baseUrl: string, key: string): CallApi {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
    return { status: res.status, body: parsed };
  };
}

export async function mcpCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv, allowPositionals: true, strict: true,
    options: { url: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  }, (message) => new McpUsageError(message));
  if (values.help) { process.stderr.write(`${MCP_USAGE}\n`); return 0; }
  if (positionals.length) throw new McpUsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const key = values.key ?? env.HORIZON_API_KEY;
  if (!key) throw new McpUsageError('an API key is needed: --key or HORIZON_API_KEY');
  const baseUrl = values.url ?? env.HORIZON_URL ?? 'http://localhost:8080';

  const server = createMcpServer(fetchCaller(baseUrl, key), VERSION);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => { transport.onclose = resolve; });
  await server.connect(transport);
  // the host ends the session by closing our stdin
  process.stdin.once('end', () => { void server.close(); });
  await closed;
  return 0;
}
