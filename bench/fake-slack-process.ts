/**
 * The fake Slack Web API (test/support/digest-slack.ts) in a child process of its own, so the digest benchmark
 * measures the bot's work per post and not the fake's. The child answers `posts` with the posts per channel.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFakeSlack } from '../test/support/digest-slack.ts';
import { forkChild } from './child-process.ts';

export interface FakeSlackProcess {
  url: string;
  /** Messages posted, by channel. */
  postsByChannel(): Promise<Map<string, number>>;
  close(): Promise<void>;
}

export async function startFakeSlackProcess(): Promise<FakeSlackProcess> {
  const child = await forkChild<{ url: string }>(fileURLToPath(import.meta.url), {});
  return {
    url: child.ready.url,
    postsByChannel: async () => new Map(Object.entries(await child.ask<Record<string, number>>('posts'))),
    close: child.close,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.send) {
  const slack = await startFakeSlack();
  process.on('message', () => {
    const byChannel: Record<string, number> = {};
    for (const m of slack.messages) byChannel[m.channel] = (byChannel[m.channel] ?? 0) + 1;
    process.send?.(byChannel);
  });
  // The benchmark gone (even killed), this process goes too.
  process.on('disconnect', () => process.exit(0));
  process.send({ url: slack.url });
}
