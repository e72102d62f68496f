/**
 * `WebFetch(domain:…)` rules, as Claude Code writes them:
 * - `domain:example.com` matches that host only (case-insensitive, trailing dot ignored);
 * - `domain:*.example.com` matches any subdomain at any depth, but not the apex `example.com`;
 * - any other `*` matches within one label (it does not cross dots): `domain:docs.*.dev`.
 * Unicode names are compared in their ASCII (punycode) form, as the URL parser writes hosts.
 */
import { domainToASCII } from 'node:url';
import type { ParsedRule } from '../../base/rule-parse.js';
import { stripHost } from './private-address.js';

const PREFIX = 'domain:';

/** The host pattern of a rule specifier, or undefined when it is not a `domain:` specifier. */
export function domainPattern(specifier: string | undefined): string | undefined {
  if (specifier === undefined) return undefined;
  const s = specifier.trim();
  if (!s.toLowerCase().startsWith(PREFIX)) return undefined;
  const pattern = stripHost(s.slice(PREFIX.length).trim());
  if (!pattern) return undefined;
  if (pattern.includes('*')) return pattern.split('.').map(toAsciiLabel).join('.');
  return domainToASCII(pattern) || pattern;
}

function toAsciiLabel(label: string): string {
  if (label.includes('*') || /^[\x00-\x7f]*$/.test(label)) return label;
  return domainToASCII(label) || label;
}

/** Does `host` (as URL.hostname gives it) match the pattern of a `domain:` specifier? */
export function hostMatches(host: string, pattern: string): boolean {
  const h = stripHost(host);
  if (pattern.startsWith('*.')) {
    const rest = pattern.slice(2);
    // At least one more label in front of the rest: subdomains only, at any depth.
    const hostLabels = h.split('.');
    const restLabels = rest.split('.');
    if (hostLabels.length <= restLabels.length) return false;
    const tail = hostLabels.slice(hostLabels.length - restLabels.length).join('.');
    return labelsMatch(tail, rest);
  }
  return labelsMatch(h, pattern);
}

function labelsMatch(host: string, pattern: string): boolean {
  if (!pattern.includes('*')) return host === pattern;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[^.]*')}$`);
  return re.test(host);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first rule whose `domain:` pattern matches `host`. */
export function findDomainRule(host: string, rules: readonly ParsedRule[]): ParsedRule | undefined {
  for (const rule of rules) {
    const pattern = domainPattern(rule.specifier);
    if (pattern !== undefined && hostMatches(host, pattern)) return rule;
  }
  return undefined;
}

/** The rule a "yes, don't ask again" answer would add for this host. */
export function suggestedRule(host: string): string {
  return `WebFetch(${PREFIX}${stripHost(host)})`;
}
