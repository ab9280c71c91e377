// The code's shape (issue 37): no line in src/**/*.ts over 160 characters, and no function over 100
// lines in src/**/*.ts or runtime/horizon_runtime/**/*.py.
// A function is a TypeScript function declaration, method, constructor, accessor, arrow function or
// function expression (found with TypeScript's own parser), or a Python def/async def (found with
// Python's ast). Its length runs from the line its node starts on (the `function`/`def`/parameter
// list, not the comment or decorators above it) to the line it ends on, inclusive. A nested function
// is measured on its own too, and an outer function's length includes the functions nested in it:
// that is what a reader scrolling through "a function over 100 lines" sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const MAX_LINE_CHARS = 160;
export const MAX_FUNCTION_LINES = 100;

interface Offender { where: string; length: number; name?: string }

function walk(dir: string, ext: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === '__pycache__' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? walk(path, ext) : path.endsWith(ext) ? [path] : [];
  });
}

export function longLines(file: string, text: string): Offender[] {
  return text.split('\n').flatMap((line, i) =>
    line.length > MAX_LINE_CHARS ? [{ where: `${file}:${i + 1}`, length: line.length }] : []);
}

function tsFunctionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '<anonymous>';
}

export function longTsFunctions(file: string, text: string): Offender[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Offender[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      if (length > MAX_FUNCTION_LINES) found.push({ where: `${file}:${start + 1}`, length, name: tsFunctionName(node, source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const PY_LONG_FUNCTIONS = `
import ast, json, sys
limit = int(sys.argv[1])
out = []
for path in sys.argv[2:]:
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                out.append({'where': f'{path}:{node.lineno}', 'length': length, 'name': node.name})
print(json.dumps(out))
`;

export function longPyFunctions(files: string[]): Offender[] {
  const venv = join(ROOT, 'runtime', '.venv-core', 'bin', 'python');
  const python = existsSync(venv) ? venv : 'python3';
  const output = execFileSync(python, ['-c', PY_LONG_FUNCTIONS, String(MAX_FUNCTION_LINES), ...files], { encoding: 'utf8' });
  return JSON.parse(output) as Offender[];
}

function report(offenders: Offender[], unit: string): string {
  return offenders.map((o) => `  ${relative(ROOT, o.where)}${o.name ? ` ${o.name}` : ''}: ${o.length} ${unit}`).join('\n');
}

test('self-test: a synthetic long line, long TS function (nested too) and long Python function are caught', () => {
  assert.equal(longLines('x.ts', `ok\n${'a'.repeat(MAX_LINE_CHARS)}\n${'b'.repeat(MAX_LINE_CHARS + 1)}\n`).length, 1);
  assert.equal(longLines('x.ts', `${'b'.repeat(MAX_LINE_CHARS + 1)}`)[0].where, 'x.ts:1');
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  // A function of exactly 100 lines passes: the braces' lines plus 98 body lines.
  assert.deepEqual(longTsFunctions('x.ts', `function fits() {\n${body(MAX_FUNCTION_LINES - 2)}\n}\n`), []);
  const tooLong = longTsFunctions('x.ts', `// comment\nexport function tooLong() {\n${body(MAX_FUNCTION_LINES - 1)}\n}\n`);
  assert.deepEqual(tooLong, [{ where: 'x.ts:2', length: MAX_FUNCTION_LINES + 1, name: 'tooLong' }]);
  const nested = `class A {\n  run() {\n    const inner = async () => {\n${body(MAX_FUNCTION_LINES)}\n    };\n  }\n}\n`;
  assert.deepEqual(longTsFunctions('x.ts', nested).map((o) => o.name), ['run', 'inner']);
  const dir = mkdtempSync(join(tmpdir(), 'code-shape-'));
  try {
    const py = join(dir, 'long.py');
    const pyBody = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `    v${i} = ${i}`).join('\n');
    writeFileSync(py, `@decorator\ndef long_one():\n${pyBody}\n\ndef short():\n    return 1\n`);
    assert.deepEqual(longPyFunctions([py]), [{ where: `${py}:2`, length: MAX_FUNCTION_LINES + 1, name: 'long_one' }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`no line in src/ is over ${MAX_LINE_CHARS} characters`, () => {
  const offenders = walk(join(ROOT, 'src'), '.ts').flatMap((file) => longLines(file, readFileSync(file, 'utf8')));
  assert.equal(offenders.length, 0, `${offenders.length} lines over ${MAX_LINE_CHARS} characters:\n${report(offenders, 'characters')}`);
});

test(`no function in src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
  const offenders = walk(join(ROOT, 'src'), '.ts').flatMap((file) => longTsFunctions(file, readFileSync(file, 'utf8')));
  assert.equal(offenders.length, 0, `${offenders.length} functions over ${MAX_FUNCTION_LINES} lines:\n${report(offenders, 'lines')}`);
});

test(`no function in runtime/horizon_runtime/ is over ${MAX_FUNCTION_LINES} lines`, () => {
  const offenders = longPyFunctions(walk(join(ROOT, 'runtime', 'horizon_runtime'), '.py'));
  assert.equal(offenders.length, 0, `${offenders.length} functions over ${MAX_FUNCTION_LINES} lines:\n${report(offenders, 'lines')}`);
});
