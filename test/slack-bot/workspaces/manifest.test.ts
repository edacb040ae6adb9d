import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOT_SCOPES, REDIRECT_PATH } from '../../../slack-bot/workspaces/install.ts';

const manifest = JSON.parse(
  readFileSync(new URL('../../../slack-bot/manifest.distributed.json', import.meta.url), 'utf8'),
);

describe('manifest.distributed.json', () => {
  it('asks for the scopes an install asks for', () => {
    expect(manifest.oauth_config.scopes.bot).toEqual([...BOT_SCOPES]);
  });

  it('sends installers back to the redirect path the bot serves', () => {
    expect(manifest.oauth_config.redirect_urls).toHaveLength(1);
    expect(new URL(manifest.oauth_config.redirect_urls[0]).pathname).toBe(REDIRECT_PATH);
  });

  it('subscribes to the events that forget a workspace and open the Home tab, on the events path, with token rotation on', () => {
    expect(manifest.settings.event_subscriptions.bot_events).toEqual([
      'app_uninstalled',
      'tokens_revoked',
      'app_home_opened',
    ]);
    expect(new URL(manifest.settings.event_subscriptions.request_url).pathname).toBe('/slack/events');
    expect(manifest.settings.token_rotation_enabled).toBe(true);
  });
});
