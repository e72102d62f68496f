/** What a "don't ask again" rule would have allowed among a project's past calls (the Claude Code fixture's). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { pastCallsAllowedBy } from '../../../../src/core/policy/coverage.js';
import { projectSlug } from '../../../../src/session/paths.js';
import { REPO_ROOT } from '../../../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../../../support/tmp-project.js';

const ID = '7d3f2b9e-5a41-4c8e-9f0d-2b6e8a1c4d57';
let project: TmpProject;

beforeEach(async () => {
  project = await makeTmpProject({ settings: { permissions: { deny: ['Bash(rm *)'] } } });
  const text = readFileSync(path.join(REPO_ROOT, 'test/fixtures/sessions/policy', `${ID}.jsonl`), 'utf8').replaceAll('/tmp/sess-scratch/pf', project.dir);
  await project.writeHome(`.claude/projects/${projectSlug(project.dir)}/${ID}.jsonl`, text);
});
afterEach(() => project.cleanup());

const where = () => ({ cwd: project.dir, env: { HOME: project.home } });

it('counts the past calls the rule would let through, and none a deny rule still stops', async () => {
  expect(await pastCallsAllowedBy(where(), 'Bash', ['Bash(npm run build:*)'])).toEqual({ count: 2, examples: ['npm run build', 'npm run build -- --verbose'] });
  expect(await pastCallsAllowedBy(where(), 'Bash', ['Bash(rm -rf dist)'])).toEqual({ count: 0, examples: [] });
  expect(await pastCallsAllowedBy(where(), 'Write', ['Write'])).toEqual({ count: 0, examples: [] });
});
