/**
 * Markdown frontmatter as `key: value` strings, as commands, skills and output styles read theirs
 * (agent files read theirs as YAML: frontmatter-yaml.ts).
 */
import { parseYamlBlock } from './frontmatter-yaml.js';

/**
 * A command's or skill's frontmatter, as `key: value` strings. A key written as a YAML list under it
 * (`allowed-tools:` then `- Read` lines) is read with the YAML reader and joined with ", ".
 */
export function parseFrontmatter(text: string): { meta: Record<string, string>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string> = {};
  let listed = false;
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (kv) meta[kv[1]!] = kv[2]!.replace(/^["']|["']$/g, '').trim();
    else if (/^\s*-\s/.test(line)) listed = true;
  }
  if (listed) {
    for (const [key, value] of Object.entries(parseYamlBlock(m[1]!).data)) {
      if (meta[key] === '' && Array.isArray(value)) meta[key] = value.map(String).join(', ');
    }
  }
  return { meta, body: text.slice(m[0].length) };
}
