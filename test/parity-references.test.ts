// The parity evidence stays independent and stated: no reference script (runtime/tests/*_reference.py) uses
// Horizon's runtime package, whose code it is there to check (not even by name, nor through the test package's
// modules), and the per-model tolerances the tests assert (runtime/tests/parity-tolerances.json) are the table
// docs/models.md shows, with a row for every catalog model but the ensemble.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, TOLERANCES, type Tolerance } from './parity.ts';

const TESTS = join(REPO, 'runtime', 'tests');
const REFERENCES = readdirSync(TESTS).filter((name) => name.endsWith('_reference.py')).sort();

// Python's ast: every module a file imports, relative ones with their leading dots (comments and strings never count)
const PY_IMPORTS = `
import ast, json, sys
found = {}
for path in sys.argv[1:]:
    names = []
    for node in ast.walk(ast.parse(open(path).read(), path)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            names += [arg.value for arg in node.args[:1] if isinstance(arg, ast.Constant)]
    found[path] = names
print(json.dumps(found))
`;

test('the reference scripts are there', () => {
  for (const name of ['chronos_reference.py', 'timesfm_reference.py', 'timesfm1_reference.py', 'moirai_toto_reference.py', 'tirex_yug_reference.py', 'tabpfn_ts_reference.py']) {
    assert.ok(REFERENCES.includes(name), `runtime/tests/${name}`);
  }
});

test('no reference script names or imports horizon_runtime, or imports the test package', () => {
  for (const name of REFERENCES) {
    assert.ok(!readFileSync(join(TESTS, name), 'utf8').includes('horizon_runtime'), `runtime/tests/${name} mentions horizon_runtime`);
  }
  const venv = join(REPO, 'runtime', '.venv-core', 'bin', 'python');
  const python = existsSync(venv) ? venv : 'python3';
  const imports = JSON.parse(execFileSync(python, ['-c', PY_IMPORTS, ...REFERENCES.map((name) => join(TESTS, name))], { encoding: 'utf8' })) as Record<string, string[]>;
  const local = new Set(readdirSync(TESTS).filter((name) => name.endsWith('.py')).map((name) => name.slice(0, -3)));
  for (const [path, names] of Object.entries(imports)) {
    const own = names.filter((n) => n.startsWith('.') || n.split('.')[0] === 'horizon_runtime' || local.has(n.split('.')[0]));
    assert.deepEqual(own, [], `${path} imports Horizon's code or the test package's modules`);
  }
});

/** "exact" or "<rel> (floor <floor>)", as docs/models.md writes a tolerance. */
function parseTolerance(text: string): Tolerance {
  if (text === 'exact') return { rel: 0, floor: 1 };
  const match = /^(\S+) \(floor (\S+)\)$/.exec(text);
  assert.ok(match, `a tolerance: ${text}`);
  return { rel: Number(match[1]), floor: Number(match[2]) };
}

test('docs/models.md shows exactly the tolerances the tests assert, one row per catalog model but prism', () => {
  const docs = readFileSync(join(REPO, 'docs', 'models.md'), 'utf8');
  const section = docs.slice(docs.indexOf('## Parity with the libraries'));
  assert.ok(section.startsWith('## Parity'), 'docs/models.md has a "Parity with the libraries" section');
  const rows = [...section.matchAll(/^\| `([^`]+)` \| (.+) \| ([^|]+) \| ([^|]+) \|$/gm)];
  const shown = Object.fromEntries(rows.map(([, id, differs, parity, batch]) => [id, { parity: parseTolerance(parity), batch: parseTolerance(batch), differs }]));
  assert.deepEqual(shown, TOLERANCES);
  const catalog = JSON.parse(readFileSync(join(REPO, 'catalog', 'models.json'), 'utf8')) as { models: { id: string; adapter: string }[] };
  const ids = catalog.models.filter((m) => m.adapter !== 'prism').map((m) => m.id).sort();
  assert.deepEqual(Object.keys(TOLERANCES).sort(), ids);
});
