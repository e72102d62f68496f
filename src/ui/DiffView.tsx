/** A colored unified diff with line numbers, cut to `maxRows` rows. */
import { Box, Text } from 'ink';
import React, { useMemo } from 'react';
import { parseUnifiedDiff, type DiffRow } from './diff-lines.js';
import { theme as defaultTheme, type Theme } from './theme.js';

export interface DiffViewProps {
  /** Unified diff text (`@@ -a,b +c,d @@` hunks). */
  readonly diff: string;
  /** Rows shown at most; the rest is counted in a last line. */
  readonly maxRows?: number;
  readonly theme?: Theme;
}

export function DiffView({ diff, maxRows = 40, theme = defaultTheme }: DiffViewProps): React.ReactElement {
  const rows = useMemo(() => parseUnifiedDiff(diff), [diff]);
  const shown = rows.slice(0, maxRows);
  const width = String(Math.max(1, ...rows.map((r) => (r.kind === 'gap' ? 0 : (r.newNo ?? r.oldNo ?? 0))))).length;
  return (
    <Box flexDirection="column">
      {shown.map((r, i) => (
        <DiffRowView key={i} row={r} width={width} theme={theme} />
      ))}
      {rows.length > shown.length ? <Text dimColor>{`… ${rows.length - shown.length} more diff lines`}</Text> : null}
    </Box>
  );
}

function DiffRowView({ row, width, theme }: { row: DiffRow; width: number; theme: Theme }): React.ReactElement {
  if (row.kind === 'gap') return <Text dimColor>{`${' '.repeat(width)} ⋮`}</Text>;
  const no = String(row.kind === 'remove' ? row.oldNo : row.newNo).padStart(width);
  const sign = row.kind === 'add' ? '+' : row.kind === 'remove' ? '-' : ' ';
  const color = row.kind === 'add' ? theme.color('added') : row.kind === 'remove' ? theme.color('removed') : undefined;
  return (
    <Text wrap="wrap">
      <Text dimColor>{`${no} `}</Text>
      <Text color={color} dimColor={row.kind === 'context'}>{`${sign} ${row.text}`}</Text>
    </Text>
  );
}
