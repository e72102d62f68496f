/** What the person sees when wicket cannot start (no API key, bad flags): the reason and what to set. */
import { Box, Text } from 'ink';
import React from 'react';
import { theme as defaultTheme, type Theme } from './theme.js';

export interface SetupErrorProps {
  readonly message: string;
  /** FatalError code, when known ('auth' adds what to set). */
  readonly code?: string;
  readonly theme?: Theme;
}

export function SetupError({ message, code, theme = defaultTheme }: SetupErrorProps): React.ReactElement {
  const auth = code === 'auth' || /API key|AUTH_TOKEN/.test(message);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('error')} paddingX={1}>
      <Text bold color={theme.color('error')}>
        wicket cannot start
      </Text>
      <Text wrap="wrap">{message}</Text>
      {auth ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>Set one of these in your shell, then run wicket again:</Text>
          <Text color={theme.color('accent')}>{'  export ANTHROPIC_API_KEY=sk-ant-…'}</Text>
          <Text dimColor>{'  or ANTHROPIC_AUTH_TOKEN=… for a gateway that takes a bearer token'}</Text>
          <Text dimColor>{'  ANTHROPIC_BASE_URL=… points wicket at a proxy or another Messages API server'}</Text>
          <Text dimColor>{'  or an "apiKeyHelper" command in settings that prints the key'}</Text>
          <Text dimColor>{'  or CLAUDE_CODE_USE_BEDROCK=1, CLAUDE_CODE_USE_VERTEX=1 or CLAUDE_CODE_USE_FOUNDRY=1 for your cloud'}</Text>
          <Text dimColor>{'  (the "env" key of .claude/settings.json works too)'}</Text>
        </Box>
      ) : null}
    </Box>
  );
}
