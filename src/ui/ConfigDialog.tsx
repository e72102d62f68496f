/**
 * /config: the settings a person changes from the app (model, theme, editor mode, notifications,
 * auto-compact, verbose output), each with its value. Up/Down move; Enter, Space or Left/Right change
 * the value, saved at once to the user settings file; Esc closes.
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import { useKeys } from './key-router.js';
import { NOTIF_CHANNELS, THEMES, type Preferences } from './preferences.js';
import { symbols } from './theme.js';
import { useView } from './view-context.js';

export interface ConfigRow {
  key: keyof Preferences | 'model';
  label: string;
  values: readonly string[];
}

export const CONFIG_ROWS: readonly ConfigRow[] = [
  { key: 'model', label: 'Model', values: ['sonnet', 'opus', 'haiku'] },
  { key: 'theme', label: 'Theme', values: THEMES },
  { key: 'editorMode', label: 'Editor mode', values: ['normal', 'vim'] },
  { key: 'preferredNotifChannel', label: 'Notifications', values: NOTIF_CHANNELS },
  { key: 'autoCompactEnabled', label: 'Auto-compact', values: ['true', 'false'] },
  { key: 'verbose', label: 'Verbose output', values: ['false', 'true'] },
];

export interface ConfigDialogProps {
  /** The current value of each row, as text. */
  readonly values: Readonly<Record<ConfigRow['key'], string>>;
  /** A row's new value (the app applies and saves it). */
  readonly onChange: (key: ConfigRow['key'], value: string) => void;
  readonly onClose: () => void;
  /** Where the values are saved, for the footer. */
  readonly file: string;
}

export function ConfigDialog({ values, onChange, onClose, file }: ConfigDialogProps): React.ReactElement {
  const { theme } = useView();
  const [at, setAtState] = useState(0);
  const cur = useRef(0);
  const setAt = (n: number) => setAtState((cur.current = (n + CONFIG_ROWS.length) % CONFIG_ROWS.length));
  const shift = (by: 1 | -1) => {
    const row = CONFIG_ROWS[cur.current]!;
    const i = row.values.indexOf(values[row.key]);
    onChange(row.key, row.values[(i + by + row.values.length) % row.values.length]!);
  };
  useKeys((input, key) => {
    if (key.escape) return onClose();
    if (key.upArrow || input === 'k') setAt(cur.current - 1);
    else if (key.downArrow || key.tab || input === 'j') setAt(cur.current + 1);
    else if (key.return || input === ' ' || key.rightArrow) shift(1);
    else if (key.leftArrow) shift(-1);
  });
  const width = Math.max(...CONFIG_ROWS.map((r) => r.label.length)) + 2;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>Settings</Text>
      {CONFIG_ROWS.map((r, i) => (
        <Text key={r.key} color={i === at ? theme.color('accent') : undefined}>
          {`${i === at ? symbols.pointer : ' '} ${r.label.padEnd(width)}`}
          <Text bold>{values[r.key]}</Text>
        </Text>
      ))}
      <Text dimColor wrap="wrap">{`Enter or ←/→ to change (saved to ${file}) · Esc to close`}</Text>
    </Box>
  );
}
