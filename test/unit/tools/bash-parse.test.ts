/** Reading command lines: words, simple commands, wrappers, code strings, read-only flags, rule patterns. */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash } from '../../../src/tools/bash/analyze.js';
import { isReadOnlyAnalysis } from '../../../src/tools/bash/classify.js';
import { bashTool } from '../../../src/tools/bash/index.js';
import { compileRule, globsIntersect, ruleCovers, ruleMayMatch } from '../../../src/tools/bash/match.js';
import { initBashParser, parseScript } from '../../../src/tools/bash/parse.js';
import { isPrintOnlySedScript } from '../../../src/tools/bash/sed.js';
import { HOLE } from '../../../src/tools/bash/words.js';

beforeAll(() => initBashParser());

const names = (src: string): string[] => parseScript(src).commands.map((c) => c.words.map((w) => w.value).join(' '));
const show = (p: string): string => p.split(HOLE).join('*');

describe('words', () => {
  it.each([
    ["r''m", 'rm'],
    ['\\rm', 'rm'],
    ['"rm"', 'rm'],
    ['\'r\'"m"', 'rm'],
    ["$'r\\x6d'", 'rm'],
    ["$'\\162m'", 'rm'],
    ['"a\\"b"', 'a"b'],
    ["'a b'", 'a b'],
  ])('%s is the word %s', (raw, value) => {
    const [cmd] = parseScript(`${raw} x`).commands;
    expect(cmd!.words[0]).toMatchObject({ value, literal: true });
  });

  it.each([
    ['$X', '*'],
    ['"$HOME"/x', '*/x'],
    ['$(pwd)/y', '*/y'],
    ['*.ts', '*.ts'],
    ['src/{a,b}', '*'],
    ['file?.txt', 'file*.txt'],
  ])('%s has holes: %s', (raw, pattern) => {
    const [cmd] = parseScript(`ls ${raw}`).commands;
    expect(cmd!.words[1]!.literal).toBe(false);
    expect(show(cmd!.words[1]!.pattern)).toBe(pattern);
  });

  it('joins backslash-newline inside a word the way bash does', () => {
    expect(names('r\\\nm -rf x')).toEqual(['rm -rf x']);
    expect(names("echo 'a\\\nb'")).toEqual(['echo a\\\nb']);
  });
});

describe('simple commands', () => {
  it('finds every command through operators, groups, control flow and substitutions', () => {
    expect(names('a && b || c; d | e |& f & g\nh')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(names('(a; b) && { c; }')).toEqual(['a', 'b', 'c']);
    expect(names('if a; then b; elif c; then d; else e; fi')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names('for x in 1; do a; done; while b; do c; done; case z in q) d;; esac')).toEqual(['a', 'b', 'c', 'd']);
    expect(names('f() { a; }; f')).toEqual(['a', 'f']);
    expect(names('echo $(a) `b` <(c) >(d) "$(e)"')).toEqual(['echo $(a) `b` <(c) >(d) "$(e)"', 'a', 'b', 'c', 'd', 'e']);
  });

  it('marks substitutions and top-level commands', () => {
    const cmds = parseScript('cd a && echo $(pwd) | cat').commands;
    expect(cmds.map((c) => [c.words[0]!.value, c.topLevel, c.inSubstitution])).toEqual([
      ['cd', true, false],
      ['echo', false, false],
      ['pwd', false, true],
      ['cat', false, false],
    ]);
  });

  it('keeps redirections with their command, here-docs included', () => {
    const [cmd] = parseScript('sort < in.txt > out.txt 2>&1').commands;
    expect(cmd!.redirects.map((r) => [r.kind, r.target?.value])).toEqual([
      ['read', 'in.txt'],
      ['write', 'out.txt'],
      ['dup', '1'],
    ]);
    const doc = parseScript("a && bash <<'EOF'\nrm x\nEOF").commands[1]!;
    expect(doc.words[0]!.value).toBe('bash');
    expect(doc.redirects[0]).toMatchObject({ kind: 'heredoc', body: 'rm x\n', bodyLiteral: true });
  });

  it('links each command of a pipeline to the one feeding it', () => {
    const cmds = parseScript('echo hi | tr a b | sh').commands;
    expect(cmds[2]!.pipedFrom).toBe(cmds[1]);
    expect(cmds[1]!.pipedFrom).toBe(cmds[0]);
  });

  it('reports what it cannot read', () => {
    expect(parseScript('echo $((').problems.length).toBeGreaterThan(0);
    expect(parseScript('{rm,-rf,x}').problems.length).toBeGreaterThan(0);
    expect(analyzeBash('$X -rf /').problems).toEqual(['the command name comes from $X, which is only known when it runs']);
    expect(analyzeBash('ls -la && git status').problems).toEqual([]);
  });

  it('caches analyses per command string', () => {
    expect(analyzeBash('ls -la /tmp')).toBe(analyzeBash('ls -la /tmp'));
  });
});

describe('unwrapping', () => {
  const leaves = (src: string) =>
    analyzeBash(src).leaves.map((l) => ({
      run: show(l.words.map((w) => w.pattern).join(' ')),
      allow: l.allowPattern === undefined ? undefined : show(l.allowPattern),
      ...(l.runsCode ? { code: true } : {}),
      ...(l.nested ? { nested: true } : {}),
      ...(l.denyOnly ? { guess: true } : {}),
    }));

  it('sees through wrappers that only change how a command runs', () => {
    expect(leaves('timeout -s KILL 5 nice -n 3 nohup stdbuf -oL npm test')).toEqual([{ run: 'npm test', allow: 'npm test' }]);
    expect(leaves('env FOO=1 npm test')).toEqual([{ run: 'npm test', allow: 'FOO=1 npm test' }]);
    expect(leaves('NODE_ENV=test npm test')).toEqual([{ run: 'npm test', allow: 'npm test' }]);
    expect(leaves('command -v git')).toEqual([{ run: 'command -v git', allow: 'command -v git' }]);
  });

  it('parses code strings and keeps the runner from being approved by a rule', () => {
    expect(leaves("bash -c 'ls; rm x'")).toEqual([
      { run: 'bash -c ls; rm x', allow: undefined, code: true },
      { run: 'ls', allow: 'ls', nested: true },
      { run: 'rm x', allow: 'rm x', nested: true },
    ]);
    expect(leaves('ls | xargs -n1 rm')).toEqual([
      { run: 'ls', allow: 'ls' },
      { run: 'xargs -n1 rm', allow: undefined, code: true },
      { run: 'rm *', allow: 'rm *' },
    ]);
    expect(leaves('find . -exec chmod 644 {} +')).toEqual([
      { run: 'chmod 644 *', allow: 'chmod 644 *' },
      { run: 'find . -exec chmod 644 {} +', allow: undefined, code: true },
    ]);
  });

  it('keeps sudo approvable as written while deny rules see what it runs', () => {
    expect(leaves('sudo -u www rm x')).toEqual([
      { run: 'sudo -u www rm x', allow: 'sudo -u www rm x' },
      { run: 'rm x', allow: undefined, guess: true },
    ]);
  });
});

describe('read-only commands', () => {
  it.each([
    ['ls -la', true],
    ['cat a b | grep -n x | sort | uniq -c | head', true],
    ['git status --short && git log -5 --stat', true],
    ['git diff --cached', true],
    ['git branch --list "feat/*"', true],
    ['git tag', true],
    ['git remote -v', true],
    ['git stash list', true],
    ['git config --get user.name', true],
    ['find . -name "*.ts" -newer x', true],
    ["sed -n '/start/,/end/p' f", true],
    ["sed -e 's/a/b/g' -e '1d' f", true],
    ['jq .a f.json', true],
    ['rg -n TODO', true],
    ['echo a > /dev/null', true],
    ['wc -l < f', true],
    ['FOO=1 ls', true],
    ['timeout 5 cat f', true],
    ['command -v node', true],
    ['echo hi > f', false],
    ['echo hi >> f', false],
    ['ls &> f', false],
    ['tee f', false],
    ['sed -i s/a/b/ f', false],
    ['sed -Ei s/a/b/ f', false],
    ["sed 's/a/b/w f' g", false],
    ["sed 'e ls' f", false],
    ['sed -f script.sed f', false],
    ['sort -o out in', false],
    ['sort --compress-program=gzip f', false],
    ['uniq in out', false],
    ['xxd in out', false],
    ['find . -delete', false],
    ['find . -fprint out', false],
    ['find . -exec cat {} \\;', false],
    ['git branch -D x', false],
    ['git branch newname', false],
    ['git tag v1', false],
    ['git stash', false],
    ['git commit -m x', false],
    ['git -c core.fsmonitor=x status', false],
    ['git log --output=f', false],
    ['date -s 2020-01-01', false],
    ['hostname evil', false],
    ['rg --pre cat x', false],
    ['PATH=/tmp ls', false],
    ['env ls', true],
    ['env -S "rm x"', false],
    ['bash -c ls', false],
    ['$X', false],
    ['npm test', false],
    ['awk "{print}" f', false],
  ])('%s → %s', (command, expected) => {
    expect(isReadOnlyAnalysis(analyzeBash(command))).toBe(expected);
    expect(bashTool.isReadOnly({ command })).toBe(expected);
  });

  it('is concurrency-safe only when read-only, not moving the cwd and not in the background', () => {
    expect(bashTool.isConcurrencySafe({ command: 'ls' })).toBe(true);
    expect(bashTool.isConcurrencySafe({ command: 'cd src && ls' })).toBe(false);
    expect(bashTool.isConcurrencySafe({ command: 'ls', run_in_background: true })).toBe(false);
    expect(bashTool.isConcurrencySafe({ command: 'npm test' })).toBe(false);
  });

  it('calls deleting, overwriting and killing destructive', () => {
    for (const c of ['rm -rf x', 'git reset --hard', 'git push -f', 'git clean -fd', 'find . -delete', 'echo > f', 'kill 1', 'sudo rm x', 'mv a b']) {
      expect(bashTool.isDestructive!({ command: c }), c).toBe(true);
    }
    for (const c of ['ls', 'git push', 'echo hi >> log', 'cat a > /dev/null', 'npm test']) {
      expect(bashTool.isDestructive!({ command: c }), c).toBe(false);
    }
  });
});

describe('sed scripts', () => {
  it.each([
    ['p', true],
    ['1,5p', true],
    ['/a/,/b/d', true],
    ['s/a/b/g', true],
    ['s|/usr|/opt|2', true],
    ['$!N;P;D', true],
    ['y/abc/xyz/', true],
    ['/x/{s/a/b/;p}', true],
    ['1i\\\nheader', true],
    ['s/a/b/w out', false],
    ['s/a/b/e', false],
    ['w out', false],
    ['1e date', false],
    ['W out', false],
    ['k', false],
  ])('%s → %s', (script, expected) => {
    expect(isPrintOnlySedScript(script)).toBe(expected);
  });
});

describe('rule patterns', () => {
  it('reads `:*` and a trailing ` *` as prefix with a word boundary', () => {
    expect(compileRule('npm run test:*')).toMatchObject({ base: 'npm run test', prefix: true });
    expect(compileRule('ls *')).toMatchObject({ base: 'ls', prefix: true });
    expect(compileRule('ls*')).toMatchObject({ base: `ls${HOLE}`, prefix: false });
    expect(compileRule('git commit -m "a b"')).toMatchObject({ base: 'git commit -m a b' });
    expect(compileRule("echo '*'")).toMatchObject({ base: 'echo *', prefix: false });
  });

  it('covers a command only when every value of its holes matches', () => {
    expect(ruleCovers(compileRule('npm test:*'), `npm test ${HOLE}`)).toBe(true);
    expect(ruleCovers(compileRule('npm test:*'), `npm test${HOLE}`)).toBe(false);
    expect(ruleCovers(compileRule('git * main'), `git push ${HOLE} main`)).toBe(true);
    expect(ruleCovers(compileRule('rm build'), `rm ${HOLE}`)).toBe(false);
  });

  it('may match a command when some value of its holes matches', () => {
    expect(ruleMayMatch(compileRule('rm:*'), `${HOLE} x`)).toBe(true);
    expect(ruleMayMatch(compileRule('rm -rf /'), `rm -rf ${HOLE}`)).toBe(true);
    expect(ruleMayMatch(compileRule('rm -rf /'), `rm -rf ${HOLE}/build`)).toBe(false);
    expect(ruleMayMatch(compileRule('git push:*'), `git ${HOLE}`)).toBe(true);
    expect(ruleMayMatch(compileRule('git push:*'), `git pull ${HOLE}`)).toBe(false);
  });

  it('intersects two patterns with holes on both sides', () => {
    expect(globsIntersect(`a${HOLE}c`, `${HOLE}bc`)).toBe(true);
    expect(globsIntersect(`a${HOLE}`, `b${HOLE}`)).toBe(false);
    expect(globsIntersect('', HOLE)).toBe(true);
    expect(globsIntersect(`${HOLE}.ts`, `src/${HOLE}`)).toBe(true);
    expect(globsIntersect(`${HOLE}.ts`, `${HOLE}.js`)).toBe(false);
  });
});

describe('hostile input stays cheap', () => {
  it('reads nested wrappers with unknown options in bounded time, failing closed', () => {
    const t0 = Date.now();
    const a = analyzeBash(`${'sudo -X '.repeat(60)}rm x`);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(a.problems).toContain('too many commands to read');
  });

  it('matches rules with many wildcards against long commands in bounded time', () => {
    const long = `git ${'a '.repeat(20_000)}b`;
    const t0 = Date.now();
    expect(ruleMayMatch(compileRule('git * * * * * * main'), long)).toBe(false);
    expect(ruleCovers(compileRule('git * * * * * * main'), long)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('gives up on nesting deeper than it follows', () => {
    let cmd = 'rm x';
    for (let i = 0; i < 8; i++) cmd = `sh -c ${JSON.stringify(cmd)}`;
    expect(analyzeBash(cmd).problems).toContain('code nested in code too deeply to follow');
  });
});
