/**
 * Two real projects' instruction files (test/fixtures/memory/, copied from public repositories with
 * their licence) reach the model exactly as Claude Code 2.1.332 sent them: the start's reminder and
 * the reminders after each touch, compared with what it sent for the same steps. One allowance: the
 * rules a folder walk finds come in the folder's own order, which differs between file systems; those
 * are compared in the order this copy's folder lists them.
 */
import { cpSync, opendirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, expectExit } from '../support/run-cli.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';

const t = useApiAndProject({ git: true });
type Block = { type: string; text?: string };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };
interface Golden {
  start: string;
  touches: string[][];
}

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'memory');
const golden = (name: string): Golden => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.expected.json`), 'utf8'));
const texts = (content: Body['messages'][number]['content']) =>
  typeof content === 'string' ? [content] : content.flatMap((b) => (b.type === 'text' ? [b.text!] : []));

/** The `Contents of …` entries of the start's reminder. */
function entries(reminder: string): string[] {
  const body = reminder.slice(reminder.indexOf('\n\nContents of ') + 2, reminder.lastIndexOf('\n</system-reminder>'));
  return body.split(/\n\n(?=Contents of \/)/);
}

/** The folder's names as the file system lists them. */
function listed(dir: string): string[] {
  const out: string[] = [];
  const d = opendirSync(dir);
  for (let e = d.readSync(); e; e = d.readSync()) out.push(e.name);
  d.closeSync();
  return out;
}

/** The rules the folder walk gives (not imported by CLAUDE.md), put in one order on both sides. */
function walkSorted(list: string[], rulesDir: string, imported: Set<string>): { list: string[]; walk: string[] } {
  const isWalk = (e: string) => e.startsWith(`Contents of ${rulesDir}/`) && !imported.has(e.slice(12 + rulesDir.length + 1).split(' ')[0]!);
  const walk = list.filter(isWalk);
  const sorted = [...walk].sort();
  let i = 0;
  return { list: list.map((e) => (isWalk(e) ? sorted[i++]! : e)), walk: walk.map((e) => e.slice(12 + rulesDir.length + 1).split(' ')[0]!) };
}

async function runFixture(name: string, steps: Array<{ tool: string; input: Record<string, unknown> }>, tools: string) {
  cpSync(path.join(FIXTURES, name), t.project.dir, { recursive: true });
  t.api.script(...steps.map((s) => reply().toolUse(s.tool, s.input)), reply().text('done'));
  expectExit(await t.run(['-p', 'hello', '--allowedTools', tools]), 0);
  const messages = (t.api.messageRequests().at(-1)!.body as Body).messages;
  const want = golden(name);
  const rulesDir = t.project.path('.claude/rules');
  const imported = new Set([...readFileSync(t.project.path('CLAUDE.md'), 'utf8').matchAll(/@\.claude\/rules\/(\S+)/g)].map((m) => m[1]!));
  const start = texts(messages[0]!.content)[0]!;
  const mine = walkSorted(entries(start), rulesDir, imported);
  const theirs = walkSorted(entries(want.start.replaceAll('<ROOT>', t.project.dir)), rulesDir, imported);
  expect(start.startsWith('<system-reminder>\nCodebase and user instructions are shown below.')).toBe(true);
  expect(mine.list).toEqual(theirs.list);
  expect(mine.walk).toEqual(listed(rulesDir).filter((n) => mine.walk.includes(n)));
  const afterTouches = messages.filter((m) => typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result')).map((m) => texts(m.content));
  expect(afterTouches).toEqual(want.touches.map((ts) => ts.map((x) => x.replaceAll('<ROOT>', t.project.dir))));
}

describe('real projects’ instruction files, as Claude Code sends them', () => {
  it('2anki/server: @ imports (three cut short by a trailing comma), rules both imported and walked, subfolder CLAUDE.md on first Read', async () => {
    await t.project.write('src/services/NotionService/NotionAPIWrapper.ts', 'export const wrapper = 1;\n');
    await t.project.write('src/lib/ankify/access.ts', 'export const access = 1;\n');
    await runFixture(
      '2anki-server',
      [
        { tool: 'Read', input: { file_path: t.project.path('src/services/NotionService/NotionAPIWrapper.ts') } },
        { tool: 'Read', input: { file_path: t.project.path('src/lib/ankify/access.ts') } },
      ],
      'Read',
    );
  });

  it('reporails/cli: an @ import of a long spec, rules with paths given on Read and Write of matching files, each once', async () => {
    await runFixture(
      'reporails-cli',
      [
        { tool: 'Read', input: { file_path: t.project.path('docs/specs/arch.md') } },
        { tool: 'Write', input: { file_path: t.project.path('src/reporails_cli/bundled/capability-patterns.yml'), content: 'a: 1\n' } },
        { tool: 'Read', input: { file_path: t.project.path('CLAUDE.md') } },
        { tool: 'Read', input: { file_path: t.project.path('.claude/rules/backbone.md') } },
      ],
      'Read,Write',
    );
  });
});
