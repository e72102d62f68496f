/**
 * The app's hand on the instruction files: `# text` asks where the line goes and adds it there;
 * /memory opens a file in the editor. Either way the files are read again, so the next request
 * carries the change.
 */
import { useStdin } from 'ink';
import { useState } from 'react';
import type { AgentOptions } from '../../core/agent-options.js';
import { appendMemoryLine, type MemoryTarget, memoryTargets } from '../../session/memory/quick-add.js';
import { openInEditor } from '../external-editor.js';

type Info = (text: string, tone?: 'info' | 'warning' | 'error') => void;

export interface MemoryHandle {
  /** The `# text` waiting for a file to go to. */
  pending?: { note: string; targets: MemoryTarget[] };
  /** Asks where `note` goes; false when there are no instruction files in this session. */
  remember(note: string): boolean;
  choose(target: MemoryTarget | undefined): void;
  edit(file: string): void;
}

export function useMemory(base: Omit<AgentOptions, 'signal' | 'askUser'>, cwd: string, configDir: string, info: Info): MemoryHandle {
  const [pending, setPending] = useState<MemoryHandle['pending']>();
  const { setRawMode, isRawModeSupported } = useStdin();
  const session = base.instructions?.session;
  return {
    ...(pending ? { pending } : {}),
    remember(note) {
      if (!session) return false;
      const memoryDir = session.options.autoMemoryDir;
      setPending({ note, targets: memoryTargets({ cwd, configDir, ...(memoryDir ? { memoryDir } : {}) }).filter((t) => t.name !== 'auto') });
      return true;
    },
    choose(target) {
      const note = pending?.note;
      setPending(undefined);
      if (!target || !note) return info('Not saved.');
      appendMemoryLine(target.file, note).then(
        () => {
          session?.reload();
          info(`Saved to ${target.file}.`);
        },
        (err: unknown) => info(`Could not save to ${target.file}: ${(err as Error).message}`, 'error'),
      );
    },
    edit(file) {
      const failed = openInEditor(file, process.env, isRawModeSupported ? setRawMode : undefined);
      if (failed) return info(failed, 'error');
      session?.reload();
      info(`${file}: the next request carries what you saved.`);
    },
  };
}
