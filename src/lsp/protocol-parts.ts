/**
 * The language server client: vscode-languageserver-protocol (and vscode-jsonrpc under it) and
 * wicket's client on it (one server process, the LSP tool's requests). It is the entry of a bundle of
 * its own (build.mjs), loaded only when a session starts a language server.
 */
export { LspServer } from './server.js';
export { answerQuery } from './queries.js';
