// <data dir>/horizon.server.json: how the CLI reaches a running server that holds the embedded store
// (its URL and a token for the admin operations, new at every start). Owner-only (0600), like the
// store's files next to it; removed at shutdown, and ignored when its pid is not the lock holder.
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const SERVER_INFO = 'horizon.server.json';

export interface ServerInfo { pid: number; url: string; admin_token: string }

/** A loopback URL for the address the server listens on (a wildcard address is reached on loopback). */
export function localUrl(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string') throw new Error('the server listens on no TCP address');
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? (address.family === 'IPv6' ? '[::1]' : '127.0.0.1') : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Writes the file (atomically, mode 0600); returns its remover. */
export function writeServerInfo(dataDir: string, address: AddressInfo | string | null, token: string): () => void {
  const path = join(dataDir, SERVER_INFO);
  const info: ServerInfo = { pid: process.pid, url: localUrl(address), admin_token: token };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // the mode of a new file is narrowed by the umask, never widened; make it exact
  renameSync(tmp, path);
  return () => { try { unlinkSync(path); } catch { /* already gone */ } };
}

export function readServerInfo(dataDir: string): ServerInfo | undefined {
  try { return JSON.parse(readFileSync(join(dataDir, SERVER_INFO), 'utf8')) as ServerInfo; } catch { return undefined; }
}
