/** What Read returns: one variant per kind of file, all carrying the version that was read. */
import type { FileVersion, ReadRange } from '../../base/read-state.js';

interface Base {
  /** Absolute path that was read. */
  filePath: string;
  /** The same path as the person reads it (relative to the cwd when inside it). */
  displayPath: string;
  version: FileVersion;
  range: ReadRange;
}

export interface TextRead extends Base {
  kind: 'text';
  /** 1-based number of the first line in `lines`. */
  startLine: number;
  /** The lines shown, CR stripped, long lines already cut. */
  lines: string[];
  totalLines: number;
  /** How many of the shown lines were cut at the line length limit. */
  cutLines: number;
  /** The window stopped early because the output limit was reached. */
  stoppedAtOutputCap: boolean;
  encoding: string;
}

/** An empty or whitespace-only file: a note, not an error. */
export interface EmptyRead extends Base {
  kind: 'empty';
  totalLines: number;
  whitespaceOnly: boolean;
}

/** An offset past the last line. */
export interface PastEndRead extends Base {
  kind: 'past-end';
  totalLines: number;
}

/** The same range of the same version was read before in this session. */
export interface UnchangedRead extends Base {
  kind: 'unchanged';
  totalLines: number;
}

export interface ImageRead extends Base {
  kind: 'image';
  mediaType: string;
  bytes: number;
  base64: string;
}

export interface PdfRead extends Base {
  kind: 'pdf';
  totalPages: number;
  pages: Array<{ num: number; text: string }>;
  /** Text was cut at the output limit. */
  cut: boolean;
}

export interface NotebookImage {
  mediaType: string;
  base64: string;
}

export interface NotebookRead extends Base {
  kind: 'notebook';
  cellCount: number;
  /** The cells rendered as text, with their outputs. */
  text: string;
  images: NotebookImage[];
  cut: boolean;
}

export type ReadOutput = TextRead | EmptyRead | PastEndRead | UnchangedRead | ImageRead | PdfRead | NotebookRead;
