/**
 * "Yes, and don't ask again": the rule goes into `.claude/settings.local.json` (reference §2.1). The
 * file is rewritten atomically (write-file-atomic: a temporary file, then a rename) and everything
 * else in it is kept, including its indentation and comments (JSONC, changed by edits). A file that
 * cannot be read as JSONC is never overwritten: the call fails with a message naming the place.
 * Writes to one file are queued, so rules added in quick succession all land.
 */
import { mkdir, readFile } from '../base/fs/lazy-fs.js';
import path from 'node:path';
import { writeFileAtomic } from '../base/fs/write-file-atomic.js';
import { editJsonc } from './jsonc-edit.js';
import { readJsonText } from './json-text.js';
import { localSettingsPath } from './paths.js';
import { isObject } from './validate.js';

const queues = new Map<string, Promise<unknown>>();

export async function addLocalAllowRule(projectRoot: string, rule: string): Promise<void> {
  return addLocalRule(projectRoot, 'allow', rule);
}

/** Adds `rule` to `permissions.<list>` of the local settings file, unless it is already there. */
export async function addLocalRule(projectRoot: string, list: 'allow' | 'ask' | 'deny', rule: string): Promise<void> {
  await addRuleToFile(localSettingsPath(projectRoot), list, rule);
}

/** Adds `rule` to `permissions.<list>` of a settings file (the shared project one, the user's…), unless it is already there. */
export async function addRuleToFile(settingsFile: string, list: 'allow' | 'ask' | 'deny', rule: string): Promise<void> {
  await updateSettingsFile(settingsFile, (data, file) => {
    const perms = data.permissions ?? (data.permissions = {});
    if (!isObject(perms)) throw new Error(`${file}: "permissions" is not an object; the rule ${rule} was not saved`);
    const rules = perms[list] ?? (perms[list] = []);
    if (!Array.isArray(rules)) throw new Error(`${file}: permissions.${list} is not an array; the rule ${rule} was not saved`);
    if (rules.includes(rule)) return false;
    rules.push(rule);
    return true;
  });
}

/** The answer to "use this project MCP server?", kept as Claude Code keeps it. */
export type McpApproval = 'all' | 'this' | 'never';

/**
 * enableAllProjectMcpServers, or the server's name in enabledMcpjsonServers or in
 * disabledMcpjsonServers (and out of the other list).
 */
export async function saveMcpApproval(projectRoot: string, server: string, answer: McpApproval): Promise<void> {
  await updateLocalSettings(projectRoot, (data, file) => {
    if (answer === 'all') {
      data.enableAllProjectMcpServers = true;
      return true;
    }
    const [add, remove] = answer === 'this' ? ['enabledMcpjsonServers', 'disabledMcpjsonServers'] : ['disabledMcpjsonServers', 'enabledMcpjsonServers'];
    for (const key of [add, remove])
      if (data[key] !== undefined && !Array.isArray(data[key])) throw new Error(`${file}: ${key} is not an array; the answer was not saved`);
    const list = (data[add] as unknown[] | undefined) ?? [];
    data[add] = list.includes(server) ? list : [...list, server];
    if (Array.isArray(data[remove])) data[remove] = (data[remove] as unknown[]).filter((n) => n !== server);
    return true;
  });
}

const ownWrites = new Map<string, string>();

/** Records what the session itself last wrote to a settings file ("don't ask again", /permissions). */
export function noteOwnWrite(file: string, content: string): void {
  ownWrites.set(path.resolve(file), content);
}

/** Whether the file holds what the session itself last wrote there (a reload then says nothing). */
export function isOwnWrite(file: string, content: string): boolean {
  return ownWrites.get(path.resolve(file)) === content;
}

async function updateLocalSettings(projectRoot: string, change: (data: Record<string, any>, file: string) => boolean): Promise<void> {
  return updateSettingsFile(localSettingsPath(projectRoot), change);
}

/**
 * Changes a settings (or other JSON) file in place: `change` edits the parsed object and says
 * whether it changed anything. Writes to one file are queued, so changes in quick succession all land.
 */
export async function updateSettingsFile(file: string, change: (data: Record<string, any>, file: string) => boolean): Promise<void> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const text = await readIfExists(file);
      const data = parseForUpdate(text, file);
      const before = structuredClone(data);
      if (!change(data, file)) return;
      await mkdir(path.dirname(file), { recursive: true });
      const body = text?.replace(/^\uFEFF/, '') ?? '';
      const content = body.trim()
        ? `${text!.startsWith('\uFEFF') ? '\uFEFF' : ''}${editJsonc(body, before, data, detectIndent(body))}`
        : `${JSON.stringify(data, null, detectIndent(text))}\n`;
      noteOwnWrite(file, content);
      await writeFileAtomic(file, content);
    });
  queues.set(file, next);
  try {
    await next;
  } finally {
    if (queues.get(file) === next) queues.delete(file);
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseForUpdate(text: string | undefined, file: string): Record<string, unknown> {
  const body = text?.replace(/^\uFEFF/, '') ?? '';
  const json = readJsonText(body, { jsonc: true });
  if (json.problem)
    throw new Error(`${file}:${json.problem.line}:${json.problem.column}: not valid JSON: ${json.problem.message}; fix it by hand, it was not changed`);
  if (json.value === undefined) return {};
  if (!isObject(json.value)) throw new Error(`${file}: the top level is not a JSON object; it was not changed`);
  return json.value;
}

/** The indentation the file already uses (two spaces when unknown). */
function detectIndent(text: string | undefined): string | number {
  const m = text ? /^\{\s*?\n([ \t]+)\S/.exec(text) : null;
  return m?.[1] ?? 2;
}
