// A free loopback TCP port for a process the test or bench starts itself (`horizon serve`, Ray Serve, a peer server).
// Picked below the kernel's ephemeral range: a port from that range (listen(0)) is free now but may be handed to any
// socket bound to port 0 before the process listens on it — e.g. the server's own model workers (a CI run hung when
// a worker took the port its server was given, 2026-11-29).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  const low = 20_000; // above Ray's default worker ports (10002-19999) and the usual fixed ones
  const high = Math.max(low + 1_000, ephemeralStart()) - 1;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${low}-${high} after 200 tries`);
}
