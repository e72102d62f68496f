/**
 * One plugin folder and its optional manifest, `.claude-plugin/plugin.json`, as Claude Code reads
 * them. The standard layout: `commands/*.md`, `agents/*.md`, `skills/<name>/SKILL.md`,
 * `output-styles/*.md`, `hooks/hooks.json`, `.mcp.json`. Manifest component fields take a path
 * relative to the plugin root (`./custom/cmds`) or a list of them, and `hooks` and `mcpServers`
 * also an object written inline. As in current Claude Code, a manifest path for commands, agents or
 * outputStyles replaces the default folder, a skills path adds to it, and manifest hooks and MCP
 * servers load besides `hooks/hooks.json` and `.mcp.json`.
 *
 * A manifest that is not JSON, or names the plugin with something that is not a name, stops the
 * plugin; a component path that is absolute, leads out of the plugin, or does not exist is left out
 * with an error, and the rest of the plugin loads.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readSettingsFile } from '../settings/read.js';
import { isObject } from '../settings/validate.js';
import type { ComponentPaths, ConfigSource, LoadedPlugin, PluginError } from './types.js';

export interface PluginOrigin {
  /** The name when neither the manifest nor a marketplace entry gives one. */
  fallbackName: string;
  id?: string;
  source: LoadedPlugin['source'];
  /** The plugin's marketplace entry, when it was found through one: with `strict: false` it is the manifest. */
  entry?: Record<string, unknown>;
}

const COMPONENT_KEYS = ['commands', 'agents', 'skills', 'outputStyles', 'hooks', 'mcpServers', 'lspServers'] as const;

export function readPlugin(root: string, origin: PluginOrigin): { plugin?: LoadedPlugin; errors: PluginError[] } {
  const label = origin.id ?? origin.fallbackName;
  const file = path.join(root, '.claude-plugin', 'plugin.json');
  const read = readSettingsFile(file);
  if (read.status === 'error') {
    const message = `${read.warning.replace(/; (the file is )?ignored$/, '')}; the plugin is not loaded`;
    return { errors: [{ plugin: label, type: 'manifest-parse-error', message, path: file }] };
  }
  const manifest = manifestFields(read.status === 'loaded' ? read.data : {}, origin.entry);
  if (manifest.name !== undefined && !(typeof manifest.name === 'string' && isPluginName(manifest.name))) {
    const message = `${file}: "name" must be a plugin name (letters, digits, "-", "_" and "."), found ${JSON.stringify(manifest.name)}; the plugin is not loaded`;
    return { errors: [{ plugin: label, type: 'manifest-validation-error', message, path: file }] };
  }
  const name = typeof manifest.name === 'string' ? manifest.name : asPluginName(origin.fallbackName);
  const errors: PluginError[] = [];
  const paths = componentPaths(root, manifest, (type, message, where) => errors.push({ plugin: name, type, message, ...(where ? { path: where } : {}) }));
  const plugin: LoadedPlugin = {
    name,
    root,
    ...(origin.id ? { id: origin.id } : {}),
    source: origin.source,
    ...(typeof manifest.version === 'string' ? { version: manifest.version } : {}),
    ...(typeof manifest.description === 'string' ? { description: manifest.description } : {}),
    paths,
  };
  return { plugin, errors };
}

/** The manifest, with the marketplace entry's component fields where the manifest has none (all of them with `strict: false`). */
function manifestFields(manifest: Record<string, unknown>, entry: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!entry) return manifest;
  const out = { ...manifest };
  if (out.name === undefined && typeof entry.name === 'string') out.name = entry.name;
  for (const key of COMPONENT_KEYS) if (entry[key] !== undefined && (entry.strict === false || out[key] === undefined)) out[key] = entry[key];
  return out;
}

export function isPluginName(name: string): boolean {
  return /^[A-Za-z0-9][\w.-]*$/.test(name);
}

/** A folder or id part made usable as a name: other characters become "-". */
function asPluginName(raw: string): string {
  const name = raw.replace(/[^\w.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return name || 'plugin';
}

type Report = (type: string, message: string, where?: string) => void;

function componentPaths(root: string, m: Record<string, unknown>, report: Report): ComponentPaths {
  return {
    commands: folders(root, m.commands, 'commands', 'replace', report),
    agents: folders(root, m.agents, 'agents', 'replace', report),
    skills: folders(root, m.skills, 'skills', 'add', report),
    outputStyles: folders(root, m.outputStyles, 'output-styles', 'replace', report),
    hooks: configs(root, m.hooks, path.join('hooks', 'hooks.json'), 'hooks', report),
    mcpServers: configs(root, m.mcpServers, '.mcp.json', 'mcpServers', report),
    lspServers: configs(root, m.lspServers, '.lsp.json', 'lspServers', report),
  };
}

/** Files or folders of one component: the manifest's (instead of or besides the default folder), each inside the plugin. */
function folders(root: string, value: unknown, defaultDir: string, mode: 'replace' | 'add', report: Report): string[] {
  const fallback = path.join(root, defaultDir);
  const withDefault = existsSync(fallback) ? [fallback] : [];
  if (value === undefined) return withDefault;
  const list = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  const key = keyFor(defaultDir);
  if (!list) {
    report('manifest-validation-error', `plugin.json "${key}" must be a path or a list of paths, found ${describe(value)}; the default folder is used`);
    return withDefault;
  }
  const out = mode === 'add' ? withDefault : [];
  for (const rel of list) {
    const abs = inside(root, rel, key, report);
    if (abs && !out.includes(abs)) out.push(abs);
  }
  return out;
}

/** Hook or MCP configs: the default file when present, then the manifest's files and inline objects. */
function configs(root: string, value: unknown, defaultFile: string, key: string, report: Report): ConfigSource[] {
  const fallback = path.join(root, defaultFile);
  const out: ConfigSource[] = existsSync(fallback) ? [{ file: fallback }] : [];
  if (value === undefined) return out;
  const items = Array.isArray(value) ? value : [value];
  items.forEach((item, i) => {
    const where = `plugin.json "${key}"${Array.isArray(value) ? `[${i}]` : ''}`;
    if (isObject(item)) out.push({ inline: item, where });
    else if (typeof item === 'string') {
      const abs = inside(root, item, key, report);
      if (abs && !out.some((s) => 'file' in s && s.file === abs)) out.push({ file: abs });
    } else report('manifest-validation-error', `${where} must be a path or an object, found ${describe(item)}; ignored`);
  });
  return out;
}

/** `rel` resolved in the plugin root; undefined (with an error) when it is absolute, leads out, or is missing. */
function inside(root: string, rel: string, key: string, report: Report): string | undefined {
  if (path.isAbsolute(rel)) {
    report('manifest-validation-error', `plugin.json "${key}": ${JSON.stringify(rel)} must be relative to the plugin folder (start it with "./"); ignored`);
    return undefined;
  }
  const abs = path.resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + path.sep)) {
    report('manifest-validation-error', `plugin.json "${key}": ${JSON.stringify(rel)} leads out of the plugin folder; ignored`);
    return undefined;
  }
  if (!existsSync(abs)) {
    report('path-not-found', `plugin.json "${key}": ${abs} does not exist; ignored`, abs);
    return undefined;
  }
  return abs;
}

function keyFor(defaultDir: string): string {
  return defaultDir === 'output-styles' ? 'outputStyles' : defaultDir;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list with something other than paths';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
