/**
 * The fixture most end-to-end tests share: a fake Messages API and a temporary project (with its
 * own HOME), fresh for each test, checked for API rule violations and cleaned up after it.
 */
import { afterEach, beforeEach } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic-server.js';
import { runCli, type CliResult } from './run-cli.js';
import { makeTmpProject, type TmpProject, type TmpProjectOptions } from './tmp-project.js';

export interface ApiProject {
  readonly api: FakeAnthropic;
  readonly project: TmpProject;
  /** The built binary in the project, against the fake API. */
  run(
    args: string[],
    opts?: { env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number; baseUrl?: string; asCommand?: boolean },
  ): Promise<CliResult>;
}

export function useApiAndProject(options: TmpProjectOptions = {}): ApiProject {
  let api: FakeAnthropic | undefined;
  let project: TmpProject | undefined;
  beforeEach(async () => {
    api = await startFakeAnthropic();
    project = await makeTmpProject({ files: {}, ...options });
  });
  afterEach(async () => {
    try {
      api?.assertNoViolations();
    } finally {
      await api?.close();
      await project?.cleanup();
    }
  });
  return {
    get api() {
      return api!;
    },
    get project() {
      return project!;
    },
    run: (args, o = {}) => runCli(args, { cwd: project!.dir, home: project!.home, baseUrl: api!.url, ...o }),
  };
}

type Body = { messages: Array<{ content: unknown }> };

/** The tool_result block for `id` in a request body (which holds the whole conversation). */
export function toolResultIn(body: unknown, id: string): any {
  for (const m of (body as Body).messages) {
    if (!Array.isArray(m.content)) continue;
    const hit = m.content.find((c: any) => c.type === 'tool_result' && c.tool_use_id === id);
    if (hit) return hit;
  }
  return undefined;
}
