// Regenerates the TypeScript SDK's types (clients/typescript/src/openapi.ts) from the /v1/openapi.json of
// a real server started here (test/helpers.ts: fresh data dir, PGlite), the document that
// test/client.typescript.test.ts compares them with. The explicit update; the test itself only compares.
//   node scripts/update-sdk-types.ts
import { writeFileSync } from 'node:fs';
import { startTestServer } from '../test/helpers.ts';
import { generateTypes, TYPES_PATH } from '../clients/typescript/scripts/generate.ts';

const server = await startTestServer();
try {
  const res = await fetch(`${server.url}/v1/openapi.json`);
  if (!res.ok) throw new Error(`/v1/openapi.json answered ${res.status}`);
  writeFileSync(TYPES_PATH, await generateTypes(await res.json()));
  process.stdout.write(`wrote ${TYPES_PATH.pathname}\n`);
} finally {
  await server.close();
}
