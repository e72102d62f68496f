/**
 * /config, /theme, /vim and /model: the settings a person changes from the app, saved to the user
 * settings file as Claude Code saves them ("saved as your default for new sessions" for /model).
 */
import { DEFAULT_MODEL, modelAliases, modelAllowed, modelDenied, resolveModel } from '../../base/models.js';
import { deniedModels } from '../../core/setup/model-choice.js';
import { saveUserSetting, shortPath, THEMES, type ThemeName } from '../preferences.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

/** The aliases as this session's provider resolves them (set at session start, so read at call time). */
function models(): Array<{ value: string; label: string; description: string }> {
  const a = modelAliases();
  return [
    { value: 'sonnet', label: 'Sonnet', description: `${a.sonnet} · the default` },
    { value: 'opus', label: 'Opus', description: `${a.opus} · for the hardest work` },
    { value: 'haiku', label: 'Haiku', description: `${a.haiku} · the fastest` },
  ];
}

/** Settings `availableModels`, when set: the only models a person may choose. */
function availableModels(s: SessionControl): string[] | undefined {
  const list = s.options.settings.availableModels;
  return Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : undefined;
}

/** Sets the session's model and saves it as the default for new sessions. */
async function setModel(name: string, s: SessionControl): Promise<CommandResult> {
  const chosen = resolveModel(name) ?? name;
  const allowed = availableModels(s);
  if (modelDenied(chosen, deniedModels(s.options.settings)))
    return { kind: 'info', tone: 'warning', text: `${chosen} is blocked by the managed policy's deniedModels: the model stays ${s.options.model}.` };
  if (!modelAllowed(chosen, allowed))
    return {
      kind: 'info',
      tone: 'warning',
      text: `${chosen} is not in settings availableModels (${allowed?.join(', ')}): the model stays ${s.options.model}.`,
    };
  s.options.model = chosen;
  if (!s.home) return { kind: 'info', text: `Model set to ${s.options.model}` };
  try {
    await saveUserSetting('model', name, { home: s.home, configDir: s.configDirOverride });
    return { kind: 'info', text: `Set model to ${s.options.model} and saved as your default for new sessions` };
  } catch (err) {
    return { kind: 'info', tone: 'warning', text: `Model set to ${s.options.model} for this session only: ${(err as Error).message}` };
  }
}

export const modelCommand: SlashCommand = {
  name: 'model',
  argumentHint: '[name]',
  description: 'Choose the model (sonnet, opus, haiku or a full id), saved as the default',
  source: 'builtin',
  run(args, s) {
    const name = args.trim();
    if (name) return setModel(name, s);
    const allowed = availableModels(s);
    const denied = deniedModels(s.options.settings);
    const list = models().filter((m) => modelAllowed(m.value, allowed) && !modelDenied(m.value, denied));
    const current = list.findIndex((m) => resolveModel(m.value) === s.options.model);
    const options = current >= 0 ? list : [...list, { value: s.options.model, label: s.options.model, description: 'the current model' }];
    return {
      kind: 'pick',
      title: `Select a model (now ${s.options.model}; the default is ${DEFAULT_MODEL})`,
      options,
      selected: current >= 0 ? current : options.length - 1,
      pick: (value) => setModel(value, s),
    };
  },
};

async function setTheme(name: string, s: SessionControl): Promise<CommandResult> {
  if (!(THEMES as readonly string[]).includes(name)) return { kind: 'info', tone: 'warning', text: `Unknown theme "${name}": use ${THEMES.join(', ')}.` };
  if (!s.preferences) return { kind: 'info', text: 'Themes are not available here.' };
  const file = await s.preferences.set('theme', name as ThemeName).catch(() => undefined);
  const noColor = s.options.env.NO_COLOR ? ' (NO_COLOR is set: colours stay off)' : '';
  return { kind: 'info', text: `Theme set to ${name}${file ? ` (saved to ${shortPath(file, s.home ?? '')})` : ''}${noColor}` };
}

export const themeCommand: SlashCommand = {
  name: 'theme',
  argumentHint: '[dark|light|dark-daltonized|light-daltonized|dark-ansi|light-ansi]',
  description: 'Choose the colour theme (colour-blind-safe ones too)',
  source: 'builtin',
  run(args, s) {
    const name = args.trim();
    if (name) return setTheme(name, s);
    const current = s.preferences?.get().theme ?? 'dark';
    const label: Record<string, string> = {
      dark: 'Dark mode',
      light: 'Light mode',
      'dark-daltonized': 'Dark mode (colour-blind-friendly)',
      'light-daltonized': 'Light mode (colour-blind-friendly)',
      'dark-ansi': 'Dark mode (ANSI colours only)',
      'light-ansi': 'Light mode (ANSI colours only)',
    };
    return {
      kind: 'pick',
      title: 'Choose the text style that looks best with your terminal',
      options: THEMES.map((t) => ({ value: t, label: label[t]! })),
      selected: THEMES.indexOf(current),
      pick: (value) => setTheme(value, s),
    };
  },
};

export const vimCommand: SlashCommand = {
  name: 'vim',
  description: 'Toggle vim keys in the prompt (editorMode)',
  source: 'builtin',
  async run(_args, s) {
    if (!s.preferences) return { kind: 'info', text: 'Vim keys are not available here.' };
    const next = s.preferences.get().editorMode === 'vim' ? 'normal' : 'vim';
    await s.preferences.set('editorMode', next).catch(() => undefined);
    return {
      kind: 'info',
      text: next === 'vim' ? 'Editor mode set to vim: Esc for NORMAL mode, i to type again.' : 'Editor mode set to normal.',
    };
  },
};

export const configCommand: SlashCommand = {
  name: 'config',
  aliases: ['settings'],
  description: 'Settings: model, theme, editor mode, notifications, auto-compact, verbose output',
  source: 'builtin',
  run: () => ({ kind: 'config' }),
};
