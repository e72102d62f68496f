/**
 * The parts of vscode-languageserver-protocol (and vscode-jsonrpc under it) the client uses. It is the
 * entry of a bundle of its own (build.mjs), loaded only when a session starts a language server.
 */
export { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
