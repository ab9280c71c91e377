// Which methods a path has, for 405 Method Not Allowed with an Allow header (RFC 9110 15.5.6):
// Fastify answers an unknown method on a known path through the not-found handler, which asks here.
const PARAM = /:[^/]+/g;

export class MethodsByPath {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];
  private readonly byUrl = new Map<string, Set<string>>();

  add(url: string, method: string | string[]): void {
    let methods = this.byUrl.get(url);
    if (!methods) {
      methods = new Set();
      this.byUrl.set(url, methods);
      // `/v1/forecast-jobs/:id` → one segment per parameter; a trailing `*` matches the rest
      const source = url.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(PARAM, '[^/]+')).join('.*');
      this.routes.push({ pattern: new RegExp(`^${source}$`), methods });
    }
    for (const m of [method].flat()) methods.add(m.toUpperCase());
  }

  /** The methods of every route matching `path`, in a fixed order; empty for an unknown path. */
  methodsFor(path: string): string[] {
    const found = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const m of route.methods) found.add(m);
    return [...found].sort();
  }
}
