/**
 * A broken settings file never drops its deny rules silently. In every scope wicket reads (user,
 * project, local, managed, a managed drop-in, --settings as a file or as JSON text), a file that
 * denies `Bash(rm:*)` and is broken in one of the ways of settings-kinds.ts stops print mode before
 * anything runs: exit 2, `file:line:column: what is wrong` and how to go on on stderr, nothing on
 * stdout, no request to the API, and the victim file still there although the model would run
 * `rm victim` in bypass mode. The forms editors write (a byte order mark, comments, trailing commas)
 * are read, and their deny rule holds. End to end, through the built binary and the fake API.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { reply, startFakeAnthropic, type RecordedRequest } from '../support/fake-anthropic-server.js';
import { runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { ensureBuilt } from '../e2e/tui-driver.js';
import { ACCEPTED_FORMS, CONTENT_KINDS, FIFO_KIND, FILE_KINDS, UNREADABLE_KIND, type BrokenKind } from './settings-kinds.js';

interface Scope {
  name: string;
  /** Where the broken file goes. */
  file(p: TmpProject): string;
  /** Extra arguments that make wicket read it. */
  args(file: string): string[];
  /** How the message says to go on. */
  advice: string;
}

const managedPath = (p: TmpProject) => path.join(p.home, 'etc', 'managed-settings.json');
const MANAGED_ADVICE = 'the managed settings policy cannot be read, and nothing runs without it';

const SCOPES: Scope[] = [
  { name: 'user', file: (p) => path.join(p.home, '.claude', 'settings.json'), args: () => [], advice: '--setting-sources "project,local"' },
  { name: 'project', file: (p) => p.path('.claude/settings.json'), args: () => [], advice: '--setting-sources "user,local"' },
  { name: 'local', file: (p) => p.path('.claude/settings.local.json'), args: () => [], advice: '--setting-sources "user,project"' },
  { name: 'managed', file: managedPath, args: () => [], advice: MANAGED_ADVICE },
  { name: 'managed drop-in', file: (p) => path.join(p.home, 'etc', 'managed-settings.d', '50-team.json'), args: () => [], advice: MANAGED_ADVICE },
  { name: '--settings file', file: (p) => p.path('ci-settings.json'), args: (f) => ['--settings', f], advice: 'To go on: fix it.' },
];

/**
 * The kinds every scope is tried with (one of each family: syntax, a rule list's type, a rule entry,
 * the permissions object, a guarding hook, encoding, size); the project file, the one a cloned
 * repository brings, is tried with all of them. One reader serves every scope (settings/read.ts).
 */
const CORE = [
  'a missing comma',
  'deny as a string',
  'deny with an entry that is not a string',
  'permissions as a list',
  'a PreToolUse group without "hooks"',
  'UTF-16 with a byte order mark',
  'over the 2 MiB size limit',
];
const core = CONTENT_KINDS.filter((k) => CORE.includes(k.name));
const AS_ROOT = process.getuid?.() === 0;

/** The model asks to delete the victim; once it has an answer, it is done. */
const rmVictim = () =>
  reply((req: RecordedRequest) => {
    const answered = JSON.stringify(req.body.messages ?? []).includes('tool_result');
    return answered ? reply().text('done') : reply().toolUse('Bash', { command: 'rm victim' });
  });

async function world() {
  const project = await makeTmpProject({ files: { victim: 'keep me\n' } });
  const api = await startFakeAnthropic({ whenExhausted: rmVictim() });
  const run = (args: string[]) =>
    runCli(['-p', 'delete the victim', '--dangerously-skip-permissions', ...args], {
      cwd: project.dir,
      home: project.home,
      baseUrl: api.url,
      env: { WICKET_MANAGED_SETTINGS: managedPath(project) },
    });
  return { project, api, run, close: async () => (await api.close(), await project.cleanup()) };
}

function place(file: string, kind: BrokenKind | { content: string }): void {
  mkdirSync(path.dirname(file), { recursive: true });
  if (kind.content !== undefined) writeFileSync(file, kind.content);
  else (kind as BrokenKind).make!(file);
}

type Expect = typeof import('vitest').expect;

async function expectStop(expect: Expect, scope: Scope, kind: BrokenKind): Promise<void> {
  const w = await world();
  try {
    const file = scope.file(w.project);
    place(file, kind);
    const r = await w.run(scope.args(file));
    const shown = `--- stderr ---\n${r.stderr}\n--- stdout ---\n${r.stdout}`;
    expect(r.code, shown).toBe(2);
    expect(r.stderr, shown).toContain(`${file}:${kind.at}: `);
    expect(r.stderr, shown).toContain(kind.says);
    expect(r.stderr, shown).toContain(scope.advice);
    expect(r.stdout).toBe('');
    expect(w.api.requests, 'nothing reaches the API').toHaveLength(0);
    expect(w.project.exists('victim'), 'the victim file is still there').toBe(true);
  } finally {
    await w.close();
  }
}

beforeAll(() => ensureBuilt(), 120_000);

describe('controls', { concurrent: true }, () => {
  it('with no settings, the scripted model really deletes the victim (the harness works)', async ({ expect }) => {
    const w = await world();
    try {
      const r = await w.run([]);
      expect(r.code, r.stderr).toBe(0);
      expect(w.project.exists('victim')).toBe(false);
    } finally {
      await w.close();
    }
  });

  it('a readable project file with the deny rule: rm is denied, the run goes on', async ({ expect }) => {
    const w = await world();
    try {
      place(w.project.path('.claude/settings.json'), { content: JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }) });
      const r = await w.run([]);
      expect(r.code, r.stderr).toBe(0);
      expect(w.project.exists('victim')).toBe(true);
      expect(JSON.stringify(w.api.requests.at(-1)?.body.messages)).toContain('Bash(rm:*)');
    } finally {
      await w.close();
    }
  });
});

describe('a broken project file stops print mode, whatever is broken', { concurrent: true }, () => {
  const project = SCOPES.find((s) => s.name === 'project')!;
  it.for([...CONTENT_KINDS, ...FILE_KINDS, FIFO_KIND].map((k) => [k.name, k] as const))('%s', async ([, kind], { expect }) =>
    expectStop(expect, project, kind),
  );
  it.skipIf(AS_ROOT)(UNREADABLE_KIND.name, async ({ expect }) => expectStop(expect, project, UNREADABLE_KIND));
});

for (const scope of SCOPES.filter((s) => s.name !== 'project')) {
  describe(`a broken ${scope.name} file stops print mode`, { concurrent: true }, () => {
    const kinds = [...core, ...FILE_KINDS.slice(0, 2)];
    it.for(kinds.map((k) => [k.name, k] as const))('%s', async ([, kind], { expect }) => expectStop(expect, scope, kind));
    it.skipIf(AS_ROOT)(UNREADABLE_KIND.name, async ({ expect }) => expectStop(expect, scope, UNREADABLE_KIND));
  });
}

describe('--settings JSON text that cannot be read stops print mode', { concurrent: true }, () => {
  const kinds = core.filter((k) => k.asText);
  it.for(kinds.map((k) => [k.name, k] as const))('%s', async ([, kind], { expect }) => {
    const w = await world();
    try {
      const r = await w.run(['--settings', String(kind.content)]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--settings:${kind.at}: `);
      expect(r.stderr).toContain(kind.says);
      expect(r.stdout).toBe('');
      expect(w.api.requests).toHaveLength(0);
      expect(w.project.exists('victim')).toBe(true);
    } finally {
      await w.close();
    }
  });

  it('a --settings file that does not exist', async ({ expect }) => {
    const w = await world();
    try {
      const r = await w.run(['--settings', 'nowhere.json']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${w.project.path('nowhere.json')}:1:1: no such file (given to --settings)`);
      expect(w.project.exists('victim')).toBe(true);
    } finally {
      await w.close();
    }
  });
});

describe('the forms editors write are read, and their deny rule holds', { concurrent: true }, () => {
  // every form in the project file; in the other scopes, all of them together
  const together = ACCEPTED_FORMS.at(-1)!;
  const cases = SCOPES.flatMap((scope) =>
    (scope.name === 'project' ? ACCEPTED_FORMS : [together]).map((form) => [`${form.name}, ${scope.name}`, scope, form] as const),
  );
  it.for(cases)('%s', async ([, scope, form], { expect }) => {
    const w = await world();
    try {
      const file = scope.file(w.project);
      place(file, form);
      const r = await w.run(scope.args(file));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('warning');
      expect(w.project.exists('victim'), 'the deny rule held').toBe(true);
      const last = JSON.stringify(w.api.requests.at(-1)?.body.messages);
      expect(last).toContain('tool_result');
      expect(last).toContain('Bash(rm:*)');
    } finally {
      await w.close();
    }
  });

  it('an empty file and a file of comments only are no settings, not an error', async ({ expect }) => {
    const w = await world();
    try {
      place(w.project.path('.claude/settings.json'), { content: '' });
      place(w.project.path('.claude/settings.local.json'), { content: '// nothing here yet\n' });
      place(path.join(w.project.home, '.claude', 'settings.json'), { content: JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }) });
      const r = await w.run([]);
      expect(r.code, r.stderr).toBe(0);
      expect(w.project.exists('victim')).toBe(true);
    } finally {
      await w.close();
    }
  });
});
