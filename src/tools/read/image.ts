/** Images come back to the model as a base64 image block (size-capped by the preflight). */
import { readFile } from '../../base/fs/lazy-fs.js';
import { openRegularFile, sniffImageType, type ImageMediaType } from '../fs/file-kind.js';
import { versionOf } from '../../base/fs/version.js';
import type { FileVersion } from '../../base/read-state.js';

export interface LoadedImage {
  mediaType: ImageMediaType;
  base64: string;
  bytes: number;
  version: FileVersion;
}

export async function loadImage(absPath: string, fallbackType: ImageMediaType): Promise<LoadedImage> {
  const { fh, stats } = await openRegularFile(absPath);
  try {
    const raw = await readFile(fh);
    return {
      mediaType: sniffImageType(raw) ?? fallbackType,
      base64: raw.toString('base64'),
      bytes: raw.length,
      version: versionOf(raw, stats),
    };
  } finally {
    await fh.close();
  }
}
