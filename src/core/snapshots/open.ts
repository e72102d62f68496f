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
  /** The session this one was forked from: its snapshots are copied for this one. */
  parent?: string;
}

export function openSnapshots(p: SnapshotPlaces): { snapshots?: Snapshots } {
  const disabled = p.env.WICKET_DISABLE_SNAPSHOTS ?? process.env.WICKET_DISABLE_SNAPSHOTS;
  if (disabled && disabled !== '0' && disabled !== 'false') return {};
  const root = path.resolve(p.root);
  if (root === path.parse(root).root || root === path.resolve(p.home)) return {};
  const snapshots = new Snapshots(ShadowRepo.forProject(p.wicketHome, root, { watch: p.watch === true }), p.sessionId, p.home, p.parent);
  // a fork's copy of its parent's snapshots is made now, so that `wicket rewind` finds them even if it takes none
  void snapshots.fromParent();
  return { snapshots };
}
