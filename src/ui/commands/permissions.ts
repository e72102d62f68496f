/**
 * /permissions: list the rules with where each comes from; `allow|ask|deny <rule>` adds one (for this
 * session and in .claude/settings.local.json); `remove <rule>` takes one out; `suggest` proposes allow
 * rules from this project's past sessions (as `wicket rules suggest`) and adds the one picked.
 */
import { parseRule, type ParsedRule } from '../../base/rule-parse.js';
import { localSettingsPath } from '../../settings/paths.js';
import { addLocalRule } from '../../settings/persist.js';
import { errorMessage } from '../../base/errors.js';
import { NOTHING_TO_SUGGEST, projectProposals, riskiestText } from '../../core/policy/suggest-text.js';
import { removeLocalRule, type RuleListName } from '../local-settings.js';
import { modeLabel } from '../StatusLine.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

const LISTS: RuleListName[] = ['deny', 'ask', 'allow'];

export const permissionsCommand: SlashCommand = {
  name: 'permissions',
  aliases: ['allowed-tools'],
  argumentHint: '[allow|ask|deny|remove <rule>|suggest]',
  description: 'List permission rules and their sources; add or remove one',
  source: 'builtin',
  run(args, s) {
    const [verb = '', ...rest] = args.trim().split(/\s+/);
    const rule = args.trim().slice(verb.length).trim();
    if (!verb) return list(s);
    if (verb === 'allow' || verb === 'ask' || verb === 'deny') return add(s, verb, rule || rest.join(' '));
    if (verb === 'remove' || verb === 'rm' || verb === 'delete') return remove(s, rule);
    if (verb === 'suggest') return suggest(s);
    return {
      kind: 'info',
      tone: 'error',
      text: `Unknown /permissions action "${verb}". Use: /permissions, /permissions allow|ask|deny <rule>, /permissions remove <rule>, /permissions suggest`,
    };
  },
};

function describe(r: ParsedRule, cwd: string): string {
  const where = r.sourcePath ? ` ${r.sourcePath.startsWith(cwd + '/') ? r.sourcePath.slice(cwd.length + 1) : r.sourcePath}` : '';
  return `    ${r.raw.padEnd(32)} ${r.source}${where}${r.error ? `  (ignored: ${r.error})` : ''}`;
}

function list(s: SessionControl): CommandResult {
  const rules = s.options.permission.rules;
  const lines = [`Mode: ${modeLabel(s.options.permission.mode)}`];
  for (const l of LISTS) {
    lines.push(`  ${l} (${rules[l].length})`);
    for (const r of rules[l]) lines.push(describe(r, s.cwd));
  }
  lines.push('', 'Add: /permissions allow|ask|deny <rule>   Remove: /permissions remove <rule>   From past sessions: /permissions suggest');
  return { kind: 'info', text: lines.join('\n') };
}

async function add(s: SessionControl, listName: RuleListName, raw: string): Promise<CommandResult> {
  if (!raw) return { kind: 'info', tone: 'error', text: `Which rule? e.g. /permissions ${listName} Bash(npm test:*)` };
  const file = localSettingsPath(s.options.projectRoot);
  const rule = parseRule(raw, 'localSettings', file);
  if (rule.error) return { kind: 'info', tone: 'error', text: `"${raw}" is not a rule: ${rule.error}` };
  const lst = s.options.permission.rules[listName];
  if (!lst.some((r) => r.raw === raw)) lst.push(rule);
  try {
    await addLocalRule(s.options.projectRoot, listName, raw);
  } catch (err) {
    return { kind: 'info', tone: 'warning', text: `Added ${listName} rule ${raw} for this session only: ${errorMessage(err)}` };
  }
  return { kind: 'info', text: `Added ${listName} rule ${raw} (saved to ${file})` };
}

function remove(s: SessionControl, raw: string): CommandResult {
  if (!raw) return { kind: 'info', tone: 'error', text: 'Which rule? e.g. /permissions remove Bash(npm test:*)' };
  const found: Array<{ list: RuleListName; rule: ParsedRule }> = [];
  for (const l of LISTS) {
    const lst = s.options.permission.rules[l];
    for (let i = lst.length - 1; i >= 0; i--) {
      if (lst[i]!.raw.trim() === raw) found.push({ list: l, rule: lst.splice(i, 1)[0]! });
    }
  }
  if (!found.length) return { kind: 'info', tone: 'error', text: `No rule ${raw}. /permissions lists them.` };
  const notes: string[] = [];
  for (const f of found) {
    if (f.rule.source === 'localSettings' || f.rule.source === 'session') {
      const r = removeLocalRule(s.options.projectRoot, f.list, raw);
      notes.push(r.ok ? `Removed ${f.list} rule ${raw}${r.changed ? ` from ${r.file}` : ''}` : `Removed ${f.list} rule ${raw} for this session; ${r.error}`);
    } else {
      notes.push(`Removed ${f.list} rule ${raw} for this session; it is still in ${f.rule.sourcePath ?? f.rule.source} and comes back next time`);
    }
  }
  return { kind: 'info', text: notes.join('\n') };
}

/** Allow rules mined from the project's past sessions; the one picked is added as /permissions allow adds it. */
async function suggest(s: SessionControl): Promise<CommandResult> {
  const where = { cwd: s.options.projectRoot, env: { ...s.options.env, HOME: s.options.homeDir } };
  const found = await projectProposals(where);
  if (found.errors.length) return { kind: 'info', tone: 'error', text: `A settings file cannot be read; fix it first:\n${found.errors.join('\n')}` };
  if (!found.proposals.length) return { kind: 'info', text: NOTHING_TO_SUGGEST };
  return {
    kind: 'pick',
    title:
      'Allow rules approved calls suggest (count of approved calls; check the riskiest call first: the rule allows it without asking). Enter adds one to .claude/settings.local.json, Esc adds none.',
    options: found.proposals.map((p) => ({ label: `${p.rule}  (${p.count}×)`, value: p.rule, description: `riskiest: ${riskiestText(p)}` })),
    pick: (rule) => add(s, 'allow', rule),
  };
}
