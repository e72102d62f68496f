/**
 * Which saved session a run continues (`--continue`: the latest in this project; in the app, as in
 * Claude Code's, the latest one not started by print mode or the SDK; `--resume <id or name>`), and
 * under which id it goes on: the same one, appending to its file, as Claude Code does; a new one with
 * `--fork-session` (or `--session-id`), whose file then starts with the history it continues.
 */
import path from 'node:path';
import { FatalError } from '../base/errors.js';
import { legacySessionsRoot, transcriptFile } from './paths.js';
import { findSession, latestSessionFile, type SessionPlaces, sessionFiles } from './session-list.js';
import { loadSession, type SavedSession } from './transcript-read.js';
import { TranscriptWriter, type TranscriptMeta } from './transcript.js';

export interface ResumeOptions {
  continue: boolean;
  /** Print mode (or the SDK's): false in the app, whose --continue passes over print-mode sessions. */
  print?: boolean;
  resume?: string | true;
  forkSession?: boolean;
  sessionId?: string;
}

/** The session file a run continues, or undefined for a fresh session. An id or name that matches none is an error. */
export function resumeFile(opts: ResumeOptions, places: SessionPlaces): string | undefined {
  if (typeof opts.resume === 'string') {
    const file = findSession(opts.resume, places);
    if (!file) throw new FatalError('config', unknownSession(opts.resume, opts.print !== false, places.cwd));
    return file;
  }
  if (opts.continue) {
    const file = latestSessionFile(places, opts.print === false);
    // As Claude Code's app says it (print mode starts a new session instead).
    if (!file && opts.print === false) throw new FatalError('config', 'No conversation found to continue');
    return file;
  }
  if (opts.resume === true) return latestSessionFile(places);
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What Claude Code's print mode says of a `--resume` value that names no session: an id it has no
 * file for, or a title none has. The app says it in its own words.
 */
function unknownSession(query: string, print: boolean, cwd: string): string {
  if (UUID.test(query.trim())) return `No conversation found with session ID: ${query.trim()}`;
  if (!print) return `no saved session "${query}" (by id or name) for ${cwd} or any other project`;
  return (
    '--resume requires a valid session ID or session title when used with --print. Usage: wicket -p --resume <session-id|title>. ' +
    `Provided value "${query}" is not a UUID and does not match any session title.`
  );
}

/**
 * The id the run writes under: --session-id, else the resumed session's (unless forking), else
 * undefined (a new one). A --session-id that a saved session of this project already has is refused,
 * as Claude Code refuses it, unless it is the session being resumed.
 */
export function continuedSessionId(opts: ResumeOptions, file: string | undefined, places?: SessionPlaces): string | undefined {
  if (opts.sessionId) {
    const resumesIt = file !== undefined && !opts.forkSession && path.basename(file, '.jsonl') === opts.sessionId;
    if (places && !resumesIt && sessionFiles(places).some((f) => f.id === opts.sessionId))
      throw new FatalError('config', `Session ID ${opts.sessionId} is already in use.`);
    return opts.sessionId;
  }
  return file && !opts.forkSession ? path.basename(file, '.jsonl') : undefined;
}

/**
 * The resumed conversation and its rewind points; `keepDeferred` (print mode) keeps a call a hook
 * deferred, to be run now; `at` (the SDK's resumeSessionAt) ends it at that message. A conversation
 * that ended on a user record goes on after Claude Code's stand-in reply (`noResponse`), which
 * openTranscript writes to the file.
 */
export function loadResumed(file: string | undefined, keepDeferred = false, at?: string): SavedSession {
  if (!file) return { messages: [], marks: [], chain: [], leaf: null };
  try {
    const saved = loadSession(file, { keepDeferred, ...(at !== undefined ? { at } : {}) });
    if (saved.noResponse) saved.messages.push({ role: 'assistant', content: structuredClone(saved.noResponse.content) });
    return saved;
  } catch (err) {
    throw new FatalError('config', `the saved session ${file} cannot be read: ${(err as Error).message}`);
  }
}

/**
 * The file the session writes: the resumed one when it goes on under its id (unless an older wicket
 * wrote it, in its own folder); else `<config dir>/projects/<slug>/<id>.jsonl`.
 */
export function sessionTranscriptPath(places: SessionPlaces, sessionId: string, resumed: string | undefined): string {
  const legacy = resumed !== undefined && !path.relative(legacySessionsRoot(places.wicketHome), resumed).startsWith('..');
  if (resumed && !legacy && path.basename(resumed, '.jsonl') === sessionId) return resumed;
  return transcriptFile(places.configDir, places.cwd, sessionId);
}

export interface TranscriptSetup {
  /** The file the session writes (sessionTranscriptPath). */
  transcriptPath: string;
  resumeFile?: string;
  options: { sessionId: string };
}

/**
 * The session's file: the resumed one, appended to, going on from where it stood; or a new one in
 * this project's folder, which starts with the history the run continues (a fork, or a session an
 * older wicket wrote elsewhere) and its rewind points, so that resuming it later brings all of it back.
 */
export function openTranscript(
  setup: TranscriptSetup,
  meta: Omit<TranscriptMeta, 'sessionId'>,
  saved: Pick<SavedSession, 'messages' | 'marks' | 'chain' | 'leaf' | 'noResponse'>,
  name?: string,
): TranscriptWriter {
  const continues = setup.resumeFile === setup.transcriptPath;
  const writer = new TranscriptWriter(
    setup.transcriptPath,
    { ...meta, sessionId: setup.options.sessionId },
    continues ? { leaf: saved.leaf, chain: saved.chain } : undefined,
  );
  if (continues && saved.noResponse) writer.message(saved.noResponse);
  if (!continues && saved.messages.length) writer.restart(saved.messages, 'fork', saved.marks);
  if (name?.trim()) writer.name(name.trim());
  return writer;
}
