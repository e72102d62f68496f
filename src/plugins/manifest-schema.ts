/**
 * The shapes of `.claude-plugin/marketplace.json` and `.claude-plugin/plugin.json`, as Claude Code
 * checks them before it adds a marketplace or installs a plugin (zod, as Claude Code does): a file
 * that does not fit is refused whole, and each problem names the file, the JSON path (`plugins[1].source.repo`)
 * and what is wrong there. Keys Claude Code does not know are let through, as it lets them through.
 */
import { readFileSync } from 'node:fs';
import { zodLib } from '../base/lib/zod-lib.js';
import type { Zod } from '../base/lib/zod-parts.js';
import { parseSettingsText } from '../settings/read.js';

const NAME = /^[A-Za-z0-9][\w.-]*$/;
const NAME_RULE = 'must be a name of letters, digits, "-", "_" and "." (starting with a letter or digit)';
const SHA_RULE = 'must be a full 40-character commit id';

function schemas(z: Zod) {
  const name = z.string().regex(NAME, NAME_RULE);
  const paths = z.union([z.string(), z.array(z.string())]);
  const config = z.union([z.string(), z.looseObject({}), z.array(z.union([z.string(), z.looseObject({})]))]);
  const pin = {
    ref: z.string().optional(),
    sha: z
      .string()
      .regex(/^[0-9a-fA-F]{40}$/, SHA_RULE)
      .optional(),
  };
  const source = z.discriminatedUnion('source', [
    z.looseObject({ source: z.literal('github'), repo: z.string().regex(/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/, 'must be owner/repo'), ...pin }),
    z.looseObject({ source: z.literal('url'), url: z.string().min(1), ...pin }),
    z.looseObject({ source: z.literal('git-subdir'), url: z.string().min(1), path: z.string().min(1), ...pin }),
    z.looseObject({ source: z.literal('npm'), package: z.string().min(1) }),
    z.looseObject({ source: z.literal('pip'), package: z.string().min(1) }),
  ]);
  const components = {
    commands: paths.optional(),
    agents: paths.optional(),
    skills: paths.optional(),
    outputStyles: paths.optional(),
    hooks: config.optional(),
    mcpServers: config.optional(),
    lspServers: config.optional(),
  };
  const author = z.looseObject({ name: z.string(), email: z.string().optional(), url: z.string().optional() });
  const about = {
    version: z.string().optional(),
    description: z.string().optional(),
    author: author.optional(),
    homepage: z.string().optional(),
    repository: z.string().optional(),
    license: z.string().optional(),
    keywords: z.array(z.string()).optional(),
  };
  const plugin = z.looseObject({ name, ...about, ...components });
  const entry = z.looseObject({ name, source: z.union([z.string().min(1), source]), strict: z.boolean().optional(), ...about, ...components });
  const marketplace = z.looseObject({
    name,
    owner: z.looseObject({ name: z.string(), email: z.string().optional() }),
    metadata: z.looseObject({ description: z.string().optional(), version: z.string().optional(), pluginRoot: z.string().optional() }).optional(),
    plugins: z.array(entry),
  });
  return { plugin, marketplace };
}

let built: ReturnType<typeof schemas> | undefined;
const get = () => (built ??= schemas(zodLib().z));

export interface MarketplaceEntry extends Record<string, unknown> {
  name: string;
  source: string | Record<string, unknown>;
  version?: string;
  description?: string;
  strict?: boolean;
}

export interface MarketplaceManifest extends Record<string, unknown> {
  name: string;
  owner: { name: string };
  metadata?: { description?: string; version?: string; pluginRoot?: string };
  plugins: MarketplaceEntry[];
}

export interface PluginManifest extends Record<string, unknown> {
  name: string;
  version?: string;
  description?: string;
}

export type Checked<T> = { ok: T } | { error: string };

/** Reads and checks a marketplace.json; the error names the file, and the JSON path of each problem. */
export function readMarketplaceFile(file: string): Checked<MarketplaceManifest> {
  const data = readJson(file);
  return 'error' in data ? { error: data.error } : checkMarketplace(data.ok, file);
}

export function checkMarketplace(data: unknown, file: string): Checked<MarketplaceManifest> {
  const r = get().marketplace.safeParse(data);
  return r.success ? { ok: r.data as MarketplaceManifest } : { error: problems(file, r.error.issues) };
}

/** Reads and checks a plugin.json (a plugin without one is fine: undefined). */
export function readPluginManifest(file: string): Checked<PluginManifest | undefined> {
  const data = readJson(file);
  if ('missing' in data) return { ok: undefined };
  if ('error' in data) return { error: data.error };
  const r = get().plugin.safeParse(data.ok);
  return r.success ? { ok: r.data as PluginManifest } : { error: problems(file, r.error.issues) };
}

function readJson(file: string): { ok: unknown } | { error: string } | { error: string; missing: true } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return missing ? { error: `${file}: there is no such file`, missing: true } : { error: `${file}: cannot be read (${(err as Error).message})` };
  }
  const parsed = parseSettingsText(text, file);
  if (parsed.status === 'loaded') return { ok: parsed.data };
  return { error: parsed.status === 'error' ? parsed.warning.replace(/; (the file is )?ignored$/, '') : `${file}: is empty` };
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  errors?: Issue[][];
  expected?: string;
  options?: unknown[];
  note?: string;
}

/** `file: path: what is wrong`, one line per problem. */
function problems(file: string, issues: readonly unknown[]): string {
  const lines = (issues as Issue[]).flatMap((i) => explain(i, []));
  return `${file} does not fit the format:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/** One issue as lines; a union that failed says which of its forms came closest and why. */
function explain(issue: Issue, at: PropertyKey[]): string[] {
  const where = [...at, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors?.length) {
    const branches = issue.errors.filter((b) => b.length);
    // The form whose problems lie deepest is the one the value meant to be.
    const depth = (b: Issue[]) => Math.max(...b.map((i) => i.path.length));
    const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a), branches[0] ?? []);
    if (best.length && depth(best) > 0) return best.flatMap((i) => explain(i, where));
    const expected = [...new Set(branches.flatMap((b) => b.map((i) => i.expected).filter(Boolean)))];
    if (expected.length) return [`${jsonPath(where)}: expected ${expected.join(' or ')}`];
  }
  if (issue.code === 'invalid_union' && issue.note === 'No matching discriminator')
    return [`${jsonPath(where)}: must be one of "github", "url", "git-subdir", "npm", "pip"`];
  return [`${jsonPath(where)}: ${issue.message}`];
}

/** `plugins[1].source.repo`; the file itself is `(top level)`. */
export function jsonPath(parts: readonly PropertyKey[]): string {
  if (!parts.length) return '(top level)';
  return parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}
