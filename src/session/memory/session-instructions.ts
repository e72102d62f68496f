/**
 * A session's instruction files: found once at the start (discover.ts) and found again when one
 * changes through /memory or `#`; each conversation (the main one, each sub-agent's) keeps which files
 * it was given, so a file that a touch brings is given once, until a compaction starts over.
 */
import { discoverInstructions, type DiscoverOptions } from './discover.js';
import { externalImports } from './external-imports.js';
import { asRecorded, changedSince, type RecordedFile, type RecordedInstructions, rereadReminder } from './recorded.js';
import { agentsForRead } from './agents-md-read.js';
import { filesForTouch, waitingRules } from './nested.js';
import { instructionsReport } from './report.js';
import { AGENTS_CONTEXT, instructionsText, reminder, type TouchVia, touchReminders, withheldText } from './render.js';
import type { Discovery, InstructionFile, SkippedFile } from './types.js';

/** A reminder given on touch: `<system-reminder>\nContents of <path>:\n\n…`. */
const TOUCH_REMINDER = /^<system-reminder>\nContents of (.+?):\n\n/;
/** The AGENTS.md files of a read, together: `<system-reminder>\n<hook words>Contents of <path>:\n\n…`. */
const AGENTS_REMINDERS = Object.values(AGENTS_CONTEXT).map((words) => `<system-reminder>\n${words}`);

export interface TouchedInstructions {
  /** Texts to add after the tool results, in order. */
  blocks: string[];
  /** Each file given, and the file whose touch brought it. */
  given: Array<{ file: InstructionFile; trigger: string }>;
}

export class SessionInstructions {
  private found: Discovery;
  private opts: DiscoverOptions;

  constructor(options: DiscoverOptions) {
    this.opts = options;
    this.found = discoverInstructions(options);
  }

  get options(): DiscoverOptions {
    return this.opts;
  }

  /** The start's files, in the order the model reads them. */
  files(): readonly InstructionFile[] {
    return this.found.files;
  }

  /** The files left out, and why. */
  skipped(): readonly SkippedFile[] {
    return this.found.skipped;
  }

  /** The rules with `paths:` that wait for a matching file. */
  waiting(): InstructionFile[] {
    return waitingRules(this.options);
  }

  /** What was loaded, why and how large; what waits; what was left out (`wicket config`, /memory). */
  report(): string[] {
    return instructionsReport({
      files: this.files(),
      waiting: this.waiting(),
      skipped: this.skipped(),
      ...(this.options.autoMemoryDir ? { memoryDir: this.options.autoMemoryDir } : {}),
    });
  }

  /** How many times the files were read again. */
  generation = 0;

  /** Reads the files again (one was edited); the next request carries them. */
  reload(): void {
    this.found = discoverInstructions(this.options);
    this.generation++;
  }

  /** Whether an import from outside the working directory was left out, waiting for the person's answer. */
  waitsForExternalApproval(): boolean {
    return !this.opts.externalApproved && !this.opts.externalDeclined && this.found.skipped.some((s) => s.external);
  }

  /** The imports from outside the working directory that approval would bring, as Claude Code lists them. */
  externalImports(): Array<{ path: string; parent?: string }> {
    return externalImports(this.opts);
  }

  /** The person answered: approved, the imports from outside are read from now on. */
  answerExternal(approved: boolean): void {
    this.opts = approved ? { ...this.opts, externalApproved: true, externalDeclined: false } : { ...this.opts, externalDeclined: true };
    this.reload();
  }

  /** A conversation's view: `omitted` gives only the managed files (Explore and Plan sub-agents). */
  conversation(omitted = false): ConversationInstructions {
    return new ConversationInstructions(this, omitted);
  }
}

export class ConversationInstructions {
  private given = new Set<string>();
  /** Files an earlier run of the conversation was given (a resumed one), with the text it was given. */
  private earlier = new Map<string, string>();
  /** A resumed conversation's head: the start's files as first given (recorded.ts). */
  private head: InstructionFile[] | undefined;
  /** The start's files that changed since they were recorded, for the next prompt. */
  private reread: InstructionFile[] = [];
  /** The start's files are recorded with the next prompt (a conversation that recorded none yet). */
  private unrecorded = true;
  /** The session's reload count when the head was taken: a file edited since (/memory, #) is given as it is now. */
  private headGeneration = -1;

  constructor(
    readonly session: SessionInstructions,
    private readonly omitted: boolean,
  ) {
    this.startOver();
  }

  /** The files the conversation starts with. */
  startFiles(): readonly InstructionFile[] {
    const all = this.session.files();
    return this.omitted ? all.filter((f) => f.type === 'Managed') : all;
  }

  /** The texts at the head of the first user message: the files, then the note on files kept out. */
  startBlocks(): string[] {
    const head = this.head && this.headGeneration === this.session.generation ? this.head : undefined;
    const text = instructionsText(head ?? this.startFiles());
    const denied = this.omitted ? [] : this.session.skipped().filter((s) => s.denied);
    const note = withheldText(denied);
    return [...(text ? [reminder(text)] : []), ...(note ? [reminder(note)] : [])];
  }

  /**
   * The files that touching `paths` brings and the conversation has not been given (nor read by
   * itself, `seen`); they count as given from now on. Those of `paths` that were read (not edited
   * or written) bring their folders' AGENTS.md files too. `via`: what touched them.
   */
  touched(paths: readonly string[], seen: (file: string) => boolean = () => false, reads: readonly string[] = [], via: TouchVia = 'tool'): TouchedInstructions {
    if (this.omitted || !paths.length) return { blocks: [], given: [] };
    const files: InstructionFile[] = [];
    const denied: SkippedFile[] = [];
    const given: TouchedInstructions['given'] = [];
    const texts = new Set(this.startFiles().map((f) => f.content.trim()));
    for (const trigger of paths) {
      const skipped: SkippedFile[] = [];
      const agents = reads.includes(trigger) ? agentsForRead(trigger, this.session.options, skipped) : [];
      for (const file of [...filesForTouch(trigger, this.session.options, skipped), ...agents]) {
        if ((this.given.has(file.path) && !this.changedSinceEarlier(file)) || seen(file.path)) continue;
        this.earlier.delete(file.path);
        if (file.agents && texts.has(file.content.trim())) continue;
        texts.add(file.content.trim());
        this.given.add(file.path);
        files.push(file);
        given.push({ file, trigger });
      }
      for (const s of skipped.filter((s) => s.denied && !this.given.has(`denied:${s.path}`))) {
        this.given.add(`denied:${s.path}`);
        denied.push(s);
      }
    }
    return { blocks: files.length || denied.length ? touchReminders(files, denied, via) : [], given };
  }

  /**
   * A conversation that goes on (resumed, or the next prompt): the files its messages already hold
   * (`Contents of <path>:` reminders) count as given. One an earlier run gave (a resumed
   * conversation) comes again on its next touch if its text has changed since, as in Claude Code.
   */
  remember(texts: Iterable<string>): void {
    for (const text of texts) {
      const m = TOUCH_REMINDER.exec(text);
      if (m?.[1] && !this.given.has(m[1])) this.earlier.set(m[1], text.slice(m[0].length).replace(/\n<\/system-reminder>\n?$/, ''));
      if (m?.[1]) this.given.add(m[1]);
      const agents = AGENTS_REMINDERS.find((start) => text.startsWith(start));
      if (!agents) continue;
      for (const [, file] of text.slice(agents.length).matchAll(/(?:^|\n)Contents of (\/.*?):\n\n/g)) if (file) this.given.add(file);
    }
  }

  /** A file an earlier run gave whose text is not what it gave. */
  private changedSinceEarlier(file: InstructionFile): boolean {
    const was = this.earlier.get(file.path);
    return was !== undefined && was !== file.content;
  }

  /** After a compaction: only the start's files count as given; files brought by touches come again. */
  startOver(): void {
    this.earlier.clear();
    this.given = new Set(this.session.files().map((f) => f.path));
    this.head = undefined;
    this.reread = [];
  }

  /**
   * A resumed conversation: its head stays the start's files as its transcript recorded them, and
   * those that changed since (or are new) are given again with the next prompt, as Claude Code does.
   * A transcript that recorded none (an older one) gets the files as they are now, recorded then.
   */
  resumed(recorded: RecordedInstructions | undefined): void {
    if (this.omitted || !recorded) return;
    this.head = recorded.head.map((f) => ({ ...f }));
    this.headGeneration = this.session.generation;
    this.reread = changedSince(this.startFiles(), recorded);
    this.unrecorded = false;
  }

  /** At a prompt: the reminders to put before it, and the files for the transcript to record. */
  atPrompt(): { blocks: string[]; record?: { files: RecordedFile[]; changed?: true } } {
    if (this.omitted) return { blocks: [] };
    if (this.unrecorded) {
      this.unrecorded = false;
      const files = this.startFiles();
      return files.length ? { blocks: [], record: { files: files.map(asRecorded) } } : { blocks: [] };
    }
    const files = this.reread;
    this.reread = [];
    // A line end after it, as Claude Code's reminders before a prompt have.
    return files.length ? { blocks: [`${rereadReminder(files)}\n`], record: { files: files.map(asRecorded), changed: true } } : { blocks: [] };
  }

  /** A sub-agent's own view (its own record of what it was given). */
  forSubagent(omitted: boolean): ConversationInstructions {
    return this.session.conversation(omitted);
  }
}
