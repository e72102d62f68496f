/** Small pieces of the app's screen and start: the hints under the prompt, the status command's rows, the first prompt, the commands after /reload-plugins. */
import { Box, Text } from 'ink';
import React, { useEffect, useRef, useState } from 'react';
import type { AgentDefinition } from '../tools/agent/definitions.js';
import type { SlashCommand } from './commands/index.js';
import type { Hint } from './completions.js';
import * as B from './input-buffer.js';
import type { PluginSession } from './plugin-session.js';

/** The app's commands, listed again after /reload-plugins (plugins bring commands and skills). */
export function usePluginCommands(initial: SlashCommand[], plugins: PluginSession | undefined): SlashCommand[] {
  const [commands, setCommands] = useState(initial);
  useEffect(() => plugins?.onReload(() => setCommands(plugins.commands())), [plugins]);
  return commands;
}

/** Sub-agent types → the color their definition gives them. */
export function agentColorsOf(defs: readonly AgentDefinition[]): Record<string, string> {
  return Object.fromEntries(defs.flatMap((d) => (d.color ? [[d.name, d.color]] : [])));
}

/** `wicket "prompt"`: sent once, right after the first render. */
export function useInitialPrompt(prompt: string | undefined, submit: (b: B.Buffer) => void): void {
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !prompt?.trim()) return;
    sent.current = true;
    submit(B.fromText(prompt));
  }, []);
}

/** The rows of the settings' status line command (ANSI colours pass through). */
export function CustomStatus({ rows, padding }: { rows: string[]; padding: number }): React.ReactElement {
  return (
    <Box flexDirection="column" paddingLeft={padding}>
      {rows.map((r, i) => (
        <Text key={i} wrap="truncate-end">
          {r}
        </Text>
      ))}
    </Box>
  );
}

/** Slash commands or `@` resources matching what is typed; Tab takes the first. */
export function Hints({ hints }: { hints: Hint[] }): React.ReactElement {
  const width = Math.max(...hints.map((h) => h.label.length)) + 1;
  return (
    <Box flexDirection="column">
      {hints.map((h) => (
        <Text key={h.label} wrap="truncate-end">
          <Text bold>{h.label.padEnd(width)}</Text>
          <Text dimColor>{` ${h.description}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
