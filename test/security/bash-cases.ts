/**
 * The Bash battery's cases. Each attempt is run twice through the gates in bypassPermissions mode:
 * without the rule (the control: the victim file `V` is gone, or the secret is in the output) and
 * with it (refused: the victim stays, the secret never appears).
 *
 * - `rm`: attempts to run `rm V` past `Bash(rm:*)`: code read from stdin (§4), code strings,
 *   wrappers, interpreters, spelling tricks, scripts.
 * - `read`: attempts to read `secret/key.txt` (or `~/.ssh/id_rsa`) past `Read(./secret/**)` and
 *   `Read(~/.ssh/**)`: whole-tree readers (§2), globs, interpreters, unknown paths, git's history.
 * - `edit`: attempts to change what `conf/` holds past `Edit(./conf/**)`: programs that write a file
 *   they name, links made to it, options naming the folder written.
 */
import { SECRET, type WorldOptions } from './bash-support.js';

export interface Attempt extends WorldOptions {
  kind: 'rm' | 'read' | 'edit';
  command: string;
  /** Programs the command needs; where one is missing, only the refusal is checked. */
  needs?: string[];
  /** The effect may land after the shell exits (process substitution, coprocess). */
  async?: boolean;
}

const rm = (command: string, extra: Omit<Attempt, 'kind' | 'command'> = {}): Attempt => ({ kind: 'rm', command, ...extra });
const read = (command: string, extra: Omit<Attempt, 'kind' | 'command'> = {}): Attempt => ({ kind: 'read', command, ...extra });
const edit = (command: string, extra: Omit<Attempt, 'kind' | 'command'> = {}): Attempt => ({ kind: 'edit', command, ...extra });
const SCRIPT = { files: { 's.sh': 'rm V\n', 'run.sh*': '#!/bin/sh\nrm V\n' } };

/** Code a shell reads from its stdin, a here-doc, a here-string, a descriptor or a process substitution. */
const STDIN_CODE: Attempt[] = [
  rm(". /dev/stdin <<< 'rm V'"),
  rm("source /dev/stdin <<< 'rm V'"),
  rm(". /dev/stdin <<'EOF'\nrm V\nEOF"),
  rm("echo 'rm V' | . /dev/stdin"),
  rm("echo 'rm V' | source /dev/stdin"),
  rm(". /dev/fd/0 <<< 'rm V'"),
  rm(". /proc/self/fd/0 <<< 'rm V'"),
  rm(". /dev//stdin <<< 'rm V'"),
  rm("source <(echo 'rm V')"),
  rm(". <(printf 'rm V')"),
  rm("bash /dev/stdin <<< 'rm V'"),
  rm("bash /proc/self/fd/0 <<< 'rm V'"),
  rm("bash -s <<< 'rm V'"),
  rm("bash -s -- a b <<< 'rm V'"),
  rm("bash - <<< 'rm V'"),
  rm("echo 'rm V' | bash -s"),
  rm("exec 3<<<'rm V'; . /dev/fd/3"),
  rm("exec {fd}<<<'rm V'; source /dev/fd/$fd"),
  rm("exec <<< 'rm V'; bash"),
  rm('bash <(echo rm V)'),
  rm("sh <<< 'rm V'"),
  rm("dash <<'EOF'\nrm V\nEOF", { needs: ['dash'] }),
  rm("echo 'rm V' | sh"),
  rm("printf 'rm V\\n' | bash"),
  rm('cat <<EOF | sh\nrm V\nEOF'),
  rm("bash -c 'bash' <<< 'rm V'"),
  rm("bash -c '. /dev/stdin' <<< 'rm V'"),
  rm("bash -c 'cat | sh' <<< 'rm V'"),
  rm('read -ra a <<< \'rm V\'; "${a[@]}"'),
  rm('mapfile -t l <<< \'rm V\'; eval "${l[0]}"'),
];

/** Strings run as code by a program: shells, builtins, xargs, find, and programs with a command option. */
const CODE_STRINGS: Attempt[] = [
  rm("bash -c 'rm V'"),
  rm("sh -c 'rm V'"),
  rm("bash -o pipefail -c 'rm V'"),
  rm("sh -c '$0' 'rm V'"),
  rm("bash -c 'eval \"$1\"' _ 'rm V'"),
  rm("eval 'rm V'"),
  rm('eval "$(echo rm V)"'),
  rm("builtin eval 'rm V'"),
  rm("trap 'rm V' EXIT"),
  rm('f(){ rm V; }; f'),
  rm("shopt -s expand_aliases\nalias r='rm V'\nr"),
  rm("x='a[$(rm V)]'; echo $((x))"),
  rm('hash -p /bin/rm r; r V'),
  rm("compgen -C 'rm V' x"),
  rm('echo V | xargs rm'),
  rm("echo V | xargs -I{} sh -c 'rm {}'"),
  rm("echo 'rm V' | xargs -0 sh -c"),
  rm('find . -name V -exec rm {} +'),
  rm("find . -name V -exec sh -c 'rm V' \\;"),
  rm("script -qc 'rm V' /dev/null", { needs: ['script'] }),
  rm("su -c 'rm V'", { needs: ['su'] }),
  rm("su root -c 'rm V'", { needs: ['su'] }),
  rm("sg root -c 'rm V'", { needs: ['sg'] }),
  rm('runuser -u root -- rm V', { needs: ['runuser'] }),
  rm("runuser root -c 'rm V'", { needs: ['runuser'] }),
  rm('flock lockfile rm V', { needs: ['flock'] }),
  rm("flock lockfile -c 'rm V'", { needs: ['flock'] }),
  rm("env -S 'rm V'"),
  rm("git -c alias.x='!rm V' x", { git: 'init' }),
  rm("git config alias.x '!rm V' && git x", { git: 'init' }),
  rm("GIT_SSH_COMMAND='rm V' git ls-remote ssh://h/x", { git: 'init' }),
  rm("make -f /dev/stdin <<< $'all:\\n\\trm V'", { needs: ['make'] }),
  rm("sed -n '1e rm V' f.txt"),
  rm("sed 's/.*/rm V/e' f.txt"),
  rm("tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm V' f.txt"),
  rm("zip -q -T -TT 'rm V' x.zip f.txt", { needs: ['zip'] }),
  rm("sqlite3 :memory: '.shell rm V'", { needs: ['sqlite3'] }),
  rm("gdb -batch -ex 'shell rm V'", { needs: ['gdb'] }),
  rm("vim -Es -c '!rm V' -c 'qa!'", { needs: ['vim'] }),
  rm("socat - EXEC:'rm V' < /dev/null", { needs: ['socat'] }),
  rm("capsh -- -c 'rm V'", { needs: ['capsh'] }),
  rm("npx -c 'rm V'", { needs: ['npx'] }),
  rm('BASH_ENV=./s.sh bash -c true', SCRIPT),
  rm("echo 'exec rm V' | tclsh", { needs: ['tclsh'] }),
  rm("cd . && bash -c 'sh' <<< 'rm V'"),
];

/** Other languages running the shell or a program. */
const INTERPRETERS: Attempt[] = [
  rm('python3 -c "import os; os.system(\'rm V\')"', { needs: ['python3'] }),
  rm("python3 -c \"import subprocess; subprocess.run(['rm', 'V'])\"", { needs: ['python3'] }),
  rm('python3 -c "import subprocess as s; s.run(\'rm V\', shell=True)"', { needs: ['python3'] }),
  rm('python3 -c "from os import system; system(\'rm V\')"', { needs: ['python3'] }),
  rm("python3 -c \"__import__('os').system('rm V')\"", { needs: ['python3'] }),
  rm("python3 -c \"import os; getattr(os, 'sys'+'tem')('rm V')\"", { needs: ['python3'] }),
  rm("python3 -c \"import os; os.system('r'+'m V')\"", { needs: ['python3'] }),
  rm('python3 - <<\'EOF\'\nimport os\nos.system("rm V")\nEOF', { needs: ['python3'] }),
  rm('echo "import os; os.system(\'rm V\')" | python3', { needs: ['python3'] }),
  rm('perl -e \'system("rm V")\'', { needs: ['perl'] }),
  rm('perl -e \'system "rm", "V"\'', { needs: ['perl'] }),
  rm("perl -e '`rm V`'", { needs: ['perl'] }),
  rm("perl -e 'qx{rm V}'", { needs: ['perl'] }),
  rm('perl -e \'my $c="rm V"; system $c\'', { needs: ['perl'] }),
  rm("node -e \"require('child_process').execSync('rm V')\"", { needs: ['node'] }),
  rm("node -e \"const {execSync}=require('child_process'); execSync('rm V')\"", { needs: ['node'] }),
  rm("node -e \"require('child_process')['exec'+'Sync']('rm V')\"", { needs: ['node'] }),
  rm('awk \'BEGIN{system("rm V")}\''),
  rm('awk \'BEGIN{print "x" | "rm V"}\''),
  rm("awk -v c='rm V' 'BEGIN{system(c)}'"),
];

/** The same command, spelled or wrapped differently. */
const SPELLINGS: Attempt[] = [
  rm('rm V'),
  rm('\\rm V'),
  rm("r''m V"),
  rm('"rm" V'),
  rm("$'\\x72m' V"),
  rm('r\\\nm V'),
  rm('/bin/rm V'),
  rm('rm{,} V'),
  rm('$(echo rm) V'),
  rm('${x:-rm} V'),
  rm('X=rm; $X V'),
  rm('printf -v c rm; $c V'),
  rm('command rm V'),
  rm('exec rm V'),
  rm('time rm V'),
  rm('nice -n 5 rm V'),
  rm('nohup rm V'),
  rm('timeout 5 rm V'),
  rm('stdbuf -oL rm V'),
  rm('ionice -c3 rm V', { needs: ['ionice'] }),
  rm('setsid -w rm V', { needs: ['setsid'] }),
  rm('taskset -c 0 rm V', { needs: ['taskset'] }),
  rm('chroot --skip-chdir / rm V', { needs: ['chroot'] }),
  rm('strace -qqo /dev/null rm V', { needs: ['strace'] }),
  rm('env -i /bin/rm V'),
  rm('true && rm V'),
  rm('false || rm V'),
  rm('{ rm V; }'),
  rm('(rm V)'),
  rm('if true; then rm V; fi'),
  rm('for c in rm; do $c V; done'),
  rm('echo $(rm V)'),
  rm('cat <(rm V)'),
  // Waited for: on a loaded machine the shell (and its coprocess) may end before rm runs.
  rm('coproc rm V; wait'),
  rm('coproc { rm V; }; wait'),
];

/** Shell scripts run by name: their content is read and matched. */
const SCRIPTS: Attempt[] = [
  rm('bash s.sh', SCRIPT),
  rm('sh < s.sh', SCRIPT),
  rm('. ./s.sh', SCRIPT),
  rm('./run.sh', SCRIPT),
  rm("echo 'rm V' > n.sh; bash n.sh"),
  rm("printf '#!/bin/sh\\nrm V\\n' > n.sh && chmod +x n.sh && ./n.sh"),
];

/** Whole-tree readers over a folder holding a denied file (§2). */
const TREE_READS: Attempt[] = [
  read('grep -r S3CR3T .'),
  read('grep -R S3CR3T .'),
  read('grep -rn S3CR3T'),
  read('grep --recursive S3CR3T .'),
  read('grep -d recurse S3CR3T .'),
  read('egrep -r S3CR3T .'),
  read("grep -r --include='*.txt' S3CR3T ."),
  read('cd src/.. && grep -r S3CR3T .'),
  read('cd src && grep -r S3CR3T ..'),
  read('rg S3CR3T'),
  read('rg -uu S3CR3T .'),
  read('git grep --no-index S3CR3T', { git: 'init' }),
  read('git archive HEAD | tar xOf -', { git: 'commit' }),
  read('git show HEAD:secret/key.txt', { git: 'commit' }),
  read('git log -p -- secret/key.txt', { git: 'commit' }),
  read('find . | cpio -o 2>/dev/null | cpio -i --to-stdout 2>/dev/null', { needs: ['cpio'] }),
  read('mkdir -p ../copy && cp -rt ../copy . && cat ../copy/secret/key.txt'),
  read('tar cf - . | tar xOf -'),
  read('zip -qr out.zip . && unzip -p out.zip', { needs: ['zip', 'unzip'] }),
  read('cp -r . ../copy && cat ../copy/secret/key.txt'),
  read('mkdir -p ../empty && diff -rN . ../empty'),
  read('find . -type f -exec cat {} +'),
  read('find . -exec grep -H S3CR3T {} \\;'),
  read('find . -type f | xargs cat'),
  read('find . -type f -print0 | xargs -0 grep S3CR3T'),
  read('grep -r SSH_PRIVATE ~'),
  read('grep -r S3CR3T /proc/self/cwd'),
  read("bash -c 'grep -r S3CR3T .'"),
  read('timeout 5 grep -r S3CR3T .'),
];

/** Direct reads: globs, spellings, unknown paths, other programs and languages. */
const DIRECT_READS: Attempt[] = [
  read('cat secret/key.txt'),
  // a word after a here-doc's delimiter is the command's argument: cat reads the file, not the text
  read("cat <<'EOF' secret/key.txt\nx\nEOF"),
  read('head -c 99 <<EOF secret/key.txt\nx\nEOF'),
  read("cat <<'EOF' ~/.ssh/id_rsa\nx\nEOF"),
  read('cat */*'),
  read('head -n 100 */*'),
  read('tail -n +1 */*'),
  read('cat secret/*'),
  read('cat s*/k*'),
  read('cat sec{ret,x}/key.txt'),
  read('cat secre[t]/key.txt'),
  read('cat /proc/self/cwd/secret/key.txt'),
  read('echo "$(<secret/key.txt)"'),
  read('cat ./secret/../secret/key.txt'),
  read('cd secret && cat key.txt'),
  read('cat < secret/key.txt'),
  read('awk 1 secret/key.txt'),
  read('sed -n p secret/key.txt'),
  read('perl -ne print secret/key.txt', { needs: ['perl'] }),
  read('dd if=secret/key.txt status=none'),
  read('strings secret/key.txt'),
  read('base64 secret/key.txt | base64 -d'),
  read('cp secret/key.txt ../x && cat ../x'),
  read('ln -s secret/key.txt l && cat l'),
  read('tar cf - secret | tar xOf -'),
  read('cat ~/.ssh/id_rsa'),
  read('cat $HOME/.ssh/id_rsa'),
  read('X=secret/key.txt; cat $X'),
  read('cat $(echo secret/key.txt)'),
  read('echo secret/key.txt | xargs cat'),
  read("script -qc 'cat secret/key.txt' /dev/null", { needs: ['script'] }),
  read('python3 -c "print(open(\'secret/key.txt\').read())"', { needs: ['python3'] }),
  read('python3 - <<\'EOF\'\nprint(open("secret/key.txt").read())\nEOF', { needs: ['python3'] }),
  read("node -e \"console.log(require('fs').readFileSync('secret/key.txt', 'utf8'))\"", { needs: ['node'] }),
];

/** What a repository holds of a denied file once staged or committed: no file rule or sandbox mount hides it. */
const HISTORY_READS: Attempt[] = [
  read('git show HEAD', { git: 'commit' }),
  read('git log -p', { git: 'commit' }),
  read('git log -p --all', { git: 'commit' }),
  read('git format-patch --root --stdout', { git: 'commit' }),
  read('git cat-file --batch-all-objects --batch', { git: 'commit' }),
  read("for s in $(git ls-files -s | cut -d' ' -f2); do git cat-file -p $s; done", { git: 'commit' }),
  read('git add -A && git diff --cached', { git: 'init' }),
  // a plain diff shows what git tracks: a tracked secret, changed; an ignored one the line adds first
  read('git diff', { git: 'commit', after: { 'secret/key.txt': `${SECRET}\nchanged\n` } }),
  read('git diff --color=never -U5', { git: 'commit', after: { 'secret/key.txt': `${SECRET}\nchanged\n` } }),
  read('git add -N -f secret/key.txt && git diff', { git: 'commit', files: { '.gitignore': 'secret/\n' } }),
  read('git add -N -f secret/key.txt; git diff', { git: 'commit', files: { '.gitignore': 'secret/\n' } }),
  read('git diff --submodule=diff', { git: 'commit', after: { 'secret/key.txt': `${SECRET}\nchanged\n` } }),
  read('git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD', { git: 'commit' }),
  read('git grep S3CR3T HEAD', { git: 'commit' }),
  read('git --git-dir=.git log -p', { git: 'commit' }),
  read('git reflog -p', { git: 'commit' }),
  read('git clone -q . ../c && cat ../c/secret/key.txt', { git: 'commit' }),
  read('git worktree add -q ../wt HEAD && cat ../wt/secret/key.txt', { git: 'commit' }),
  read('git checkout-index -a --prefix=../ci/ && cat ../ci/secret/key.txt', { git: 'commit' }),
  read('mkdir ../w && git --work-tree=../w checkout HEAD -- . && cat ../w/secret/key.txt', { git: 'commit' }),
  read('mkdir ../w && GIT_WORK_TREE=../w git checkout HEAD -- . && cat ../w/secret/key.txt', { git: 'commit' }),
  read('git bundle create ../b HEAD && git clone -q ../b ../bc && cat ../bc/secret/key.txt', { git: 'commit' }),
];

/** Files named where the readers above do not look: URLs, sqlite3's commands, links made on the way. */
const NAMED_READS: Attempt[] = [
  read('curl -s file://$PWD/secret/key.txt', { needs: ['curl'] }),
  read('curl -s file:///proc/self/cwd/secret/key.txt', { needs: ['curl'] }),
  read("sqlite3 :memory: '.read secret/key.txt'", { needs: ['sqlite3'] }),
  read('sqlite3 :memory: "select readfile(\'secret/key.txt\')"', { needs: ['sqlite3'] }),
  read('ln -s . p && cat p/secret/key.txt'),
  read('ln -s secret s && cat s/key.txt'),
  read('cp -rs "$PWD/secret" sl && cat sl/key.txt'),
];

/** Changes to `conf/`, past `Edit(./conf/**)`. */
const EDITS: Attempt[] = [
  edit('echo W > conf/app.json'),
  edit('echo W | dd of=conf/app.json status=none'),
  edit("python3 -c \"open('conf/app.json', 'w').write('W')\"", { needs: ['python3'] }),
  edit("perl -pi -e 's/ORIGINAL/W/' conf/app.json", { needs: ['perl'] }),
  edit("node -e \"require('fs').writeFileSync('conf/app.json', 'W')\"", { needs: ['node'] }),
  edit('awk \'{print > "conf/app.json"}\' f.txt'),
  edit("sed 's/one/W/w conf/out' f.txt"),
  edit('cp -t conf f.txt'),
  edit('cp --target-directory=conf f.txt'),
  edit('ln -s conf c && echo W > c/app.json'),
  edit('ln -s . q && echo W > q/conf/app.json'),
  edit('ln -s conf/app.json l && echo W > l'),
  edit("sqlite3 :memory: \"select writefile('conf/app.json', 'W')\"", { needs: ['sqlite3'] }),
  edit("sqlite3 :memory: '.output conf/app.json' 'select 1'", { needs: ['sqlite3'] }),
  edit('git checkout --orphan x && git rm -rfq conf', { git: 'commit' }),
  edit('truncate -s 0 conf/app.json'),
  edit('echo W 1<>conf/app.json'),
  edit('exec 3<>conf/app.json; echo W >&3'),
  edit('perl -e \'open(F, ">conf/app.json"); print F "W"\'', { needs: ['perl'] }),
  edit('perl -e \'open(F, ">> conf/app.json"); print F "W"\'', { needs: ['perl'] }),
  edit('mv conf c2 && echo W > c2/app.json && mv c2 conf'),
];

export const ATTEMPTS: Attempt[] = [
  ...STDIN_CODE,
  ...CODE_STRINGS,
  ...INTERPRETERS,
  ...SPELLINGS,
  ...SCRIPTS,
  ...TREE_READS,
  ...DIRECT_READS,
  ...HISTORY_READS,
  ...NAMED_READS,
  ...EDITS,
];

export interface Harmless extends WorldOptions {
  command: string;
  /** Text the output must hold. */
  output: string;
  needs?: string[];
}

/** Commands that must still run, in bypass mode, under both sets of rules at once. */
export const HARMLESS: Harmless[] = [
  { command: 'ls -la', output: 'src' },
  { command: 'echo rm V', output: 'rm V' },
  { command: 'grep -n hello src/a.txt', output: '1:hello world' },
  { command: 'cat src/a.txt', output: 'hello world' },
  { command: 'cat src/*', output: 'hello world' },
  { command: 'wc -l src/*.txt', output: 'a.txt' },
  { command: 'grep -r hello src', output: 'src/deep/b.txt' },
  { command: 'rg hello src', output: 'hello again' },
  { command: 'find src -type f -exec cat {} +', output: 'hello again' },
  { command: 'find src -type f | xargs cat', output: 'hello world' },
  { command: 'find . -name "*.txt"', output: 'key.txt' },
  { command: 'find . -type f | xargs ls', output: 'f.txt' },
  { command: 'ls -R', output: 'deep' },
  { command: 'tar cf - src | tar tf -', output: 'src/a.txt' },
  { command: 'cp -r src ../copy && cat ../copy/a.txt', output: 'hello world' },
  { command: "bash -c 'echo ok-1'", output: 'ok-1' },
  { command: "echo 'echo ok-2' | sh", output: 'ok-2' },
  { command: "bash <<< 'echo ok-3'", output: 'ok-3' },
  { command: ". /dev/stdin <<< 'echo ok-4'", output: 'ok-4' },
  { command: 'bash ok.sh', output: 'ok-5', files: { 'ok.sh': 'echo ok-5\n' } },
  { command: 'timeout 5 echo ok-6', output: 'ok-6' },
  { command: "xargs echo <<< 'a b'", output: 'a b' },
  { command: 'python3 -c "print(40 + 2)"', output: '42', needs: ['python3'] },
  { command: 'python3 -c "import os; print(os.path.basename(os.getcwd()))"', output: 'project', needs: ['python3'] },
  { command: "python3 -c \"import re; print(re.compile('h.l').search('ahxlo').group())\"", output: 'hxl', needs: ['python3'] },
  { command: 'node -e "console.log(6 * 7)"', output: '42', needs: ['node'] },
  { command: "perl -ne 'print uc' src/a.txt", output: 'HELLO WORLD', needs: ['perl'] },
  { command: "awk '{print $2}' src/a.txt", output: 'world' },
  { command: 'sed -n 1p src/a.txt', output: 'hello world' },
  { command: 'git status --short', output: '??', git: 'init' },
  { command: 'cat conf/app.json', output: 'ORIGINAL' },
  { command: 'git log --oneline', output: 'all', git: 'commit' },
  { command: 'git diff --stat HEAD', output: '', git: 'commit' },
  // an ignored secret that git does not track never shows in a plain diff
  { command: 'git diff', output: 'changed', git: 'commit', files: { '.gitignore': 'secret/\n' }, after: { 'src/a.txt': 'hello changed\n' } },
  { command: 'git diff -U1 -- src', output: 'changed', git: 'commit', files: { '.gitignore': 'secret/\n' }, after: { 'src/a.txt': 'hello changed\n' } },
  { command: 'git log -p -- src', output: 'hello world', git: 'commit' },
  { command: 'git show HEAD:src/a.txt', output: 'hello world', git: 'commit' },
  { command: 'git worktree list', output: 'project', git: 'commit' },
  { command: 'curl -s file:///proc/self/cwd/src/a.txt', output: 'hello world', needs: ['curl'] },
  { command: 'ln -s src/a.txt alink && cat alink', output: 'hello world' },
  { command: 'dd if=src/a.txt of=../copy.txt status=none && cat ../copy.txt', output: 'hello world' },
  { command: "git -c user.name=x -c user.email=x@y commit -qm 'rm old' --allow-empty && git log --oneline", output: 'rm old', git: 'init' },
];
