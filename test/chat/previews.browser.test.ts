/**
 * Screenshots of a Slack answer and a Teams card with a chart and a table, and of a person's home on Slack's Home tab
 * and as a Teams card, for the docs: `fillrate` and the home built from the sandbox, rendered as Block Kit and as an
 * Adaptive Card by the bot's own renderers, then drawn by our HTML preview (test/support/chat-preview.ts, labelled
 * on the page as not the platforms' renderer) in Debian's Chromium. The preview is checked to draw what the message
 * holds (a point a category, a row a table row, a menu a menu, a button a button) before the PNG is written to
 * LINEN_SCREENSHOTS_DIR (default a temporary folder; `docs` renews the committed ones).
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText } from '../../chat/answers/answer.ts';
import { code } from '../../chat/content/rich.ts';
import { readHome } from '../../chat/home/home-data.ts';
import { LinenService } from '../../chat/linen.ts';
import { homeView, type Watch } from '../../chat/views/home.ts';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { toHomeView } from '../../slack-bot/blocks/home.ts';
import { toSlackMessage } from '../../slack-bot/blocks/render.ts';
import { SLACK_SURFACE } from '../../slack-bot/surface.ts';
import { toAdaptiveCard } from '../../teams-bot/cards/render.ts';
import { TEAMS_SURFACE } from '../../teams-bot/surface.ts';
import { launchChromium } from '../support/browser.ts';
import { slackPreview, teamsPreview } from '../support/chat-preview.ts';
import { KEYS } from '../support/sandbox-http.ts';

const SHOTS = process.env.LINEN_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'linen-shots-'));
const TODAY = '2026-11-20';
const TZ = 'America/Chicago';
const NOW = Date.parse(`${TODAY}T18:00:00.000Z`);

let sandbox: Sandbox;
let linen: LinenService;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, today: TODAY, timeZone: TZ });
  linen = new LinenService({ baseUrl: sandbox.baseUrl, apiKey: KEYS.all, timeZone: TZ });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await linen?.close();
  await sandbox?.close();
});

async function shoot(htmlText: string, file: string) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 700, height: 600 });
  await page.setContent(htmlText);
  const drawn = {
    banner: await page.locator('.banner').textContent(),
    points: await page.locator('svg.chart').first().getAttribute('data-points'),
    lines: await page.locator('svg.chart polyline').count(),
    rows: await page.locator('table tr').count(),
    menus: await page.locator('.menu').count(),
    buttons: await page.locator('button').count(),
  };
  await page.screenshot({ path: join(SHOTS, file), fullPage: true });
  await page.close();
  expect(readFileSync(join(SHOTS, file)).subarray(1, 4).toString()).toBe('PNG');
  return drawn;
}

describe('screenshots of a chart and a table', () => {
  it('a Slack answer: the line of fill rate and par met by day, and the worst items table', async () => {
    const m = await answerText('fillrate Mercy General Hospital 14', { linen, now: () => NOW, surface: SLACK_SURFACE });
    const message = toSlackMessage(m.content);
    const chart = message.blocks.find((b) => b.type === 'data_visualization') as any;
    const table = message.blocks.find((b) => b.type === 'table') as any;
    const drawn = await shoot(slackPreview(message), 'slack-answer-preview.png');
    expect(drawn.banner).toContain("not Slack's own renderer");
    expect(Number(drawn.points)).toBe(chart.chart.axis_config.categories.length);
    expect(drawn.lines).toBe(2);
    expect(drawn.rows).toBe(table.rows.length);
  });

  it('a Teams card: the same answer as Chart.Line and a Table', async () => {
    const m = await answerText('fillrate Mercy General Hospital 14', { linen, now: () => NOW, surface: TEAMS_SURFACE });
    const card = toAdaptiveCard(m.content) as any;
    const chart = card.body.find((e: any) => e.type === 'Chart.Line');
    const table = card.body.find((e: any) => e.type === 'Table');
    const drawn = await shoot(teamsPreview(card), 'teams-card-preview.png');
    expect(drawn.banner).toContain("not Microsoft Teams' own renderer");
    expect(Number(drawn.points)).toBe(chart.data[0].values.length);
    expect(drawn.rows).toBe(table.rows.length);
  });
});

describe('screenshots of the home', () => {
  /** Someone who follows Mercy General Hospital, with a digest and an alert of theirs. */
  async function home(userId: string) {
    const mgh = (await linen.customers()).find((c) => c.name === 'Mercy General Hospital')!;
    const data = await readHome({
      linen,
      follows: { customerIds: [mgh.id], places: [] },
      now: new Date(NOW),
      accounting: true,
    });
    const watches: Watch[] = [
      {
        kind: 'digest',
        id: 'dcv3yc',
        line: [code('dcv3yc'), ' #linen-ops shortfall digest daily 07:00 America/Chicago, Mercy General Hospital'],
        active: true,
      },
      {
        kind: 'alert',
        id: 'a7k2pq',
        line: [
          code('a7k2pq'),
          ' a cart count closing short at Mercy General Hospital › ICU North, in #linen-ops · not fired yet',
        ],
        active: true,
      },
    ];
    return homeView(data, { userId, watches, choosable: true });
  }

  it("Slack's Home tab: the menus, the chart of what is short and of par met, the buttons", async () => {
    const view = toHomeView(await home('U0DANA01'), { channelId: 'D0DANA01' });
    const drawn = await shoot(slackPreview(view, 'home'), 'slack-home-preview.png');
    expect(drawn.banner).toContain("not Slack's own renderer");
    const menus = view.blocks.filter((b: any) => b.accessory?.type === 'multi_static_select');
    expect(drawn.menus).toBe(menus.length);
    const buttonCount = view.blocks.flatMap((b: any) => (b.type === 'actions' ? b.elements : [])).length;
    expect(drawn.buttons).toBe(buttonCount);
    const chart = view.blocks.find((b: any) => b.type === 'data_visualization') as any;
    expect(Number(drawn.points)).toBe(chart.chart.axis_config.categories.length);
  });

  it('the Teams home card: the same home, its lists and its buttons', async () => {
    const card = toAdaptiveCard(await home('29:1dana')) as any;
    const drawn = await shoot(teamsPreview(card), 'teams-home-preview.png');
    expect(drawn.banner).toContain("not Microsoft Teams' own renderer");
    expect(drawn.menus).toBe(JSON.stringify(card).split('"Input.ChoiceSet"').length - 1);
    expect(card.refresh.userIds).toEqual(['29:1dana']);
  });
});
