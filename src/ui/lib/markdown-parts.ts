/** What the app uses of marked and marked-terminal: the library bundle's entry (markdown-lib.ts). */
export { Marked } from 'marked';
export { markedTerminal } from 'marked-terminal';
