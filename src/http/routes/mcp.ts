import type { Route } from '../app-types.ts';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { HorizonError } from '../../errors.ts';
import { createMcpServer, type CallApi } from '../../mcp/tools.ts';

/** POST /mcp — the MCP tools of src/mcp/tools.ts over Streamable HTTP, for agents. Outside /v1 and out
 * of the OpenAPI document (it is JSON-RPC, not a REST operation). The auth hook has already checked the
 * API key (a missing or invalid one is the usual 401 problem+json before any MCP handling). Stateless:
 * each POST gets a fresh server and transport (the SDK's stateless mode), answering plain JSON (no SSE
 * stream), so any replica can answer any call.
 *
 * The tools call the API through app.inject() with the caller's own Authorization header, not through
 * the functions the routes use: a tool call then goes through the very route, auth hook, schema
 * validation, quota charge, refund on 5xx, error handler and request log that the same call over HTTP
 * does, so it can do and cost nothing a /v1 call could not, and `horizon mcp` (the same tools over
 * fetch) gets the same answers. The price is an in-process HTTP round trip per tool call, small next to
 * a model call. */
export const mcpRoutes: Route = (app, deps) => {
  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const authorization = request.headers.authorization!;
    const callApi: CallApi = async (method, url, body) => {
      const res = await app.inject({
        method, url,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      let parsed: unknown;
      try { parsed = res.body ? JSON.parse(res.body) : undefined; } catch { parsed = undefined; }
      return { status: res.statusCode, body: parsed };
    };
    const server = createMcpServer(callApi, deps.version);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      // the body is Fastify's parsed JSON (its parser, body limit and 400/415 answers); the URL only feeds requestInfo
      const response = await transport.handleRequest(
        new Request(new URL(request.url, 'http://localhost'), { method: 'POST', headers }), { parsedBody: request.body },
      );
      void reply.code(response.status);
      response.headers.forEach((value, name) => { void reply.header(name, value); });
      return reply.send(await response.text());
    } finally {
      await server.close();
    }
  });

  // no server-sent event stream (GET) and no session to end (DELETE) in stateless mode: 405, as the
  // Streamable HTTP transport allows; authenticated like POST
  const notOffered = (what: string) => async () => {
    throw new HorizonError('method_not_allowed', `Horizon's MCP endpoint is stateless: POST JSON-RPC messages to ` +
      `/mcp; it offers ${what}`, { headers: { allow: 'POST' } });
  };
  app.get('/mcp', { schema: { hide: true } }, notOffered('no server-sent event stream (GET)'));
  app.delete('/mcp', { schema: { hide: true } }, notOffered('no session to end (DELETE)'));
};
