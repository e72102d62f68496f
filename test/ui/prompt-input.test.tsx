import { render } from 'ink-testing-library';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import * as B from '../../src/ui/input-buffer.js';
import { HistoryCursor } from '../../src/ui/history.js';
import { PromptInput } from '../../src/ui/PromptInput.js';
import { keys, tick, waitFor } from './helpers.js';

function Harness({ onSubmit, history = [] }: { onSubmit: (text: string) => void; history?: string[] }) {
  const [value, setValue] = useState(B.emptyBuffer);
  const [cursor] = useState(() => new HistoryCursor([...history]));
  return (
    <PromptInput
      value={value}
      onChange={setValue}
      onSubmit={(b) => {
        onSubmit(B.expand(b));
        cursor.push(B.expand(b));
        setValue(B.emptyBuffer);
      }}
      onHistory={(dir, cur) => {
        const e = dir === -1 ? cursor.up(cur.text) : cursor.down();
        return e === undefined ? undefined : B.fromText(e);
      }}
      placeholder="Ask"
    />
  );
}

async function setup(history?: string[]) {
  const onSubmit = vi.fn<(t: string) => void>();
  const r = render(<Harness onSubmit={onSubmit} history={history} />);
  await tick();
  const type = async (s: string) => {
    r.stdin.write(s);
    await tick();
  };
  return { ...r, onSubmit, type };
}

describe('PromptInput', () => {
  it('shows a placeholder, then the text with the cursor', async () => {
    const { lastFrame, type } = await setup();
    expect(lastFrame()).toMatchInlineSnapshot(`
      "────────────────────────────────────────────────────────────────────────────────────────────────────
      ❯  Ask
      ────────────────────────────────────────────────────────────────────────────────────────────────────"
    `);
    await type('fix it');
    await type(keys.left);
    await type(keys.left);
    expect(lastFrame()).toMatchInlineSnapshot(`
      "────────────────────────────────────────────────────────────────────────────────────────────────────
      ❯ fix it
      ────────────────────────────────────────────────────────────────────────────────────────────────────"
    `);
  });

  it('edits in the middle and submits with Enter', async () => {
    const { type, onSubmit } = await setup();
    await type('helo');
    await type(keys.left);
    await type('l');
    await type(keys.enter);
    expect(onSubmit).toHaveBeenCalledWith('hello');
  });

  it('backslash then Enter, and Alt+Enter, start a new line', async () => {
    const { type, onSubmit, lastFrame } = await setup();
    await type('first\\');
    await type(keys.enter);
    await type('second');
    await type(keys.altEnter);
    await type('third');
    expect(lastFrame()).toMatchInlineSnapshot(`
      "────────────────────────────────────────────────────────────────────────────────────────────────────
      ❯ first
        second
        third
      ────────────────────────────────────────────────────────────────────────────────────────────────────"
    `);
    await type(keys.enter);
    expect(onSubmit).toHaveBeenCalledWith('first\nsecond\nthird');
  });

  it('a large bracketed paste is shown collapsed and sent whole', async () => {
    const { type, onSubmit, lastFrame } = await setup();
    const big = Array.from({ length: 40 }, (_, i) => `row ${i}`).join('\n');
    await type('look: ');
    await type(keys.pasteStart);
    await type(big.replace(/\n/g, '\r'));
    await type(keys.pasteEnd);
    expect(lastFrame()).toContain('look: [Pasted text #1 +40 lines]');
    await type(keys.enter);
    expect(onSubmit).toHaveBeenCalledWith(`look: ${big}`);
  });

  it('a small paste with newlines is inserted as text and not sent', async () => {
    const { type, onSubmit, lastFrame } = await setup();
    await type(`${keys.pasteStart}a\rb${keys.pasteEnd}`);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()).toContain('b');
  });

  it('Up and Down walk the history and come back to the draft', async () => {
    const { type, lastFrame } = await setup(['older', 'newer']);
    await type('draft');
    await type(keys.up);
    expect(lastFrame()).toContain('newer');
    await type(keys.up);
    expect(lastFrame()).toContain('older');
    await type(keys.down);
    await type(keys.down);
    await waitFor(() => expect(lastFrame()).toContain('draft'));
  });

  it('keys typed faster than a render are all kept', async () => {
    const { stdin, onSubmit } = await setup();
    for (const ch of 'quick') stdin.write(ch);
    await tick();
    stdin.write(keys.enter);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('quick'));
  });
});

describe('input buffer', () => {
  it('moves by words and lines and deletes a paste placeholder at once', () => {
    let b = B.fromText('one two\nthree');
    b = B.wordLeft(b);
    expect(b.cursor).toBe(8);
    b = B.verticalMove(b, -1)!;
    expect(B.cursorPos(b)).toEqual({ line: 0, col: 0, lines: 2 });
    expect(B.verticalMove(b, -1)).toBeUndefined();
    const p = B.paste(B.emptyBuffer, 'x\n'.repeat(20));
    expect(p.text).toBe('[Pasted text #1 +20 lines]');
    expect(B.backspace(p)).toEqual(B.emptyBuffer);
  });
});
