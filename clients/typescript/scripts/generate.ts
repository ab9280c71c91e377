// Regenerates src/openapi.ts from a Horizon server's /v1/openapi.json with openapi-typescript.
//   node scripts/generate.ts http://127.0.0.1:8080/v1/openapi.json
// (or from a server it starts, from the repository root: node scripts/update-sdk-types.ts; the test
// test/client.typescript.test.ts only compares)
import { writeFileSync } from 'node:fs';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

export const TYPES_PATH = new URL('../src/openapi.ts', import.meta.url);

const HEADER = '// Generated from the server\'s /v1/openapi.json by openapi-typescript (clients/typescript/scripts/generate.ts).\n// Do not edit: regenerate with `node scripts/update-sdk-types.ts`.\n\n';

/** The file's whole text for this OpenAPI document, less /nixtla (the drop-in for Nixtla's Python SDK,
 * which this SDK does not call). */
export async function generateTypes(document: object): Promise<string> {
  const { paths = {}, ...rest } = document as OpenAPI3;
  const own = Object.fromEntries(Object.entries(paths).filter(([path]) => !path.startsWith('/nixtla/')));
  const ast = await openapiTS({ ...rest, paths: own } as OpenAPI3, { exportType: false, alphabetize: true });
  return HEADER + astToString(ast);
}

if (import.meta.main) {
  const url = process.argv[2];
  if (!url) { process.stderr.write('usage: node scripts/generate.ts <server>/v1/openapi.json\n'); process.exit(2); }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  writeFileSync(TYPES_PATH, await generateTypes(await res.json()));
  process.stdout.write(`wrote ${TYPES_PATH.pathname}\n`);
}
