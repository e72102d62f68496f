/**
 * Broken settings files of every kind found in real projects (corpus/malformed.tsv): each loads
 * without a crash and gives exactly one warning naming the file and what is wrong; the other sources
 * still apply.
 */
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { load, makeDirs, SETTINGS_FIXTURES, writeJson, type Dirs } from './helpers.js';

const BROKEN = path.join(SETTINGS_FIXTURES, 'broken');
const VALID = path.join(SETTINGS_FIXTURES, 'valid');

/** fixture → [corpus kind, text the one warning must contain]. */
const EXPECTED: Record<string, [string, string | RegExp]> = {
  'trailing-comma.json': ['invalid-json', 'invalid JSON at line 4, column 3: trailing comma before "}"'],
  'comment.json': ['invalid-json', 'line 1, column 1: comments are not allowed in JSON'],
  'single-quotes.json': ['invalid-json', 'strings must use double quotes'],
  'unterminated-string.json': ['invalid-json', 'line 1, column 17: unescaped control character (e.g. a raw newline) in a string'],
  'missing-comma.json': ['invalid-json', 'line 3, column 3: expected "," or "}" after a property value'],
  'top-level-array.json': ['invalid-json', 'the top level must be a JSON object, found an array'],
  'model-object.json': ['type-error', '"model" must be a string, found an object'],
  'env-numbers.json': ['type-error', 'env has 2 non-string value(s) (MAX_THINKING_TOKENS, DEBUG)'],
  'env-object-value.json': ['type-error', 'env value(s) for NESTED are not strings'],
  'permissions-array.json': ['type-error', '"permissions" must be an object, found an array'],
  'allow-string.json': ['type-error', 'permissions.allow must be an array, found a string'],
  'cleanup-days-string.json': ['type-error', '"cleanupPeriodDays" must be a number, found a string'],
  'additional-dirs-bad.json': ['type-error', 'additionalDirectories holds entries that are not paths'],
  'defaultmode-top-level.json': ['misplaced-key', '"defaultMode" at top level belongs under "permissions"'],
  'disable-bypass-top-level.json': ['misplaced-key', '"disableBypassPermissionsMode" at top level belongs under "permissions"'],
  'hook-event-top-level.json': ['misplaced-key', 'hook event "PostToolUse" at top level belongs under "hooks"'],
  'env-var-top-level.json': ['misplaced-key', 'environment-variable-like key "MAX_THINKING_TOKENS" at top level'],
  'hooks-empty-object.json': ['hook-shape', '"hooks" is an empty object'],
  'hook-event-empty-array.json': ['hook-shape', 'hooks.SessionStart is an empty array'],
  'hook-group-without-hooks.json': ['hook-shape', 'matcher group has no "hooks" array (command placed directly on the group'],
  'hook-unknown-field.json': ['hook-shape', 'hooks.Stop handler has unrecognised field(s): description'],
  'hook-unknown-type.json': ['hook-shape', 'hooks of type "bash" are not supported'],
  'hook-unknown-event.json': ['hook-shape', 'hooks.PreToolUs: unknown hook event'],
  'hook-unsupported-event.json': ['hook-shape', 'hooks.TeammateIdle: wicket does not fire this event'],
  'hook-bad-regex.json': ['hook-shape', 'matcher "Bash(" is not a valid regular expression'],
  'hook-no-command.json': ['hook-shape', '"command" must be a non-empty string'],
  'hooks-array.json': ['hook-shape', '"hooks" must be an object, found an array'],
  'hook-timeout-ms.json': ['suspicious-timeout', 'timeout 5000 (seconds) - probably meant milliseconds'],
  'rule-spaces-inside.json': ['rule-syntax', 'permissions.deny: 1 rule with spaces just inside the parentheses (trimmed)'],
  'rule-text-after-paren.json': ['rule-syntax', 'permissions.deny: 1 rule with text after the closing parenthesis (ignored): "Bash(git checkout .)*"'],
  'rule-multiline.json': ['rule-syntax', 'spanning several lines'],
  'rule-missing-paren.json': ['rule-syntax', 'cannot be parsed: missing closing parenthesis'],
  'rule-not-string.json': ['rule-syntax', 'entries that are not strings (ignored): "42"'],
  'rule-unknown-tool.json': ['unknown-tool', 'unknown tool name "Fetch"'],
  'rule-star-in-allow.json': ['ineffective-rule', 'with a tool-name glob, honoured only in deny/ask (ignored): "*"'],
  'rule-write-path.json': ['ineffective-rule', 'with a path rule on Write (only Read(...)/Edit(...) path rules are consulted'],
  'rule-conflict.json': ['conflicting-rule', '1 rule appear in both allow and deny (deny wins)'],
  'rule-duplicate.json': ['duplicate-rule', 'permissions.allow: 2 duplicate entries (kept once)'],
  'unknown-key-mcpservers.json': ['unknown-key', 'top-level key "mcpServers": MCP servers are configured in .mcp.json'],
  'unknown-key-systemprompt.json': ['unknown-key', 'top-level key "systemPrompt"'],
  'unknown-permissions-key.json': ['unknown-key', 'permissions.allowPathRegex is not a known permissions key'],
  'default-mode-invalid.json': ['type-error', 'permissions.defaultMode "yolo" is not a permission mode'],
  'default-mode-auto.json': ['type-error', 'permissions.defaultMode "auto" is not available in wicket'],
  'default-mode-bypass.json': ['type-error', '"bypassPermissions" is not honoured from a shared project file'],
};

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

describe('broken settings files', () => {
  it('every fixture has an expectation, and every expectation a fixture', () => {
    expect(readdirSync(BROKEN).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s: one warning naming the file', (file, [, text]) => {
    copyFileSync(path.join(BROKEN, file), d.projectFile);
    writeJson(d.userFile, { permissions: { deny: ['Bash(rm:*)'] }, model: 'user-model' });
    const l = load(d);
    expect(l.warnings, l.warnings.join('\n')).toHaveLength(1);
    expect(l.warnings[0]).toContain(d.projectFile);
    if (typeof text === 'string') expect(l.warnings[0]).toContain(text);
    else expect(l.warnings[0]).toMatch(text);
    // the other sources still apply
    expect(l.rules.deny.some((r) => r.raw === 'Bash(rm:*)' && r.source === 'userSettings')).toBe(true);
  });

  it('covers every problem kind seen in the corpus', () => {
    const kinds = new Set(Object.values(EXPECTED).map(([kind]) => kind));
    for (const kind of ['invalid-json', 'type-error', 'misplaced-key', 'hook-shape', 'suspicious-timeout', 'rule-syntax', 'unknown-tool', 'ineffective-rule', 'conflicting-rule', 'duplicate-rule', 'unknown-key']) {
      expect(kinds).toContain(kind);
    }
  });

  it('a file with a broken hook still applies its rules and its good hooks', () => {
    writeJson(d.projectFile, {
      permissions: { deny: ['Read(./.env)'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', command: './misplaced.sh' },
          { matcher: 'Edit', hooks: [{ type: 'command', command: './good.sh' }] },
        ],
      },
    });
    const l = load(d);
    expect(l.rules.deny.map((r) => r.raw)).toEqual(['Read(./.env)']);
    expect(l.hooks.map((g) => (g.hooks[0] as { command?: string } | undefined)?.command)).toEqual(['./good.sh']);
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
