/**
 * What takes the keys under the transcript, first one first: an MCP server's approval, a
 * permission prompt (a question or a plan of the model has a dialog of its own), an MCP server's
 * request for input, where a `#` line goes, a list to choose from, the settings, the rewind list, the
 * session picker, the plugin screen, the history search, or the prompt.
 */
import React from 'react';
import type { PermissionAnswer } from '../base/permission-types.js';
import { ConfigDialog, type ConfigDialogProps } from './ConfigDialog.js';
import { ElicitationDialog } from './ElicitationDialog.js';
import { HistorySearch, type HistorySearchProps } from './HistorySearch.js';
import type { PickerSpec } from './hooks/use-submit.js';
import { McpApprovalDialog } from './McpApprovalDialog.js';
import { MemoryDialog, type MemoryDialogProps } from './MemoryDialog.js';
import { PluginScreen, type PluginScreenProps } from './PluginScreen.js';
import { SessionPicker, type SessionPickerProps } from './SessionPicker.js';
import { PermissionDialog, type PermissionDialogProps } from './PermissionDialog.js';
import { PromptInput, type PromptInputProps } from './PromptInput.js';
import { QuestionDialog, questionsOf } from './QuestionDialog.js';
import { RewindDialog, type RewindDialogProps } from './RewindDialog.js';
import { SelectDialog } from './SelectDialog.js';
import type { PendingAsk } from './types.js';
import type { useElicitations, useMcpApprovals } from './hooks/use-mcp.js';

export interface ActiveInputProps {
  approval?: ReturnType<typeof useMcpApprovals>;
  ask?: PendingAsk;
  /** Asks queued behind `ask`. */
  waiting: number;
  answer: (ask: PendingAsk, a: PermissionAnswer) => void;
  /** What a "don't ask again" rule would have allowed among the project's past calls. */
  pastCalls?: PermissionDialogProps['pastCalls'];
  elicit?: ReturnType<typeof useElicitations>;
  memory?: MemoryDialogProps;
  picker?: PickerSpec;
  closePicker: () => void;
  config?: ConfigDialogProps;
  rewind?: RewindDialogProps;
  sessions?: SessionPickerProps;
  plugins?: PluginScreenProps;
  search?: HistorySearchProps;
  prompt: PromptInputProps;
  dialogRows: number;
}

export function ActiveInput(p: ActiveInputProps): React.ReactElement {
  const { approval, ask, elicit, picker } = p;
  if (approval && !ask)
    return <McpApprovalDialog key={approval.server.name} server={approval.server} waiting={approval.waiting} onAnswer={approval.onAnswer} />;
  if (ask && ask.request.toolName === 'AskUserQuestion' && questionsOf(ask.request.input))
    return <QuestionDialog key={ask.request.toolUseId} request={ask.request} onAnswer={(a) => p.answer(ask, a)} />;
  if (ask)
    return (
      <PermissionDialog
        key={ask.request.toolUseId}
        request={ask.request}
        waiting={p.waiting}
        onAnswer={(a) => p.answer(ask, a)}
        maxPreviewRows={Math.max(3, p.dialogRows - 12)}
        {...(p.pastCalls ? { pastCalls: p.pastCalls } : {})}
      />
    );
  if (elicit)
    return (
      <ElicitationDialog
        key={elicit.id}
        request={elicit.request}
        waiting={elicit.waiting}
        onAnswer={elicit.onAnswer}
        maxFieldRows={Math.max(3, p.dialogRows - 10)}
      />
    );
  if (p.memory) return <MemoryDialog {...p.memory} />;
  if (picker)
    return (
      <SelectDialog
        title={picker.title}
        options={picker.options}
        {...(picker.selected !== undefined ? { selected: picker.selected } : {})}
        onDone={(value) => {
          p.closePicker();
          picker.onDone(value);
        }}
      />
    );
  if (p.config) return <ConfigDialog {...p.config} />;
  if (p.rewind) return <RewindDialog {...p.rewind} />;
  if (p.sessions) return <SessionPicker {...p.sessions} />;
  if (p.plugins) return <PluginScreen {...p.plugins} />;
  if (p.search) return <HistorySearch {...p.search} />;
  return <PromptInput {...p.prompt} />;
}
