/**
 * Images for the prompt, as Claude Code takes them: Ctrl+V reads the clipboard (wl-paste under
 * Wayland, xclip under X, pbpaste for a copied file path on macOS), and a pasted or dragged path to
 * an image file is taken as that image. Each becomes `[Image #N]` in the prompt and an image block
 * in the message. Only PNG, JPEG, GIF and WebP, up to the API's 5 MB.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface ImageData {
  mediaType: string;
  /** base64 */
  data: string;
}

export type ImageOutcome = { image: ImageData } | { error: string };

/** The media type from the file's first bytes, or undefined when it is no image the API takes. */
export function mediaTypeOf(bytes: Uint8Array): string | undefined {
  const b = Buffer.from(bytes.subarray(0, 12));
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

function fromBytes(bytes: Buffer, what: string): ImageOutcome {
  const mediaType = mediaTypeOf(bytes);
  if (!mediaType) return { error: `${what} is not a PNG, JPEG, GIF or WebP image` };
  if (bytes.length > MAX_IMAGE_BYTES) return { error: `${what} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; images up to 5 MB can be sent` };
  return { image: { mediaType, data: bytes.toString('base64') } };
}

/** A pasted or dragged path (quoted, with `\ ` escapes or a file:// URL) to an image file, or undefined when the text is no such path. */
export function imagePathOf(text: string, cwd: string): string | undefined {
  let t = text.trim();
  if (!t || t.includes('\n')) return undefined;
  if ((t.startsWith("'") && t.endsWith("'")) || (t.startsWith('"') && t.endsWith('"'))) t = t.slice(1, -1);
  else t = t.replace(/\\(.)/g, '$1');
  if (t.startsWith('file://')) t = decodeURIComponent(t.slice('file://'.length));
  if (t.startsWith('~/')) t = path.join(homedir(), t.slice(2));
  if (!/\.(png|jpe?g|gif|webp)$/i.test(t)) return undefined;
  const abs = path.resolve(cwd, t);
  try {
    return statSync(abs).isFile() ? abs : undefined;
  } catch {
    return undefined;
  }
}

export function readImageFile(file: string): ImageOutcome {
  try {
    return fromBytes(readFileSync(file), path.basename(file));
  } catch (err) {
    return { error: `${file} could not be read: ${(err as Error).message}` };
  }
}

/** The clipboard's image, by the first clipboard tool that is there and holds one. */
export function readClipboardImage(env: Record<string, string | undefined>, cwd: string): ImageOutcome {
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { env: { ...process.env, ...env }, maxBuffer: MAX_IMAGE_BYTES * 2, timeout: 5000 });
  const tried: string[] = [];
  const tools: Array<[string, () => ImageOutcome | undefined]> = [
    [
      'wl-paste',
      () => {
        const types = run('wl-paste', ['--list-types']);
        if (types.status !== 0) return undefined;
        const type = types.stdout
          .toString()
          .split('\n')
          .find((t) => /^image\/(png|jpeg|gif|webp)$/.test(t.trim()));
        if (!type) return { error: 'the clipboard holds no image' };
        const r = run('wl-paste', ['--type', type.trim()]);
        return r.status === 0 ? fromBytes(r.stdout, 'the clipboard') : undefined;
      },
    ],
    [
      'xclip',
      () => {
        const targets = run('xclip', ['-selection', 'clipboard', '-t', 'TARGETS', '-o']);
        if (targets.status !== 0) return undefined;
        const type = targets.stdout
          .toString()
          .split('\n')
          .find((t) => /^image\/(png|jpeg|gif|webp)$/.test(t.trim()));
        if (!type) return fromText(run('xclip', ['-selection', 'clipboard', '-o']).stdout.toString(), cwd);
        const r = run('xclip', ['-selection', 'clipboard', '-t', type.trim(), '-o']);
        return r.status === 0 ? fromBytes(r.stdout, 'the clipboard') : undefined;
      },
    ],
    [
      'pbpaste',
      () => {
        const r = run('pbpaste', []);
        return r.status === 0 ? fromText(r.stdout.toString(), cwd) : undefined;
      },
    ],
  ];
  for (const [name, read] of tools) {
    if (name === 'wl-paste' && !env.WAYLAND_DISPLAY) continue;
    if (!onPath(name, env)) continue;
    tried.push(name);
    const got = read();
    if (got) return got;
  }
  return {
    error: tried.length ? `the clipboard holds no image (${tried.join(', ')})` : 'no clipboard tool found: install wl-clipboard (Wayland) or xclip (X11)',
  };
}

/** Clipboard text that is the path of an image file. */
function fromText(text: string, cwd: string): ImageOutcome {
  const file = imagePathOf(text, cwd);
  return file ? readImageFile(file) : { error: 'the clipboard holds no image' };
}

function onPath(cmd: string, env: Record<string, string | undefined>): boolean {
  return (env.PATH ?? process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, cmd)));
}
