/**
 * /plugin: browse the marketplaces, install, enable, disable, update and uninstall plugins, in
 * Claude Code's files (plugins/catalog.ts reads them, plugin-screen-actions.ts changes them). Four
 * tabs (←/→ or Tab): Installed (Space turns one on or off, u updates, x uninstalls), Discover
 * (Enter installs for you, p for the project), Marketplaces (u updates, r removes) and Errors.
 * Esc closes; changes reach this session with /reload-plugins.
 */
import { Box, Text } from 'ink';
import React, { useMemo, useRef, useState } from 'react';
import { type PluginCatalog, pluginCatalog } from '../plugins/catalog.js';
import type { ManageContext } from '../plugins/manage-context.js';
import type { PluginSet } from '../plugins/types.js';
import { useKeys } from './key-router.js';
import {
  type ActionResult,
  installAction,
  type PluginAction,
  removeMarketplaceAction,
  toggleAction,
  uninstallAction,
  updateMarketplaceAction,
  updatePluginAction,
} from './plugin-screen-actions.js';
import { symbols, theme } from './theme.js';

const TABS = ['Installed', 'Discover', 'Marketplaces', 'Errors'] as const;
type Tab = (typeof TABS)[number];

const HINTS: Record<Tab, string> = {
  Installed: 'space on/off · u update · x uninstall',
  Discover: 'enter install for you · p install for the project',
  Marketplaces: 'u update · r remove · add one: /plugin marketplace add <source>',
  Errors: '',
};

export interface PluginScreenProps {
  readonly ctx: ManageContext;
  /** The session's plugins as loaded now. */
  readonly active: () => PluginSet;
  readonly maxRows?: number;
  /** Closed; `changed`: something was installed, turned on or off, updated or removed. */
  readonly onClose: (changed: boolean) => void;
}

interface Row {
  text: string;
  color?: string;
}

export function PluginScreen({ ctx, active, maxRows = 16, onClose }: PluginScreenProps): React.ReactElement {
  const [tab, setTab] = useState(0);
  const [selected, setSelected] = useState([0, 0, 0, 0]);
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<ActionResult | undefined>(undefined);
  const changed = useRef(false);
  const catalog = useMemo(() => pluginCatalog(ctx, active()), [ctx, version]);
  const name = TABS[tab]!;
  const rows = rowsOf(catalog, name);
  const at = Math.min(selected[tab]!, Math.max(0, rows.length - 1));
  const perform = (action: PluginAction | undefined) => {
    if (!action) return;
    setBusy(action.doing);
    setMessage(undefined);
    void action.run().then((result) => {
      changed.current ||= result.tone === 'ok';
      setBusy(undefined);
      setMessage(result);
      setVersion((v) => v + 1);
    });
  };
  const select = (n: number) => setSelected((old) => Object.assign([...old], { [tab]: Math.max(0, Math.min(rows.length - 1, n)) }));
  useKeys((input, key) => {
    if (busy) return;
    if (key.escape) return onClose(changed.current);
    if (key.rightArrow || key.tab) return setTab((t) => (t + 1) % TABS.length);
    if (key.leftArrow) return setTab((t) => (t + TABS.length - 1) % TABS.length);
    if (key.upArrow) return select(at - 1);
    if (key.downArrow) return select(at + 1);
    perform(actionFor(ctx, catalog, name, at, input, key.return));
  });
  const room = Math.max(3, maxRows - 9);
  const first = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));
  const shown = rows.slice(first, first + room);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold color={theme.color('accent')}>
        Plugins
      </Text>
      <Text>
        {TABS.map((t, i) => (
          <Text key={t} bold={i === tab} color={i === tab ? theme.color('accent') : theme.color('muted')} underline={i === tab}>
            {`${t} (${countOf(catalog, t)})${i < TABS.length - 1 ? '   ' : ''}`}
          </Text>
        ))}
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {shown.length ? (
          shown.map((r, i) => (
            <Text key={`${first + i}`} wrap="truncate-end" color={first + i === at ? theme.color('accent') : r.color}>
              {`${first + i === at && name !== 'Errors' ? symbols.pointer : ' '} ${r.text}`}
            </Text>
          ))
        ) : (
          <Text dimColor>{emptyText(name)}</Text>
        )}
      </Box>
      <Box marginTop={1}>
        {busy ? (
          <Text color={theme.color('warn')}>{busy}</Text>
        ) : message ? (
          <Text wrap="wrap" color={theme.color(message.tone === 'ok' ? 'ok' : 'error')}>
            {message.text}
          </Text>
        ) : (
          <Text> </Text>
        )}
      </Box>
      <Text
        dimColor
        wrap="truncate-end"
      >{`${HINTS[name] ? `${HINTS[name]} · ` : ''}←/→ tabs · esc close${changed.current ? ' · then /reload-plugins' : ''}`}</Text>
    </Box>
  );
}

function actionFor(ctx: ManageContext, c: PluginCatalog, tab: Tab, at: number, input: string, enter: boolean): PluginAction | undefined {
  if (tab === 'Installed' && c.installed[at]) {
    const item = c.installed[at]!;
    if (input === ' ') return toggleAction(ctx, item);
    if (input === 'u') return updatePluginAction(ctx, item);
    if (input === 'x') return uninstallAction(ctx, item);
  }
  if (tab === 'Discover' && c.available[at]) {
    if (enter) return installAction(ctx, c.available[at]!, 'user');
    if (input === 'p') return installAction(ctx, c.available[at]!, 'project');
  }
  if (tab === 'Marketplaces' && c.marketplaces[at]) {
    if (input === 'u') return updateMarketplaceAction(ctx, c.marketplaces[at]!);
    if (input === 'r') return removeMarketplaceAction(ctx, c.marketplaces[at]!);
  }
  return undefined;
}

function rowsOf(c: PluginCatalog, tab: Tab): Row[] {
  switch (tab) {
    case 'Installed':
      return c.installed.map((p) => ({
        text: `${p.enabled ? symbols.ok : '○'} ${p.id} ${p.version}  ${p.scope}  ${p.enabled ? 'enabled' : 'disabled'}${p.enabled && !p.loaded ? ' · not loaded in this session' : ''}`,
        ...(p.enabled ? {} : { color: theme.color('muted') }),
      }));
    case 'Discover':
      return c.available.map((p) => ({ text: `${p.id}${p.version ? ` ${p.version}` : ''}${p.description ? ` · ${p.description}` : ''}` }));
    case 'Marketplaces':
      return c.marketplaces.map((m) => ({
        text: `${m.name}  ${m.source}  ${m.error ? `${symbols.fail} ${m.error}` : `${m.plugins} plugin${m.plugins === 1 ? '' : 's'}`}`,
        ...(m.error ? { color: theme.color('error') } : {}),
      }));
    case 'Errors':
      return c.errors.map((e) => ({ text: `${symbols.fail} ${e}`, color: theme.color('error') }));
  }
}

function countOf(c: PluginCatalog, tab: Tab): number {
  return tab === 'Installed' ? c.installed.length : tab === 'Discover' ? c.available.length : tab === 'Marketplaces' ? c.marketplaces.length : c.errors.length;
}

function emptyText(tab: Tab): string {
  if (tab === 'Installed') return 'No plugins installed. Discover lists those of your marketplaces.';
  if (tab === 'Discover') return 'Nothing to install: add a marketplace with /plugin marketplace add <source>.';
  if (tab === 'Marketplaces') return 'No marketplaces. Add one with /plugin marketplace add <owner/repo | git URL | ./path>.';
  return 'No errors.';
}
