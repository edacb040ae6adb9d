/**
 * The home's content against the sandbox, rendered by both platforms' renderers: at its fullest (every customer, a
 * long list of digests and alerts) it stays within a Home tab's 100 blocks and a Teams card's size, with its Refresh
 * button and, on Teams, its refresh for the person; where accounting answers may not appear it has no accounting
 * part, only the sentence saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b, code } from '../../../chat/content/rich.ts';
import { EVERY_CUSTOMER } from '../../../chat/home/follows.ts';
import { type HomeData, readHome } from '../../../chat/home/home-data.ts';
import { LinenService } from '../../../chat/linen.ts';
import { homeView, type Watch } from '../../../chat/views/home.ts';
import { type Sandbox, startSandbox } from '../../../sandbox/index.ts';
import { createLinenClient } from '../../../shared/node.ts';
import { toHomeView } from '../../../slack-bot/blocks/home.ts';
import { toAdaptiveCard } from '../../../teams-bot/cards/render.ts';
import { validateCard } from '../../support/adaptive-card.ts';
import { KEYS } from '../../support/sandbox-http.ts';
import { validateView } from '../../support/slack-blockkit.ts';
import { allText } from '../../support/slack-harness.ts';

const TODAY = '2026-11-20';
const TZ = 'America/Chicago';
const NOW = new Date(`${TODAY}T18:00:00Z`);

let sandbox: Sandbox;
let linen: LinenService;
let data: HomeData;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, today: TODAY, timeZone: TZ });
  const client = createLinenClient({
    apiKey: KEYS.all,
    baseUrl: sandbox.baseUrl,
    timeZone: TZ,
    pacing: false,
    now: () => NOW.getTime(),
  });
  linen = new LinenService({ client, baseUrl: sandbox.baseUrl, timeZone: TZ });
  data = await readHome({ linen, follows: EVERY_CUSTOMER, now: NOW, accounting: true });
});
afterAll(async () => {
  await linen?.close();
  await sandbox?.close();
});

/** A digest or alert line as long as a real one. */
const watches = (n: number): Watch[] =>
  Array.from({ length: n }, (_, k) => ({
    kind: k % 2 ? 'alert' : 'digest',
    id: `w${k}`,
    line: [code(`w${k}`), ' #linen-ops shortfall digest daily 07:00 America/Chicago, all customers · ', b('paused')],
    active: k % 3 !== 0,
  }));

describe('the home at its fullest', () => {
  it('fits a Home tab, keeping its Refresh, and counts the digests and alerts it leaves out', () => {
    const content = homeView(data, { userId: 'U0A', watches: watches(40), choosable: true });
    const view = toHomeView(content, { channelId: 'D0A' });
    expect(validateView(view)).toEqual([]);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const text = allText({ text: '', blocks: view.blocks });
    expect(text).toContain('…and 28 more digests and alerts:');
    const last = view.blocks.at(-1) as any;
    expect(last.elements.map((e: any) => e.text.text)).toEqual(['Refresh']);
  });

  it('fits a Teams card, refreshing itself for the person', () => {
    const content = homeView(data, { userId: '29:1abc', watches: watches(40), choosable: true });
    const card = toAdaptiveCard(content) as any;
    expect(validateCard(card)).toEqual([]);
    expect(card.refresh.userIds).toEqual(['29:1abc']);
    expect(JSON.stringify(card)).toContain('"title":"Refresh"');
  });
});

describe('where accounting answers may not appear', () => {
  it('has no invoice and no purchase order, only the sentence saying why', async () => {
    const without = await readHome({ linen, follows: EVERY_CUSTOMER, now: NOW, accounting: false });
    expect(without.overdue).toBeNull();
    expect(without.runningOut).toBeNull();
    const content = homeView(without, {
      userId: 'U0A',
      watches: [],
      choosable: true,
      accountingRefusal: ['Accounting answers are not shown in direct messages here.'],
    });
    const text = allText({ text: '', blocks: toHomeView(content, { channelId: 'D0A' }).blocks });
    expect(text).toContain('Accounting answers are not shown in direct messages here.');
    expect(text).not.toMatch(/invoice|purchase order/i);
  });
});
