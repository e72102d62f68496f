/**
 * The real-world corpus (test/fixtures/settings/corpus, 300 projects' settings, aggregated): every
 * rule parses or warns, every key and type loads without a crash, every hook matcher and timeout seen
 * is handled, and every rule can be evaluated against real calls without an exception.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matcherProblem, parseHooksConfig } from '../../../src/settings/hooks.js';
import { SUPPORTED_HOOK_EVENTS } from '../../../src/base/hook-config.js';
import { matcherMatches } from '../../../src/hooks/matcher.js';
import { collectRules, isKnownToolName } from '../../../src/settings/rules.js';
import { decide, loadWorldSettings, makeWorld, type World } from '../permissions/world.js';
import { load, makeDirs, SETTINGS_FIXTURES, writeJson, type Dirs } from './helpers.js';

const CORPUS = path.join(SETTINGS_FIXTURES, 'corpus');

function tsv(name: string): string[][] {
  return readFileSync(path.join(CORPUS, name), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('\t'));
}

type List = 'allow' | 'ask' | 'deny';
const RULES: Array<{ rule: string; list: List }> = tsv('permission-rules.tsv').map(([raw, list]) => ({
  rule: JSON.parse(`"${raw}"`) as string,
  list: list as List,
}));

describe('corpus: permission rules', () => {
  it('has every rule/list pair of the corpus', () => {
    expect(RULES.length).toBeGreaterThan(2900);
    expect(new Set(RULES.map((r) => r.list))).toEqual(new Set(['allow', 'ask', 'deny']));
  });

  it('every rule parses, or its file gets a warning that names it', () => {
    const silentFailures: string[] = [];
    for (const { rule, list } of RULES) {
      const { rules, warnings } = collectRules({ [list]: [rule] }, 'projectSettings', '/p/.claude/settings.json', 'settings.json');
      const parsed = rules[list][0]!;
      const unknown = !parsed.error && !isKnownToolName(parsed.toolName);
      if ((parsed.error || unknown) && !warnings.some((w) => w.includes(JSON.stringify(rule.length > 80 ? `${rule.slice(0, 77)}...` : rule)))) {
        silentFailures.push(`${list}: ${rule}`);
      }
    }
    expect(silentFailures).toEqual([]);
  });

  it('the odd rules named in the corpus README each warn', () => {
    const odd = ['*', 'Base(cd:*)', 'Fetch(*)', 'Web Search(*)', 'chmod(**)', 'Update', 'Bash(rm -r /)*', 'Bash(git checkout .)*'];
    for (const rule of odd) {
      const { warnings } = collectRules({ allow: [rule] }, 'projectSettings', undefined, 'f');
      expect(warnings, rule).toHaveLength(1);
    }
  });

  it('keeps multi-line heredoc rules as exact commands', () => {
    const multi = RULES.filter((r) => r.rule.includes('\n'));
    expect(multi.length).toBeGreaterThan(0);
    for (const { rule, list } of multi) {
      const { rules } = collectRules({ [list]: [rule] }, 'localSettings', undefined, 'f');
      expect(rules[list][0]?.error).toBeUndefined();
    }
  });
});

describe('corpus: every rule evaluated against real calls', () => {
  let world: World;
  beforeAll(() => {
    world = makeWorld();
  });
  afterAll(() => world.cleanup());

  const calls: Array<[string, Record<string, unknown>]> = [
    ['Read', { file_path: '{P}/.env' }],
    ['Read', { file_path: '{H}/.ssh/id_rsa' }],
    ['Edit', { file_path: '{P}/src/a.ts', old_string: 'a', new_string: 'b' }],
    ['Write', { file_path: '{P}/secrets/key.pem', content: 'x' }],
    ['Grep', { pattern: 'x', path: '{P}' }],
    ['Bash', { command: 'git push --force && rm -rf /' }],
    ['WebFetch', { url: 'https://github.com/x', prompt: 'p' }],
    ['mcp__github__get_issue', {}],
  ];

  /** The corpus's deny and ask entries that cannot be read as rules: a file holding one is an error (a deny rule is never dropped quietly). */
  const UNREADABLE = ['Bash(git checkout .)*', 'Bash(rm -r /)*'];

  it('a file with every deny rule of the corpus is an error naming exactly the two that are not rules, each at its line and column', () => {
    const deny = RULES.filter((r) => r.list === 'deny').map((r) => r.rule);
    const loaded = loadWorldSettings(world, { project: { permissions: { deny } } });
    const messages = loaded.errors.map((e) => e.message);
    expect(messages).toHaveLength(UNREADABLE.length);
    for (const r of UNREADABLE)
      expect(messages).toContainEqual(expect.stringContaining(`${JSON.stringify(r)} cannot be read as a rule: text after the closing parenthesis`));
    // written with two-space indentation: the entry at index i is on line i + 4, column 7
    const places = UNREADABLE.map((r) => ({ file: path.join(world.project, '.claude/settings.json'), line: deny.indexOf(r) + 4, column: 7 }));
    expect(loaded.errors.map(({ file, line, column }) => ({ file, line, column }))).toEqual(expect.arrayContaining(places));
    expect(loaded.rules.deny).toEqual([]);
  });

  it.each(['allow', 'ask', 'deny'] as const)(
    'all %s rules at once (the two that are not rules left out): no exception, a decision for every call',
    async (list) => {
      const rules = RULES.filter((r) => r.list === list && !UNREADABLE.includes(r.rule)).map((r) => r.rule);
      const loaded = loadWorldSettings(world, { project: { permissions: { [list]: rules } } });
      expect(loaded.errors).toEqual([]);
      expect(loaded.rules[list].length).toBeGreaterThan(0);
      for (const [tool, input] of calls) {
        for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
          const decision = await decide(world, loaded, tool, input, mode);
          expect(['allow', 'ask', 'deny']).toContain(decision.behavior);
        }
      }
    },
  );

  it('with all deny rules, the common secret reads are denied', async () => {
    const loaded = loadWorldSettings(world, {
      project: { permissions: { deny: RULES.filter((r) => r.list === 'deny' && !UNREADABLE.includes(r.rule)).map((r) => r.rule) } },
    });
    expect((await decide(world, loaded, 'Read', { file_path: '{P}/.env' }, 'bypassPermissions')).behavior).toBe('deny');
  });
});

/** A value of the given JSON type, for key-shape tests. */
function sample(type: string): unknown {
  return { object: {}, array: [], string: 'x', number: 1, boolean: true, null: null }[type];
}

describe('corpus: settings keys', () => {
  let d: Dirs;
  beforeAll(() => {
    d = makeDirs();
  });
  afterAll(() => d.cleanup());
  const keys = tsv('settings-keys.tsv');

  it('every top-level key with every type seen loads without a crash', () => {
    for (const [key, depth, , types] of keys) {
      if (depth !== '1') continue;
      for (const t of types!.split(';').map((x) => x.split(':')[0]!)) {
        writeJson(d.projectFile, { [key!]: sample(t) });
        const l = load(d);
        expect(l.sources.find((s) => s.source === 'projectSettings')?.loaded, `${key}: ${t}`).toBe(true);
      }
    }
  });

  it('one file with every key seen (first type) loads, keeping the unknown keys', () => {
    const data: Record<string, unknown> = {};
    for (const [key, depth, , types] of keys) if (depth === '1') data[key!] = sample(types!.split(':')[0]!);
    for (const [keyPath, depth, , types] of keys) {
      if (depth !== '2') continue;
      const [top, sub] = keyPath!.split('.');
      if (typeof data[top!] === 'object' && data[top!] !== null && !Array.isArray(data[top!])) {
        (data[top!] as Record<string, unknown>)[sub!] = sample(types!.split(':')[0]!);
      }
    }
    // The corpus keeps types, not values: a mode must be a mode (a made-up one is an error, malformed.test.ts).
    (data.permissions as Record<string, unknown>).defaultMode = 'acceptEdits';
    writeJson(d.projectFile, data);
    const l = load(d);
    expect(l.errors).toEqual([]);
    expect(typeof l.merged.enabledPlugins).toBe('object');
    expect(l.merged.voiceEnabled).toBe(true);
    expect(l.warnings.every((w) => w.startsWith(d.projectFile))).toBe(true);
  });
});

interface HookShape {
  known_event: boolean;
  matchers: Record<string, number>;
  timeouts_seconds: Record<string, number>;
}

describe('corpus: hook shapes', () => {
  const shapes = JSON.parse(readFileSync(path.join(CORPUS, 'hook-shapes.json'), 'utf8')) as { events: Record<string, HookShape> };

  it.each(Object.entries(shapes.events))('%s: every matcher and timeout seen', (event, shape) => {
    const matchers = Object.keys(shape.matchers).filter((m) => m !== '<absent>');
    for (const m of matchers) expect(matcherProblem(m), m).toBeUndefined();
    const timeouts = Object.keys(shape.timeouts_seconds)
      .filter((t) => t !== '<absent>')
      .map(Number);
    const groups = [...matchers, undefined].map((matcher, i) => ({
      ...(matcher !== undefined ? { matcher } : {}),
      hooks: [{ type: 'command', command: `./hook-${i}.sh`, ...(timeouts[i] ? { timeout: timeouts[i] } : {}) }],
    }));
    const parsed = parseHooksConfig({ [event]: groups }, 'projectSettings', undefined, 'f');
    if (!(SUPPORTED_HOOK_EVENTS as readonly string[]).includes(event)) {
      expect(parsed.warnings).toEqual([expect.stringContaining('wicket does not fire this event')]);
      return;
    }
    expect(parsed.groups).toHaveLength(groups.length);
    const slow = timeouts.slice(0, groups.length).filter((t) => t >= 1000);
    expect(parsed.warnings.filter((w) => w.includes('probably meant milliseconds'))).toHaveLength(slow.length);
  });

  it('matchers as written in real files select the right tools', () => {
    expect(matcherMatches('Edit|Write', 'Write')).toBe(true);
    expect(matcherMatches('Write|Edit', 'NotebookEdit')).toBe(false);
    expect(matcherMatches('Edit|Write|MultiEdit', 'MultiEdit')).toBe(true);
    expect(matcherMatches('Bash', 'BashOutput')).toBe(false);
    expect(matcherMatches('.*', 'mcp__x__y')).toBe(true);
    expect(matcherMatches('^(startup|resume|clear|compact|fork)$', 'resume')).toBe(true);
    expect(matcherMatches('^(startup|resume|clear|compact|fork)$', 'resumed')).toBe(false);
    expect(matcherMatches('permission_prompt|elicitation_dialog', 'idle_prompt')).toBe(false);
    expect(matcherMatches('mcp__local-supabase__apply_migration', 'mcp__local-supabase__apply_migration')).toBe(true);
  });
});

describe('corpus: problem kinds', () => {
  it('every kind in malformed.tsv is one wicket reports', () => {
    const kinds = new Set(tsv('malformed.tsv').map((r) => r[2]));
    const reported = [
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
    ];
    expect([...kinds].filter((k) => !reported.includes(k!))).toEqual([]);
  });
});
