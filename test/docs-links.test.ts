// Every relative link in README.md and docs/*.md (and the client READMEs) resolves: the file or folder
// exists, and a #fragment names a heading of the target (GitHub's anchor rules). New docs are picked
// up by the glob, so docs other sessions add are checked too. Also: the README stays a front door
// (≤ 200 lines), docs/README.md indexes every doc, and no doc tells users to run `npx horizon`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The project's shared documents live beside the checkout (../shared); a clone without them skips those links. */
const SHARED = resolve(ROOT, '..', 'shared');

/** Markdown without fenced code blocks and inline code: links inside code are examples, not links. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered -1, -2 … */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  // explicit anchors: <a id="x"> / <a name="x">
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/** The inline links [text](target) of a markdown file. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** The broken relative links of one file: "file: target (why)". */
export function brokenLinks(file: string, markdown = readFileSync(file, 'utf8')): string[] {
  const broken: string[] = [];
  for (const link of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) continue; // http:, mailto:, …
    const [pathPart, fragment] = link.split('#', 2) as [string, string | undefined];
    const target = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    const inside = target === ROOT || target.startsWith(ROOT + sep);
    const shared = target.startsWith(SHARED + sep);
    if (!inside && !shared) { broken.push(`${relative(ROOT, file)}: ${link} (outside the repository)`); continue; }
    if (shared && !existsSync(SHARED)) continue; // a clone without the shared documents beside it
    if (!existsSync(target)) { broken.push(`${relative(ROOT, file)}: ${link} (no such file)`); continue; }
    if (fragment !== undefined && fragment !== '') {
      if (statSync(target).isDirectory() || !target.endsWith('.md')) { broken.push(`${relative(ROOT, file)}: ${link} (a fragment on a file that is not markdown)`); continue; }
      if (!anchorsOf(pathPart === '' ? markdown : readFileSync(target, 'utf8')).has(decodeURIComponent(fragment).toLowerCase())) broken.push(`${relative(ROOT, file)}: ${link} (no heading #${fragment} in ${relative(ROOT, target)})`);
    }
  }
  return broken;
}

const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort();
const checked = [join(ROOT, 'README.md'), ...docs.map((f) => join(ROOT, 'docs', f)), join(ROOT, 'clients', 'python', 'README.md'), join(ROOT, 'clients', 'typescript', 'README.md')];

test('every relative link in README.md, docs/*.md and the client READMEs resolves (files and #anchors)', () => {
  const broken = checked.flatMap((file) => brokenLinks(file));
  assert.deepEqual(broken, []);
});

test('the link check finds a missing file, a missing anchor and a link out of the repository', () => {
  const file = join(ROOT, 'docs', 'README.md');
  const found = brokenLinks(file, '# Here\n\n[ok](../README.md) [self](#here) [gone](nope.md) [anchor](../README.md#no-such-heading) [out](../../../etc/passwd) `[code](ignored.md)`\n');
  assert.deepEqual(found, [
    'docs/README.md: nope.md (no such file)',
    'docs/README.md: ../README.md#no-such-heading (no heading #no-such-heading in README.md)',
    'docs/README.md: ../../../etc/passwd (outside the repository)',
  ]);
  assert.deepEqual([...anchorsOf('# Large requests: 413 `use_job_api` and chunked jobs\n## A\n## A\n')], ['large-requests-413-use_job_api-and-chunked-jobs', 'a', 'a-1']);
});

test('README.md is a front door: at most 200 lines', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
});

test('docs/README.md indexes every doc in docs/', () => {
  const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
  const linked = new Set(linksOf(index).map((l) => l.split('#')[0]));
  assert.deepEqual(docs.filter((f) => f !== 'README.md' && !linked.has(f)), [], 'docs missing from docs/README.md');
});

test('no README or doc tells users to run `npx horizon` (it prints EBADENGINE lines; ./horizon is the CLI)', () => {
  const files = [...checked, join(ROOT, 'deploy', 'README.md'), join(ROOT, 'eval', 'README.md'), join(ROOT, 'bench', 'README.md')];
  assert.deepEqual(files.filter((f) => readFileSync(f, 'utf8').includes('npx horizon')).map((f) => relative(ROOT, f)), []);
});

// docs/development.md is the map of src/ (issue 37: it had left out src/contract/, http/nixtla/ and whole module
// groups). A folder is named as `src/a/b/`, or as `b/` on a line indented under the line naming `src/a/` in a
// code block; a module as `x.ts` (any folder of src/) or `a/x.ts` (src/a/x.ts) in the "## src/" section.
export function mapProblems(markdown: string, folders: readonly string[], modules: readonly string[]): string[] {
  const named = new Set<string>();
  for (const m of markdown.matchAll(/\bsrc\/(?:[a-z0-9_-]+\/)+/g)) named.add(m[0]);
  for (const block of markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)) {
    const stack: { indent: number; path: string }[] = [];
    for (const line of block[1].split('\n')) {
      const m = /^(\s*)((?:src\/)?(?:[a-z0-9_-]+\/)+)(?:\s|$)/.exec(line);
      if (!m) continue;
      const indent = m[1].length;
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      const path = m[2].startsWith('src/') ? m[2] : stack.length ? stack[stack.length - 1].path + m[2] : undefined;
      if (path === undefined) continue;
      named.add(path);
      stack.push({ indent, path });
    }
  }
  const problems = [...named].filter((f) => !folders.includes(f)).map((f) => `names ${f}, which does not exist`);
  problems.push(...folders.filter((f) => !named.has(f)).map((f) => `does not name ${f}`));
  const section = /^## src\/[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1] ?? '';
  const basenames = new Set(modules.map((m) => m.split('/').pop()));
  for (const [token] of section.matchAll(/[\w./-]*\w\.ts\b/g)) {
    if (token.startsWith('-') || token.startsWith('.') || token.startsWith('test/')) continue;
    const known = token.includes('/') ? modules.includes(`src/${token.replace(/^src\//, '')}`) : basenames.has(token);
    if (!known) problems.push(`names ${token}, which is no module of src/`);
  }
  return [...new Set(problems)].sort();
}

function srcTree(dir = join(ROOT, 'src')): { folders: string[]; modules: string[] } {
  const folders: string[] = [];
  const modules: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = relative(ROOT, path).split(sep).join('/');
    if (statSync(path).isDirectory()) {
      folders.push(`${rel}/`);
      const below = srcTree(path);
      folders.push(...below.folders);
      modules.push(...below.modules);
    } else if (name.endsWith('.ts')) modules.push(rel);
  }
  return { folders, modules };
}

test('docs/development.md maps src/: every src/ folder it names exists, every folder is named, every module it names exists', () => {
  const { folders, modules } = srcTree();
  assert.deepEqual(mapProblems(readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8'), folders, modules), []);
});

test('the map check finds a folder that is gone, one left out, and a module that is gone', () => {
  const doc = '# x\n\n## src/: here\n\n```\nsrc/http/   app.ts, gone.ts, http/app.ts\n  routes/\n  nixtla/\nsrc/jobs/\n```\nsee src/old/\n\n## other\nnot.ts\n';
  const folders = ['src/http/', 'src/http/routes/', 'src/jobs/', 'src/store/'];
  assert.deepEqual(mapProblems(doc, folders, ['src/http/app.ts']), [
    'does not name src/store/', 'names gone.ts, which is no module of src/',
    'names src/http/nixtla/, which does not exist', 'names src/old/, which does not exist',
  ]);
});
