// Regenerates the TypeScript SDK's types (clients/typescript/src/openapi.ts) from the /v1/openapi.json of
// a real server started here (test/helpers.ts: fresh data dir, PGlite), the document that
// test/client.typescript.test.ts compares them with, and rebuilds the package's checked-in dist/ (it ships
// built; the test compares dist/ with a fresh build too). The explicit update; the test itself only compares.
//   node scripts/update-sdk-types.ts
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { startTestServer } from '../test/helpers.ts';
import { generateTypes, TYPES_PATH } from '../clients/typescript/scripts/generate.ts';

const server = await startTestServer();
try {
  const res = await fetch(`${server.url}/v1/openapi.json`);
  if (!res.ok) throw new Error(`/v1/openapi.json answered ${res.status}`);
  writeFileSync(TYPES_PATH, await generateTypes(await res.json()));
  process.stdout.write(`wrote ${TYPES_PATH.pathname}\n`);
  const sdk = new URL('../clients/typescript/', import.meta.url).pathname;
  rmSync(`${sdk}dist`, { recursive: true, force: true });
  execFileSync(process.execPath, [`${sdk}node_modules/typescript/bin/tsc`, '-p', `${sdk}tsconfig.json`], { stdio: 'inherit' });
  process.stdout.write(`built ${sdk}dist\n`);
} finally {
  await server.close();
}
