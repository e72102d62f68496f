/** TodoWrite: the task list as a checklist (done items struck through, the one in progress in bold). */
import { Box, Text } from 'ink';
import type { Todo } from '../../base/todos.js';
import { useView } from '../view-context.js';
import { ResultLine, type ToolRenderer } from './common.js';

const BOX = { pending: '☐', in_progress: '◼', completed: '☒' } as const;

export const todoView: ToolRenderer = {
  title: () => '',
  Result({ tool }) {
    const { theme } = useView();
    const todos = (tool.display?.todos as Todo[] | undefined) ?? [];
    if (!todos.length) return <ResultLine dim>{tool.display?.summary ?? 'Updated the task list'}</ResultLine>;
    return (
      <Box flexDirection="column">
        {todos.map((t, i) => (
          <Box key={i}>
            <Text dimColor>{i === 0 ? '  ⎿  ' : '     '}</Text>
            <Box flexShrink={1}>
              <Text
                wrap="wrap"
                bold={t.status === 'in_progress'}
                color={t.status === 'in_progress' ? theme.color('accent') : undefined}
                dimColor={t.status === 'completed'}
                strikethrough={t.status === 'completed'}
              >{`${BOX[t.status] ?? BOX.pending} ${t.content}`}</Text>
            </Box>
          </Box>
        ))}
      </Box>
    );
  },
};
