/**
 * An MCP server asks the person for input during a call. Form mode: the server's message and a form
 * built from its schema (text, number, yes/no, one or several choices; required fields marked *,
 * defaults filled in), answered with Accept (checked first: each problem is shown under its field),
 * Decline or Cancel. URL mode: the server's message and the URL, with Open URL (the browser is tried;
 * the URL stays on screen), Decline or Cancel. Esc cancels. Keys: elicitation-keys.ts.
 */
import { Box, Text } from 'ink';
import React, { useMemo, useRef, useState } from 'react';
import type { ElicitationAnswer, ElicitationRequest } from '../mcp/elicitation.js';
import { collectContent, fieldValue, formFields, initialInputs, type FieldInput, type FormField } from '../mcp/elicitation-form.js';
import { BUTTONS, formKey, startState, type FormState } from './elicitation-keys.js';
import { useKeys } from './key-router.js';
import { symbols } from './theme.js';
import { useView } from './view-context.js';
import { useAnswerOnce } from './hooks/use-answer-once.js';

export interface ElicitationDialogProps {
  readonly request: ElicitationRequest;
  readonly onAnswer: (answer: ElicitationAnswer) => void;
  /** Other requests queued behind this one. */
  readonly waiting?: number;
  /** Rows the fields may take. */
  readonly maxFieldRows?: number;
}

export function ElicitationDialog({ request, onAnswer, waiting = 0, maxFieldRows = 10 }: ElicitationDialogProps): React.ReactElement {
  const { theme } = useView();
  const url = request.mode === 'url';
  const { fields, skipped } = useMemo(() => (url ? { fields: [], skipped: [] } : formFields(request.requestedSchema)), [request, url]);
  const [state, setState] = useState<FormState>(() => startState(fields, initialInputs(fields)));
  const [checked, setChecked] = useState(false);
  const now = useRef(state);
  const update = (s: FormState) => setState((now.current = s));
  const finish = useAnswerOnce<ElicitationAnswer>(onAnswer);
  useKeys((input, key) => {
    const { state: next, press } = formKey(now.current, fields, input, key);
    update(next);
    if (press !== 'accept') return press && finish({ action: press });
    if (url) return finish({ action: 'accept' });
    const r = collectContent(fields, next.inputs);
    if ('content' in r) return finish({ action: 'accept', content: r.content });
    setChecked(true);
    update({ ...next, focus: fields.findIndex((f) => r.errors[f.name]) });
  });
  const labels = url ? ['Open URL', 'Decline', 'Cancel'] : ['Accept', 'Decline', 'Cancel'];
  const onButtons = state.focus >= fields.length;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('warn')} paddingX={1}>
      <Text bold color={theme.color('warn')}>
        {`MCP server "${request.server}" ${url ? 'asks you to open a URL' : 'requests your input'}${waiting ? `  (${waiting} more waiting)` : ''}`}
      </Text>
      <Box marginY={1} flexDirection="column">
        <Text wrap="wrap">{request.message}</Text>
        {url ? (
          <Text color={theme.color('accent')} wrap="wrap">
            {request.url}
          </Text>
        ) : null}
        {skipped.length ? <Text dimColor wrap="wrap">{`Not shown (a kind of field wicket cannot ask for): ${skipped.join(', ')}`}</Text> : null}
      </Box>
      <Fields fields={fields} state={state} checked={checked} maxRows={maxFieldRows} />
      <Box marginTop={fields.length ? 1 : 0}>
        {labels.map((label, i) => {
          const on = onButtons && i === state.button;
          return (
            <Text key={label} color={on ? theme.color('accent') : undefined} bold={on}>
              {`${on ? symbols.pointer : ' '} ${label}   `}
            </Text>
          );
        })}
      </Box>
      <Text dimColor wrap="truncate-end">
        {onButtons
          ? `←→ choose · enter ${BUTTONS[state.button] === 'accept' && url ? 'opens the URL' : 'answers'} · ↑ back to the form · esc cancel`
          : hintFor(fields[state.focus])}
      </Text>
    </Box>
  );
}

function hintFor(f: FormField | undefined): string {
  const what = f?.kind === 'boolean' ? 'space toggles' : f?.kind === 'choice' ? '←→ choose' : f?.kind === 'multi' ? '←→ move · space ticks' : 'type to edit';
  return `${what} · ↑↓ move · enter next · esc cancel`;
}

/** The fields, a window of them around the focus when they do not all fit. */
function Fields({
  fields,
  state,
  checked,
  maxRows,
}: {
  fields: readonly FormField[];
  state: FormState;
  checked: boolean;
  maxRows: number;
}): React.ReactElement | null {
  const { theme } = useView();
  if (!fields.length) return null;
  const room = Math.max(1, maxRows);
  const start = Math.max(0, Math.min(state.focus - Math.floor(room / 2), fields.length - room));
  const shown = fields.slice(start, start + room);
  return (
    <Box flexDirection="column">
      {start > 0 ? <Text dimColor>{`  ↑ ${start} more`}</Text> : null}
      {shown.map((f, i) => {
        const on = start + i === state.focus;
        const error = checked ? fieldValue(f, state.inputs[f.name]).error : undefined;
        return (
          <Box key={f.name} flexDirection="column">
            <Text wrap="truncate-end">
              <Text color={on ? theme.color('accent') : undefined} bold={on}>{`${on ? symbols.pointer : ' '} ${f.label}${f.required ? '*' : ''}: `}</Text>
              <Text>{valueText(f, state.inputs[f.name], on, state.cursor[f.name] ?? 0)}</Text>
              {f.description ? <Text dimColor>{`  ${f.description}`}</Text> : null}
            </Text>
            {error ? <Text color={theme.color('error')}>{`    ${error}`}</Text> : null}
          </Box>
        );
      })}
      {start + room < fields.length ? <Text dimColor>{`  ↓ ${fields.length - start - room} more`}</Text> : null}
    </Box>
  );
}

/** A field's value as shown: text with a cursor, [x] / [ ], ‹ choice ›, or the options with ticks. */
function valueText(f: FormField, input: FieldInput | undefined, focused: boolean, cursor: number): string {
  if (f.kind === 'boolean') return input === true ? '[x] yes' : '[ ] no';
  if (f.kind === 'choice') {
    const label = f.options.find((o) => o.value === input)?.label;
    return focused ? `‹ ${label ?? 'choose'} ›` : (label ?? '(none)');
  }
  if (f.kind === 'multi') {
    const chosen = Array.isArray(input) ? input : [];
    return f.options.map((o, i) => `${focused && i === cursor ? '›' : ''}[${chosen.includes(o.value) ? 'x' : ' '}] ${o.label}`).join('  ');
  }
  const text = typeof input === 'string' ? input : '';
  return focused ? `${text}█` : text;
}
