/**
 * Start-up and loop overhead of the built binary: `--version` beside `node -e 0`, one print-mode
 * text turn against a local fake server, ten sequential Read calls, one Bash call (also with a
 * model that takes 300 ms to ask for it, as a real one does), and a Read
 * followed by two Edits (which put the file back as it was), then the text turn again, now that
 * the code cache holds the tools' code too. Each figure is measured
 * alternately with `node -e 0`, whose median at the same moments is printed beside it: on a busy
 * machine Node's own start moves by tens of milliseconds, and "over node" stays put.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startFakeAnthropic } from '../test/support/fake-anthropic-server.js';
import { fmt, measureAgainst } from './measure.js';
import { startTlsFront } from './tls-front-helper.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'wicket.js');
/** How a shell runs it (the launcher's `#!`), and how `node bin/wicket.js` does. */
const AS_COMMAND = { cmd: BIN, args: [] as string[] };
const WITH_NODE = { cmd: process.execPath, args: [BIN] };
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const NODE = { cmd: process.execPath, args: ['-e', '0'] };

async function main(): Promise<void> {
  const version = await measureAgainst(NODE, BIN, ['--version'], RUNS);
  console.log(`node -e 0:                 ${fmt(version.base)}`);
  console.log(`wicket --version:          ${fmt(version.run)}  (${(version.run.ms / version.base.ms).toFixed(2)}x node; target <= 1.3x)`);
  const help = await measureAgainst(NODE, BIN, ['--help'], RUNS);
  console.log(`wicket --help:             ${fmt(help.run)}  (${(help.run.ms / help.base.ms).toFixed(2)}x node meanwhile)`);

  const project = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-proj-')));
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-home-')));
  for (let i = 0; i < 10; i++) writeFileSync(path.join(project, `f${i}.txt`), `file ${i}\n`.repeat(200));
  const server = await startFakeAnthropic({ whenExhausted: 'done' });
  const env = { HOME: home, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, WICKET_HOME: path.join(home, '.wicket') };
  try {
    const oneTurn = await measureWithScript(server, () => server.script(reply().text('Hello from the bench.')), ['-p', 'hi'], project, env);
    console.log(`one text turn (print):     ${fmt(oneTurn.run)}  (${besides(oneTurn)}; target < 200 ms, < 80 MiB)`);
    const tenReads = await measureWithScript(
      server,
      () => {
        for (let i = 0; i < 10; i++) server.script(reply().toolUse('Read', { file_path: path.join(project, `f${i}.txt`) }));
        server.script(reply().text('read them all'));
      },
      ['-p', 'read the files', '--allowedTools', 'Read'],
      project,
      env,
    );
    console.log(`ten sequential Reads:      ${fmt(tenReads.run)}  (${besides(tenReads)}; target < 350 ms)`);
    const bash = await measureWithScript(
      server,
      () => server.script(reply().toolUse('Bash', { command: 'echo hi' }), reply().text('ran it')),
      ['-p', 'run it', '--allowedTools', 'Bash'],
      project,
      env,
    );
    console.log(`one Bash call:             ${fmt(bash.run)}  (${besides(bash)})`);
    // A real API thinks before it answers: the Bash parser compiles meanwhile (core/warm-up.ts).
    const slowBash = await measureWithScript(
      server,
      () => server.script(reply().delay(300).toolUse('Bash', { command: 'echo hi' }), reply().text('ran it')),
      ['-p', 'run it', '--allowedTools', 'Bash'],
      project,
      env,
    );
    console.log(`the same, model slow (300 ms): ${fmt(slowBash.run)}  (${besides(slowBash)}; 300 ms of it waiting for the model)`);
    const edited = path.join(project, 'edited.txt');
    writeFileSync(edited, 'x\n');
    const edits = await measureWithScript(
      server,
      () =>
        server.script(
          reply().toolUse('Read', { file_path: edited }),
          reply().toolUse('Edit', { file_path: edited, old_string: 'x', new_string: 'y' }),
          reply().toolUse('Edit', { file_path: edited, old_string: 'y', new_string: 'x' }),
          reply().text('edited'),
        ),
      ['-p', 'edit it', '--allowedTools', 'Read,Edit'],
      project,
      env,
    );
    console.log(`a Read and two Edits:      ${fmt(edits.run)}  (${besides(edits)})`);
    // The code cache now also holds the code the tool runs compiled: what a text turn costs once a
    // project has used its tools (the first line is a fresh install's).
    const again = await measureWithScript(server, () => server.script(reply().text('Hello from the bench.')), ['-p', 'hi'], project, env);
    console.log(`one text turn, after those: ${fmt(again.run)}  (${besides(again)}; the cache now holds the tools' code too)`);
    // A project with a settings file: the file is checked against Claude Code's schema (its
    // validator is a bundle of its own, loaded only when a settings file exists).
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Read', 'Bash(npm test)'], deny: ['Read(./.env)'] }, env: { NODE_ENV: 'development' }, model: 'sonnet' }),
    );
    const withSettings = await measureWithScript(server, () => server.script(reply().text('Hello from the bench.')), ['-p', 'hi'], project, env);
    console.log(`one text turn, settings file: ${fmt(withSettings.run)}  (${besides(withSettings)}; the file checked against the schema)`);
    rmSync(path.join(project, '.claude'), { recursive: true, force: true });
    await certificateLines(server, project, env);
  } finally {
    await server.close();
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

async function measureWithScript(
  server: Awaited<ReturnType<typeof startFakeAnthropic>>,
  script: () => void,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  baseEnv?: NodeJS.ProcessEnv,
  how = AS_COMMAND,
) {
  // Each run consumes one scripted conversation: script RUNS + 1 (warm-up) copies up front.
  for (let i = 0; i <= RUNS; i++) script();
  return measureAgainst({ ...NODE, env: baseEnv }, how.cmd, [...how.args, ...args], RUNS, { cwd, env });
}

/**
 * NODE_EXTRA_CA_CERTS: Node parses that bundle before any script runs, and on this kind of machine
 * it is most of `node -e 0`. The launcher defers it to the first TLS connection (src/api/extra-ca.ts).
 * These lines show the text turn with Node reading it at start, and over HTTPS both ways, where the
 * certificates are needed.
 */
async function certificateLines(server: Awaited<ReturnType<typeof startFakeAnthropic>>, project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const hello = () => server.script(reply().text('Hello from the bench.'));
  const set = process.env.NODE_EXTRA_CA_CERTS ? '(set here)' : '(not set here)';
  const eager = await measureWithScript(server, hello, ['-p', 'hi'], project, env, undefined, WITH_NODE);
  console.log(`text turn, node bin/wicket.js (Node reads NODE_EXTRA_CA_CERTS ${set} at start): ${fmt(eager.run)}  (${besides(eager)})`);
  const noCerts = { NODE_EXTRA_CA_CERTS: undefined };
  const bare = await measureWithScript(server, hello, ['-p', 'hi'], project, { ...env, ...noCerts }, noCerts);
  console.log(
    `without NODE_EXTRA_CA_CERTS: node -e 0 ${bare.base.ms.toFixed(1)} ms; one text turn ${bare.run.ms.toFixed(1)} ms (${bare.overMs.toFixed(1)} ms over node)`,
  );
  const front = await startTlsFront(server.url);
  try {
    const tlsEnv = { ...env, ANTHROPIC_BASE_URL: front.url, NODE_EXTRA_CA_CERTS: front.bundle };
    const base = { NODE_EXTRA_CA_CERTS: front.bundle };
    const deferred = await measureWithScript(server, hello, ['-p', 'hi'], project, tlsEnv, base);
    console.log(`text turn over HTTPS, CA bundle in NODE_EXTRA_CA_CERTS, wicket: ${fmt(deferred.run)}  (${besides(deferred)})`);
    const atStart = await measureWithScript(server, hello, ['-p', 'hi'], project, tlsEnv, base, WITH_NODE);
    console.log(`the same, node bin/wicket.js:  ${fmt(atStart.run)}  (${besides(atStart)})`);
  } finally {
    front.close();
  }
}

function besides(m: { base: { ms: number }; overMs: number }): string {
  return `node -e 0 meanwhile ${m.base.ms.toFixed(1)} ms; ${m.overMs.toFixed(1)} ms over it`;
}

await main();
