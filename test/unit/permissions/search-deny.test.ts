import { describe, expect, it } from 'vitest';
import { parseRule } from '../../../src/base/rule-parse.js';
import { readDenyPatterns } from '../../../src/permissions/search-deny.js';

const ctx = { projectRoot: '/p', homeDir: '/h' };
const pats = (...rules: string[]) => readDenyPatterns(rules.map((r) => parseRule(r, 'projectSettings', '/p/.claude/settings.json')), ctx);

describe('readDenyPatterns', () => {
  it('turns Read deny rules into project-relative patterns', () => {
    expect(pats('Read(./secrets/**)')).toEqual(['secrets/**', 'secrets/**/**']);
    expect(pats('Read(.env)')).toEqual(['**/.env', '**/.env/**']);
    expect(pats('Read(/config/keys.json)')).toEqual(['config/keys.json', 'config/keys.json/**']);
    expect(pats('Read(//p/private)')).toEqual(['private', 'private/**']);
    expect(pats('Read(~/x)', 'Read(//etc/passwd)')).toEqual([]);
    expect(pats('Edit(./a)', 'Read')).toEqual([]);
  });
});
