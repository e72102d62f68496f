/**
 * Language servers: the time an Edit gains from asking typescript-language-server for the new errors
 * of the file it changed, with the server warm, on a 200-file TypeScript project (each file imports
 * the one before). Edits alternate between breaking the types and fixing them, so half the answers
 * hold an error and half hold none. Also prints how long the cold start took (the first answer).
 * Needs the dev dependencies (typescript-language-server, typescript). Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLspSession } from '../src/lsp/session.js';
import { median } from './measure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILES = 200;
const EDITS = 12;

function makeProject(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-lsp-')));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler' } }),
  );
  mkdirSync(path.join(dir, 'src'));
  for (let i = 0; i < FILES; i++) {
    const prev = i === 0 ? '' : `import { value${i - 1}, type Shape${i - 1} } from './m${i - 1}';\n`;
    const body = [
      prev,
      `export interface Shape${i} { id: number; name: string; next?: Shape${i} }`,
      `export function make${i}(id: number): Shape${i} {`,
      `  return { id, name: 'n' + id${i === 0 ? '' : ` + value${i - 1}`} };`,
      '}',
      `export const value${i}: number = ${i};`,
      ...Array.from({ length: 20 }, (_, k) => `export const list${i}_${k}: Shape${i}[] = [make${i}(${k}), make${i}(${k + 1})];`),
      i === 0 ? '' : `export const prev${i}: Shape${i - 1} | undefined = undefined;`,
    ].join('\n');
    writeFileSync(path.join(dir, 'src', `m${i}.ts`), `${body}\n`);
  }
  mkdirSync(path.join(dir, 'node_modules'));
  execFileSync('cp', ['-al', path.join(ROOT, 'node_modules', 'typescript'), path.join(dir, 'node_modules', 'typescript')]);
  return dir;
}

async function main(): Promise<void> {
  const dir = makeProject();
  const env = { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` };
  const { lsp } = createLspSession({
    projectRoot: dir,
    additionalDirs: [],
    env: { ...env, WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS: '120000' },
    settings: {},
    pluginServers: [],
    trusted: false,
  });
  if (!lsp) throw new Error('language servers are off');
  const file = path.join(dir, 'src', `m${FILES - 1}.ts`);
  const signal = new AbortController().signal;
  const original = readFileSync(file, 'utf8');
  const broken = original.replace(`export const value${FILES - 1}: number = ${FILES - 1};`, `export const value${FILES - 1}: number = 'text';`);
  try {
    let t = performance.now();
    await lsp.beforeChange([file]);
    console.log(`cold start, first answer for the file: ${Math.round(performance.now() - t)} ms`);
    const added: number[] = [];
    let errorsSeen = 0;
    for (let i = 0; i < EDITS; i++) {
      t = performance.now();
      await lsp.beforeChange([file]);
      writeFileSync(file, i % 2 === 0 ? broken : original);
      const report = await lsp.afterChange([file], signal);
      added.push(performance.now() - t);
      if (report) errorsSeen++;
    }
    const sorted = [...added].sort((a, b) => a - b);
    console.log(`time added to an Edit, server warm (${FILES} files, ${EDITS} edits, ${errorsSeen} with a new error):`);
    console.log(`  median ${Math.round(median(added))} ms, min ${Math.round(sorted[0]!)} ms, max ${Math.round(sorted.at(-1)!)} ms`);
  } finally {
    await lsp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
