/** `--continue`: the newest session of the project; in the app, as in Claude Code's, the newest the app started. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectSessionsDir } from '../../../src/session/paths.js';
import { resumeFile } from '../../../src/session/resume.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function places() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-continue-')));
  made.push(root);
  const p = { configDir: path.join(root, '.claude'), wicketHome: path.join(root, '.wicket'), cwd: path.join(root, 'proj') };
  mkdirSync(projectSessionsDir(p.configDir, p.cwd), { recursive: true });
  return p;
}

function session(p: ReturnType<typeof places>, id: string, entrypoint: string, ageS: number): string {
  const file = path.join(projectSessionsDir(p.configDir, p.cwd), `${id}.jsonl`);
  const record = { type: 'user', message: { role: 'user', content: 'hi' }, uuid: `u-${id}`, parentUuid: null, sessionId: id, entrypoint, cwd: p.cwd };
  writeFileSync(file, `${JSON.stringify(record)}\n`);
  const at = Date.now() / 1000 - ageS;
  utimesSync(file, at, at);
  return file;
}

describe('--continue', () => {
  it('in the app passes over sessions print mode or the SDK started; print mode takes the newest', () => {
    const p = places();
    const app = session(p, 'app', 'cli', 100);
    const printed = session(p, 'printed', 'sdk-cli', 10);
    expect(resumeFile({ continue: true, print: true }, p)).toBe(printed);
    expect(resumeFile({ continue: true, print: false }, p)).toBe(app);
    session(p, 'sdk', 'sdk-ts', 5);
    expect(resumeFile({ continue: true, print: false }, p)).toBe(app);
  });

  it('in the app with only print-mode sessions: “No conversation found to continue”; print mode starts afresh when there is none', () => {
    const p = places();
    expect(resumeFile({ continue: true, print: true }, p)).toBeUndefined();
    session(p, 'printed', 'sdk-cli', 10);
    expect(() => resumeFile({ continue: true, print: false }, p)).toThrow('No conversation found to continue');
  });
});
