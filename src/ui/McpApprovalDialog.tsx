/**
 * A project MCP server (.mcp.json) that the settings have not approved: start it or not. A server
 * runs a program (or reaches a URL) the project chose, so it never starts unasked in the app.
 * Keys 1/2/3, arrows + Enter; Esc answers "continue without it".
 */
import { Box, Text } from 'ink';
import type React from 'react';
import type { McpServerState } from '../mcp/servers.js';
import type { McpApproval } from '../settings/persist.js';
import { NumberedChoiceList, type NumberedChoice, useNumberedChoices } from './NumberedChoices.js';
import { useView } from './view-context.js';
import { useAnswerOnce } from './hooks/use-answer-once.js';

export interface McpApprovalDialogProps {
  readonly server: McpServerState;
  /** Other servers waiting for an answer. */
  readonly waiting: number;
  readonly onAnswer: (answer: McpApproval) => void;
}

const CHOICES: ReadonlyArray<NumberedChoice<McpApproval>> = [
  { key: '1', value: 'all', label: 'Use this and all future MCP servers in this project' },
  { key: '2', value: 'this', label: 'Use this MCP server' },
  { key: '3', value: 'never', label: 'Continue without using this MCP server (esc)' },
];

export function McpApprovalDialog({ server, waiting, onAnswer }: McpApprovalDialogProps): React.ReactElement {
  const { theme } = useView();
  const answer = useAnswerOnce<McpApproval>(onAnswer);
  const selected = useNumberedChoices(CHOICES, answer, 'never');
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('warn')} paddingX={1}>
      <Text bold color={theme.color('warn')}>
        {`New MCP server found in .mcp.json: ${server.name}${waiting ? `  (${waiting} more waiting)` : ''}`}
      </Text>
      <Box marginY={1} paddingLeft={2} flexDirection="column">
        <Text wrap="wrap">{`${server.transport ?? 'stdio'}: ${server.detail ?? '(no command)'}`}</Text>
        <Text dimColor wrap="wrap">
          {server.source}
        </Text>
      </Box>
      <Text dimColor wrap="wrap">
        An MCP server may run code or reach resources on this machine. Its tools still ask before each call unless a rule allows them.
      </Text>
      <NumberedChoiceList choices={CHOICES} selected={selected} color={theme.color('accent')} />
    </Box>
  );
}
