/**
 * A project MCP server (.mcp.json) that the settings have not approved: start it or not. A server
 * runs a program (or reaches a URL) the project chose, so it never starts unasked in the app.
 * Keys 1/2/3, arrows + Enter; Esc answers "continue without it".
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import type { McpServerState } from '../mcp/servers.js';
import type { McpApproval } from '../settings/persist.js';
import { useKeys } from './key-router.js';
import { symbols } from './theme.js';
import { useView } from './view-context.js';
import { useAnswerOnce } from './hooks/use-answer-once.js';

export interface McpApprovalDialogProps {
  readonly server: McpServerState;
  /** Other servers waiting for an answer. */
  readonly waiting: number;
  readonly onAnswer: (answer: McpApproval) => void;
}

const CHOICES: Array<{ key: '1' | '2' | '3'; answer: McpApproval; label: string }> = [
  { key: '1', answer: 'all', label: 'Use this and all future MCP servers in this project' },
  { key: '2', answer: 'this', label: 'Use this MCP server' },
  { key: '3', answer: 'never', label: 'Continue without using this MCP server (esc)' },
];

export function McpApprovalDialog({ server, waiting, onAnswer }: McpApprovalDialogProps): React.ReactElement {
  const { theme } = useView();
  const [selected, setSelectedState] = useState(0);
  const sel = useRef(0);
  const setSelected = (n: number) => setSelectedState((sel.current = n));
  const answer = useAnswerOnce<McpApproval>(onAnswer);
  useKeys((input, key) => {
    if (key.escape) return answer('never');
    const byKey = CHOICES.find((c) => c.key === input);
    if (byKey) return answer(byKey.answer);
    if (key.upArrow) setSelected((sel.current + CHOICES.length - 1) % CHOICES.length);
    else if (key.downArrow || key.tab) setSelected((sel.current + 1) % CHOICES.length);
    else if (key.return) answer(CHOICES[sel.current]!.answer);
  });
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
      <Box marginTop={1} flexDirection="column">
        {CHOICES.map((c, i) => {
          const on = i === selected;
          return (
            <Text key={c.key} color={on ? theme.color('accent') : undefined}>
              {`${on ? symbols.pointer : ' '} ${c.key}. ${c.label}`}
            </Text>
          );
        })}
      </Box>
    </Box>
  );
}
