/**
 * Broken settings files of every kind found in real projects (corpus/malformed.tsv). A file that
 * cannot be read as settings (not JSON(C), a guarding key of the wrong type, a deny rule that is not a
 * rule, a PreToolUse hook that cannot be read) is left out whole and reported as an error naming
 * file:line:column: a session stops on it. Comments and trailing commas are accepted (JSONC). Every
 * other problem is one warning naming the file, and the rest of the file applies.
 */
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problemLine } from '../../../src/settings/problem.js';
import { load, makeDirs, SETTINGS_FIXTURES, writeJson, type Dirs } from './helpers.js';

const BROKEN = path.join(SETTINGS_FIXTURES, 'broken');
const VALID = path.join(SETTINGS_FIXTURES, 'valid');

type Outcome = 'stop' | 'warn' | 'accept';

/** fixture → [corpus kind, outcome, text: for a stop "line:column: problem", for a warning what it contains]. */
const EXPECTED: Record<string, [string, Outcome, string]> = {
  'trailing-comma.json': ['invalid-json', 'accept', ''],
  'comment.json': ['invalid-json', 'accept', ''],
  'single-quotes.json': ['invalid-json', 'stop', '1:3: strings and property names must use double quotes'],
  'unterminated-string.json': ['invalid-json', 'stop', '1:12: unterminated string: the closing double quote is missing'],
  'missing-comma.json': ['invalid-json', 'stop', '3:3: expected "," before "theme" (a comma is missing)'],
  'top-level-array.json': ['invalid-json', 'stop', '1:1: the top level must be a JSON object ({ … }), found an array'],
  'model-object.json': ['type-error', 'warn', '"model" must be a string, found an object'],
  'env-numbers.json': ['type-error', 'warn', 'env has 2 non-string value(s) (MAX_THINKING_TOKENS, DEBUG)'],
  'env-object-value.json': ['type-error', 'warn', 'env value(s) for NESTED are not strings'],
  'permissions-array.json': ['type-error', 'stop', '1:18: permissions must be an object, found a list'],
  'allow-string.json': ['type-error', 'stop', '1:29: permissions.allow must be a list of rule strings, found a string ("Bash(npm test:*)")'],
  'cleanup-days-string.json': ['type-error', 'warn', '"cleanupPeriodDays" must be an integer, found a string'],
  'additional-dirs-bad.json': ['type-error', 'warn', 'additionalDirectories holds entries that are not paths'],
  'defaultmode-top-level.json': ['misplaced-key', 'warn', '"defaultMode" at top level belongs under "permissions"'],
  'disable-bypass-top-level.json': ['misplaced-key', 'warn', '"disableBypassPermissionsMode" at top level belongs under "permissions"'],
  'hook-event-top-level.json': ['misplaced-key', 'warn', 'hook event "PostToolUse" at top level belongs under "hooks"'],
  'env-var-top-level.json': ['misplaced-key', 'warn', 'environment-variable-like key "MAX_THINKING_TOKENS" at top level'],
  'hooks-empty-object.json': ['hook-shape', 'warn', '"hooks" is an empty object'],
  'hook-event-empty-array.json': ['hook-shape', 'warn', 'hooks.SessionStart is an empty array'],
  'hook-group-without-hooks.json': [
    'hook-shape',
    'stop',
    '1:29: hooks.PreToolUse[0]: matcher group has no "hooks" array (command placed directly on the group',
  ],
  'hook-unknown-field.json': ['hook-shape', 'warn', 'hooks.Stop handler has unrecognised field(s): description'],
  'hook-unknown-type.json': ['hook-shape', 'warn', 'hooks of type "bash" are not supported'],
  'hook-unknown-event.json': ['hook-shape', 'warn', 'hooks.PreToolUs: unknown hook event'],
  'hook-unsupported-event.json': ['hook-shape', 'warn', 'hooks.TeammateIdle: wicket does not fire this event'],
  'hook-bad-regex.json': ['hook-shape', 'stop', '1:42: hooks.PreToolUse[0].matcher "Bash(" is not a valid regular expression'],
  'hook-no-command.json': ['hook-shape', 'stop', '1:60: hooks.PreToolUse[0].hooks[0]: "command" must be a non-empty string'],
  'hooks-array.json': ['hook-shape', 'stop', '1:12: hooks must be an object, found a list'],
  'hook-timeout-ms.json': ['suspicious-timeout', 'warn', 'timeout 5000 (seconds) - probably meant milliseconds'],
  'rule-spaces-inside.json': ['rule-syntax', 'warn', 'permissions.deny: 1 rule with spaces just inside the parentheses (trimmed)'],
  'rule-text-after-paren.json': [
    'rule-syntax',
    'stop',
    '1:29: permissions.deny[0] "Bash(git checkout .)*" cannot be read as a rule: text after the closing parenthesis',
  ],
  'rule-multiline.json': ['rule-syntax', 'warn', 'spanning several lines'],
  'rule-missing-paren.json': ['rule-syntax', 'stop', '1:29: permissions.deny[0] "Bash(rm -rf" cannot be read as a rule: missing closing parenthesis'],
  'rule-not-string.json': ['rule-syntax', 'warn', 'entries that are not strings (ignored): "42"'],
  'rule-unknown-tool.json': ['unknown-tool', 'warn', 'unknown tool name "Fetch"'],
  'rule-star-in-allow.json': ['ineffective-rule', 'warn', 'with a tool-name glob, honoured only in deny/ask (ignored): "*"'],
  'rule-write-path.json': ['ineffective-rule', 'warn', 'with a path rule on Write (only Read(...)/Edit(...) path rules are consulted'],
  'rule-conflict.json': ['conflicting-rule', 'warn', '1 rule appear in both allow and deny (deny wins)'],
  'rule-duplicate.json': ['duplicate-rule', 'warn', 'permissions.allow: 2 duplicate entries (kept once)'],
  'unknown-key-mcpservers.json': ['unknown-key', 'warn', 'top-level key "mcpServers": MCP servers are configured in .mcp.json'],
  'unknown-key-systemprompt.json': ['unknown-key', 'warn', 'top-level key "systemPrompt"'],
  'unknown-permissions-key.json': ['unknown-key', 'warn', 'permissions.allowPathRegex is not a known permissions key'],
  'default-mode-invalid.json': [
    'type-error',
    'stop',
    '1:35: permissions.defaultMode must be one of "default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", found a string ("yolo")',
  ],
  'default-mode-auto.json': ['type-error', 'warn', 'permissions.defaultMode "auto" is not available in wicket; default is used'],
  'default-mode-bypass.json': ['type-error', 'warn', '"bypassPermissions" is not honoured from a shared project file'],
};

const byOutcome = (o: Outcome) =>
  Object.entries(EXPECTED)
    .filter(([, [, outcome]]) => outcome === o)
    .map(([file, [, , text]]) => [file, text] as const);

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

describe('broken settings files', () => {
  it('every fixture has an expectation, and every expectation a fixture', () => {
    expect(readdirSync(BROKEN).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  const withUserDeny = (file: string) => {
    copyFileSync(path.join(BROKEN, file), d.projectFile);
    writeJson(d.userFile, { permissions: { deny: ['Bash(rm:*)'] }, model: 'user-model' });
    return load(d);
  };

  it.each(byOutcome('stop'))('%s: an error at file:line:column, and nothing of the file is used', (file, text) => {
    const l = withUserDeny(file);
    expect(l.errors.map(problemLine), l.warnings.join('\n')).toEqual([expect.stringContaining(`${d.projectFile}:${text}`)]);
    expect(l.sources.find((s) => s.source === 'projectSettings')).toMatchObject({ loaded: false, unreadable: true });
    expect(l.warnings.filter((w) => w.includes(d.projectFile))).toEqual([]);
    expect(l.rules.allow.concat(l.rules.ask, l.rules.deny).filter((r) => r.source === 'projectSettings')).toEqual([]);
    expect(l.hooks).toEqual([]);
    // the other sources are read as ever (the session, not the loader, stops)
    expect(l.rules.deny.some((r) => r.raw === 'Bash(rm:*)' && r.source === 'userSettings')).toBe(true);
  });

  it.each(byOutcome('warn'))('%s: one warning naming the file, no error', (file, text) => {
    const l = withUserDeny(file);
    expect(l.errors).toEqual([]);
    expect(l.warnings, l.warnings.join('\n')).toHaveLength(1);
    expect(l.warnings[0]).toContain(d.projectFile);
    expect(l.warnings[0]).toContain(text);
    expect(l.rules.deny.some((r) => r.raw === 'Bash(rm:*)' && r.source === 'userSettings')).toBe(true);
  });

  it.each(byOutcome('accept'))('%s: read as JSONC, with no warning', (file) => {
    const l = withUserDeny(file);
    expect(l.errors).toEqual([]);
    expect(l.warnings).toEqual([]);
    expect(l.sources.find((s) => s.source === 'projectSettings')?.loaded).toBe(true);
  });

  it('the JSONC files apply what they say', () => {
    copyFileSync(path.join(BROKEN, 'trailing-comma.json'), d.projectFile);
    expect(load(d).rules.allow.map((r) => r.raw)).toEqual(['Read']);
    copyFileSync(path.join(BROKEN, 'comment.json'), d.projectFile);
    expect(load(d).model).toBe('opus');
  });

  it('covers every problem kind seen in the corpus', () => {
    const kinds = new Set(Object.values(EXPECTED).map(([kind]) => kind));
    for (const kind of [
      'invalid-json',
      'type-error',
      'misplaced-key',
      'hook-shape',
      'suspicious-timeout',
      'rule-syntax',
      'unknown-tool',
      'ineffective-rule',
      'conflicting-rule',
      'duplicate-rule',
      'unknown-key',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it('a broken hook of an event that cannot refuse anything is left out with a warning; the rest of the file applies', () => {
    writeJson(d.projectFile, {
      permissions: { deny: ['Read(./.env)'] },
      hooks: {
        PostToolUse: [
          { matcher: 'Bash', command: './misplaced.sh' },
          { matcher: 'Edit', hooks: [{ type: 'command', command: './good.sh' }] },
        ],
      },
    });
    const l = load(d);
    expect(l.errors).toEqual([]);
    expect(l.rules.deny.map((r) => r.raw)).toEqual(['Read(./.env)']);
    expect(l.hooks.map((g) => (g.hooks[0] as { command?: string } | undefined)?.command)).toEqual(['./good.sh']);
  });

  it('a broken PreToolUse hook (it could be one that refuses calls) makes the whole file an error', () => {
    writeJson(d.projectFile, {
      permissions: { deny: ['Read(./.env)'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', command: './guard.sh' },
          { matcher: 'Edit', hooks: [{ type: 'command', command: './good.sh' }] },
        ],
      },
    });
    const l = load(d);
    expect(l.errors.map(problemLine)).toEqual([
      expect.stringMatching(new RegExp(`^${d.projectFile.replace(/[.]/g, '\\.')}:\\d+:\\d+: hooks\\.PreToolUse\\[0\\]: matcher group has no "hooks" array`)),
    ]);
    expect(l.rules.deny).toEqual([]);
    expect(l.hooks).toEqual([]);
  });
});

describe('valid settings files', () => {
  it.each(readdirSync(VALID))('%s loads with no warning', (file) => {
    copyFileSync(path.join(VALID, file), d.projectFile);
    const l = load(d);
    expect(l.warnings).toEqual([]);
    expect(l.sources.find((s) => s.source === 'projectSettings')?.loaded).toBe(true);
  });

  it('the reference example: rules, mode, directories, hooks, env', () => {
    copyFileSync(path.join(VALID, 'reference-example.json'), d.projectFile);
    const l = load(d);
    expect(l.defaultMode).toBe('acceptEdits');
    expect(l.rules.allow).toHaveLength(6);
    expect(l.rules.ask.map((r) => r.raw)).toEqual(['Bash(git push *)']);
    expect(l.rules.deny).toHaveLength(5);
    expect(l.additionalDirectories).toEqual([path.join(d.root, 'shared-lib')]);
    expect(l.env).toEqual({ NODE_ENV: 'development' });
    expect(l.hooks.map((g) => [g.event, g.matcher])).toEqual([
      ['PostToolUse', 'Edit|Write'],
      ['Stop', undefined],
    ]);
    expect(l.hooks[1]?.hooks[0]?.timeout).toBe(300);
  });

  it('a UTF-8 byte order mark is accepted', () => {
    copyFileSync(path.join(VALID, 'bom.json'), d.projectFile);
    expect(load(d).model).toBe('sonnet');
  });
});
