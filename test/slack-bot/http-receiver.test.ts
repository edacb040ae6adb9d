/**
 * The /linen bot over real HTTP: the Bolt receiver on loopback, signed slash commands and button payloads
 * as Slack sends them, the sandbox Linen API behind it and a fake Slack Web API recording what it is sent.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../chat/content/format.ts';
import { addDays } from '../../shared/dates.ts';
import { expectedFill } from '../support/expected-figures.ts';
import {
  allText,
  BOT_TOKEN,
  type BotUnderTest,
  buttons,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  TODAY,
} from '../support/slack-harness.ts';
import { commandBody, postSigned } from '../support/slack-sign.ts';

let h: Harness;
let bot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  bot = await h.startBotWith({});
});

afterAll(async () => {
  await h?.close();
});

const KEYS = () => h.sandbox.data.keys.map((k) => k.secret);

describe('/linen over HTTP', () => {
  it('serves GET /healthz', async () => {
    const res = await fetch(`http://127.0.0.1:${bot.bot.port}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, linen_key_configured: true });
  });

  it('answers help for help, an empty command and an unknown subcommand, ephemerally', async () => {
    for (const text of ['help', '', 'frobnicate']) {
      const m = await bot.ask(text);
      expect(m.response_type).toBe('ephemeral');
      const t = allText(m);
      for (const sub of [
        'balance [customer]',
        'invoices [customer] [overdue]',
        'po [customer]',
        'signals [kind | shortfall] [customer]',
        'short [customer] [department | unit]',
        'ticket &lt;TKT-YY-#####&gt;',
        'tickets [customer] [open',
        'fillrate &lt;customer&gt;',
        'rewash &lt;customer&gt; [days | from to]',
        'manifest &lt;MAN-YY-######&gt; [customer]',
        'order &lt;DS-YY-#####&gt;',
        'digest subscribe [shortfall|receivables|tickets|budgets]',
      ])
        expect(t).toContain(sub);
      if (text === 'frobnicate') expect(t).toContain("I don't know `frobnicate`");
      expect(buttons(m).some((b) => b.actionId === 'linen_share')).toBe(false);
    }
  });

  it('balance: every customer with its aging and the open invoices, each with a PDF button', async () => {
    const d = h.sandbox.data;
    const m = await bot.ask('balance');
    const t = allText(m);
    const open = d.invoices.filter(
      (i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0,
    );
    for (const c of d.customers.filter((x) => !x.is_group)) {
      const mine = d.invoices.filter(
        (i) => i.customer_id === c.id && (i.status === 'sent' || i.status === 'partially_paid'),
      );
      const cents = mine.reduce((s, i) => s + i.balance_cents, 0);
      const currency = mine[0]?.currency ?? 'usd';
      expect(t).toContain(`*${c.name.replace(/&/g, '&amp;')}*: *${money(cents, currency)}* open`);
    }
    expect(t).toContain(`*Open invoices* (${open.length})`);
    const pdfs = buttons(m).filter((b) => b.actionId.startsWith('linen_pdf:'));
    expect(pdfs).toHaveLength(Math.min(open.length, 20));
    expect(new Set(pdfs.map((b) => JSON.parse(b.value).i)).size).toBe(pdfs.length);
    for (const b of pdfs) expect(open.map((i) => i.id)).toContain(JSON.parse(b.value).i);
    expect(buttons(m).at(-1)).toMatchObject({ text: 'Share in channel', actionId: 'linen_share', value: 'balance' });
  });

  it('balance <ambiguous name>: the matches to choose from; choosing one answers for it', async () => {
    const d = h.sandbox.data;
    const m = await bot.ask('balance Mercy');
    const choices = buttons(m).filter((b) => b.actionId.startsWith('linen_rerun:'));
    const mercy = d.customers.filter((c) => c.name.toLowerCase().includes('mercy'));
    expect(choices.map((b) => b.text).sort()).toEqual(mercy.map((c) => c.name).sort());
    const general = d.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const choice = choices.find((b) => b.text === general.name)!;
    expect(choice.value).toBe(`balance ${general.id}`);
    const click = await bot.click(choice.actionId, choice.value);
    expect(click.status).toBe(200);
    const [answer] = await h.slack.waitForPosts(click.sink);
    expect(answer!.body.replace_original).toBe(true);
    const open = d.invoices.filter(
      (i) =>
        i.customer_id === general.id && (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0,
    );
    expect(allText(answer!.body)).toContain(`*Open invoices* (${open.length})`);
    expect(answer!.body.blocks[0].text.text).toBe(`Open balance: ${general.name}`);
  });

  it('balance by customer id and by exact name', async () => {
    const c = h.sandbox.data.customers.find((x) => x.name === 'Harborview Hotel')!;
    for (const q of [c.id, 'harborview hotel', 'Harborview']) {
      const m = await bot.ask(`balance ${q}`);
      expect(m.blocks[0].text.text).toBe('Open balance: Harborview Hotel');
    }
  });

  it('signals: open and acknowledged ones, shortfalls first, grouped, with suggested order quantities', async () => {
    const d = h.sandbox.data;
    const visible = d.signals.filter((s) => s.status === 'open' || s.status === 'acknowledged');
    const m = await bot.ask('signals');
    const t = allText(m);
    const shortfalls = visible.filter((s) => s.kind === 'shortfall_streak' || s.kind === 'circulation_breach').length;
    expect(t).toContain(`${visible.length} signals (${shortfalls} shortfall`);
    const firstGroup = m.blocks.find((b: any) => b.type === 'section');
    expect(firstGroup.text.text).toMatch(/Shortfall streak|Circulation breach/);
    for (const s of visible.filter((x) => x.kind === 'circulation_breach' && x.suggested_order_qty !== null)) {
      expect(t).toContain(`suggested order *${s.suggested_order_qty!.toLocaleString('en-US')}*`);
    }
    expect(t).not.toMatch(/dismissed|resolved/i);
  });

  it('signals <kind> <customer>', async () => {
    const d = h.sandbox.data;
    const c = d.customers.find((x) => x.name === 'Mercy General Hospital')!;
    const want = d.signals.filter(
      (s) =>
        s.customer_id === c.id && s.kind === 'shortfall_streak' && (s.status === 'open' || s.status === 'acknowledged'),
    );
    const m = await bot.ask('signals shortfall_streak Mercy General Hospital');
    expect(m.blocks[0].text.text).toBe('Inventory signals: Shortfall streak, Mercy General Hospital');
    expect(allText(m)).toContain(`${want.length} signal`);
    for (const s of want) expect(allText(m)).toContain(s.summary);
  });

  it('ticket <number>: status, subject, dates and customer-visible events, in at most 2 list requests', async () => {
    const t = h.sandbox.data.tickets.find((x) => x.ticket_number === 'TKT-26-00417')!;
    const before = bot.paths.length;
    const m = await bot.ask('ticket tkt-26-417');
    const requests = bot.paths.slice(before).filter((p) => p.endsWith('/quality-tickets'));
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(2);
    expect(m.blocks[0].text.text).toBe(`TKT-26-00417: ${t.subject}`);
    const text = allText(m);
    expect(text).toContain(t.status_label);
    expect(text).toContain(t.kind_label);
    for (const e of t.customer_visible_events)
      if (e.body) expect(text).toContain(e.body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  });

  it('ticket: a resolved one shows its resolution note', async () => {
    const t = h.sandbox.data.tickets.find((x) => x.resolution_note && x.ticket_number.startsWith('TKT-26'))!;
    const m = await bot.ask(`ticket ${t.ticket_number}`);
    expect(allText(m)).toContain('*Resolution*');
    expect(allText(m)).toContain(t.resolution_note!.split('\n')[0]!.replace(/&/g, '&amp;').slice(0, 30));
  });

  it('ticket: unknown and malformed numbers', async () => {
    expect(allText(await bot.ask('ticket TKT-26-99999'))).toContain(
      "No ticket TKT-26-99999 is visible to this workspace's Linen key.",
    );
    const bad = allText(await bot.ask('ticket 417'));
    expect(bad).toContain('is not a ticket number like TKT-26-00417');
  });

  it('tickets: the open ones, API text escaped so it cannot ping or link', async () => {
    const d = h.sandbox.data;
    const open = d.tickets.filter((t) => ['new', 'acknowledged', 'in_progress'].includes(t.status));
    const m = await bot.ask('tickets');
    const t = allText(m);
    expect(t).toContain(`${open.length} tickets, newest first`);
    for (const x of open) expect(t).toContain(x.ticket_number);
    const nasty = d.tickets.find((x) => /[<&@]/.test(x.subject));
    if (nasty) {
      expect(t).not.toContain(nasty.subject);
      expect(t).toContain(
        nasty.subject
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/@(channel|here|everyone)/g, '@\u200b$1'),
      );
    }
    const resolved = d.tickets.filter((x) => x.status === 'resolved');
    expect(allText(await bot.ask('tickets resolved'))).toContain(`${resolved.length} ticket`);
    expect(allText(await bot.ask('tickets closed'))).toContain(
      '“closed” is neither a customer nor a ticket status (open, new, acknowledged, in_progress, resolved, verified).',
    );
  });

  it('fillrate <customer>: the last 7 whole days (today left out), fill rate and par met, worst items first', async () => {
    const d = h.sandbox.data;
    const c = d.customers.find((x) => x.name === 'Harborview Hotel')!;
    const from = addDays(TODAY, -7);
    const to = addDays(TODAY, -1);
    const rows = d.daily_deliveries.filter((r) => r.customer_id === c.id && r.date >= from && r.date <= to);
    const want = expectedFill(rows);
    const m = await bot.ask('fillrate Harborview Hotel');
    const t = allText(m);
    expect(t).toContain(`*Fill rate*\n${(want.fill * 100).toFixed(1)}%`);
    expect(t).toContain(`*Par met*\n${(want.parMet * 100).toFixed(1)}%`);
    expect(t).toContain(`*Short days*\nshort on ${want.shortDays} of ${want.days} days`);
    expect(t).toContain(`${want.delivered.toLocaleString('en-US')} of ${want.par.toLocaleString('en-US')} pieces`);
    expect(t).toContain(`${from} → ${to} (7 days)`);
    expect(t).not.toContain('today partly delivered');
    expect(t).toContain('*Par met trend*');
    // Worst item first, by par met.
    const byItem = new Map<string, { name: string; met: number }>();
    for (const id of new Set(rows.map((r) => r.item_id))) {
      const mine = rows.filter((r) => r.item_id === id);
      if (mine.some((r) => r.daily_par)) byItem.set(id, { name: mine[0]!.item_name, met: expectedFill(mine).parMet });
    }
    const worst = [...byItem.values()].sort((a, b) => a.met - b.met)[0]!;
    const items = m.blocks.find((b: any) => b.type === 'section' && b.text?.text.startsWith('*Worst items first*'));
    expect(items.text.text.split('\n')[1]).toContain(worst.name);
  });

  it('fillrate with a day count, a from-to window and a department', async () => {
    const d = h.sandbox.data;
    const c = d.customers.find((x) => x.name === 'Mercy General Hospital')!;
    const icu = c.departments.find((x) => x.name === 'ICU')!;
    const m = await bot.ask('fillrate "Mercy General Hospital" 2026-11-01 2026-11-10 icu');
    expect(m.blocks[0].text.text).toBe('Fill rate: Mercy General Hospital › ICU');
    const rows = d.daily_deliveries.filter(
      (r) => r.department_id === icu.id && r.date >= '2026-11-01' && r.date <= '2026-11-10' && r.daily_par,
    );
    const rate = rows.reduce((s, r) => s + r.delivered_count, 0) / rows.reduce((s, r) => s + r.daily_par!, 0);
    expect(allText(m)).toContain(`${(rate * 100).toFixed(1)}%`);
    expect(allText(m)).toContain('2026-11-01 → 2026-11-10 (10 days)');
    expect(allText(await bot.ask('fillrate Harborview Hotel 30'))).toContain(
      `${addDays(TODAY, -30)} → ${addDays(TODAY, -1)} (30 days)`,
    );
    expect(allText(await bot.ask(`fillrate Harborview Hotel ${addDays(TODAY, -2)} ${TODAY}`))).toContain(
      '(3 days, today partly delivered)',
    );
    expect(allText(await bot.ask('fillrate "Mercy General Hospital" Laundry Chute'))).toContain(
      'has no department “Laundry Chute”',
    );
    expect(allText(await bot.ask('fillrate'))).toContain('Give a customer name or id.');
    expect(allText(await bot.ask('fillrate Harborview 2026-11-10 2026-11-01'))).toContain('starts after it ends');
  });

  it('an unknown customer answers with the customers the key sees', async () => {
    const m = await bot.ask('balance Zzyzx Memorial');
    expect(allText(m)).toContain('No customer named “Zzyzx Memorial” is visible');
    expect(buttons(m).filter((b) => b.actionId.startsWith('linen_rerun:'))).toHaveLength(
      h.sandbox.data.customers.length,
    );
  });

  it('"Share in channel" posts the same answer for everyone and removes the private one', async () => {
    const first = await bot.ask('tickets');
    const share = buttons(first).find((b) => b.actionId === 'linen_share')!;
    const click = await bot.click(share.actionId, share.value, { userId: 'U0SHARER' });
    expect(click.status).toBe(200);
    const [posted, deleted] = await h.slack.waitForPosts(click.sink, 2);
    expect(posted!.body.response_type).toBe('in_channel');
    expect(posted!.body.text).toBe(first.text);
    const withoutFooter = first.blocks.filter((b: any) => b.block_id !== 'linen_footer');
    expect(posted!.body.blocks.slice(0, withoutFooter.length)).toEqual(withoutFooter);
    expect(allText(posted!.body)).toContain('Shared by <@U0SHARER>');
    expect(buttons(posted!.body).some((b) => b.actionId === 'linen_share')).toBe(false);
    expect(deleted!.body).toEqual({ delete_original: true });
  });

  it('"PDF" fetches the invoice PDF with the key and uploads it privately to the user (real bytes)', async () => {
    const m = await bot.ask('balance');
    const pdf = buttons(m).find((b) => b.actionId.startsWith('linen_pdf:'))!;
    const ref = JSON.parse(pdf.value) as { i: string; n: string };
    const callsBefore = h.slack.calls.length;
    const click = await bot.click(pdf.actionId, pdf.value, { userId: 'U0ACCT' });
    expect(click.status).toBe(200);
    const [done] = await h.slack.waitForPosts(click.sink);
    expect(done!.body.text).toBe(`Sent ${ref.n} to you in a direct message.`);
    expect(done!.body.response_type).toBe('ephemeral');
    const calls = h.slack.calls.slice(callsBefore);
    const open = calls.find((c) => c.method === 'conversations.open')!;
    expect(open.params.users).toBe('U0ACCT');
    expect(open.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    const getUrl = calls.find((c) => c.method === 'files.getUploadURLExternal')!;
    expect(getUrl.params.filename).toBe(`${ref.n}.pdf`);
    const complete = calls.find((c) => c.method === 'files.completeUploadExternal')!;
    expect(complete.params.channel_id).toBe('D0U0ACCT');
    const files = JSON.parse(String(complete.params.files)) as { id: string; title: string }[];
    const upload = h.slack.uploads.find((u) => u.fileId === files[0]!.id)!;
    expect(upload.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(upload.bytes.length).toBe(Number(getUrl.params.length));
    const doc = await PDFDocument.load(upload.bytes);
    expect(doc.getTitle()).toBe(`Invoice ${ref.n}`);
    expect(calls.map((c) => c.method)).not.toContain('chat.postMessage');
  });

  it('"PDF" when Slack refuses the upload: one friendly sentence', async () => {
    const m = await bot.ask('balance Harborview Hotel');
    const pdf = buttons(m).find((b) => b.actionId.startsWith('linen_pdf:'))!;
    h.slack.failMethod('conversations.open', 'missing_scope');
    try {
      const click = await bot.click(pdf.actionId, pdf.value);
      const [err] = await h.slack.waitForPosts(click.sink);
      expect(err!.body.text).toContain('Slack did not accept the PDF upload (missing_scope)');
    } finally {
      h.slack.failMethod('conversations.open', null);
    }
  });

  it('rejects unsigned, wrongly signed and replayed (over 5 minutes old) requests', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const opts of [{ unsigned: true }, { secret: 'not-the-secret-at-all-0000' }, { timestamp: now - 301 }]) {
      const sink = h.slack.responseUrl();
      const r = await postSigned(bot.url, SIGNING_SECRET, commandBody({ text: 'help', responseUrl: sink.url }), opts);
      expect(r.status).toBe(401);
      await new Promise((res) => setTimeout(res, 150));
      expect(h.slack.postsTo(sink.id)).toHaveLength(0);
    }
    // Within the window it is accepted.
    const ok = await bot.command('help', { timestamp: now - 240 });
    expect(ok.status).toBe(200);
  });

  it('acknowledges 30 concurrent commands within 3 s and answers them all', async () => {
    const texts = ['signals', 'ticket TKT-26-00417', 'balance', 'tickets', 'fillrate Harborview Hotel', 'help'];
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => bot.command(texts[i % texts.length]!)));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.ms).toBeLessThan(3000);
    }
    await Promise.all(results.map((r) => h.slack.waitForPosts(r.sink, 1, 20_000)));
  });

  it('acknowledges at once even when the Linen API is slow, and answers later', async () => {
    h.sandbox.faults.set({ latencyMs: 3500 });
    try {
      const r = await bot.command('signals');
      expect(r.status).toBe(200);
      expect(r.ms).toBeLessThan(1000);
      const [answer] = await h.slack.waitForPosts(r.sink, 1, 20_000);
      expect(answer!.at - Date.now()).toBeLessThan(1);
      expect(allText(answer!.body)).toContain('signals');
    } finally {
      h.sandbox.faults.set({ latencyMs: 0 });
    }
  });
});

describe('failures answer in one friendly sentence', () => {
  it('rate limited', async () => {
    h.sandbox.faults.enqueue({ kind: '429', count: 3 });
    try {
      const m = await bot.ask('tickets resolved');
      expect(m.text).toMatch(/^The Linen API is busy \(rate limited\); try again in \d+ seconds?\.$/);
    } finally {
      h.sandbox.faults.reset();
    }
  });

  it('API down: the request_id to quote', async () => {
    h.sandbox.faults.enqueue({ kind: '500', count: 3 });
    try {
      const m = await bot.ask('tickets verified');
      expect(m.text).toMatch(
        /^The Linen API is having trouble right now; try again later, and quote request req_[A-Za-z0-9]+ to support if it persists\.$/,
      );
    } finally {
      h.sandbox.faults.reset();
    }
  });

  it('a key without the accounting scope', async () => {
    const ops = await h.startBotWith({ LINEN_API_KEY: 'lk_live_demo_mercy_ops' });
    expect((await ops.ask('balance')).text).toBe("This workspace's key has no accounting access.");
    // The same key does see signals of its customers.
    expect(allText(await ops.ask('signals'))).toContain('Mercy General Hospital');
    await ops.stop();
  });

  it('a revoked key', async () => {
    const revoked = await h.startBotWith({ LINEN_API_KEY: 'lk_live_demo_revoked' });
    expect((await revoked.ask('tickets')).text).toBe(
      "This workspace's Linen API key was rejected (revoked or mistyped); ask whoever runs the bot to replace LINEN_API_KEY.",
    );
    await revoked.stop();
  });

  it('no key configured', async () => {
    const none = await h.startBotWith({ LINEN_API_KEY: undefined });
    for (const text of ['balance', 'signals', 'ticket TKT-26-00417', 'tickets', 'fillrate Harborview']) {
      expect((await none.ask(text)).text).toBe(
        'No Linen API key is configured for this workspace yet; ask whoever runs the bot to set LINEN_API_KEY.',
      );
    }
    const health = await (await fetch(`http://127.0.0.1:${none.bot.port}/healthz`)).json();
    expect(health).toEqual({ ok: true, linen_key_configured: false });
    await none.stop();
  });
});

describe('hygiene', () => {
  it('every message the bot sent passes the Block Kit validator', () => {
    expect(h.slack.posts.length).toBeGreaterThan(40);
    expect(h.problems).toEqual([]);
  });

  it('no log line, message or Slack API call carries the Linen key, the bot token or the signing secret', () => {
    const logs = bot.logs.join('\n');
    expect(logs).toContain(' DEBUG ');
    const messages = JSON.stringify(h.slack.posts);
    // The bot token does go to Slack's Web API (that is its purpose); the Linen keys never do.
    const apiCalls = JSON.stringify(h.slack.calls.map((c) => c.params));
    for (const s of [...KEYS(), BOT_TOKEN, SIGNING_SECRET]) {
      expect(logs).not.toContain(s);
      expect(messages).not.toContain(s);
    }
    for (const s of KEYS()) expect(apiCalls).not.toContain(s);
    expect(logs).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });
});
