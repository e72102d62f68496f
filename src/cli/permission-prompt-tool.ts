/**
 * `--permission-prompt-tool mcp__server__tool` (print mode): the calls that would ask a person are
 * put to that MCP tool instead, as in Claude Code. It gets `{tool_name, input, tool_use_id}` and
 * answers with JSON text: `{"behavior": "allow", "updatedInput"?: …}` or `{"behavior": "deny", "message": "…"}`
 * (a changed input is checked again before it runs). Anything
 * else, or a tool that fails, is a denial that says why.
 */
import { drainCall, type Tool, type ToolContext } from '../base/tool.js';
import type { AskUser, PermissionAnswer } from '../base/permission-types.js';

export function permissionPromptTool(toolName: string, tools: () => readonly Tool[]): AskUser {
  const answeredBy = `the permission prompt tool ${toolName}`;
  // Its denials name it: it answered, not the user.
  return async (req, signal): Promise<PermissionAnswer> => {
    const answer = await ask(req, signal);
    return answer.behavior === 'deny' ? { ...answer, answeredBy } : answer;
  };
  async function ask(req: Parameters<AskUser>[0], signal: AbortSignal): Promise<PermissionAnswer> {
    const tool = tools().find((t) => t.name === toolName);
    if (!tool) return { behavior: 'deny', message: `the permission prompt tool ${toolName} is not available` };
    const input = { tool_name: req.toolName, input: req.input, tool_use_id: req.toolUseId };
    let text: string;
    try {
      const out = await drainCall(tool.call(input, { signal } as ToolContext), () => {});
      const result = tool.toModelResult(out, input);
      text = typeof result.content === 'string' ? result.content : result.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      if (result.isError) return { behavior: 'deny', message: `the permission prompt tool ${toolName} failed: ${text}` };
    } catch (err) {
      return { behavior: 'deny', message: `the permission prompt tool ${toolName} failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    let answer: { behavior?: unknown; message?: unknown; updatedInput?: unknown };
    try {
      answer = JSON.parse(text);
    } catch {
      return { behavior: 'deny', message: `the permission prompt tool ${toolName} did not answer with JSON: ${text.slice(0, 200)}` };
    }
    if (answer.behavior === 'allow') {
      const changed = answer.updatedInput !== undefined && JSON.stringify(answer.updatedInput) !== JSON.stringify(req.input);
      return changed ? { behavior: 'allow', updatedInput: answer.updatedInput } : { behavior: 'allow' };
    }
    if (answer.behavior === 'deny')
      return {
        behavior: 'deny',
        message: typeof answer.message === 'string' && answer.message.trim() ? `${answeredBy} said no: ${answer.message}` : `${answeredBy} said no`,
      };
    return { behavior: 'deny', message: `the permission prompt tool ${toolName} answered neither "allow" nor "deny"` };
  }
}
