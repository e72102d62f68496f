/**
 * What "Yes, and don't ask again for …" offers for a Bash command, as the permission gate gives it
 * (no rules, default mode, a plain project): the prefix rule computed from the parsed command, or
 * none. Never a prefix for a command that runs the command it is given (sudo, env, xargs, npx,
 * sh -c, find -exec, docker run), a redirection to a protected file, a bare interpreter, shell or
 * network tool; a compound line gets one rule per command (each matched alone); destructive
 * commands get the exact command. `no prompt`: the call is allowed without asking; `only a person`:
 * an allow rule cannot approve it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRules } from '../../../src/base/permission-types.js';
import { decidePermission } from '../../../src/permissions/decide.js';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { createToolEnv, type ToolEnv } from '../../support/tool-context.js';

type Offer = string[] | 'no prompt' | 'only a person';

const TABLE: Array<[string, Offer]> = [
  ['npm test', ['Bash(npm test:*)']],
  ['npm run test:unit', ['Bash(npm run test:unit:*)']],
  ['npm run test:unit -- --watch', ['Bash(npm run test:unit:*)']],
  ['npm run build', ['Bash(npm run build:*)']],
  ['npm install', ['Bash(npm install:*)']],
  ['npm install lodash', ['Bash(npm install:*)']],
  ['npm ci', ['Bash(npm ci:*)']],
  ['npm publish', ['Bash(npm publish:*)']],
  ['pnpm run lint', ['Bash(pnpm run lint:*)']],
  ['pnpm install', ['Bash(pnpm install:*)']],
  ['yarn build', ['Bash(yarn build:*)']],
  ['yarn run test', ['Bash(yarn run test:*)']],
  ['bun run dev', ['Bash(bun run dev:*)']],
  ['npx tsc --noEmit', []],
  ['npx vitest run', []],
  ['npx prettier --write src', []],
  ['node scripts/build.js', ['Bash(node scripts/build.js:*)']],
  ['node -e "console.log(1)"', []],
  ['python3 manage.py migrate', ['Bash(python3 manage.py:*)']],
  ['python3 -m pytest tests', []],
  ['python3 -c "import os"', []],
  ['pytest -q', ['Bash(pytest:*)']],
  ['pytest tests/unit', ['Bash(pytest tests/unit:*)']],
  ['cargo build', ['Bash(cargo build:*)']],
  ['cargo test --release', ['Bash(cargo test:*)']],
  ['cargo run -- --help', ['Bash(cargo run:*)']],
  ['go test ./...', ['Bash(go test:*)']],
  ['go build ./cmd/app', ['Bash(go build:*)']],
  ['go run main.go', ['Bash(go run main.go:*)']],
  ['make', ['Bash(make:*)']],
  ['make test', ['Bash(make test:*)']],
  ['make -j4 build', ['Bash(make:*)']],
  ['cmake --build build', ['Bash(cmake:*)']],
  ['docker build -t app .', ['Bash(docker build:*)']],
  ['docker run --rm app', []],
  ['docker compose up -d', ['Bash(docker compose up:*)']],
  ['kubectl apply -f k8s.yaml', ['Bash(kubectl apply:*)']],
  ['git status', 'no prompt'],
  ['git log --oneline', 'no prompt'],
  ['git diff', 'no prompt'],
  ['git add .', ['Bash(git add:*)']],
  ['git add src/a.ts', ['Bash(git add:*)']],
  ['git commit -m "fix bug"', ['Bash(git commit:*)']],
  ['git push', ['Bash(git push:*)']],
  ['git push --force origin main', ['Bash(git push:*)']],
  ['git pull --rebase', ['Bash(git pull:*)']],
  ['git checkout -b feature', ['Bash(git checkout:*)']],
  ['git stash', ['Bash(git stash:*)']],
  ['git reset --hard HEAD~1', ['Bash(git reset:*)']],
  ['git clean -fdx', ['Bash(git clean:*)']],
  ['git rebase -i HEAD~3', ['Bash(git rebase:*)']],
  ['git fetch origin', ['Bash(git fetch:*)']],
  ['git merge main', ['Bash(git merge:*)']],
  ['git tag v1.0', ['Bash(git tag:*)']],
  ['gh pr create --fill', ['Bash(gh pr:*)']],
  ['gh pr list', ['Bash(gh pr:*)']],
  ['gh issue view 12', ['Bash(gh issue:*)']],
  ['mkdir -p build/out', ['Bash(mkdir:*)']],
  ['touch notes.txt', ['Bash(touch notes.txt:*)']],
  ['cp a.txt b.txt', ['Bash(cp a.txt:*)']],
  ['mv a.txt b.txt', ['Bash(mv a.txt b.txt)']],
  ['rm a.txt', ['Bash(rm a.txt)']],
  ['rm -rf build', ['Bash(rm -rf build)']],
  ['rmdir empty', ['Bash(rmdir empty)']],
  ['chmod +x script.sh', ['Bash(chmod +x script.sh)']],
  ['chown me file', ['Bash(chown me file)']],
  ['ln -s a b', ['Bash(ln:*)']],
  ['echo hi > out.txt', []],
  ['echo hi >> log.txt', []],
  ["echo '{}' > .claude/settings.json", 'only a person'],
  ['echo x > .git/config', 'only a person'],
  ['cat a.txt > b.txt', []],
  ["sed -i 's/a/b/' file.txt", ['Bash(sed:*)']],
  ['curl https://example.com', ['Bash(curl https://example.com:*)']],
  ['curl -o out.html https://example.com', []],
  ['wget https://example.com/file', ['Bash(wget https://example.com/file:*)']],
  ['ssh host ls', []],
  ['scp a host:/tmp', ['Bash(scp a:*)']],
  ['rsync -av src/ dest/', ['Bash(rsync:*)']],
  ['tar czf out.tgz src', ['Bash(tar czf:*)']],
  ['unzip archive.zip', ['Bash(unzip archive.zip:*)']],
  ['sudo apt install jq', []],
  ['sudo rm -rf /', 'only a person'],
  ['env FOO=1 npm test', []],
  ['FOO=1 npm test', []],
  ['xargs rm < list.txt', []],
  ["find . -name '*.tmp' -exec rm {} \\;", []],
  ["find . -name '*.ts' -delete", []],
  ['sh -c "npm test"', []],
  ['bash -c "make"', []],
  ['bash script.sh', ['Bash(bash script.sh:*)']],
  ['./script.sh', []],
  ['./node_modules/.bin/jest', []],
  ['eval "$CMD"', []],
  ['timeout 10 npm test', ['Bash(npm test:*)']],
  ['nohup npm start', ['Bash(npm start:*)']],
  ['nice -n 10 make', ['Bash(make:*)']],
  ['time npm test', ['Bash(npm test:*)']],
  ['npm test && npm run build', ['Bash(npm test:*)', 'Bash(npm run build:*)']],
  ['npm test || echo failed', ['Bash(npm test:*)']],
  ['git add . && git commit -m wip', ['Bash(git add:*)', 'Bash(git commit:*)']],
  ['npm test | tee out.log', ['Bash(npm test:*)', 'Bash(tee out.log:*)']],
  ['npm test; rm -rf dist', ['Bash(npm test:*)', 'Bash(rm -rf dist)']],
  ['(cd sub && make)', []],
  ['cd sub && npm test', ['Bash(npm test:*)']],
  ['for f in *.ts; do echo $f; done', 'no prompt'],
  ['kill 1234', ['Bash(kill 1234)']],
  ['pkill node', ['Bash(pkill node)']],
  ['killall node', ['Bash(killall node)']],
  ['dd if=/dev/zero of=disk.img bs=1M count=1', ['Bash(dd if=/dev/zero of=disk.img bs=1M count=1)']],
  ['truncate -s 0 log.txt', ['Bash(truncate -s 0 log.txt)']],
  ['shred secret.txt', ['Bash(shred secret.txt)']],
  ['ls -la', 'no prompt'],
  ['cat README.md', 'no prompt'],
  ['grep -rn TODO src', 'no prompt'],
  ['head -n 5 file.txt', 'no prompt'],
  ['wc -l file.txt', 'no prompt'],
  ['pwd', 'no prompt'],
  ['which node', 'no prompt'],
  ['echo hello', 'no prompt'],
  ['jq . data.json', 'no prompt'],
  ['tsc -p .', ['Bash(tsc:*)']],
  ['eslint src --fix', ['Bash(eslint src:*)']],
  ['prettier --write src', ['Bash(prettier:*)']],
  ['brew install jq', ['Bash(brew install:*)']],
  ['pip install requests', ['Bash(pip install:*)']],
  ['pip install -r requirements.txt', ['Bash(pip install:*)']],
  ['uv run pytest', ['Bash(uv run pytest:*)']],
  ['poetry run pytest', ['Bash(poetry run pytest:*)']],
  ['bundle exec rspec', ['Bash(bundle exec rspec:*)']],
  ['rake test', ['Bash(rake test:*)']],
  ['mvn test', ['Bash(mvn test:*)']],
  ['gradle build', ['Bash(gradle build:*)']],
  ['./gradlew test', []],
  ['deno run main.ts', ['Bash(deno run main.ts:*)']],
  ['ruby script.rb', ['Bash(ruby script.rb:*)']],
  ["perl -pi -e 's/a/b/' file", []],
  ['php artisan migrate', ['Bash(php artisan:*)']],
  ['terraform apply', ['Bash(terraform apply:*)']],
  ['terraform plan', ['Bash(terraform plan:*)']],
  ['aws s3 ls', ['Bash(aws s3:*)']],
];

let env: ToolEnv;
beforeAll(async () => {
  await initBashParser();
  env = createToolEnv();
});
afterAll(() => env.cleanup());

async function offer(command: string): Promise<Offer> {
  const d = await decidePermission({ tool: bashTool, input: { command }, ctx: env.ctx, rules: emptyRules(), mode: 'default' });
  if (d.behavior === 'allow') return 'no prompt';
  if (d.behavior === 'ask' && d.by === 'tool default') return d.suggestions;
  return 'only a person';
}

describe('the prefix a Bash prompt offers to remember', () => {
  it('has at least 100 commands in its table', () => expect(TABLE.length).toBeGreaterThanOrEqual(100));

  it.each(TABLE)('%s → %j', async (command, expected) => {
    expect(await offer(command)).toEqual(expected);
  });

  it('never offers a rule that names a command-running wrapper or a bare shell, interpreter or network tool', async () => {
    for (const [command] of TABLE) {
      const o = await offer(command);
      if (!Array.isArray(o)) continue;
      for (const rule of o)
        expect(rule, command).not.toMatch(/^Bash\((sudo|doas|su|env|xargs|npx|sh|bash|zsh|eval|exec|curl|wget|ssh|python3?|node|perl|ruby)(:\*|\))/);
      for (const rule of o) expect(rule, command).not.toMatch(/^Bash\((docker|podman) (run|exec)|^Bash\(kubectl exec/);
    }
  });
});
