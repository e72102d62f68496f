/**
 * The SDK's requests about files and background work: read_file and seed_read_state (inside the
 * session's folders, never past a Read deny rule), rewind_files (the file checkpoints of a user
 * message), stop_task and get_task_output.
 */
import { readFileSync, statSync } from 'node:fs';
import { isInWorkspace, resolveToolPath } from '../base/paths.js';
import { realPathDeep } from '../permissions/real-path.js';
import { deniedPathRule } from '../permissions/path-rules.js';
import { versionOf } from '../base/fs/version.js';
import type { PermissionContext } from '../base/tool.js';
import { getBackgroundTask, stopBackgroundTask } from '../tools/tasks/registry.js';
import { errorMessage } from '../base/errors.js';
import { ControlError, type ControlPayload } from './control-channel.js';
import type { SdkContext } from './context.js';

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

export function registerFileRequests(ctx: SdkContext): void {
  const ch = ctx.session.channel;
  ch.onRequest('read_file', (req) => readFile(ctx, req));
  ch.onRequest('seed_read_state', (req) => seedReadState(ctx, req));
  ch.onRequest('rewind_files', (req) => rewindFiles(ctx, req));
  ch.onRequest('stop_task', async (req) => {
    const id = typeof req.task_id === 'string' ? req.task_id : '';
    if (!(await stopBackgroundTask(id, 2000, 'person'))) throw new ControlError(`no background task ${id}`, 'not_found');
    return {};
  });
  ch.onRequest('get_task_output', (req) => taskOutput(req));
}

/** A path the SDK names, checked as a Read of it would be: inside the session's folders, and no Read deny rule on it. */
function allowedPath(ctx: SdkContext, raw: unknown): string {
  if (typeof raw !== 'string' || !raw) throw new ControlError('a path is needed', 'invalid_request');
  const a = ctx.base;
  const abs = resolveToolPath(raw, a.state.cwd, a.homeDir);
  const real = realPathDeep(abs);
  const where = { projectRoot: a.projectRoot, additionalDirs: a.additionalDirs, cwd: a.state.cwd };
  if (!isInWorkspace(real, where)) throw new ControlError(`${abs} is outside the session's folders`, 'permission_denied');
  const ctxPerm = { cwd: a.state.cwd, projectRoot: a.projectRoot, homeDir: a.homeDir } as PermissionContext;
  const rule = deniedPathRule(abs, 'read', a.permission.rules, ctxPerm) ?? deniedPathRule(real, 'read', a.permission.rules, ctxPerm);
  if (rule) throw new ControlError(`${abs} is denied by the rule ${rule.raw} [${rule.source}]`, 'permission_denied');
  return real;
}

function readFile(ctx: SdkContext, req: ControlPayload): ControlPayload {
  const file = allowedPath(ctx, req.path);
  const max = typeof req.max_bytes === 'number' && req.max_bytes > 0 ? req.max_bytes : DEFAULT_MAX_BYTES;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new ControlError(`cannot read ${file}: ${errorMessage(err)}`, 'not_found');
  }
  const truncated = bytes.length > max;
  const kept = truncated ? bytes.subarray(0, max) : bytes;
  if (req.encoding === 'base64') return { contents: kept.toString('base64'), absPath: file, truncated, encoding: 'base64' };
  return { contents: kept.toString('utf8'), absPath: file, truncated };
}

/** The host showed the model this file at `mtime`: it counts as read when the file is still that version. */
function seedReadState(ctx: SdkContext, req: ControlPayload): ControlPayload {
  const file = allowedPath(ctx, req.path);
  try {
    const st = statSync(file);
    if (typeof req.mtime === 'number' && Math.floor(st.mtimeMs) === Math.floor(req.mtime))
      ctx.base.state.readState.recordRead(file, versionOf(readFileSync(file), st), { offset: 1 });
  } catch {
    // A file that is gone is simply not seeded.
  }
  return {};
}

async function rewindFiles(ctx: SdkContext, req: ControlPayload): Promise<ControlPayload> {
  const history = ctx.base.fileHistory;
  if (!history) return { canRewind: false, error: 'file checkpointing is off in this session (fileCheckpointingEnabled)' };
  const id = typeof req.user_message_id === 'string' ? ctx.turns.checkpoints.get(req.user_message_id) : undefined;
  if (id === undefined) return { canRewind: false, error: `no file checkpoint for the user message ${String(req.user_message_id)}` };
  const plan = await history.plan(id);
  if (!plan.ok) return { canRewind: false, error: plan.reason };
  const filesChanged = plan.changes.map((c) => c.path);
  if (req.dry_run === true) return { canRewind: true, filesChanged };
  const report = await history.restore(id, ctx.base.state.readState);
  if (report.refused) return { canRewind: false, error: report.refused };
  const failed = report.failed.map((f) => `${f.path}: ${f.reason}`);
  return { canRewind: true, filesChanged: [...report.restored, ...report.deleted], ...(failed.length ? { error: failed.join('; ') } : {}) };
}

function taskOutput(req: ControlPayload): ControlPayload {
  const id = typeof req.task_id === 'string' ? req.task_id : '';
  const task = getBackgroundTask(id);
  if (!task) throw new ControlError(`no background task ${id}`, 'not_found');
  let output = task.kind === 'agent' ? (task.report ?? '') : '';
  if (task.kind === 'bash') {
    try {
      output = readFileSync(task.outputFile, 'utf8');
    } catch {
      output = '';
    }
  }
  const total = Buffer.byteLength(output);
  const truncated = total > DEFAULT_MAX_BYTES;
  return { task_id: id, status: task.status, output: truncated ? output.slice(-DEFAULT_MAX_BYTES) : output, total_bytes: total, truncated };
}
