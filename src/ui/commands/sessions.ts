/** /resume and /branch: go back to a saved session, or go on in a new one that holds this conversation. */
import type { SlashCommand } from './types.js';

export const resumeCommand: SlashCommand = {
  name: 'resume',
  argumentHint: '[id or name]',
  description: 'Resume a saved session: a list of this project’s (type to search), or the one named',
  source: 'builtin',
  run: (args) => ({ kind: 'resume', ...(args.trim() ? { query: args.trim() } : {}) }),
};

export const branchCommand: SlashCommand = {
  name: 'branch',
  description: 'Go on in a new session holding this conversation; this one stays as it is (/resume finds it)',
  source: 'builtin',
  run: (_args, s) =>
    s.transcriptPath && s.messageCount
      ? { kind: 'branch' }
      : { kind: 'info', text: s.transcriptPath ? 'Nothing to branch yet.' : 'This session is not being saved, so it cannot be branched.' },
};
