/**
 * write-file-atomic, required on first use. It is CommonJS: an import() of it would start Node's ES
 * module loader, which costs a run that writes a file several milliseconds.
 */
import { requireModule } from '../lib/import-module.js';

/** The promise form of write-file-atomic's default export. */
type WriteFileAtomic = (file: string, data: string | Buffer, opts?: { fsync?: boolean; mode?: number }) => Promise<void>;

export function writeFileAtomic(file: string, data: string | Buffer, opts?: { fsync?: boolean; mode?: number }): Promise<void> {
  return requireModule<WriteFileAtomic>('write-file-atomic')(file, data, opts);
}
