// The source's shape: no import cycles in src/ (TypeScript, type-only imports included) or in
// runtime/horizon_runtime (Python), and no import from a higher layer into a lower one. Layers, top
// to bottom: cli → server → http → mcp → jobs → forecasting → runtime → store → contract; config.ts
// and errors.ts sit at the bottom beside contract. Parsed with TypeScript's own parser and
// Python's ast, so comments and strings never count as imports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SRC = join(ROOT, 'src');

/** Top (0) to bottom; a module may import its own layer and any layer below it. */
export const LAYERS = ['cli', 'server', 'http', 'mcp', 'jobs', 'forecasting', 'runtime', 'store', 'contract'];
/** Root modules every layer may use (they import no layer above contract). */
const BOTTOM_FILES: Record<string, string> = { 'config.ts': 'contract', 'errors.ts': 'contract', 'server.ts': 'server' };

function walk(dir: string, ext: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? walk(path, ext) : path.endsWith(ext) ? [path] : [];
  });
}

export function layerOf(file: string): string | undefined {
  const rel = relative(SRC, file);
  if (rel.startsWith('..')) return undefined;
  const [top] = rel.split('/');
  return BOTTOM_FILES[top] ?? (LAYERS.includes(top) ? top : undefined);
}

/** file → the src files it imports or re-exports (relative specifiers, resolved), type-only ones included:
 * a type-only circle is erased at run time but still a knot in the map (two modules that each need the
 * other to be read), so it counts. `import('./x.ts')` in code is no declaration and no edge. */
export function tsGraph(files: string[], read: (f: string) => string = (f) => readFileSync(f, 'utf8')): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const edges: string[] = [];
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const to = resolve(dirname(file), specifier.text);
      if (to.startsWith(SRC)) edges.push(to);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The strongly connected components of more than one module (or a module importing itself): the cycles. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index); low.set(v, index); index += 1;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

/** "a.ts (http) imports b.ts (cli)" for every import from a higher layer, type-only ones included. */
export function layerViolations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, edges] of graph) {
    const a = layerOf(from);
    for (const to of edges) {
      const b = layerOf(to);
      if (a === undefined || b === undefined) continue;
      if (LAYERS.indexOf(b) < LAYERS.indexOf(a)) out.push(`${relative(ROOT, from)} (${a}) imports ${relative(ROOT, to)} (${b})`);
    }
  }
  return out.sort();
}

const rel = (files: string[]) => files.map((f) => relative(ROOT, f));

const SOURCES_FILES = walk(SRC, '.ts');
const SOURCES = tsGraph(SOURCES_FILES);

// A circle is broken by giving what both sides share a module of its own, as src/http/app-types.ts
// holds App, AppContext and Route (app.ts registers the routes that need them) and json-serializer.ts the
// routes' serializer (routes/index.ts registers them).
test('src/: no import cycles, type-only imports included', () => {
  const found = cycles(tsGraph(SOURCES_FILES));
  assert.deepEqual(found.map(rel), [], found.map((c) => `circle: ${rel(c).join(' ↔ ')}`).join('\n'));
});

test('src/: no import from a higher layer; none from src/http in forecasting, runtime, store, jobs', () => {
  assert.deepEqual(layerViolations(SOURCES), []);
});

test('the checks find a cycle and an upward import', () => {
  const a = join(SRC, 'runtime', 'a.ts');
  const b = join(SRC, 'runtime', 'b.ts');
  const c = join(SRC, 'store', 'c.ts');
  const sources: Record<string, string> = {
    [a]: "import { b } from './b.ts';",
    [b]: "import type { A } from './a.ts'; // a comment: import '../http/app.ts'",
    [c]: "export { x } from '../http/app.ts';",
  };
  const graph = tsGraph([a, b, c], (f) => sources[f]);
  assert.deepEqual(cycles(graph).map(rel), [['src/runtime/a.ts', 'src/runtime/b.ts']], 'a type-only import closes a circle too');
  assert.deepEqual(layerViolations(graph), ['src/store/c.ts (store) imports src/http/app.ts (http)']);
  sources[b] = "export type { B } from '../store/c.ts'; const later = () => import('./a.ts');";
  assert.deepEqual(cycles(tsGraph([a, b, c], (f) => sources[f])), [], 'a dynamic import is no edge; a re-export is one');
  sources[c] = "import type { A } from '../runtime/a.ts';";
  assert.deepEqual(cycles(tsGraph([a, b, c], (f) => sources[f])).map(rel), [['src/runtime/a.ts', 'src/runtime/b.ts', 'src/store/c.ts']]);
});

// runtime/horizon_runtime: every import, also one deferred into a function body (a circle that only
// loads because one side imports late is still a circle), parsed with ast by the core venv's Python
// (any python3 when it is not built)
const PY_CYCLES = `
import ast, json, os, sys
root = sys.argv[1]
pkg = 'horizon_runtime'
mods = {}
for dirpath, _, files in os.walk(os.path.join(root, pkg)):
    for f in files:
        if f.endswith('.py'):
            path = os.path.join(dirpath, f)
            name = os.path.relpath(path, root)[:-3].replace(os.sep, '.')
            if name.endswith('.__init__'): name = name[:-9]
            mods[name] = path
graph = {}
for name, path in mods.items():
    tree = ast.parse(open(path).read())
    package = name if path.endswith('__init__.py') else name.rsplit('.', 1)[0]
    deps = set()
    for node in ast.walk(tree):  # every import, also those deferred into a function to dodge a circle
        if isinstance(node, ast.Import):
            deps.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parts = package.split('.')
                base = '.'.join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            deps.add(base)
            deps.update(f'{base}.{a.name}' for a in node.names)
    graph[name] = sorted(d for d in deps if d in mods and d != name)
# a package's __init__ is imported before its submodules: an edge from a submodule to its own package is not a cycle
for name in graph:
    graph[name] = [d for d in graph[name] if not name.startswith(d + '.')]
index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in graph[v]:
        if w not in index: visit(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: out.append(sorted(comp))
for v in graph:
    if v not in index: visit(v)
print(json.dumps(out))
`;

test('runtime/horizon_runtime: no import cycles between modules (deferred imports count)', () => {
  const venv = join(ROOT, 'runtime', '.venv-core', 'bin', 'python');
  const python = existsSync(venv) ? venv : 'python3';
  const found = JSON.parse(execFileSync(python, ['-c', PY_CYCLES, join(ROOT, 'runtime')], { encoding: 'utf8' })) as string[][];
  assert.deepEqual(found, []);
});
