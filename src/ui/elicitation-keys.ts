/**
 * The keys of the elicitation dialog, as a pure function of its state: ↑/↓ (Tab) move between the
 * fields and the row of buttons; on a text or number field typing edits it; Space or ←/→ toggle a
 * boolean and pick a choice; on a multiple choice ←/→ move and Space ticks; Enter goes to the next
 * row, and on the buttons presses the one chosen; Esc cancels.
 */
import type { Key } from 'ink';
import type { ElicitAction } from '../mcp/elicitation.js';
import type { FieldInput, FormField } from '../mcp/elicitation-form.js';

export const BUTTONS: readonly ElicitAction[] = ['accept', 'decline', 'cancel'];

export interface FormState {
  inputs: Record<string, FieldInput>;
  /** The row with the focus: a field's index, or fields.length for the buttons. */
  focus: number;
  /** The chosen button (index in BUTTONS). */
  button: number;
  /** Multiple-choice fields: the option under the cursor. */
  cursor: Record<string, number>;
}

export function startState(fields: readonly FormField[], inputs: Record<string, FieldInput>): FormState {
  return { inputs, focus: fields.length ? 0 : fields.length, button: 0, cursor: {} };
}

/** The new state, and the button pressed, if one was. */
export function formKey(s: FormState, fields: readonly FormField[], input: string, key: Key): { state: FormState; press?: ElicitAction } {
  if (key.escape) return { state: s, press: 'cancel' };
  const rows = fields.length + 1;
  if (key.upArrow) return { state: { ...s, focus: Math.max(0, s.focus - 1) } };
  if (key.downArrow || (key.tab && !key.shift)) return { state: { ...s, focus: Math.min(rows - 1, s.focus + 1) } };
  const field = fields[s.focus];
  if (!field) return buttonKey(s, input, key);
  if (key.return) return { state: { ...s, focus: s.focus + 1 } };
  const value = fieldKey(field, s.inputs[field.name], s.cursor[field.name] ?? 0, input, key);
  if (!value) return { state: s };
  return { state: { ...s, inputs: { ...s.inputs, [field.name]: value.input }, cursor: { ...s.cursor, [field.name]: value.cursor } } };
}

function buttonKey(s: FormState, input: string, key: Key): { state: FormState; press?: ElicitAction } {
  if (key.return || input === ' ') return { state: s, press: BUTTONS[s.button] };
  if (key.leftArrow) return { state: { ...s, button: (s.button + BUTTONS.length - 1) % BUTTONS.length } };
  if (key.rightArrow) return { state: { ...s, button: (s.button + 1) % BUTTONS.length } };
  return { state: s };
}

function fieldKey(f: FormField, now: FieldInput | undefined, cursor: number, input: string, key: Key): { input: FieldInput; cursor: number } | undefined {
  if (f.kind === 'boolean') {
    if (input === ' ' || key.leftArrow || key.rightArrow) return { input: now !== true, cursor };
    if (input === 'y' || input === 'n') return { input: input === 'y', cursor };
    return undefined;
  }
  if (f.kind === 'choice') {
    const step = key.leftArrow ? -1 : key.rightArrow || input === ' ' ? 1 : 0;
    if (!step || !f.options.length) return undefined;
    const at = f.options.findIndex((o) => o.value === now);
    const next = at < 0 ? (step > 0 ? 0 : f.options.length - 1) : (at + step + f.options.length) % f.options.length;
    return { input: f.options[next]!.value, cursor };
  }
  if (f.kind === 'multi') {
    const chosen = Array.isArray(now) ? now : [];
    if (key.leftArrow || key.rightArrow) return { input: chosen, cursor: Math.min(f.options.length - 1, Math.max(0, cursor + (key.leftArrow ? -1 : 1))) };
    const option = f.options[cursor];
    if (input !== ' ' || !option) return undefined;
    return { input: chosen.includes(option.value) ? chosen.filter((v) => v !== option.value) : [...chosen, option.value], cursor };
  }
  const text = typeof now === 'string' ? now : '';
  if (key.backspace || key.delete) return { input: [...text].slice(0, -1).join(''), cursor };
  // Several backspaces that arrive together come as one input.
  if (/^[\x7f\b]+$/.test(input)) return { input: [...text].slice(0, -input.length).join(''), cursor };
  if (key.ctrl && input === 'u') return { input: '', cursor };
  if (!input || key.ctrl || key.meta || key.leftArrow || key.rightArrow) return undefined;
  const typed = input.replace(/[\r\n]+/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
  return typed ? { input: text + typed, cursor } : undefined;
}
