/**
 * The inline permission prompt: what the call would do, why it asks, and three answers: 1 Yes,
 * 2 Yes and don't ask again for <rule>, 3 No and tell wicket what to do instead (a text field).
 * On answer 2, ←/→ choose where the rule is kept: this session, the project (shared), the project
 * (only this person: the default), or everywhere (the user's settings).
 * Keys 1/2/3, arrows + Enter; Esc answers No. "No" stops the turn (the app ends the run); the text
 * typed after 3 is the person's next message. One request at a time; `waiting` counts the others.
 */
import { Box, Text } from 'ink';
import React, { useEffect, useMemo, useRef, useState } from 'react';
import type { PermissionAnswer, PermissionRequest, RuleScope } from '../base/permission-types.js';
import type { Coverage } from '../core/policy/coverage.js';
import { DiffView } from './DiffView.js';
import * as B from './input-buffer.js';
import { useKeys } from './key-router.js';
import { buildPreview, type Preview } from './permission-preview.js';
import { handleKey } from './PromptInput.js';
import { symbols } from './theme.js';
import { displayName } from './tool-views/index.js';
import { useView } from './view-context.js';
import { useAnswerOnce } from './hooks/use-answer-once.js';

export interface PermissionDialogProps {
  readonly request: PermissionRequest;
  readonly onAnswer: (answer: PermissionAnswer) => void;
  /** Other requests queued behind this one. */
  readonly waiting?: number;
  /** Rows the preview (diff, command) may take. */
  readonly maxPreviewRows?: number;
  /** Where "don't ask again" rules are saved, for the label. */
  readonly rulesFile?: string;
  /** What the suggested rules would have allowed among this project's past calls (shown with answer 2). */
  readonly pastCalls?: (toolName: string, rules: readonly string[]) => Promise<Coverage>;
}

interface Choice {
  key: '1' | '2' | '3';
  label: string;
}

/** Where answer 2 may keep its rule, in the order ←/→ walk them. */
const SCOPES: ReadonlyArray<{ scope: RuleScope; name: string; place?: string }> = [
  { scope: 'session', name: 'this session' },
  { scope: 'projectSettings', name: 'this project (shared)', place: '.claude/settings.json' },
  { scope: 'localSettings', name: 'this project (only you)' },
  { scope: 'userSettings', name: 'everywhere (your user settings)', place: '~/.claude/settings.json' },
];
const DEFAULT_SCOPE = 2;

export function PermissionDialog(props: PermissionDialogProps): React.ReactElement {
  const { request, waiting = 0, maxPreviewRows = 20, rulesFile = '.claude/settings.local.json' } = props;
  const { cwd, theme } = useView();
  const preview = useMemo(() => buildPreview(request, cwd), [request, cwd]);
  const [scope, setScope] = useState(DEFAULT_SCOPE);
  const choices = useMemo(() => choicesFor(request, scopePlace(scope, rulesFile)), [request, rulesFile, scope]);
  const { selected, typing } = useDialogKeys(request, choices, props.onAnswer, { scope, setScope });
  const coverage = usePastCalls(request, props.pastCalls);

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('warn')} paddingX={1}>
      <Text bold color={theme.color('warn')}>
        {`${displayName(request.toolName)}${waiting ? `  (${waiting} more waiting)` : ''}`}
      </Text>
      <PreviewView preview={preview} maxRows={maxPreviewRows} />
      <Text dimColor wrap="wrap">{`Asks because ${request.reason}`}</Text>
      <Box marginTop={1}>
        <Text>{preview.question}</Text>
      </Box>
      {choices.map((c, i) => {
        const on = i === selected && typing === undefined;
        return (
          <Box key={c.key}>
            <Text color={on ? theme.color('accent') : undefined}>{`${on ? symbols.pointer : ' '} ${c.key}. `}</Text>
            <Box flexShrink={1}>
              <Text color={on ? theme.color('accent') : undefined} wrap="wrap">
                {c.label}
              </Text>
            </Box>
          </Box>
        );
      })}
      {choices[selected]?.key === '2' && typing === undefined ? <ScopeLine scope={scope} /> : null}
      {choices[selected]?.key === '2' && typing === undefined && coverage ? (
        <Text dimColor wrap="wrap">
          {coverageText(coverage)}
        </Text>
      ) : null}
      {typing !== undefined ? <ReasonField value={typing} /> : null}
    </Box>
  );
}

/** 1/2/3, arrows + Enter, Esc; after 3, a text field for what to do instead. Answers once. */
function useDialogKeys(
  request: PermissionRequest,
  choices: Choice[],
  onAnswer: (a: PermissionAnswer) => void,
  where: { scope: number; setScope: (n: number) => void },
): { selected: number; typing?: B.Buffer } {
  const scopeNow = useRef(where.scope);
  const [selected, setSelectedState] = useState(0);
  const [typing, setTypingState] = useState<B.Buffer | undefined>(undefined);
  // Keys can arrive before React subscribes the new handler: keep the state in refs too.
  const sel = useRef(0);
  const text = useRef<B.Buffer | undefined>(undefined);
  const setSelected = (n: number) => setSelectedState((sel.current = n));
  const setTyping = (b: B.Buffer | undefined) => setTypingState((text.current = b));
  const answer = useAnswerOnce<PermissionAnswer>(onAnswer);
  const plan = request.toolName === 'ExitPlanMode';
  const pick = (key: Choice['key']) => {
    // A plan is approved with the mode to go on in: 1 accepts edits, 2 asks for each.
    if (plan && key !== '3') answer({ behavior: 'allow', mode: key === '1' ? 'acceptEdits' : 'default' });
    else if (key === '1') answer({ behavior: 'allow' });
    else if (key === '2' && request.suggestions.length) {
      const rememberIn = SCOPES[scopeNow.current]!.scope;
      answer({ behavior: 'allow', remember: [...request.suggestions], ...(rememberIn === 'localSettings' ? {} : { rememberIn }) });
    } else if (key === '3') setTyping(B.emptyBuffer);
  };
  // "No" stops the turn; what the person types instead becomes the next prompt.
  // A plan the person wants changed goes back to the model with what to change, and planning goes on.
  const no = (instead?: string) =>
    plan && instead?.trim()
      ? answer({ behavior: 'deny', message: instead.trim() })
      : answer({ behavior: 'deny', interrupt: true, ...(instead?.trim() ? { message: instead.trim() } : {}) });
  useKeys((input, key) => {
    const buf = text.current;
    if (buf !== undefined) {
      if (key.escape) return no();
      const r = handleKey(input, key, buf, {});
      const done = r === 'submit' ? B.expand(buf) : r && typeof r === 'object' && 'then' in r ? B.expand(r.then) : undefined;
      if (done !== undefined) return no(done);
      if (r && typeof r === 'object') setTyping(r as B.Buffer);
      return;
    }
    if (key.escape) return no();
    if (input === '1' || input === '2' || input === '3') return pick(input);
    if ((key.leftArrow || key.rightArrow) && choices[sel.current]?.key === '2') {
      scopeNow.current = (scopeNow.current + (key.rightArrow ? 1 : SCOPES.length - 1)) % SCOPES.length;
      return where.setScope(scopeNow.current);
    }
    if (key.upArrow) setSelected((sel.current + choices.length - 1) % choices.length);
    else if (key.downArrow || key.tab) setSelected((sel.current + 1) % choices.length);
    else if (key.return) pick(choices[sel.current]!.key);
  });
  return { selected, ...(typing ? { typing } : {}) };
}

/** Where answer 2 keeps its rule, for its label. */
function scopePlace(scope: number, rulesFile: string): string {
  const s = SCOPES[scope]!;
  if (s.scope === 'session') return 'for this session only';
  return `saved to ${s.place ?? rulesFile}`;
}

function choicesFor(request: PermissionRequest, place: string): Choice[] {
  if (request.toolName === 'ExitPlanMode')
    return [
      { key: '1', label: 'Yes, and auto-accept edits' },
      { key: '2', label: 'Yes, and manually approve edits' },
      { key: '3', label: 'No, keep planning (tell wicket what to change)' },
    ];
  const out: Choice[] = [{ key: '1', label: 'Yes' }];
  if (request.suggestions.length) out.push({ key: '2', label: `Yes, and don't ask again for ${request.suggestions.join(', ')} (${place})` });
  out.push({ key: '3', label: 'No, and tell wicket what to do instead (esc)' });
  return out;
}

/** The past calls the suggested rules would have allowed, once known (nothing while they are looked up, or when that fails). */
function usePastCalls(request: PermissionRequest, pastCalls: PermissionDialogProps['pastCalls']): Coverage | undefined {
  const [coverage, setCoverage] = useState<Coverage | undefined>(undefined);
  useEffect(() => {
    if (!pastCalls || !request.suggestions.length) return;
    let live = true;
    pastCalls(request.toolName, request.suggestions).then(
      (c) => live && setCoverage(c),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [request, pastCalls]);
  return coverage;
}

function coverageText(c: Coverage): string {
  const never = c.never ? `\n     ${c.never}` : '';
  if (!c.count) return `     Among this project's past calls, it would have allowed none that asked.${never}`;
  const shown = c.examples.map((e) => (e.length > 60 ? `${e.slice(0, 57)}...` : e)).join(' | ');
  return `     Among this project's past calls, it would also have allowed ${c.count} without asking: ${shown}${c.count > c.examples.length ? ' | ...' : ''}${never}`;
}

function ScopeLine({ scope }: { scope: number }): React.ReactElement {
  const { theme } = useView();
  return (
    <Text dimColor wrap="wrap">
      {'     ←/→ where: '}
      {SCOPES.map((s, i) => (
        <Text key={s.scope} color={i === scope ? theme.color('accent') : undefined} bold={i === scope}>
          {`${i ? ' · ' : ''}${s.name}`}
        </Text>
      ))}
    </Text>
  );
}

function ReasonField({ value }: { value: B.Buffer }): React.ReactElement {
  const { theme } = useView();
  const before = value.text.slice(0, value.cursor);
  const at = value.text[value.cursor] ?? ' ';
  const after = value.text.slice(value.cursor + 1);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text dimColor>What should wicket do instead? (Enter sends it as your next message, Esc just says no)</Text>
      <Text wrap="wrap">
        <Text color={theme.color('accent')}>{`${symbols.prompt} `}</Text>
        {before}
        <Text inverse>{at === '\n' ? ' ' : at}</Text>
        {after}
      </Text>
    </Box>
  );
}

function PreviewView({ preview, maxRows }: { preview: Preview; maxRows: number }): React.ReactElement {
  const { theme } = useView();
  switch (preview.kind) {
    case 'diff':
      return (
        <Box flexDirection="column" marginY={1}>
          <Text bold>{preview.file}</Text>
          {preview.diff ? <DiffView diff={preview.diff} maxRows={maxRows} theme={theme} /> : <Text dimColor>(no change)</Text>}
        </Box>
      );
    case 'command':
      return (
        <Box flexDirection="column" marginY={1} paddingLeft={2}>
          <Text wrap="wrap">{clip(preview.command, maxRows)}</Text>
          {preview.description ? (
            <Text dimColor wrap="wrap">
              {preview.description}
            </Text>
          ) : null}
        </Box>
      );
    case 'url':
      return (
        <Box flexDirection="column" marginY={1} paddingLeft={2}>
          <Text color={theme.color('accent')} wrap="wrap">
            {preview.url}
          </Text>
          {preview.prompt ? (
            <Text dimColor wrap="wrap">
              {clip(preview.prompt, 3)}
            </Text>
          ) : null}
        </Box>
      );
    case 'text':
      return (
        <Box marginY={1} paddingLeft={2}>
          <Text wrap="wrap">{clip(preview.text, maxRows)}</Text>
        </Box>
      );
  }
}

function clip(s: string, maxLines: number): string {
  const lines = s.split('\n');
  return lines.length <= maxLines ? s : `${lines.slice(0, maxLines).join('\n')}\n… ${lines.length - maxLines} more lines`;
}
