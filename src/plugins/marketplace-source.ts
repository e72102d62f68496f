/**
 * Where a marketplace comes from, in Claude Code's shape (`known_marketplaces.json` and settings
 * `extraKnownMarketplaces` both hold it as `source`):
 *   {"source": "github", "repo": "owner/repo", "ref"?, "path"?}   cloned from https://github.com/owner/repo.git
 *   {"source": "git", "url": "<any git URL>", "ref"?, "path"?}    https, ssh, `user@host:path`, file://
 *   {"source": "url", "url": "https://…/marketplace.json"}        the file alone is downloaded
 *   {"source": "directory", "path": "/abs/folder"}                a folder on disk, read where it is
 *   {"source": "file", "path": "/abs/…/marketplace.json"}         a file on disk, read where it is
 * `path`, for a git source, is where marketplace.json is in the repository (default
 * `.claude-plugin/marketplace.json`). `wicket plugin marketplace add <source>` takes what Claude
 * Code's command takes: `owner/repo` (with `#ref` or `@ref`), a git URL (with `#ref`), an https URL
 * of a marketplace.json, or a local folder or .json file (`./…`, `../…`, `/…`, `~/…`), and also a
 * `file://` URL of a repository.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { isObject } from '../settings/validate.js';

export type MarketplaceSource =
  | { source: 'github'; repo: string; ref?: string; path?: string }
  | { source: 'git'; url: string; ref?: string; path?: string }
  | { source: 'url'; url: string; headers?: Record<string, string> }
  | { source: 'directory'; path: string }
  | { source: 'file'; path: string };

const GITHUB_REPO = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
export const INVALID_SOURCE =
  'not a marketplace source. Give owner/repo, a git URL (https://…, git@host:path, file://…), an https URL of a marketplace.json, or ./path';

/** Reads what a person typed as a marketplace source; `cwd` and `home` place a local path. */
export function parseMarketplaceSource(input: string, cwd: string, home: string): MarketplaceSource | { error: string } {
  const text = input.trim();
  if (!text || text.startsWith('-')) return { error: `"${input}" is ${INVALID_SOURCE}` };
  const scp = /^([\w.-]+@[^:/]+:.+?)(?:#(.+))?$/.exec(text);
  if (scp && !text.includes('://')) return withRef({ source: 'git', url: scp[1]! }, scp[2]);
  const [url, ref] = splitRef(text, '#');
  if (/^(ssh|git|file):\/\//i.test(url)) return withRef({ source: 'git', url }, ref);
  if (/^https?:\/\//i.test(url)) return fromHttp(url, ref);
  if (/^(\.{1,2}|~)?(\/|$)/.test(text) || text === '.' || text === '..') return fromDisk(text, cwd, home);
  if (text.includes('/') && !text.includes(':')) {
    const [repo, r] = splitRef(text, /[#@]/);
    if (!GITHUB_REPO.test(repo)) return { error: `"${text}" is not a GitHub owner/repo. For another git host give its clone URL; for a folder, ./path` };
    return withRef({ source: 'github', repo }, r);
  }
  return { error: `"${input}" is ${INVALID_SOURCE}` };
}

/** An https URL: a repository (ends in .git, or github.com/owner/repo), else a marketplace.json to download. */
function fromHttp(url: string, ref: string | undefined): MarketplaceSource | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: `"${url}" is not a URL` };
  }
  if (url.endsWith('.git') || url.includes('/_git/')) return withRef({ source: 'git', url }, ref);
  const parts = parsed.pathname.split('/').filter(Boolean);
  if (parsed.hostname === 'github.com' && parts.length === 2) return withRef({ source: 'git', url: `${url.replace(/\/+$/, '')}.git` }, ref);
  if (ref) return { error: `"#${ref}" names a git ref, but ${url} is not a git repository URL (add .git to clone it)` };
  return { source: 'url', url };
}

function fromDisk(text: string, cwd: string, home: string): MarketplaceSource | { error: string } {
  const abs = text.startsWith('~') ? path.join(home, text.slice(1)) : path.resolve(cwd, text);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    return { error: `${abs} does not exist` };
  }
  if (isDir) return { source: 'directory', path: abs };
  if (!abs.endsWith('.json')) return { error: `${abs} is a file, and a marketplace file is a .json file (marketplace.json)` };
  return { source: 'file', path: abs };
}

function splitRef(text: string, sep: string | RegExp): [string, string | undefined] {
  const at = typeof sep === 'string' ? text.indexOf(sep) : text.search(sep);
  if (at <= 0) return [text, undefined];
  const ref = text.slice(at + 1);
  return [text.slice(0, at), ref || undefined];
}

function withRef<T extends MarketplaceSource>(source: T, ref: string | undefined): T {
  return ref ? { ...source, ref } : source;
}

/** A `source` object from settings or known_marketplaces.json, checked; the error names what is wrong with it. */
export function sourceFromJson(value: unknown): MarketplaceSource | { error: string } {
  if (!isObject(value)) return { error: 'its "source" must be an object such as {"source": "github", "repo": "owner/repo"}' };
  const str = (k: string) => (typeof value[k] === 'string' && value[k] !== '' ? (value[k] as string) : undefined);
  const need = (k: string) => ({ error: `a "${String(value.source)}" source needs "${k}" (a string)` });
  const pin = { ...(str('ref') ? { ref: str('ref') } : {}), ...(str('path') ? { path: str('path') } : {}) };
  switch (value.source) {
    case 'github':
      if (!str('repo') || !GITHUB_REPO.test(str('repo')!)) return { error: 'a "github" source needs "repo" as owner/repo' };
      return { source: 'github', repo: str('repo')!, ...pin };
    case 'git':
      return str('url') ? { source: 'git', url: str('url')!, ...pin } : need('url');
    case 'url': {
      const headers = isObject(value.headers)
        ? (Object.fromEntries(Object.entries(value.headers).filter(([, v]) => typeof v === 'string')) as Record<string, string>)
        : undefined;
      return str('url') ? { source: 'url', url: str('url')!, ...(headers ? { headers } : {}) } : need('url');
    }
    case 'directory':
    case 'file':
      return str('path') ? { source: value.source, path: str('path')! } : need('path');
    default:
      return { error: `the "${String(value.source)}" marketplace source is not supported by wicket (github, git, url, directory and file are)` };
  }
}

/** The URL git clones for a github or git source. */
export function gitUrlOf(source: Extract<MarketplaceSource, { source: 'github' | 'git' }>): string {
  return source.source === 'github' ? `https://github.com/${source.repo}.git` : source.url;
}

/** One line for a person: `owner/repo#ref`, the URL, or the path. */
export function describeSource(source: MarketplaceSource): string {
  switch (source.source) {
    case 'github':
      return `${source.repo}${source.ref ? `#${source.ref}` : ''} (GitHub)`;
    case 'git':
      return `${source.url}${source.ref ? `#${source.ref}` : ''}`;
    case 'url':
      return source.url;
    default:
      return source.path;
  }
}

/** What a person types to add it again (`wicket plugin marketplace add <this>`). */
export function sourceArgument(source: MarketplaceSource): string {
  switch (source.source) {
    case 'github':
      return `${source.repo}${source.ref ? `#${source.ref}` : ''}`;
    case 'git':
      return `${/^[a-z][a-z+.-]*:\/\//i.test(source.url) || /^[\w.-]+@/.test(source.url) ? source.url : `file://${source.url}`}${source.ref ? `#${source.ref}` : ''}`;
    case 'url':
      return source.url;
    default:
      return source.path;
  }
}

/** Whether two sources fetch the same thing (a declared marketplace already added). */
export function sameSource(a: MarketplaceSource, b: MarketplaceSource): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(s: MarketplaceSource): unknown {
  if (s.source === 'github' || s.source === 'git') {
    const url = gitUrlOf(s).replace(/\/+$/, '');
    return ['git', /^https:\/\/github\.com\//i.test(url) ? url.toLowerCase() : url, s.ref ?? '', s.path ?? ''];
  }
  if (s.source === 'url') return ['url', s.url];
  return [s.source, path.resolve(s.path)];
}
