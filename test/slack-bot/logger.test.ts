/** What reaches the bot's log: never a key, a token, a command's response_url or a Socket Mode ticket. */
import { LogLevel } from '@slack/bolt';
import { expect, it } from 'vitest';
import { createLogger } from '../../slack-bot/logger.ts';

it('scrubs keys, Slack tokens, response_urls and connection tickets at every level', () => {
  const lines: string[] = [];
  const logger = createLogger({
    level: LogLevel.DEBUG,
    secrets: ['lk_live_demo_all_access'],
    write: (line) => lines.push(line),
  });
  logger.debug('key lk_live_demo_all_access, token xoxb-123-456-abcdef and app token xapp-1-A0-99-ffee');
  logger.debug({
    response_url: 'https://hooks.slack.com/commands/T0TEAM/123456/AbCdEf123',
    text: 'ticket TKT-26-00417',
  });
  logger.info('connecting to wss://wss-primary.slack.com/link/?ticket=0123-abcd&app_id=A0APP');
  logger.error(new Error('failed for Bearer lk_live_demo_all_access'));
  const all = lines.join('\n');
  for (const secret of ['lk_live_demo_all_access', 'xoxb-123', 'xapp-1', 'AbCdEf123', '0123-abcd'])
    expect(all).not.toContain(secret);
  // What is not a secret stays readable.
  expect(all).toContain('https://hooks.slack.com/commands/[redacted]');
  expect(all).toContain('?ticket=[redacted]&app_id=A0APP');
  expect(all).toContain('TKT-26-00417');
  expect(lines).toHaveLength(4);
});
