/**
 * WebFetch's side of the permission gate (PRODUCT.md §2 gate 5). The engine runs deny rules → ask
 * rules → mode → allow rules → checkPermissions; this module supplies the last two steps' answers:
 * - `matchRules` decides which `WebFetch(domain:…)` rule covers a URL's host. For ALLOW it holds
 *   back on hosts that are, or may resolve to, private addresses: a literal private address or a
 *   metadata name never matches; a name not recently resolved to a public address is parked
 *   (keyed by the input object the engine passes to both steps) for checkPermissions to resolve.
 * - `checkPermissions`: a parked rule or a URL seen in the conversation is allowed once its host
 *   resolves to public or loopback addresses only; anything private asks; an unseen URL asks,
 *   because a made-up URL can carry data out in its query string.
 * Hosts allowed without a person are remembered, so call() can refuse one that has since started
 * resolving to a private address (DNS rebinding).
 */
import type { ParsedRule } from '../../base/rule-parse.js';
import type { PermissionContext, RuleList, ToolPermissionVerdict } from '../../base/tool.js';
import { findDomainRule, suggestedRule } from './domain-match.js';
import { checkHost, classifyHostLiterally, describeClass, stripHost, type HostVerdict, type LookupFn } from './private-address.js';
import { isSeen, parseFetchUrl } from './url.js';

/** How long a host's public resolution lets an allow rule match without resolving again. */
const TRUST_MS = 60_000;
/** How long an auto-allowed host is watched for rebinding. */
const WATCH_MS = 15 * 60_000;
const MAX_TRACKED = 1_000;

export interface GateDeps {
  lookup: LookupFn;
  dnsTimeoutMs: number;
  now: () => number;
}

interface Input {
  url: string;
}

export class WebFetchGate {
  /** Allow rules matched by name whose host still needs resolving, per call input. */
  private readonly parked = new WeakMap<object, ParsedRule>();
  /** Hosts found public recently: an allow rule matches them at once. */
  private readonly publicAt = new Map<string, number>();
  /** Hosts allowed without a person: watched for a switch to a private address. */
  private readonly autoAllowedAt = new Map<string, number>();

  constructor(private readonly deps: GateDeps) {}

  matchRules(input: Input, rules: ParsedRule[], list: RuleList): ParsedRule | undefined {
    const checked = parseFetchUrl(input.url);
    if (!checked.ok) return undefined;
    const host = stripHost(checked.url.hostname);
    const rule = findDomainRule(host, rules);
    if (!rule || list !== 'allow') return rule;
    const literal = classifyHostLiterally(host);
    if (literal) return literal.kind === 'ok' ? this.allowed(host, rule) : undefined;
    const seenPublic = this.publicAt.get(host);
    if (seenPublic !== undefined && this.deps.now() - seenPublic < TRUST_MS) return this.allowed(host, rule);
    this.parked.set(input, rule);
    return undefined;
  }

  async checkPermissions(input: Input, ctx: PermissionContext): Promise<ToolPermissionVerdict> {
    const checked = parseFetchUrl(input.url);
    if (!checked.ok) return { behavior: 'deny', reason: checked.message };
    const host = stripHost(checked.url.hostname);
    const literal = classifyHostLiterally(host);
    if (literal?.kind === 'restricted') return this.askPrivate(host, literal);
    const rule = this.parked.get(input);
    this.parked.delete(input);
    const seen = isSeen(input.url, ctx.seenUrls);
    if (!rule && !seen) {
      return {
        behavior: 'ask',
        reason: `the URL ${checked.url.href} did not appear in the conversation (not from the user, nor in content a tool returned); a made-up URL can carry data out in its query string. Ask the user for the URL, or to allow ${host}`,
        suggestions: [suggestedRule(host)],
      };
    }
    const verdict = literal ?? (await checkHost(host, this.deps.lookup, this.deps.dnsTimeoutMs));
    if (verdict.kind === 'restricted') return this.askPrivate(host, verdict);
    if (verdict.kind === 'ok' && verdict.cls === 'public') remember(this.publicAt, host, this.deps.now());
    this.allowed(host, rule);
    const why = rule ? `allowed by the rule ${rule.raw}` : 'the URL appeared in the conversation';
    const where = verdict.kind === 'ok' ? `${host} is ${describeClass(verdict.cls)}` : `${host} did not resolve (the fetch will say so)`;
    return { behavior: 'allow', reason: `${why}; ${where}` };
  }

  /**
   * At call time: a host the gate let through without a person must not have moved to a private
   * address since. Returns a refusal message, or undefined when the fetch may go ahead.
   */
  rebindingProblem(host: string, now: HostVerdict): string | undefined {
    const h = stripHost(host);
    const at = this.autoAllowedAt.get(h);
    if (now.kind !== 'restricted' || at === undefined || this.deps.now() - at > WATCH_MS) return undefined;
    return `${h} now resolves to ${describeClass(now.cls === 'metadata' ? 'link-local' : now.cls)} (${now.address ?? 'unknown'}), but it was not private when permission was given. Refusing: this is how DNS rebinding reaches a local network. Ask the user before fetching it.`;
  }

  private allowed(host: string, rule: ParsedRule | undefined): ParsedRule | undefined {
    remember(this.autoAllowedAt, host, this.deps.now());
    return rule;
  }

  private askPrivate(host: string, verdict: Extract<HostVerdict, { kind: 'restricted' }>): ToolPermissionVerdict {
    this.autoAllowedAt.delete(host);
    this.publicAt.delete(host);
    const what =
      verdict.cls === 'metadata'
        ? `${host} is a cloud metadata service name`
        : verdict.address && verdict.address !== host
          ? `${host} resolves to ${describeClass(verdict.cls)} (${verdict.address})`
          : `${host} is ${describeClass(verdict.cls)}`;
    return {
      behavior: 'ask',
      reason: `${what}; fetching inside a private network needs the user's approval every time, even when a domain rule allows the name`,
      suggestions: [],
    };
  }
}

function remember(map: Map<string, number>, key: string, at: number): void {
  map.delete(key);
  map.set(key, at);
  if (map.size > MAX_TRACKED) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}
