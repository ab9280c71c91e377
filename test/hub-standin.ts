// A local stand-in for the Hugging Face Hub: the endpoints `huggingface_hub` calls for a pull, answered
// the way the Hub answers them, over repos made from local directories (the tiny fixtures in their
// published layouts). Point the client at it with HF_ENDPOINT=<url>.
//   GET  /api/models/<repo>/revision/<rev>        model_info: id, sha (the commit), gated, siblings
//   GET  /api/models/<repo>/tree/<rev>?recursive   list_repo_tree: path, size, oid (git blob id), lfs {oid, size}
//   HEAD|GET /<repo>/resolve/<rev>/<path>           small files: 200 with ETag = blob id; LFS files: 302 to
//                                                   /cdn/<sha256> with X-Linked-Etag / X-Linked-Size, as on the Hub
//   GET  /cdn/<sha256>                              the LFS content, with Range
// Errors carry X-Error-Code (RepoNotFound, RevisionNotFound, GatedRepo, EntryNotFound) as the client expects.
// Faults for tests: `corrupt` (serve other bytes than the listed sha256), `stopAfter` (close the whole
// server once that many bytes of a file went out), `bytesPerSecond` (a slow link).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AddressInfo } from 'node:net';

const LFS_SUFFIXES = ['.safetensors', '.ckpt', '.bin', '.onnx', '.pt'];

interface HubFile { path: string; content: Buffer; blobId: string; lfs?: { sha256: string; pointerSize: number } }
interface Repo { id: string; commit: string; files: Map<string, HubFile>; gated: boolean; branches: Set<string> }

export interface RepoSource {
  /** a directory whose files (recursively) are the repo's */
  dir?: string;
  /** more files, e.g. a README.md or a .gitattributes the adapter does not need */
  extra?: Record<string, string | Buffer>;
  gated?: boolean;
  /** branch or tag names besides `main` that resolve to the repo's one commit (a catalog `revision` such as r1.1) */
  branches?: string[];
}

export interface StandInOptions {
  repos: Record<string, RepoSource>;
  /** tokens that may read gated repos */
  tokens?: string[];
}

export interface RequestLog { method: string; path: string; range?: string; status: number }

const gitBlobId = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, root) : [relative(root, path)];
  });
}

function hubFile(path: string, content: Buffer): HubFile {
  if (!LFS_SUFFIXES.some((s) => path.endsWith(s))) return { path, content, blobId: gitBlobId(content) };
  const sha256 = createHash('sha256').update(content).digest('hex');
  const pointer = Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${content.length}\n`);
  return { path, content, blobId: gitBlobId(pointer), lfs: { sha256, pointerSize: pointer.length } };
}

export class HubStandIn {
  readonly repos = new Map<string, Repo>();
  readonly log: RequestLog[] = [];
  /** repo path -> bytes served instead of the real ones (same length, other content) */
  readonly corrupt = new Set<string>();
  /** close the server when this many bytes of `path` have been sent */
  stopAfter?: { path: string; bytes: number };
  bytesPerSecond?: number;
  private servers: Server[] = [];
  private readonly tokens: Set<string>;
  port = 0;

  constructor(options: StandInOptions) {
    this.tokens = new Set(options.tokens ?? []);
    for (const [id, source] of Object.entries(options.repos)) {
      const files = new Map<string, HubFile>();
      if (source.dir) for (const path of walk(source.dir)) files.set(path, hubFile(path, readFileSync(join(source.dir, path))));
      for (const [path, content] of Object.entries(source.extra ?? {})) files.set(path, hubFile(path, Buffer.from(content)));
      const commit = createHash('sha1').update(id).update([...files.values()].map((f) => `${f.path}:${f.blobId}`).sort().join('\n')).digest('hex');
      this.repos.set(id, { id, commit, files, gated: source.gated ?? false, branches: new Set(source.branches ?? []) });
    }
  }

  get url(): string { return `http://127.0.0.1:${this.port}`; }

  /** LFS content is redirected to this other host, as the Hub sends it to its CDN: the client must not
   * follow the redirect when it reads a file's metadata (the Hub's headers are on the 302). */
  get cdnUrl(): string { return `http://127.0.0.2:${this.port}`; }

  /** Starts (again) on `port`, or a free port the first time: the Hub on 127.0.0.1, the CDN on 127.0.0.2. */
  async start(port = this.port): Promise<string> {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const entry: RequestLog = { method: req.method ?? 'GET', path: decodeURIComponent(url.pathname), range: req.headers.range, status: 0 };
      this.log.push(entry);
      res.on('finish', () => { entry.status = res.statusCode; });
      this.handle(req.method ?? 'GET', entry.path, req.headers.authorization, req.headers.range, res);
    };
    const listen = (host: string, on: number) => new Promise<Server>((resolve, reject) => {
      const server = createServer(handler);
      server.once('error', reject);
      server.listen(on, host, () => resolve(server));
    });
    const hub = await listen('127.0.0.1', port);
    this.port = (hub.address() as AddressInfo).port;
    this.servers = [hub, await listen('127.0.0.2', this.port)];
    return this.url;
  }

  async stop(): Promise<void> {
    const servers = this.servers;
    this.servers = [];
    await Promise.all(servers.map((server) => { server.closeAllConnections(); return new Promise<void>((resolve) => server.close(() => resolve())); }));
  }

  /** GET requests that fetched content of `path` in `repo` (a small file's resolve, an LFS file's CDN object). */
  downloads(repo: string, path: string): RequestLog[] {
    const file = this.repos.get(repo)?.files.get(path);
    if (!file) return [];
    const cdn = file.lfs ? `/cdn/${file.lfs.sha256}` : undefined;
    return this.log.filter((l) => l.method === 'GET' && l.status !== 302 && (l.path === cdn || (l.path.startsWith(`/${repo}/resolve/`) && l.path.endsWith(`/${path}`))));
  }

  commit(repo: string): string | undefined { return this.repos.get(repo)?.commit; }

  private error(res: ServerResponse, status: number, code: string, message: string): void {
    res.writeHead(status, { 'content-type': 'application/json', 'x-error-code': code, 'x-error-message': message });
    res.end(JSON.stringify({ error: message }));
  }

  private findRepo(rest: string): { repo: Repo; tail: string } | undefined {
    for (const repo of this.repos.values()) if (rest.startsWith(`${repo.id}/`)) return { repo, tail: rest.slice(repo.id.length + 1) };
    return undefined;
  }

  private commitOf(repo: Repo, rev: string): boolean { return rev === 'main' || rev === repo.commit || repo.branches.has(rev); }

  private handle(method: string, path: string, authorization: string | undefined, range: string | undefined, res: ServerResponse): void {
    const authorised = (repo: Repo) => !repo.gated || (authorization?.startsWith('Bearer ') && this.tokens.has(authorization.slice(7)));
    if (path.startsWith('/api/models/')) {
      const found = this.findRepo(path.slice('/api/models/'.length));
      if (!found) return this.error(res, 401, 'RepoNotFound', 'Repository not found');
      const { repo, tail } = found;
      const [kind, rev = ''] = tail.split('/');
      if (!this.commitOf(repo, rev)) return this.error(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
      res.setHeader('content-type', 'application/json');
      if (kind === 'revision') {
        return void res.end(JSON.stringify({
          id: repo.id, modelId: repo.id, sha: repo.commit, private: false, gated: repo.gated ? 'manual' : false, disabled: false,
          siblings: [...repo.files.keys()].map((rfilename) => ({ rfilename })),
        }));
      }
      if (kind === 'tree') {
        return void res.end(JSON.stringify([...repo.files.values()].map((f) => ({
          type: 'file', path: f.path, size: f.content.length, oid: f.blobId,
          ...(f.lfs ? { lfs: { oid: f.lfs.sha256, size: f.content.length, pointerSize: f.lfs.pointerSize } } : {}),
        }))));
      }
      return this.error(res, 404, 'EntryNotFound', 'unknown api');
    }
    if (path.startsWith('/cdn/')) {
      const sha = path.slice('/cdn/'.length);
      const file = [...this.repos.values()].flatMap((r) => [...r.files.values()]).find((f) => f.lfs?.sha256 === sha);
      if (!file) return this.error(res, 404, 'EntryNotFound', 'no such object');
      return this.send(method, file, range, res, {});
    }
    const found = this.findRepo(path.slice(1));
    const match = found && /^resolve\/([^/]+)\/(.+)$/.exec(found.tail);
    if (!found || !match) return this.error(res, 401, 'RepoNotFound', 'Repository not found');
    const { repo } = found;
    const [, rev, filePath] = match;
    if (!this.commitOf(repo, rev)) return this.error(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
    if (!authorised(repo)) {
      return this.error(res, 401, 'GatedRepo', `Access to model ${repo.id} is restricted. You must have access to it and be authenticated to access it. Please log in.`);
    }
    const file = repo.files.get(filePath);
    if (!file) return this.error(res, 404, 'EntryNotFound', `${filePath} does not exist`);
    const common = { 'x-repo-commit': repo.commit };
    if (file.lfs) {
      res.writeHead(302, {
        ...common, location: `${this.cdnUrl}/cdn/${file.lfs.sha256}`, 'x-linked-etag': `"${file.lfs.sha256}"`,
        'x-linked-size': String(file.content.length), etag: `"${file.blobId}"`,
      });
      return void res.end();
    }
    this.send(method, file, range, res, { ...common, etag: `"${file.blobId}"` });
  }

  private send(method: string, file: HubFile, range: string | undefined, res: ServerResponse, headers: Record<string, string>): void {
    let content = file.content;
    if (this.corrupt.has(file.path)) { content = Buffer.from(content); content[content.length >> 1] ^= 0xff; }
    const start = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
    const body = content.subarray(start);
    res.writeHead(range ? 206 : 200, {
      ...headers, 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', 'content-length': String(body.length),
      ...(range ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
    });
    if (method === 'HEAD') return void res.end();
    void this.stream(file.path, body, start, res);
  }

  private async stream(path: string, body: Buffer, offset: number, res: ServerResponse): Promise<void> {
    const stopAt = this.stopAfter?.path === path ? Math.max(0, this.stopAfter.bytes - offset) : Infinity;
    const limit = Math.min(body.length, stopAt);
    for (let at = 0; at < limit && !res.destroyed; at += 64 * 1024) {
      const end = Math.min(limit, at + 64 * 1024);
      if (!res.write(body.subarray(at, end))) await new Promise((resolve) => res.once('drain', resolve));
      if (this.bytesPerSecond) await new Promise((resolve) => setTimeout(resolve, (1000 * (end - at)) / this.bytesPerSecond!));
    }
    if (limit < body.length) {
      // the server goes away mid-file: the connection drops with the body unfinished
      this.stopAfter = undefined;
      res.destroy();
      await this.stop();
      return;
    }
    res.end();
  }
}
