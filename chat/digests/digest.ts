/** What a digest kind builds and the engine posts and records, whatever the kind. */
import type { Content } from '../content/document.ts';
import type { ShownRecord } from './storage/types.ts';

export interface Digest extends Content {
  /** Nothing to say and no all-clear wanted: nothing to post. */
  quiet: boolean;
  /** Nothing to say (for the shortfall kind: nothing open and nothing changed), whether or not posted. */
  unchanged: boolean;
  /** What it showed, for the next digest to compare with. */
  shown: ShownRecord[];
}
