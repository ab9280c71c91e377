// Which methods a path has, for 405 Method Not Allowed with an Allow header (RFC 9110 15.5.6):
// Fastify answers an unknown method on a known path through the not-found handler, which asks here.
const PARAM = /:[^/]+/g;

export class MethodsByPath {
  private readonly routes: { pattern: RegExp; methods: Set<string>; parametric: boolean }[] = [];
  private readonly byUrl = new Map<string, Set<string>>();

  add(url: string, method: string | string[]): void {
    let methods = this.byUrl.get(url);
    if (!methods) {
      methods = new Set();
      this.byUrl.set(url, methods);
      // `/v1/forecast-jobs/:id` → one segment per parameter; a trailing `*` matches the rest
      const source = url.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(PARAM, '[^/]+')).join('.*');
      this.routes.push({ pattern: new RegExp(`^${source}$`), methods, parametric: url.includes(':') });
    }
    for (const m of [method].flat()) methods.add(m.toUpperCase());
  }

  /** A static path's own methods (undefined: no static route is this path). A static path (POST
   * /v1/series/observations) is its own route, not a value of a parameter beside it (/v1/series/:id; such ids
   * are reserved, SERIES_ID_PATTERN), so only its own methods apply to it. */
  staticMethods(path: string): string[] | undefined {
    const exact = path.includes(':') ? undefined : this.byUrl.get(path);
    return exact ? [...exact].sort() : undefined;
  }

  /** The methods of every route matching `path`, in a fixed order; empty for an unknown path. */
  methodsFor(path: string): string[] {
    // a static path's parameter routes do not apply to it (see staticMethods); wildcard ones still do
    const shadowed = this.staticMethods(path) !== undefined;
    const found = new Set<string>();
    for (const route of this.routes) {
      if (shadowed && route.parametric) continue;
      if (route.pattern.test(path)) for (const m of route.methods) found.add(m);
    }
    return [...found].sort();
  }
}
