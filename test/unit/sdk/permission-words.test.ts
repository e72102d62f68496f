// The words of a can_use_tool request, as an SDK host shows them: Claude Code's subtitle (a Bash
// call's description, a file tool's path relative to the working directory), and a title that says
// what the call will do; plus the fields that tell a host what it may offer.
import { describe, expect, it } from 'vitest';
import { emptyRules, type PermissionRequest } from '../../../src/base/permission-types.js';
import { requestBody } from '../../../src/sdk/can-use-tool.js';
import { permissionWords } from '../../../src/sdk/permission-words.js';

const ask = (toolName: string, input: Record<string, unknown>, extra: Partial<PermissionRequest> = {}): PermissionRequest => ({
  toolUseId: 'toolu_1',
  toolName,
  input,
  summary: `${toolName} call`,
  reason: 'it asks (tool default)',
  suggestions: [],
  ruleCanAllow: true,
  askedBy: 'tool default',
  ...extra,
});

describe('permission words', () => {
  it('file tools: the path relative to the working directory inside it, absolute outside', () => {
    expect(permissionWords(ask('Write', { file_path: '/p/out/x.txt', content: 'x' }), '/p')).toEqual({
      display_name: 'Write',
      title: 'Write out/x.txt',
      description: 'out/x.txt',
    });
    expect(permissionWords(ask('Read', { file_path: '/elsewhere/notes.txt' }), '/p')).toMatchObject({
      title: 'Read /elsewhere/notes.txt',
      description: '/elsewhere/notes.txt',
    });
    expect(permissionWords(ask('Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }), '/p').title).toBe('Edit src/a.ts');
  });

  it('Bash without a description: its command, on one line and cut short; WebFetch names the host', () => {
    const long = `echo ${'x'.repeat(300)}\necho done`;
    const words = permissionWords(ask('Bash', { command: long }), '/p');
    expect(words.description.length).toBeLessThanOrEqual(160);
    expect(words.description).not.toContain('\n');
    expect(words.title.startsWith('Run the command: echo xxx')).toBe(true);
    expect(permissionWords(ask('WebFetch', { url: 'https://example.com/a?b=1', prompt: 'p' }), '/p').title).toBe('Fetch content from example.com');
    expect(permissionWords(ask('Custom', {}), '/p').title).toBe('Use Custom: Custom call');
  });

  it('a protected path: only a person may pass it; AskUserQuestion is the interaction itself', () => {
    const target = { permission: { mode: 'default' as const, rules: emptyRules() }, additionalDirs: [], projectRoot: '/p', cwd: '/p' };
    const prot = requestBody(ask('Edit', { file_path: '/p/.git/config' }, { ruleCanAllow: false, askedBy: 'protected path' }), target);
    expect(prot).toMatchObject({
      decision_reason_type: 'safetyCheck',
      classifier_approvable: false,
      suppress_always_allow_rule: true,
      title: 'Edit .git/config',
    });
    const question = requestBody(ask('AskUserQuestion', { questions: [] }), target);
    expect(question).toMatchObject({ requires_user_interaction: true, title: 'Answer a question' });
    expect(requestBody(ask('Read', { file_path: '/p/a' }), target).requires_user_interaction).toBeUndefined();
  });
});
