/**
 * AskUserQuestion's dialog, as Claude Code shows it: one question at a time (its header as a chip),
 * its options numbered, then "Other" to type an answer of one's own. 1–9 or arrows + Enter choose;
 * a multi-select question toggles options with Space (or their number) and takes them with Enter.
 * Esc leaves without answering, which stops the turn as a "No" does. The answers go back as the
 * call's input (`answers`: question → answer, several joined with ", ").
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import type { PermissionAnswer, PermissionRequest } from '../base/permission-types.js';
import { useAnswerOnce } from './hooks/use-answer-once.js';
import * as B from './input-buffer.js';
import { useKeys } from './key-router.js';
import { handleKey } from './PromptInput.js';
import { symbols } from './theme.js';
import { useView } from './view-context.js';

export interface Question {
  question: string;
  header: string;
  options: Array<{ label: string; description?: string }>;
  multiSelect?: boolean;
}

export interface QuestionDialogProps {
  readonly request: PermissionRequest;
  readonly onAnswer: (answer: PermissionAnswer) => void;
}

/** The questions of an AskUserQuestion call, or nothing when its input is not that shape. */
export function questionsOf(input: unknown): Question[] | undefined {
  const qs = (input as { questions?: unknown } | null)?.questions;
  if (!Array.isArray(qs) || !qs.length) return undefined;
  const ok = qs.every(
    (q) => q && typeof q.question === 'string' && Array.isArray(q.options) && q.options.every((o: { label?: unknown }) => typeof o?.label === 'string'),
  );
  return ok ? (qs as Question[]) : undefined;
}

interface State {
  at: number;
  row: number;
  picked: Set<number>;
  other?: B.Buffer;
  answers: Record<string, string>;
}

export function QuestionDialog({ request, onAnswer }: QuestionDialogProps): React.ReactElement {
  const questions = questionsOf(request.input) ?? [];
  const [state, setState] = useState<State>({ at: 0, row: 0, picked: new Set(), answers: {} });
  const cur = useRef(state);
  const set = (s: State) => setState((cur.current = s));
  const answer = useAnswerOnce<PermissionAnswer>(onAnswer);
  const settle = (s: State, text: string) => {
    const q = questions[s.at]!;
    const answers = { ...s.answers, [q.question]: text };
    if (s.at + 1 < questions.length) return set({ at: s.at + 1, row: 0, picked: new Set(), answers });
    answer({ behavior: 'allow', updatedInput: { ...(request.input as object), answers } });
  };
  useKeys((input, key) => {
    const s = cur.current;
    const q = questions[s.at];
    if (!q) return;
    const rows = q.options.length + 1;
    if (s.other !== undefined) {
      if (key.escape) return set({ ...s, other: undefined });
      const r = handleKey(input, key, s.other, {});
      const done = r === 'submit' ? B.expand(s.other) : r && typeof r === 'object' && 'then' in r ? B.expand(r.then) : undefined;
      if (done !== undefined) return done.trim() ? settle(s, joinWith(q, s.picked, done.trim())) : undefined;
      if (r && typeof r === 'object') set({ ...s, other: r as B.Buffer });
      return;
    }
    if (key.escape) return answer({ behavior: 'deny', interrupt: true });
    const choose = (row: number) => {
      if (row === q.options.length) return set({ ...s, row, other: B.emptyBuffer });
      if (!q.multiSelect) return settle(s, q.options[row]!.label);
      const picked = new Set(s.picked);
      if (picked.has(row)) picked.delete(row);
      else picked.add(row);
      set({ ...s, row, picked });
    };
    if (/^[1-9]$/.test(input) && Number(input) <= rows) return choose(Number(input) - 1);
    if (key.upArrow) return set({ ...s, row: (s.row + rows - 1) % rows });
    if (key.downArrow || key.tab) return set({ ...s, row: (s.row + 1) % rows });
    if (input === ' ' && q.multiSelect) return choose(s.row);
    if (key.return) {
      if (q.multiSelect && s.picked.size && s.row !== q.options.length) return settle(s, joinWith(q, s.picked));
      return choose(s.row);
    }
  });
  return <QuestionView questions={questions} state={state} />;
}

/** A multi-select answer: the options ticked, in their order, then the person's own text. */
function joinWith(q: Question, picked: Set<number>, own?: string): string {
  const labels = q.options.filter((_, i) => picked.has(i)).map((o) => o.label);
  return [...labels, ...(own ? [own] : [])].join(', ');
}

function QuestionView({ questions, state }: { questions: Question[]; state: State }): React.ReactElement {
  const { theme } = useView();
  const q = questions[state.at];
  if (!q) return <Text dimColor>(no question)</Text>;
  const rows = [...q.options, { label: 'Other', description: 'type your own answer' }];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text>
        <Text inverse>{` ${q.header} `}</Text>
        {questions.length > 1 ? <Text dimColor>{`  question ${state.at + 1} of ${questions.length}`}</Text> : null}
      </Text>
      <Box marginY={1}>
        <Text bold wrap="wrap">
          {q.question}
        </Text>
      </Box>
      {rows.map((o, i) => {
        const on = i === state.row && state.other === undefined;
        const box = q.multiSelect && i < q.options.length ? (state.picked.has(i) ? '[x] ' : '[ ] ') : '';
        return (
          <Box key={`${i}-${o.label}`} flexDirection="column">
            <Text color={on ? theme.color('accent') : undefined}>{`${on ? symbols.pointer : ' '} ${i + 1}. ${box}${o.label}`}</Text>
            {o.description ? <Text dimColor>{`     ${o.description}`}</Text> : null}
          </Box>
        );
      })}
      {state.other !== undefined ? (
        <Text wrap="wrap">
          <Text color={theme.color('accent')}>{`${symbols.prompt} `}</Text>
          {state.other.text}
          <Text inverse> </Text>
        </Text>
      ) : null}
      <Text dimColor>
        {q.multiSelect ? 'Space or a number ticks · Enter takes the ticked ones · Esc to cancel' : 'Enter or a number to choose · Esc to cancel'}
      </Text>
    </Box>
  );
}
