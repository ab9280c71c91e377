# Prints core-first.txt: the distributions (with core.txt's pins) that the worker needs to start and serve the statistical models:
# the third-party imports of horizon_runtime's modules other than the foundation-model adapters and
# fine-tuning, closed over their declared requirements (markers evaluated here: Linux, CPython 3.11).
import ast, os, re, sys
from importlib import metadata
from packaging.requirements import Requirement
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # runtime/
root = 'horizon_runtime'
skip = re.compile(r'^horizon_runtime/(adapters/(?!base|statistical|__init__)|finetune|serve/)')
tops = set()
for dirpath, _, files in os.walk(root):
    for f in files:
        if not f.endswith('.py'): continue
        path = os.path.join(dirpath, f)
        if skip.match(path): continue
        def module_level(body):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)): continue
                yield node
                for field in ('body', 'orelse', 'finalbody'):
                    yield from module_level(getattr(node, field, []) or [])
                for h in getattr(node, 'handlers', []) or []:
                    yield from module_level(h.body)
        # imports at module level: what loading the worker needs (an import inside a function runs
        # when a foundation model is loaded or pulled)
        for node in module_level(ast.parse(open(path).read()).body):
            if isinstance(node, ast.Import): tops.update(a.name.split('.')[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module: tops.add(node.module.split('.')[0])
pkg = metadata.packages_distributions()
dists = set()
for t in tops:
    for d in pkg.get(t, []): dists.add(d.lower().replace('_', '-'))
# weights.find_weights reads the Hugging Face cache location (a function-level import) at every GET /models
dists.add('huggingface-hub')
print('top-level imports →', sorted(dists), file=sys.stderr)
seen = set(); todo = list(dists)
while todo:
    d = todo.pop()
    if d in seen: continue
    seen.add(d)
    try: reqs = metadata.requires(d) or []
    except metadata.PackageNotFoundError: print('not installed:', d, file=sys.stderr); continue
    for r in reqs:
        req = Requirement(r)
        if req.marker and not req.marker.evaluate({'extra': ''}): continue
        todo.append(req.name.lower().replace('_', '-'))
pins = {}
for line in open('requirements/core.txt'):
    m = re.match(r'^([A-Za-z0-9_.\-]+)==(\S+)', line.strip())
    if m: pins[m.group(1).lower().replace('_', '-').replace('.', '-')] = line.strip()
norm = lambda n: n.lower().replace('_', '-').replace('.', '-')
out = sorted(pins[norm(d)] for d in seen if norm(d) in pins)
missing = sorted(d for d in seen if norm(d) not in pins)
print('not pinned in core.txt (stdlib or absent):', missing, file=sys.stderr)
print('\n'.join(out))
