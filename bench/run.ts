/** `npm run bench`: runs every benchmark in bench/ one after another and prints their figures. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const skip = new Set(['run.ts', 'measure.ts']);
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !skip.has(f) && !f.startsWith('_') && !f.includes('helper') && !f.includes('tree'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort((a, b) => (a === 'core.ts' ? -1 : b === 'core.ts' ? 1 : a.localeCompare(b)));

for (const f of files) {
  console.log(`\n== ${f.replace(/\.ts$/, '')} ==`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit', cwd: path.join(dir, '..') });
  if (r.status !== 0) console.log(`(${f} exited with ${r.status})`);
}
