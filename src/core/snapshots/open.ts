/**
 * The session's snapshots of the project, when they can be taken: not for the home folder or the
 * filesystem root as a project (a snapshot would cover everything under it), and not when
 * `WICKET_DISABLE_SNAPSHOTS` is set.
 */
import path from 'node:path';
import { ShadowRepo } from '../../session/shadow-git.js';
import { Snapshots } from './snapshots.js';

export interface SnapshotPlaces {
  wicketHome: string;
  root: string;
  home: string;
  sessionId: string;
  env: Record<string, string | undefined>;
  /** A long-lived session: the project is watched, so that snapshots of an unchanged tree are cheap. */
  watch?: boolean;
}

export function openSnapshots(p: SnapshotPlaces): { snapshots?: Snapshots } {
  const disabled = p.env.WICKET_DISABLE_SNAPSHOTS ?? process.env.WICKET_DISABLE_SNAPSHOTS;
  if (disabled && disabled !== '0' && disabled !== 'false') return {};
  const root = path.resolve(p.root);
  if (root === path.parse(root).root || root === path.resolve(p.home)) return {};
  return { snapshots: new Snapshots(ShadowRepo.forProject(p.wicketHome, root, { watch: p.watch === true }), p.sessionId, p.home) };
}
