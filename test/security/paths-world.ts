/**
 * The world the path battery attacks: a project with denied files (and harmless ones beside them),
 * a temporary home with `~/.ssh`, and a folder outside the project holding links of every kind to
 * the denied files. Every denied file holds SECRET_CONTENT_… and every denied name holds `zq9` (or
 * is `id_rsa` / `.env`), so a leak of content or of a name is seen in the text that reaches the model.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, linkSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Read deny rules, as a project's settings would hold them. */
export const DENY_RULES = [
  'Read(./secret/**)',
  'Read(~/.ssh/**)',
  'Read(.env)',
  'Read(*.pem)',
  'Read(./mixedcase/**)',
  // Written composed (NFC); the folder on disk is decomposed (NFD).
  'Read(./caf\u00e9/**)',
  'Edit(./readonly/**)',
];

export const CONTENT_LEAK = /SECRET_CONTENT/;
export const NAME_LEAK = /zq9|id_rsa|(^|[/\s"'])\.env\b/i;

const notebook = (text: string) =>
  JSON.stringify({
    cells: [{ cell_type: 'code', id: 'c1', metadata: {}, source: [text], outputs: [], execution_count: null }],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  });

/** Project files: denied ones hold the content marker, harmless ones PUBLIC_…. */
export const PROJECT_FILES: Record<string, string> = {
  'secret/zq9-key.txt': 'TOKEN=SECRET_CONTENT_key\n',
  'secret/nested/zq9-deep.txt': 'TOKEN=SECRET_CONTENT_deep\n',
  'secret/zq9-note.ipynb': notebook('TOKEN=SECRET_CONTENT_notebook'),
  '.env': 'TOKEN=SECRET_CONTENT_env\n',
  'sub/.env': 'TOKEN=SECRET_CONTENT_subenv\n',
  'certs/zq9-server.pem': 'TOKEN=SECRET_CONTENT_pem\n',
  'MixedCase/zq9-case.txt': 'TOKEN=SECRET_CONTENT_case\n',
  'cafe\u0301/zq9-nfd.txt': 'TOKEN=SECRET_CONTENT_nfd\n',
  'public/ok.txt': 'TOKEN=PUBLIC_OK\n',
  'public/nb.ipynb': notebook('TOKEN=PUBLIC_NOTEBOOK'),
  'readonly/edit-denied.txt': 'TOKEN=PUBLIC_READONLY\n',
  'src/main.ts': 'export const TOKEN = "PUBLIC_SRC";\n',
};

export interface World {
  root: string;
  project: string;
  home: string;
  /** A folder beside the project, outside it, full of links. */
  outside: string;
  /** A link to the home folder. */
  homeLink: string;
  /** A process whose cwd is the project (for /proc/<pid>/cwd). */
  pid: number;
  /** Descriptors this process holds open: the project folder and the denied key file. */
  fd: { project: number; key: number; ok: number };
  p(rel: string): string;
  cleanup(): void;
}

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export function makeWorld(): World {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-paths-')));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  const outside = path.join(root, 'outside');
  for (const [rel, content] of Object.entries(PROJECT_FILES)) write(path.join(project, rel), content);
  write(path.join(home, '.ssh', 'id_rsa'), 'TOKEN=SECRET_CONTENT_ssh\n');
  write(path.join(home, '.ssh', 'zq9-known.txt'), 'TOKEN=SECRET_CONTENT_known\n');
  write(path.join(home, 'notes.txt'), 'TOKEN=PUBLIC_HOME\n');
  write(path.join(outside, 'pub.txt'), 'TOKEN=PUBLIC_OUTSIDE\n');
  // Links inside the project into the denied folder.
  symlinkSync('../secret/zq9-key.txt', path.join(project, 'public', 'link-to-key.txt'));
  symlinkSync('secret', path.join(project, 'innocent'));
  // Links outside the project: to it, to its denied folder and file, to ~/.ssh; a hard link.
  symlinkSync(project, path.join(outside, 'link-to-project'));
  symlinkSync(path.join(project, 'secret'), path.join(outside, 'link-to-secret'));
  symlinkSync(path.join(project, 'secret', 'zq9-key.txt'), path.join(outside, 'link-to-key.txt'));
  symlinkSync(path.join(home, '.ssh'), path.join(outside, 'link-to-ssh'));
  linkSync(path.join(project, 'secret', 'zq9-key.txt'), path.join(outside, 'hard-zq9.txt'));
  const homeLink = path.join(root, 'homelink');
  symlinkSync(home, homeLink);
  const child: ChildProcess = spawn('sleep', ['600'], { cwd: project, stdio: 'ignore' });
  const fd = {
    project: openSync(project, 'r'),
    key: openSync(path.join(project, 'secret', 'zq9-key.txt'), 'r'),
    ok: openSync(path.join(project, 'public', 'ok.txt'), 'r'),
  };
  return {
    root,
    project,
    home,
    outside,
    homeLink,
    pid: child.pid!,
    fd,
    p: (rel) => path.join(project, rel),
    cleanup: () => {
      child.kill();
      for (const n of Object.values(fd)) closeSync(n);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The project folder, spelled every way that names it. */
export function projectSpellings(w: World): Array<[string, string]> {
  const P = w.project;
  return [
    ['absolute', P],
    ['relative .', '.'],
    ['./', './'],
    ['trailing slash', `${P}/`],
    ['double slashes', `${P.replace(/\//g, '//')}//`],
    ['/proc/self/cwd', '/proc/self/cwd'],
    ['/proc/self/cwd/.', '/proc/self/cwd/.'],
    ['/proc/<pid>/cwd', `/proc/${w.pid}/cwd`],
    ['/proc/self/root + path', `/proc/self/root${P}`],
    ['/proc/self/fd/N (folder)', `/proc/self/fd/${w.fd.project}`],
    ['a link to the project', path.join(w.outside, 'link-to-project')],
    ['.. back into it', `${P}/public/..`],
    ['../project', '../project'],
    ['~/../project', '~/../project'],
  ];
}

/** Folders above the project. */
export function parentSpellings(w: World): Array<[string, string]> {
  return [
    ['..', '..'],
    ['<project>/..', `${w.project}/..`],
    ['absolute parent', w.root],
    ['/proc/self/cwd/..', '/proc/self/cwd/..'],
    ['~/..', '~/..'],
  ];
}

/** The denied key file, spelled every way that reaches it (or a look-alike that must not). */
export function keySpellings(w: World): Array<[string, string]> {
  const P = w.project;
  return [
    ['relative', 'secret/zq9-key.txt'],
    ['./', './secret/zq9-key.txt'],
    ['absolute', `${P}/secret/zq9-key.txt`],
    ['double slashes', `${P}//secret//zq9-key.txt`],
    ['/./', `${P}/./secret/./zq9-key.txt`],
    ['.. detour', 'public/../secret/zq9-key.txt'],
    ['/proc/self/cwd', '/proc/self/cwd/secret/zq9-key.txt'],
    ['/proc/<pid>/cwd', `/proc/${w.pid}/cwd/secret/zq9-key.txt`],
    ['/proc/self/root', `/proc/self/root${P}/secret/zq9-key.txt`],
    ['/proc/self/fd/N (file)', `/proc/self/fd/${w.fd.key}`],
    ['/proc/self/fd/N (folder) + name', `/proc/self/fd/${w.fd.project}/secret/zq9-key.txt`],
    ['folder link inside the project', 'innocent/zq9-key.txt'],
    ['file link inside the project', 'public/link-to-key.txt'],
    ['link to the project', path.join(w.outside, 'link-to-project', 'secret', 'zq9-key.txt')],
    ['folder link outside', path.join(w.outside, 'link-to-secret', 'zq9-key.txt')],
    ['file link outside', path.join(w.outside, 'link-to-key.txt')],
    ['hard link outside', path.join(w.outside, 'hard-zq9.txt')],
    ['upper case', 'SECRET/ZQ9-KEY.TXT'],
    ['trailing space', 'secret/zq9-key.txt '],
    ['trailing slash', 'secret/zq9-key.txt/'],
    ['full-width look-alike', '\uff53ecret/zq9-key.txt'],
    ['Cyrillic look-alike', '\u0455ecret/zq9-key.txt'],
    ['~/../project', '~/../project/secret/zq9-key.txt'],
  ];
}

/** Other denied files, by the rule that covers them. */
export function otherDeniedFiles(w: World): Array<[string, string]> {
  return [
    ['deep file', 'secret/nested/zq9-deep.txt'],
    ['.env at the root', '.env'],
    ['.env in a folder', 'sub/.env'],
    ['.env through /proc/self/cwd', '/proc/self/cwd/sub/.env'],
    ['*.pem at any depth', 'certs/zq9-server.pem'],
    ['case-folded rule', 'MixedCase/zq9-case.txt'],
    ['NFD name, NFC rule', 'cafe\u0301/zq9-nfd.txt'],
    ['NFC spelling of an NFD name', 'caf\u00e9/zq9-nfd.txt'],
    ['~/.ssh/id_rsa', '~/.ssh/id_rsa'],
    ['$HOME written out', `${w.home}/.ssh/id_rsa`],
    ['$HOME literally', '$HOME/.ssh/id_rsa'],
    ['home through a link', path.join(w.homeLink, '.ssh', 'id_rsa')],
    ['~/.ssh through a link outside', path.join(w.outside, 'link-to-ssh', 'id_rsa')],
    ['~/.ssh via /proc/self/root', `/proc/self/root${w.home}/.ssh/id_rsa`],
  ];
}

/** Denied folders, spelled every way. */
export function deniedFolders(w: World): Array<[string, string]> {
  return [
    ['secret', 'secret'],
    ['secret/', 'secret/'],
    ['SECRET', 'SECRET'],
    ['./secret/.', './secret/.'],
    ['secret/nested', 'secret/nested'],
    ['/proc/self/cwd/secret', '/proc/self/cwd/secret'],
    ['/proc/self/root + secret', `/proc/self/root${w.project}/secret`],
    ['/proc/<pid>/cwd/secret', `/proc/${w.pid}/cwd/secret`],
    ['innocent (a link to secret)', 'innocent'],
    ['a link to secret outside', path.join(w.outside, 'link-to-secret')],
    ['~/.ssh', '~/.ssh'],
    ['~/.ssh through a link', path.join(w.outside, 'link-to-ssh')],
    ['~/.ssh through a linked home', path.join(w.homeLink, '.ssh')],
    ['MixedCase', 'MixedCase'],
    ['NFD folder', 'cafe\u0301'],
  ];
}

/** The home folder, spelled every way. */
export function homeSpellings(w: World): Array<[string, string]> {
  return [
    ['~', '~'],
    ['~/', '~/'],
    ['$HOME written out', w.home],
    ['home through a link', w.homeLink],
    ['/proc/self/root + home', `/proc/self/root${w.home}`],
  ];
}

/** Names only (the tables are made before the world exists). */
export function spellingNames(list: (w: World) => Array<[string, string]>): string[] {
  const stub = { project: '/P', home: '/H', outside: '/O', homeLink: '/HL', root: '/R', pid: 1, fd: { project: 3, key: 4, ok: 5 } } as unknown as World;
  return list(stub).map(([n]) => n);
}

/** The path a named spelling stands for in `w`. */
export function spelled(list: (w: World) => Array<[string, string]>, w: World, name: string): string {
  return list(w).find(([n]) => n === name)![1];
}
