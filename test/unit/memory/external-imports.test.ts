/**
 * Imports from outside the working directory: left out until the person answers Claude Code's
 * question, listed for the dialog as Claude Code lists them, read once approved, and the answer kept
 * in `~/.claude.json` where Claude Code keeps it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionInstructions } from '../../../src/session/memory/session-instructions.js';
import { externalImportsAnswer, saveExternalImportsAnswer } from '../../../src/settings/external-imports.js';
import { discover, rel, tree, type Tree } from './tree.js';

function project(): Tree {
  const t = tree();
  t.write(t.project, { 'CLAUDE.md': 'Rules. @../shared/style.md\n', '.claude/rules/r.md': 'Rule @../../../shared/rule-extra.md\n' });
  t.write(path.dirname(t.project), { 'shared/style.md': 'style @deeper.md', 'shared/deeper.md': 'deeper', 'shared/rule-extra.md': 'extra' });
  t.write(t.home, { 'mine.md': 'mine' });
  t.write(t.configDir, { 'CLAUDE.md': '@~/mine.md\n' });
  return t;
}

const options = (t: Tree) => ({ cwd: t.project, home: t.home, configDir: t.configDir, managedDir: t.managed, deniedBy: () => undefined });

describe('imports from outside the working directory', () => {
  it('are left out and noted as waiting for approval; the user’s own imports are read; declined says so', () => {
    const t = project();
    const found = discover(t);
    expect(rel(t, found.files)).toEqual(['home/.claude/CLAUDE.md', 'home/mine.md', 'work/proj/CLAUDE.md', 'work/proj/.claude/rules/r.md']);
    const outside = found.skipped.filter((s) => s.external);
    expect(outside.map((s) => path.basename(s.path))).toEqual(['style.md', 'rule-extra.md']);
    expect(outside[0]!.reason).toContain('need approval, which the app asks for once per project');
    expect(discover(t, { externalDeclined: true }).skipped.find((s) => s.external)!.reason).toContain('were declined for this project');
  });

  it('a project rule linked to a file outside is asked about too, listed without an importer, and read once approved', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': 'Rules.\n' });
    t.write(t.root, { 'shared/out.md': 'outside rule\n' });
    t.link(path.join(t.root, 'shared/out.md'), path.join(t.project, '.claude/rules/out.md'));
    const s = new SessionInstructions(options(t));
    expect(s.waitsForExternalApproval()).toBe(true);
    expect(s.externalImports()).toEqual([{ path: path.join(t.root, 'shared/out.md') }]);
    s.answerExternal(true);
    expect(rel(t, s.files())).toEqual(['work/proj/CLAUDE.md', 'shared/out.md']);
  });

  it('are listed for the dialog with what imports them, nested ones included; approval reads them', () => {
    const t = project();
    const s = new SessionInstructions(options(t));
    expect(s.waitsForExternalApproval()).toBe(true);
    expect(s.externalImports().map((i) => [path.basename(i.path), path.basename(i.parent!)])).toEqual([
      ['style.md', 'CLAUDE.md'],
      ['deeper.md', 'style.md'],
      ['rule-extra.md', 'r.md'],
    ]);
    s.answerExternal(true);
    expect(s.waitsForExternalApproval()).toBe(false);
    expect(rel(t, s.files())).toContain('work/shared/deeper.md');
    const declined = new SessionInstructions(options(t));
    declined.answerExternal(false);
    expect(declined.waitsForExternalApproval()).toBe(false);
    expect(rel(t, declined.files())).not.toContain('work/shared/style.md');
    expect(new SessionInstructions({ ...options(t), externalDeclined: true }).waitsForExternalApproval()).toBe(false);
  });

  it('the answer is saved under the repository’s root, beside what else ~/.claude.json holds, and read from a subfolder', async () => {
    const t = tree();
    execFileSync('git', ['init', '-q', t.project]);
    const sub = path.join(t.project, 'pkg');
    const config = path.join(t.home, '.claude.json');
    t.write(t.home, { '.claude.json': JSON.stringify({ theme: 'dark', projects: { [t.project]: { hasTrustDialogAccepted: true } } }) });
    expect(externalImportsAnswer({ cwd: sub, home: t.home })).toEqual({ approved: false, asked: false });
    await saveExternalImportsAnswer({ cwd: sub, home: t.home }, false);
    const saved = JSON.parse(readFileSync(config, 'utf8'));
    expect(saved.theme).toBe('dark');
    expect(saved.projects[t.project]).toEqual({
      hasTrustDialogAccepted: true,
      hasClaudeMdExternalIncludesApproved: false,
      hasClaudeMdExternalIncludesWarningShown: true,
    });
    expect(externalImportsAnswer({ cwd: sub, home: t.home })).toEqual({ approved: false, asked: true });
    await saveExternalImportsAnswer({ cwd: t.project, home: t.home }, true);
    expect(externalImportsAnswer({ cwd: sub, home: t.home })).toEqual({ approved: true, asked: true });
    writeFileSync(config, '{ not json');
    expect(externalImportsAnswer({ cwd: sub, home: t.home })).toEqual({ approved: false, asked: false });
  });
});
