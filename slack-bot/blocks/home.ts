/**
 * A person's home as Slack's Home tab shows it: the home's content as Block Kit (as any answer is rendered), within a
 * Home tab's 100 blocks, as the view `views.publish` takes. The direct message with the app rides in the view's
 * `private_metadata`, so that a click on the tab (which names no channel) is answered in the same place.
 */
import type { Content } from '../../chat/content/document.ts';
import type { HomeView } from './kit.ts';
import { fitMessage, LIMITS } from './limits.ts';
import { toBlockKit } from './render.ts';

/** The callback_id of the bot's Home tab. */
export const HOME_CALLBACK = 'linen_home';

/** What a Home tab carries for its clicks: the person's direct message with the app ('' when Slack named none). */
export interface HomeTabPlace {
  channelId: string;
}

export function toHomeView(content: Content, place: HomeTabPlace): HomeView {
  return {
    type: 'home',
    callback_id: HOME_CALLBACK,
    private_metadata: JSON.stringify({ channel: place.channelId }),
    blocks: fitMessage(toBlockKit(content), LIMITS.homeBlocks).blocks,
  };
}

/** The place a Home tab's click carries, read back from its `private_metadata` (a view of the bot's, or nothing). */
export function homeTabPlace(privateMetadata: unknown): HomeTabPlace {
  try {
    const meta = JSON.parse(String(privateMetadata ?? '')) as { channel?: unknown };
    return { channelId: typeof meta.channel === 'string' ? meta.channel : '' };
  } catch {
    return { channelId: '' };
  }
}
