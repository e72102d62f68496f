/**
 * Output styles (settings `outputStyle`): how the main conversation talks to the person. The
 * built-in ones, and Markdown files with front matter (`name`, `description`,
 * `keep-coding-instructions`) in `.claude/output-styles/` (the project's, then the user's). A style's
 * text ends the system prompt; unless it keeps the coding instructions, it replaces them.
 */
import path from 'node:path';
import { parseFrontmatter } from './frontmatter.js';
import { markdownFiles } from './markdown-dir.js';

export interface OutputStyle {
  name: string;
  description: string;
  /** The text added to the system prompt; empty for the default style. */
  prompt: string;
  keepCodingInstructions: boolean;
  source: 'builtin' | 'project' | 'user' | 'plugin';
}

/** The plugins' styles (plugins/output-styles.ts); plugins/active.ts sets them when a session's plugins load. */
let pluginOutputStyles: () => OutputStyle[] = () => [];

export function setPluginOutputStyles(styles: () => OutputStyle[]): void {
  pluginOutputStyles = styles;
}

const BUILTIN: OutputStyle[] = [
  { name: 'default', description: 'Get the work done, concisely', prompt: '', keepCodingInstructions: true, source: 'builtin' },
  {
    name: 'Explanatory',
    description: 'Does the work and explains the choices it makes',
    prompt: `# Output style: Explanatory
While you work, teach. Before and after writing code, add short "Insight" notes (two or three points) about why the codebase is built the way it is and why you chose this approach over the alternatives. Keep the notes specific to this project, not general programming advice.`,
    keepCodingInstructions: true,
    source: 'builtin',
  },
  {
    name: 'Learning',
    description: 'Works with the person, leaving small parts for them to write',
    prompt: `# Output style: Learning
Help the person learn by doing. Do the surrounding work yourself, but for small, meaningful pieces (a function body of a few lines, a condition, a design choice) leave a \`TODO(human)\` marker in the code and ask them to write it, explaining what it needs to do and why it matters. Add short "Insight" notes about the codebase as you go.`,
    keepCodingInstructions: true,
    source: 'builtin',
  },
  {
    name: 'Concise',
    description: 'The shortest answers that are still complete',
    prompt: `# Output style: Concise
Answer in as few words as the task allows: no preamble, no summary of what you just did unless asked, lists over prose.`,
    keepCodingInstructions: true,
    source: 'builtin',
  },
  {
    name: 'Proactive',
    description: 'Takes the obvious next steps without asking',
    prompt: `# Output style: Proactive
When the next step is clear and low-risk (running the tests after a change, fixing a lint error you caused, updating a call site), take it without asking first, and say afterwards what you did.`,
    keepCodingInstructions: true,
    source: 'builtin',
  },
];

/** Every style available from `cwd`: built-ins, plugins' (plugins/output-styles.ts), then the user's files, then the project's (a later name wins). */
export function loadOutputStyles(cwd: string, configDir: string): OutputStyle[] {
  const byName = new Map(BUILTIN.map((s) => [s.name.toLowerCase(), s]));
  for (const s of pluginOutputStyles()) byName.set(s.name.toLowerCase(), s);
  for (const s of scanDir(path.join(configDir, 'output-styles'), 'user')) byName.set(s.name.toLowerCase(), s);
  for (const s of scanDir(path.join(cwd, '.claude', 'output-styles'), 'project')) byName.set(s.name.toLowerCase(), s);
  return [...byName.values()];
}

/** The style named in settings (case does not matter); `error` when no style has that name. */
export function resolveOutputStyle(name: unknown, cwd: string, configDir: string): { style?: OutputStyle; error?: string } {
  if (typeof name !== 'string' || !name.trim() || name.trim().toLowerCase() === 'default') return {};
  const styles = loadOutputStyles(cwd, configDir);
  const style = styles.find((s) => s.name.toLowerCase() === name.trim().toLowerCase());
  if (style) return { style };
  return { error: `outputStyle "${name}" is not a known output style (known: ${styles.map((s) => s.name).join(', ')}); using the default` };
}

function scanDir(dir: string, source: 'project' | 'user'): OutputStyle[] {
  return markdownFiles(dir).map(({ file, text }) => styleFromFile(file, text, source));
}

/** One style file: front matter and text. */
export function styleFromFile(file: string, text: string, source: OutputStyle['source']): OutputStyle {
  const { meta, body } = parseFrontmatter(text);
  return {
    name: meta.name || path.basename(file, '.md'),
    description: meta.description ?? '',
    prompt: body.trim(),
    keepCodingInstructions: meta['keep-coding-instructions'] === 'true',
    source,
  };
}
