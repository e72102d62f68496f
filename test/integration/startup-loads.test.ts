/**
 * What one print-mode text turn loads: start-up time goes to reading and running code, so a turn that
 * only talks must not load Node's modules for hashing, processes or argument parsing, nor the
 * libraries kept in bundles of their own (dist/cli/*.cjs) for the runs that need them. A static import
 * of one of those anywhere in the main bundle loads it at every start; this test names the culprit.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const RECORDER = fileURLToPath(new URL('../fixtures/startup/record-loads.cjs', import.meta.url));

const t = useApiAndProject({
  files: {
    // an import and a comment block: the Markdown lexer's answer is cached under a hash of the text
    'CLAUDE.md': '# Project\n\nUse two spaces. See @docs/style.md\n<!-- not for the model -->\n',
    'docs/style.md': '# Style\n\nNo tabs.\n',
    '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'] }, env: { FOO: '1' } }),
    'src/a.ts': 'export const a = 1;\n',
  },
});

async function loadsOfTextTurn(): Promise<{ builtins: string[]; bundles: string[]; stderr: string }> {
  const out = path.join(t.project.home, 'loads.json');
  // a git repository, with wicket's cache folder made: the launcher's shell runs the git status
  if (!existsSync(path.join(t.project.dir, '.git'))) execFileSync('git', ['init', '-q'], { cwd: t.project.dir });
  mkdirSync(path.join(t.project.home, '.wicket', 'cache'), { recursive: true });
  t.api.script(reply().text('hello'));
  const r = await t.run(['-p', 'hi'], { asCommand: true, env: { NODE_OPTIONS: `--require ${RECORDER}`, WICKET_TEST_LOADS: out } });
  expectExit(r, 0);
  return { ...(JSON.parse(readFileSync(out, 'utf8')) as { builtins: string[]; bundles: string[] }), stderr: r.stderr };
}

describe('one print-mode text turn', () => {
  it('loads no Node module for hashing, processes, compression, threads, argument parsing or removing trees', async () => {
    const { builtins } = await loadsOfTextTurn();
    const heavy = builtins.filter((m) =>
      /^(crypto|internal\/crypto\/|child_process|zlib|worker_threads|readline|inspector|internal\/util\/parse_args\/|internal\/fs\/rimraf)/.test(m),
    );
    expect(heavy).toEqual([]);
    expect(builtins).toContain('http'); // the recorder did see the run
  });

  it('runs the main bundle and no library bundle (not JSONC, YAML, zod, MCP, Markdown, the app) once the lexer and the schema have answered', async () => {
    // the first start lexes CLAUDE.md and checks the settings file against Claude Code's schema
    const first = await loadsOfTextTurn();
    expect([...first.bundles.filter((b) => b !== 'entry')].sort()).toEqual(['main', 'marked', 'settings-schema']);
    // later starts read both answers back; plain JSON needs no JSONC parser
    const again = await loadsOfTextTurn();
    expect(again.bundles.filter((b) => b !== 'entry')).toEqual(['main']);
  });

  it('with the same settings as before, reads the schema’s findings back instead of loading the validator; other settings are checked again', async () => {
    const settings = path.join(t.project.dir, '.claude', 'settings.json');
    writeFileSync(settings, JSON.stringify({ cleanupPeriodDays: 'soon', permissions: { allow: ['Read'] } }));
    const first = await loadsOfTextTurn();
    const again = await loadsOfTextTurn();
    const warning = /"cleanupPeriodDays" must be (a|an) (number|integer)/;
    expect(first.bundles).toContain('settings-schema');
    expect(first.stderr).toMatch(warning);
    expect(again.bundles).not.toContain('settings-schema');
    expect(again.stderr).toMatch(warning);
    writeFileSync(settings, JSON.stringify({ cleanupPeriodDays: 'later', permissions: { allow: ['Read'] } }));
    expect((await loadsOfTextTurn()).bundles).toContain('settings-schema');
  });
});
