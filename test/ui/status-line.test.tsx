import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { formatElapsed, formatTokens, StatusLine } from '../../src/ui/StatusLine.js';

describe('StatusLine', () => {
  it('idle: the mode and the model', () => {
    const { lastFrame } = render(<StatusLine status={{ working: false, startedAt: 0, tokens: 0 }} model="claude-sonnet-4-6" mode="default" />);
    expect(lastFrame()).toMatchInlineSnapshot(`"default mode (shift+tab to cycle)                                                  claude-sonnet-4-6"`);
  });

  it('working: spinner, elapsed time, tokens and how to interrupt', () => {
    const { lastFrame, unmount } = render(
      <StatusLine status={{ working: true, startedAt: 1000, tokens: 1234 }} model="claude-opus-4-7" mode="acceptEdits" queued={1} now={() => 73_000} />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "⠋ Working… (1m 12s · ↓ 1.2k tokens · esc to interrupt · 1 queued)
      ⏵⏵ accept edits on (shift+tab to cycle)                                              claude-opus-4-7"
    `);
    unmount();
  });

  it('working on a task of the model’s list: its activeForm replaces "Working"', () => {
    const { lastFrame, unmount } = render(
      <StatusLine status={{ working: true, startedAt: 0, tokens: 0, activity: 'Running the tests' }} model="m" mode="default" now={() => 2000} />,
    );
    expect(lastFrame()!.split('\n')[0]).toBe('⠋ Running the tests… (2s · esc to interrupt)');
    unmount();
  });

  it('a notice replaces the hints', () => {
    const { lastFrame } = render(<StatusLine status={{ working: false, startedAt: 0, tokens: 0 }} model="m" mode="plan" notice="Press Ctrl-C again to exit" />);
    expect(lastFrame()).toMatchInlineSnapshot(`"Press Ctrl-C again to exit                                                                         m"`);
  });

  it('formats tokens and time', () => {
    expect([formatTokens(999), formatTokens(1234), formatTokens(45_600)]).toEqual(['999', '1.2k', '46k']);
    expect([formatElapsed(5_400), formatElapsed(125_000)]).toEqual(['5s', '2m 05s']);
  });
});
