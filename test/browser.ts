// Debian's headless Chromium driven by playwright-core (browser downloads are blocked here): one launcher for
// every test that opens the playground, each with a fresh profile removed by close().
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** where playground tests leave their screenshots */
export const PLAYGROUND_OUT = join(import.meta.dirname, '..', 'test-output', 'playground');

export async function launchChromium(options: { acceptDownloads?: boolean } = {}): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  mkdirSync(PLAYGROUND_OUT, { recursive: true });
  // a persistent context is how playwright takes a --user-data-dir: a fresh one per launch
  const profile = mkdtempSync(join(tmpdir(), 'horizon-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1440, height: 1000 }, ...options });
  return { browser, close: async () => { await browser.close(); rmSync(profile, { recursive: true, force: true }); } };
}
