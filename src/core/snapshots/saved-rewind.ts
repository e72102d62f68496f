/**
 * The code rewind of a saved session (`wicket rewind`): its file history and its snapshots of the
 * project, opened from disk as the session left them.
 */
import { fileHistoryDir } from '../../session/paths.js';
import { DiskHistoryStore } from '../file-history-store.js';
import { FileHistory } from '../file-history.js';
import { openSnapshots } from './open.js';
import { Rewinder } from './rewinder.js';

export interface SavedRewindPlaces {
  wicketHome: string;
  /** The project folder. */
  root: string;
  home: string;
  sessionId: string;
  env: Record<string, string | undefined>;
}

export function savedRewinder(p: SavedRewindPlaces): Rewinder {
  const history = new FileHistory(new DiskHistoryStore(fileHistoryDir(p.wicketHome, p.sessionId)));
  return new Rewinder(history, openSnapshots(p).snapshots);
}
