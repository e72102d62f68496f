/**
 * The functions of node:fs/promises that wicket uses, loading that module on the first call:
 * it costs about 5 ms at start-up, and a run that only talks never needs it. Same signatures.
 */
type Fsp = typeof import('node:fs/promises');

const fsp = (): Fsp => process.getBuiltinModule('node:fs/promises');

function lazy<K extends keyof Fsp>(name: K): Fsp[K] {
  return ((...args: unknown[]) => (fsp()[name] as (...a: unknown[]) => unknown)(...args)) as Fsp[K];
}

export const mkdir = lazy('mkdir');
export const open = lazy('open');
export const readFile = lazy('readFile');
export const readdir = lazy('readdir');
export const realpath = lazy('realpath');
export const rm = lazy('rm');
export const stat = lazy('stat');
export const truncate = lazy('truncate');
