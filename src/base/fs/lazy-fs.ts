/**
 * The promise forms of the node:fs functions wicket uses, without loading node:fs/promises (and the
 * readline code it pulls in, about 5 ms at start-up) unless a file handle is asked for. Same
 * signatures as node:fs/promises.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';

type Fsp = typeof import('node:fs/promises');

/** Only file handles need node:fs/promises itself; it loads on the first call. */
export const open: Fsp['open'] = (...args) => process.getBuiltinModule('node:fs/promises').open(...args);

export const mkdir = promisify(fs.mkdir) as Fsp['mkdir'];
const readFileByPath = promisify(fs.readFile);
/** A path, or a file handle from `open` (read through the handle). */
export const readFile = ((file: unknown, opts?: unknown) =>
  typeof file === 'object' && file !== null && 'readFile' in file
    ? (file as import('node:fs/promises').FileHandle).readFile(opts as never)
    : readFileByPath(file as string, opts as never)) as Fsp['readFile'];
export const readdir = promisify(fs.readdir) as Fsp['readdir'];
// The native realpath, as node:fs/promises has it (fs.realpath walks the path in JavaScript).
export const realpath = promisify(fs.realpath.native) as Fsp['realpath'];
export const appendFile = promisify(fs.appendFile) as Fsp['appendFile'];
export const chmod = promisify(fs.chmod) as Fsp['chmod'];
export const copyFile = promisify(fs.copyFile) as Fsp['copyFile'];
export const rmdir = promisify(fs.rmdir) as Fsp['rmdir'];
export const statfs = promisify(fs.statfs) as Fsp['statfs'];
export const symlink = promisify(fs.symlink) as Fsp['symlink'];
export const rename = promisify(fs.rename) as Fsp['rename'];
export const rm = promisify(fs.rm) as Fsp['rm'];
export const stat = promisify(fs.stat) as Fsp['stat'];
export const lstat = promisify(fs.lstat) as Fsp['lstat'];
export const unlink = promisify(fs.unlink) as Fsp['unlink'];
export const truncate = promisify(fs.truncate) as Fsp['truncate'];
export const writeFile = promisify(fs.writeFile) as Fsp['writeFile'];
