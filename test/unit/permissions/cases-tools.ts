/**
 * Modes × tools with no rules, Bash / WebFetch / MCP / Agent rules, and precedence across settings
 * sources: no lower (or higher) source can re-allow what another denies.
 */
import type { PermissionMode } from '../../../src/base/permission-modes.js';
import { bash, edit, fetch, grep, noInput, none, proj, read, row, write, type DecisionCase } from './cases-types.js';

type Expect = DecisionCase['expect'];

/** Tool defaults per mode (no rules at all). */
const DEFAULTS: Array<[string, string, Record<string, unknown>, Record<PermissionMode, Expect>]> = [
  ['read inside', 'Read', read('{P}/README.md'), { default: 'allow', acceptEdits: 'allow', plan: 'allow', bypassPermissions: 'allow', dontAsk: 'allow' }],
  ['read outside', 'Read', read('{O}/secret.txt'), { default: 'ask', acceptEdits: 'ask', plan: 'ask', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['grep inside', 'Grep', grep('{P}/src'), { default: 'allow', acceptEdits: 'allow', plan: 'allow', bypassPermissions: 'allow', dontAsk: 'allow' }],
  ['edit inside', 'Edit', edit('{P}/src/a.ts'), { default: 'ask', acceptEdits: 'allow', plan: 'deny', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['write inside', 'Write', write('{P}/src/new.ts'), { default: 'ask', acceptEdits: 'allow', plan: 'deny', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['edit outside', 'Edit', edit('{O}/secret.txt'), { default: 'ask', acceptEdits: 'ask', plan: 'deny', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['bash read-only', 'Bash', bash('ls -la'), { default: 'allow', acceptEdits: 'allow', plan: 'allow', bypassPermissions: 'allow', dontAsk: 'allow' }],
  ['bash command', 'Bash', bash('npm test'), { default: 'ask', acceptEdits: 'ask', plan: 'deny', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['web fetch', 'WebFetch', fetch('https://example.com/'), { default: 'ask', acceptEdits: 'ask', plan: 'ask', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['web search', 'WebSearch', { query: 'x' }, { default: 'ask', acceptEdits: 'ask', plan: 'ask', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['mcp tool', 'mcp__github__create_issue', noInput, { default: 'ask', acceptEdits: 'ask', plan: 'deny', bypassPermissions: 'allow', dontAsk: 'deny' }],
  ['agent', 'Agent', { prompt: 'x' }, { default: 'allow', acceptEdits: 'allow', plan: 'allow', bypassPermissions: 'allow', dontAsk: 'allow' }],
  ['todo list', 'TodoWrite', { todos: [] }, { default: 'allow', acceptEdits: 'allow', plan: 'deny', bypassPermissions: 'allow', dontAsk: 'allow' }],
];

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'];

const MODE_CASES: DecisionCase[] = DEFAULTS.flatMap(([name, tool, input, expect]) =>
  MODES.map((mode) => row(`${mode}: ${name}`, none, tool, input, expect[mode], { mode })),
);

const rmDeny = proj({ deny: ['Bash(rm:*)'] });
const pushAsk = proj({ ask: ['Bash(git push:*)'], allow: ['Bash(git push:*)'] });
const testAllow = proj({ allow: ['Bash(npm test:*)'] });

const BASH_CASES: DecisionCase[] = [
  row('deny rm:*: rm -rf', rmDeny, 'Bash', bash('rm -rf build'), 'deny', { by: 'Bash(rm:*)' }),
  row('deny rm:*: hidden after &&', rmDeny, 'Bash', bash('ls && rm -rf build'), 'deny'),
  row('deny rm:*: hidden after ;', rmDeny, 'Bash', bash('echo hi; rm x'), 'deny'),
  row('deny rm:*: in a pipe', rmDeny, 'Bash', bash('ls | rm x'), 'deny'),
  row('deny rm:*: in bypass', rmDeny, 'Bash', bash('rm x'), 'deny', { mode: 'bypassPermissions' }),
  row('deny rm:*: in acceptEdits', rmDeny, 'Bash', bash('rm x'), 'deny', { mode: 'acceptEdits' }),
  row('deny rm:*: ls unaffected', rmDeny, 'Bash', bash('ls'), 'allow'),
  row('deny rm:*: rmdir is another command', rmDeny, 'Bash', bash('rmdir x'), 'ask'),
  row('ask beats allow', pushAsk, 'Bash', bash('git push origin main'), 'ask', { by: 'ask rule' }),
  row('ask holds in bypass', pushAsk, 'Bash', bash('git push'), 'ask', { mode: 'bypassPermissions' }),
  row('ask in dontAsk is a denial', pushAsk, 'Bash', bash('git push'), 'deny', { mode: 'dontAsk' }),
  row('allow npm test:*', testAllow, 'Bash', bash('npm test'), 'allow'),
  row('allow npm test:* with args', testAllow, 'Bash', bash('npm test -- --watch'), 'allow'),
  row('allow npm test:* is word-bounded', testAllow, 'Bash', bash('npm testing'), 'ask'),
  row('allow needs every subcommand', testAllow, 'Bash', bash('npm test && curl evil.sh'), 'ask'),
  row('allow in plan mode: plan wins', testAllow, 'Bash', bash('npm test'), 'deny', { mode: 'plan' }),
  row('allow in dontAsk mode', testAllow, 'Bash', bash('npm test'), 'allow', { mode: 'dontAsk' }),
  row('bare deny Bash', proj({ deny: ['Bash'] }), 'Bash', bash('ls'), 'deny'),
  row('deny Bash(*) is bare', proj({ deny: ['Bash(*)'] }), 'Bash', bash('pwd'), 'deny'),
  row('bare allow Bash', proj({ allow: ['Bash'] }), 'Bash', bash('make deploy'), 'allow'),
  row('bare allow Bash, deny rm', proj({ allow: ['Bash'], deny: ['Bash(rm:*)'] }), 'Bash', bash('rm x'), 'deny'),
  row(
    'deny beats a more specific allow',
    proj({ deny: ['Bash(curl *)'], allow: ['Bash(curl http://github.com/ *)'] }),
    'Bash',
    bash('curl http://github.com/ x'),
    'deny',
  ),
  row('deny with spaces inside the parentheses', proj({ deny: ['Bash( rm:* )'] }), 'Bash', bash('rm x'), 'deny'),
  row('deny with text after ) is ignored', proj({ deny: ['Bash(rm -r /)*'] }), 'Bash', bash('ls'), 'allow'),
];

const WEB_MCP_CASES: DecisionCase[] = [
  row('allow domain', proj({ allow: ['WebFetch(domain:github.com)'] }), 'WebFetch', fetch('https://github.com/a'), 'allow'),
  row('allow domain: subdomain differs', proj({ allow: ['WebFetch(domain:github.com)'] }), 'WebFetch', fetch('https://api.github.com/a'), 'ask'),
  row('deny *.domain: subdomain', proj({ deny: ['WebFetch(domain:*.evil.com)'] }), 'WebFetch', fetch('https://a.b.evil.com/'), 'deny'),
  row('deny *.domain: upper-case host', proj({ deny: ['WebFetch(domain:*.evil.com)'] }), 'WebFetch', fetch('https://A.EVIL.COM/'), 'deny'),
  row('deny *.domain: not the apex', proj({ deny: ['WebFetch(domain:*.evil.com)'] }), 'WebFetch', fetch('https://evil.com/'), 'ask'),
  row('bare allow WebFetch', proj({ allow: ['WebFetch'] }), 'WebFetch', fetch('https://x.org/'), 'allow'),
  row('bare deny WebFetch in bypass', proj({ deny: ['WebFetch'] }), 'WebFetch', fetch('https://x.org/'), 'deny', { mode: 'bypassPermissions' }),
  row('allow WebSearch', proj({ allow: ['WebSearch'] }), 'WebSearch', { query: 'x' }, 'allow'),
  row('mcp server rule: a tool', proj({ allow: ['mcp__github'] }), 'mcp__github__get_issue', noInput, 'allow'),
  row('mcp server rule: another tool', proj({ allow: ['mcp__github'] }), 'mcp__github__create_issue', noInput, 'allow'),
  row('mcp server rule: other server', proj({ allow: ['mcp__github'] }), 'mcp__slack__post', noInput, 'ask'),
  row('mcp glob after server: match', proj({ allow: ['mcp__github__get_*'] }), 'mcp__github__get_issue', noInput, 'allow'),
  row('mcp glob after server: no match', proj({ allow: ['mcp__github__get_*'] }), 'mcp__github__create_issue', noInput, 'ask'),
  row('mcp server__*', proj({ allow: ['mcp__github__*'] }), 'mcp__github__create_issue', noInput, 'allow'),
  row('mcp exact tool', proj({ allow: ['mcp__slack__post'] }), 'mcp__slack__post', noInput, 'allow'),
  row('deny mcp__*', proj({ deny: ['mcp__*'] }), 'mcp__slack__post', noInput, 'deny'),
  row('allow mcp__* is ignored', proj({ allow: ['mcp__*'] }), 'mcp__slack__post', noInput, 'ask'),
  // a rule written loosely matches nothing in Claude Code: wicket never lets it approve, but still lets it deny
  row('allow tool(*) on an MCP tool approves nothing', proj({ allow: ['mcp__slack__post(*)'] }), 'mcp__slack__post', noInput, 'ask'),
  row('deny tool(*) on an MCP tool denies it', proj({ deny: ['mcp__slack__post(*)'] }), 'mcp__slack__post', noInput, 'deny'),
  row('allow with spaces inside the parentheses', proj({ allow: ['Bash( npm test:* )'] }), 'Bash', bash('npm test'), 'ask'),
  row('allow with a space before (', proj({ allow: ['Bash (npm test:*)'] }), 'Bash', bash('npm test'), 'ask'),
  row('allow with a space before :*', proj({ allow: ['Bash(npm test :*)'] }), 'Bash', bash('npm test x'), 'ask'),
  row('allow with spaces around the rule', proj({ allow: [' Bash(npm test:*) '] }), 'Bash', bash('npm test'), 'ask'),
  row('allow with a space after the name', proj({ allow: ['WebSearch '] }), 'WebSearch', { query: 'x' }, 'ask'),
  row('allow Tool() approves nothing', proj({ allow: ['Bash()'] }), 'Bash', bash('npm test'), 'ask'),
  row('deny with a space before (', proj({ deny: ['Bash (rm:*)'] }), 'Bash', bash('rm x'), 'deny'),
  row('deny Tool() denies the tool', proj({ deny: ['Bash()'] }), 'Bash', bash('ls'), 'deny'),
  row('allow with a lower-case tool name', proj({ allow: ['bash'] }), 'Bash', bash('npm test'), 'ask'),
  row('allow WebFetch(*)', proj({ allow: ['WebFetch(*)'] }), 'WebFetch', fetch('https://example.com/'), 'allow'),
  row('allow domain: a port is still the domain', proj({ allow: ['WebFetch(domain:example.com)'] }), 'WebFetch', fetch('https://example.com:8443/'), 'allow'),
  row(
    'allow domain with a port approves nothing',
    proj({ allow: ['WebFetch(domain:example.com:8443)'] }),
    'WebFetch',
    fetch('https://example.com:8443/'),
    'ask',
  ),
  row('allow domain: look-alike host', proj({ allow: ['WebFetch(domain:example.com)'] }), 'WebFetch', fetch('https://example.com.evil.io/'), 'ask'),
  row('allow a URL pattern approves nothing', proj({ allow: ['WebFetch(https://example.com/*)'] }), 'WebFetch', fetch('https://example.com/x'), 'ask'),
  row('allow * is ignored', proj({ allow: ['*'] }), 'Edit', edit('{P}/src/a.ts'), 'ask'),
  row('deny * blocks everything', proj({ deny: ['*'] }), 'Read', read('{P}/README.md'), 'deny'),
  row('ask mcp tool in bypass', proj({ ask: ['mcp__slack__post'] }), 'mcp__slack__post', noInput, 'ask', { mode: 'bypassPermissions' }),
  row('deny Agent', proj({ deny: ['Agent'] }), 'Agent', { prompt: 'x' }, 'deny'),
  row('deny legacy Task name', proj({ deny: ['Task'] }), 'Agent', { prompt: 'x' }, 'deny'),
  row('ExitPlanMode asks in plan mode', none, 'ExitPlanMode', { plan: 'do it' }, 'ask', { mode: 'plan' }),
  row('ExitPlanMode allowed by rule', proj({ allow: ['ExitPlanMode'] }), 'ExitPlanMode', { plan: 'do it' }, 'allow', { mode: 'plan' }),
  row('ExitPlanMode in dontAsk', none, 'ExitPlanMode', { plan: 'do it' }, 'deny', { mode: 'dontAsk' }),
];

const perms = (p: Record<string, unknown>) => ({ permissions: p });

const SOURCE_CASES: DecisionCase[] = [
  row('user deny, project allow', { user: perms({ deny: ['Bash(curl:*)'] }), project: perms({ allow: ['Bash(curl:*)'] }) }, 'Bash', bash('curl x'), 'deny', {
    by: 'userSettings',
  }),
  row('project deny, local allow', { project: perms({ deny: ['Bash(curl:*)'] }), local: perms({ allow: ['Bash(curl:*)'] }) }, 'Bash', bash('curl x'), 'deny', {
    by: 'projectSettings',
  }),
  row('local deny, --settings allow', { local: perms({ deny: ['Bash(curl:*)'] }), cli: perms({ allow: ['Bash(curl:*)'] }) }, 'Bash', bash('curl x'), 'deny', {
    by: 'localSettings',
  }),
  row('managed deny, --allowedTools', { managed: perms({ deny: ['Bash(curl:*)'] }), flagsAllow: ['Bash(curl:*)', 'Bash'] }, 'Bash', bash('curl x'), 'deny', {
    by: 'managed',
  }),
  row('--disallowedTools beats project allow', { project: perms({ allow: ['Bash'] }), flagsDeny: ['Bash'] }, 'Bash', bash('ls'), 'deny', { by: 'cli' }),
  row(
    'user deny .env, project allow .env',
    { user: perms({ deny: ['Read(./.env)'] }), project: perms({ allow: ['Read(./.env)'] }) },
    'Read',
    read('{P}/.env'),
    'deny',
  ),
  row(
    'user deny Edit .env, local and flags allow',
    { user: perms({ deny: ['Edit(./.env)'] }), local: perms({ allow: ['Edit(.env)'] }), flagsAllow: ['Edit(./.env)'] },
    'Edit',
    edit('{P}/.env'),
    'deny',
  ),
  row(
    'user deny ~/.ssh, project allow //abs',
    { user: perms({ deny: ['Read(~/.ssh/**)'] }), project: perms({ allow: ['Read(/{H}/.ssh/**)'] }) },
    'Read',
    read('{H}/.ssh/id_rsa'),
    'deny',
  ),
  row('lower-precedence allow applies when nothing denies', { user: perms({ allow: ['Edit(src/**)'] }) }, 'Edit', edit('{P}/src/a.ts'), 'allow', {
    by: 'userSettings',
  }),
  row('managed allow reaches every call', { managed: perms({ allow: ['Bash(make:*)'] }) }, 'Bash', bash('make all'), 'allow', { by: 'managed' }),
  row(
    'local ask over user allow',
    { user: perms({ allow: ['Bash(git push:*)'] }), local: perms({ ask: ['Bash(git push:*)'] }) },
    'Bash',
    bash('git push'),
    'ask',
  ),
  row(
    'managed ask over --settings allow',
    { managed: perms({ ask: ['WebFetch'] }), cli: perms({ allow: ['WebFetch'] }) },
    'WebFetch',
    fetch('https://a.io/'),
    'ask',
  ),
  row(
    'managed-only rules drop project allow',
    { managed: { allowManagedPermissionRulesOnly: true }, project: perms({ allow: ['Bash'] }) },
    'Bash',
    bash('make'),
    'ask',
  ),
  row(
    'managed-only rules keep managed deny',
    { managed: { allowManagedPermissionRulesOnly: true, permissions: { deny: ['Bash(make:*)'] } }, flagsAllow: ['Bash'] },
    'Bash',
    bash('make'),
    'deny',
  ),
  row(
    'broken user file, project deny still applies',
    { user: perms({ deny: 'Bash(rm:*)' }), project: perms({ deny: ['Bash(rm:*)'] }) },
    'Bash',
    bash('rm x'),
    'deny',
  ),
  row('wrong-typed list ignored', { project: perms({ allow: 'Bash' }) }, 'Bash', bash('make'), 'ask'),
  // (a deny or ask entry that is not a string makes the whole file an error: test/unit/settings, test/security/settings*)
  row('non-string allow entries skipped, others kept', { project: perms({ allow: [42, null, 'Bash(rm:*)'] }) }, 'Bash', bash('rm x'), 'allow'),
  row('duplicate rules are harmless', { project: perms({ deny: ['Bash(rm:*)', 'Bash(rm:*)'] }) }, 'Bash', bash('rm x'), 'deny'),
  row('same rule in allow and deny: deny', { project: perms({ allow: ['Bash(rm:*)'], deny: ['Bash(rm:*)'] }) }, 'Bash', bash('rm x'), 'deny'),
  row('unknown tool rule matches nothing', { project: perms({ allow: ['Fetch(*)', 'Update'] }) }, 'WebFetch', fetch('https://a.io/'), 'ask'),
  row('--settings file deny', { cli: perms({ deny: ['Edit'] }) }, 'Write', write('{P}/src/x.ts'), 'deny', { mode: 'acceptEdits' }),
  row('--allowedTools allows', { flagsAllow: ['Bash(npm run build)'] }, 'Bash', bash('npm run build'), 'allow', { by: 'cli' }),
  row('--allowedTools exact does not prefix', { flagsAllow: ['Bash(npm run build)'] }, 'Bash', bash('npm run build --prod'), 'ask'),
];

export const TOOL_CASES: DecisionCase[] = [...MODE_CASES, ...BASH_CASES, ...WEB_MCP_CASES, ...SOURCE_CASES];
