/**
 * The keys wicket binds by default, as Claude Code binds them (its names for contexts and actions),
 * for the actions the app has. `~/.claude/keybindings.json` adds to them and overrides them.
 */
import type { BindingBlock } from './parse.js';
import { chordId, parseChord } from './parse.js';

const DEFAULTS: Array<{ context: string; bindings: Record<string, string> }> = [
  {
    context: 'Global',
    bindings: { 'ctrl+c': 'app:interrupt', 'ctrl+d': 'app:exit', 'ctrl+o': 'app:toggleTranscript', 'ctrl+r': 'history:search' },
  },
  {
    context: 'Chat',
    bindings: {
      escape: 'chat:cancel',
      'shift+tab': 'chat:cycleMode',
      'ctrl+l': 'chat:clearInput',
      enter: 'chat:submit',
      'ctrl+j': 'chat:newline',
      up: 'history:previous',
      down: 'history:next',
      'ctrl+g': 'chat:externalEditor',
      'ctrl+x ctrl+e': 'chat:externalEditor',
      'ctrl+v': 'chat:imagePaste',
      'alt+p': 'chat:modelPicker',
    },
  },
  { context: 'Autocomplete', bindings: { tab: 'autocomplete:accept' } },
  { context: 'Task', bindings: { 'ctrl+b': 'task:background' } },
  { context: 'Transcript', bindings: { 'ctrl+c': 'transcript:exit', escape: 'transcript:exit', q: 'transcript:exit' } },
];

export function defaultBlocks(): BindingBlock[] {
  return DEFAULTS.map(({ context, bindings }) => ({
    context,
    bindings: new Map(Object.entries(bindings).map(([keys, action]) => [chordId(parseChord(keys)!), action])),
  }));
}
