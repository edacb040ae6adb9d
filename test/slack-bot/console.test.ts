/**
 * `npm start` without Slack settings: the console mode, driven as a person or a script would, in a child
 * process; plus the one-line start-up errors of a bad configuration.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSandboxData } from '../../sandbox/index.ts';
import { buildService } from '../../scripts/build-service.ts';
import { ConfigError, isConsoleMode, loadConfig } from '../../service/config.ts';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const ENTRY = join(process.cwd(), 'service', 'index.ts');

/** The environment without any Slack or Linen setting, the sandbox pinned to a day of 2026. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(SLACK_|LINEN_|PORT$|DATABASE_URL$|SANDBOX_)/.test(k)) env[k] = v;
  return { ...env, SANDBOX_TODAY: '2026-11-20', ...extra };
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (stdin !== undefined) child.stdin.end(stdin);
    else child.stdin.end();
  });
}

describe('console mode', () => {
  it('--ask answers one command as terminal text and exits', async () => {
    const r = await run(TSX, [ENTRY, '--ask', '/linen signals'], cleanEnv());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Inventory signals\n=+\n/);
    expect(r.stdout).toContain('Shortfall streak');
    expect(r.stdout).toContain('Buttons: [Share in channel]');
    expect(r.stdout).not.toMatch(/&amp;|&lt;|\*High\*/);
    expect(r.stdout + r.stderr).not.toContain('lk_live_demo_all_access');
  });

  it('--ask "/linen alert help": each kind with its words and what it tells, and how to manage them', async () => {
    const r = await run(TSX, [ENTRY, '--ask', '/linen alert help'], cleanEnv());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Alerts\n/);
    for (const usage of ['alert short [customer]', 'alert signal [kind | shortfall]', 'alert ticket [customer]'])
      expect(r.stdout).toContain(`/linen ${usage}`);
    expect(r.stdout).toContain('/linen alert test <id>');
    expect(r.stdout).not.toContain('[object Object]');
  });

  it('--ask home prints the home as text, as Slack shows it and with --teams as Teams does; a follow is kept', async () => {
    const env = cleanEnv({ LINEN_DATA_DIR: mkdtempSync(join(tmpdir(), 'linen-home-')) });
    const slack = await run(TSX, [ENTRY, '--ask', 'home'], env);
    expect(slack.code).toBe(0);
    expect(slack.stdout).toMatch(
      /^Your Linen home\n=+\n {2}As of 2026-11-20 12:00 \(America\/Chicago\) · following every customer\n/,
    );
    expect(slack.stdout).toContain('[menu: Every customer]');
    expect(slack.stdout).toContain('Short today');
    expect(slack.stdout).toContain('Par met yesterday (2026-11-19)');
    expect(slack.stdout).toContain('Overdue invoices');
    expect(slack.stdout).toContain('Buttons: [Refresh]');
    expect(slack.stdout).not.toMatch(/&amp;|\*Short/);

    const followed = await run(TSX, [ENTRY, '--teams', '--ask', 'home follow Harborview Hotel'], env);
    expect(followed.code).toBe(0);
    expect(followed.stdout).toContain('Following Harborview Hotel.');
    expect(followed.stdout).toContain('[menu: Harborview Hotel]');
    expect(followed.stdout).toMatch(/^ {2}Buttons: \[Follow these customers\]$/m);
    expect(followed.stdout).not.toContain('Mercy General Hospital ›');
    // Kept in the store: the next home follows it (the Teams console's own person, beside Slack's).
    const teams = await run(TSX, [ENTRY, '--teams', '--ask', 'home'], env);
    expect(teams.stdout).toContain('following Harborview Hotel');
    expect(teams.stdout + teams.stderr).not.toContain('lk_live_demo_all_access');
    // Three consoles one after the other, each starting the service and its embedded store: three times one start's
    // budget.
  }, 90_000);

  it('reads /linen lines from stdin, prints a banner, exits cleanly on EOF', async () => {
    const r = await run(
      TSX,
      [ENTRY],
      cleanEnv(),
      '/linen ticket TKT-26-00417\nbalance Harborview Hotel\n/linen nonsense\n',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^linen-connect Slack bot, console mode: answering from the sandbox Linen API at http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    expect(r.stdout).toContain('TKT-26-00417: Makeup stains on pillowcases');
    expect(r.stdout).toContain('Open balance: Harborview Hotel');
    expect(r.stdout).toContain('[button: PDF]');
    expect(r.stdout).toContain("I don't know nonsense");
  });

  it('--teams shows the answers as Teams renders their Adaptive Cards, buttons included', async () => {
    const r = await run(
      TSX,
      [ENTRY, '--teams'],
      cleanEnv(),
      'balance Harborview Hotel\nticket TKT-26-00417\nlinen help\n',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^linen-connect Teams bot, console mode: answering from the sandbox/);
    expect(r.stdout).toContain('Type a message as you would to Linen in Teams, such as "balance"');
    expect(r.stdout).toContain('Open balance: Harborview Hotel');
    expect(r.stdout).toMatch(/^ {2}\[PDF\]$/m);
    expect(r.stdout).toContain('TKT-26-00417: Makeup stains on pillowcases');
    expect(r.stdout).toContain('Linen in Microsoft Teams');
    // Neither Slack's share button nor its mrkdwn.
    expect(r.stdout).not.toMatch(/Share in channel|\*Harborview|&amp;/);
    expect(r.stdout + r.stderr).not.toContain('lk_live_demo_all_access');
  });

  it('the 7 a.m. answers as terminal text: short, rewash, manifest, order, po, invoices, tickets by customer', async () => {
    const data = await loadSandboxData({ today: '2026-11-20', timeZone: 'America/Chicago', seed: 'linen' });
    const manifest = data.manifests.find((m) => m.delivered_at && m.signature.signed_by_name)!;
    const order = data.orders.find((o) => o.placed_at)!;
    const r = await run(
      TSX,
      [ENTRY],
      cleanEnv(),
      [
        'short Mercy General Hospital ICU',
        'rewash Mercy General Hospital',
        `manifest ${manifest.manifest_number}`,
        `order ${order.order_number}`,
        'po',
        'invoices overdue',
        'tickets Harborview Hotel',
        'fillrate "Mercy General Hospital" ICU',
        'help',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain('Short today: Mercy General Hospital › ICU\n');
    expect(out).toContain('Rewash: Mercy General Hospital\n');
    expect(out).toContain('  Window: 2026-10-21 → 2026-11-19 (30 days)');
    expect(out).toContain(`Proof of delivery: ${manifest.manifest_number}\n`);
    expect(out).toContain(`  Signed by: ${manifest.signature.signed_by_name}`);
    expect(out).toContain(`Order ${order.order_number}\n`);
    expect(out).toContain('Purchase orders\n');
    expect(out).toContain('Overdue invoices\n');
    expect(out).toContain('Open tickets: Harborview Hotel\n');
    expect(out).toMatch(/ {2}Par met: \d+\.\d%/);
    expect(out).toContain('  Window: 2026-11-13 → 2026-11-19 (7 days)');
    for (const sub of ['short', 'rewash', 'manifest', 'order', 'po', 'invoices'])
      expect(out).toContain(`/linen ${sub} `);
    expect(out).not.toMatch(/undefined|NaN|\[object Object\]/);
  });

  it('digest commands: subscribe and list kept under LINEN_DATA_DIR across runs; preview renders the digest', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linen-console-'));
    const first = await run(
      TSX,
      [ENTRY],
      cleanEnv({ LINEN_DATA_DIR: dataDir }),
      '/linen digest subscribe weekdays 06:30 high\n/linen digest subscribe #nowhere\n',
    );
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /Subscribed: d\w+ #C0CONSOLE on weekdays at 06:30 \(America\/Chicago\), all customers, high severity and above\./,
    );
    expect(first.stdout).toContain("I can't find a channel named #nowhere");
    const preview = await run(
      TSX,
      [ENTRY],
      cleanEnv({ LINEN_DATA_DIR: dataDir }),
      '/linen digest list\n/linen digest preview\n',
    );
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/> Digest subscriptions \(1\)\n• d\w+ #C0CONSOLE on weekdays at 06:30/);
    expect(preview.stdout).toMatch(/> Linen shortfall digest · \w{3} \d+ \w{3}\n=+\n/);
    expect(preview.stdout).toContain('Mercy General Hospital');
    expect(preview.stdout).toContain('Preview, only you can see it.');
    expect(preview.stdout).not.toMatch(/&amp;|&lt;/);
  });

  it('alerts: set one, close a cart count short in the sandbox, and see the alert posted once in the channel', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linen-console-alerts-'));
    const r = await run(
      TSX,
      [ENTRY],
      cleanEnv({ LINEN_DATA_DIR: dataDir }),
      [
        '/linen alert short Mercy General Hospital',
        'sandbox short Mercy General Hospital',
        '/linen alerts',
        // A signal at another customer, and bad input: nothing more is posted.
        'sandbox signal Harborview Hotel',
        'sandbox frobnicate',
        'sandbox short Nowhere Inc',
        '/linen alert short min 0',
        '/linen alerts',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain(
      'Alerts are checked every 30 s (ALERTS_POLL_SECONDS): "/linen alert help" sets one, and "sandbox help" shows how to change the sandbox\'s data to see it fire.',
    );
    const set =
      /Alert set (a\w+): carts closing short at Mercy General Hospital\. It posts in #C0CONSOLE when that happens, checked every 30 seconds\.\n/.exec(
        out,
      );
    expect(set).not.toBeNull();
    const id = set![1]!;
    // Quiet about the past: what is short already is counted in the confirmation, not posted.
    expect(out).toMatch(/\n\d+ carts are short right now: \/linen short Mercy General Hospital lists them\.\n/);
    const change =
      /Sandbox: cart (.+) \(Mercy General Hospital › (.+)\) was counted today and closed (\d+) (.+) short \(/.exec(out);
    expect(change).not.toBeNull();
    const [, cart, unit, missing, item] = change!;

    // One post, after the change and before the next command's answer, marked as posted in the channel.
    const header = `── Linen posted in #C0CONSOLE, for everyone in it (alert ${id}) ──`;
    expect(out.split(header)).toHaveLength(2);
    expect(out.match(/── Linen (posted|sent)/g)).toHaveLength(1);
    const post = out.slice(out.indexOf(header), out.indexOf('> Alerts (1)'));
    expect(out.indexOf(change![0])).toBeLessThan(out.indexOf(header));
    expect(post).toContain('1 cart short at Mercy General Hospital\n=');
    expect(post).toContain(`the worst: ${cart} at Mercy General Hospital › ${unit}, ${missing} missing.`);
    expect(post).toContain(`  Missing: ${missing} pieces\n  Cart: ${cart}\n`);
    expect(post).toContain(`${missing} ${item}: `);
    expect(post).toContain('  Count: counted, 2026-11-20 12:');
    expect(post).toContain('Buttons: [Show what is short]');
    // A post is not an answer: nothing to share.
    expect(post).not.toContain('Share in channel');
    expect(out).toMatch(
      new RegExp(`• ${id} carts closing short at Mercy General Hospital, in #C0CONSOLE · last fired 2026-11-20 12:`),
    );

    expect(out).toMatch(/Sandbox: a high shortfall streak signal was raised at Harborview Hotel › /);
    expect(out).toContain("> I don't know “sandbox frobnicate”; try sandbox short, signal, ticket, reset or help.\n");
    expect(out).toContain('> No customer named "Nowhere Inc" is visible to this key.\n');
    expect(out).toMatch(/> min is 1 to [\d,]+ pieces \(got 0\)\. /);
    // The bad alert was not saved.
    expect(out.split('> Alerts (1)\n')).toHaveLength(3);
    expect(out + r.stderr).not.toContain('lk_live_demo_all_access');
    expect(out).not.toMatch(/undefined|NaN|\[object Object\]/);
  }, 120_000);

  it('alerts on Teams: dm, ALERTS_POLL_SECONDS, and --ask "alert test" posting after its answer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linen-console-alerts-'));
    const env = cleanEnv({ LINEN_DATA_DIR: dataDir, ALERTS_POLL_SECONDS: '45' });
    const r = await run(
      TSX,
      [ENTRY, '--teams'],
      env,
      'alert signal high dm\nsandbox signal Mercy General Hospital\nsandbox help\n',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Alerts are checked every 45 s (ALERTS_POLL_SECONDS): "alert help" sets one');
    const set =
      /Alert set (a\w+): high signals at every customer\. It posts in your direct messages with Linen when that happens, checked every 45 seconds\./.exec(
        r.stdout,
      );
    expect(set).not.toBeNull();
    const id = set![1]!;
    const header = `── Linen sent you a direct message (alert ${id}) ──`;
    expect(r.stdout.split(header)).toHaveLength(2);
    const post = r.stdout.slice(r.stdout.indexOf(header), r.stdout.indexOf('> Sandbox commands change'));
    expect(post).toContain('1 signal at every customer\n=');
    expect(post).toMatch(/Where: Mercy General Hospital › /);
    expect(post).toContain('Kind: Shortfall streak');
    // Teams' rendering of the card, not Slack's.
    expect(post).toContain('Severity: 🔴 High');
    expect(post).toMatch(/^ {2}Buttons: \[Show the signals\]$/m);
    expect(post).not.toMatch(/\(!!\)|Share in channel/);
    expect(r.stdout).toContain('  sandbox short [customer]   close a cart count of today short\n');

    // The alert is kept in the store: another run answers one command about it, then posts its test.
    const list = await run(TSX, [ENTRY, '--teams', '--ask', 'alerts'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(
        `^Alerts \\(1\\)\\n• ${id} high signals at every customer, in your direct messages with Linen · last fired `,
      ),
    );
    expect(list.stdout).not.toContain('── Linen');
    const test = await run(TSX, [ENTRY, '--teams', '--ask', `alert test ${id}`], env);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(new RegExp(`^Posting a test of ${id} in your direct messages with Linen now`));
    expect(test.stdout.indexOf(header)).toBeGreaterThan(0);
    expect(test.stdout.slice(test.stdout.indexOf(header))).toMatch(/\nTest: \d+ signals at every customer\n=+\n/);
    for (const x of [r, list, test]) expect(x.stdout + x.stderr).not.toContain('lk_live_demo_all_access');
  }, 120_000);

  it('the bundle runs with plain node', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'linen-bot-')), 'index.js');
    await buildService({ outfile: out });
    const r = await run(process.execPath, [out, '--ask', '/linen tickets'], cleanEnv());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Open tickets\n/);
    // The embedded digest store (PGlite) loads from the files copied beside the bundle.
    const d = await run(
      process.execPath,
      [out, '--ask', '/linen digest list'],
      cleanEnv({ LINEN_DATA_DIR: mkdtempSync(join(tmpdir(), 'linen-bundle-')) }),
    );
    expect(d.stdout).toMatch(/^No digest subscriptions yet\./);
  });
});

describe('start-up configuration errors: one line naming the setting', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ SLACK_BOT_TOKEN: 'xoxb-1-2-3' }, /^linen-bot: SLACK_SIGNING_SECRET is not set/],
    [{ SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef' }, /^linen-bot: SLACK_BOT_TOKEN is not set/],
    [
      { SLACK_BOT_TOKEN: 'xoxp-user-token', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef' },
      /^linen-bot: SLACK_BOT_TOKEN must be a bot token/,
    ],
    [
      { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef' },
      /^linen-bot: LINEN_BASE_URL is not set/,
    ],
    [
      { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef', LINEN_BASE_URL: 'nope' },
      /^linen-bot: LINEN_BASE_URL is not a URL/,
    ],
    [
      { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef', LINEN_BASE_URL: 'http://x/v1' },
      /^linen-bot: LINEN_TIMEZONE is not set/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'Mars/Base',
      },
      /^linen-bot: LINEN_TIMEZONE must be an IANA timezone/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'UTC',
        PORT: 'eighty',
      },
      /^linen-bot: PORT must be an integer/,
    ],
    [
      { SLACK_APP_TOKEN: 'xoxb-wrong', SLACK_BOT_TOKEN: 'xoxb-1-2-3' },
      /^linen-bot: SLACK_APP_TOKEN must be an app-level token/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'UTC',
        DATABASE_URL: 'mysql://x',
      },
      /^linen-bot: DATABASE_URL must be a postgres/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'UTC',
        LINEN_DIGEST_GRACE_MINUTES: '2h',
      },
      /^linen-bot: LINEN_DIGEST_GRACE_MINUTES must be a whole number of minutes from 0 to 10080 \(got "2h"\)\.$/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'UTC',
        LINEN_DIGEST_GRACE_MINUTES: '-5',
      },
      /^linen-bot: LINEN_DIGEST_GRACE_MINUTES must be a whole number/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'UTC',
        LINEN_ADMIN_USER_IDS: 'U024BE7LH, @alice',
      },
      /^linen-bot: LINEN_ADMIN_USER_IDS must be Slack user ids separated by commas, like U024BE7LH,U0G9QF9C6 \(got "@alice"\)\.$/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'UTC',
        LINEN_ALLOWED_BASE_URLS: 'https://a.example/v1, ftp://b.example/v1',
      },
      /^linen-bot: LINEN_ALLOWED_BASE_URLS must be an http\(s\) URL \(got "ftp:\/\/b\.example\/v1"\)\.$/,
    ],
    [
      {
        SLACK_BOT_TOKEN: 'xoxb-1-2-3',
        SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
        LINEN_BASE_URL: 'http://x/v1',
        LINEN_TIMEZONE: 'UTC',
        BIND_ADDRESS: 'localhost:3000',
      },
      /^linen-bot: BIND_ADDRESS must be an IP address of this machine, such as 127.0.0.1, 0.0.0.0 or :: \(got "localhost:3000"\)\.$/,
    ],
  ];
  for (const [env, want] of cases) {
    it(want.source, () => {
      const line = new RegExp(want.source.replace('^linen-bot: ', '^'));
      expect(() => loadConfig(env)).toThrow(ConfigError);
      try {
        loadConfig(env);
      } catch (err) {
        expect((err as Error).message).toMatch(line);
        expect((err as Error).message).not.toContain('\n');
        for (const v of Object.values(env))
          if (/^xox/.test(v) || /^abcdef/.test(v)) expect((err as Error).message).not.toContain(v);
      }
    });
  }

  it('the process prints that one line on stderr, no stack, and exits 1', async () => {
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
      LINEN_BASE_URL: 'http://x/v1',
    };
    const r = await run(TSX, [ENTRY], cleanEnv(env));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      "linen-bot: LINEN_TIMEZONE is not set: the organization's IANA timezone, e.g. America/Chicago.",
    ]);
  });

  it('no Slack setting means console mode; any Slack setting means Slack', () => {
    expect(isConsoleMode({})).toBe(true);
    expect(isConsoleMode({ SLACK_BOT_TOKEN: ' ' })).toBe(true);
    expect(isConsoleMode({ SLACK_APP_TOKEN: 'xapp-1' })).toBe(false);
    const socket = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1-2',
      LINEN_BASE_URL: 'https://api.example.com/v1/',
      LINEN_TIMEZONE: 'UTC',
    });
    expect(socket).toMatchObject({
      mode: 'socket',
      port: 3000,
      linen: { baseUrl: 'https://api.example.com/v1', apiKey: undefined },
      dataDir: './data',
      digests: { adminUserIds: [], graceMinutes: 120 },
    });
    const set = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1-2',
      LINEN_BASE_URL: 'https://a.example/v1',
      LINEN_TIMEZONE: 'UTC',
      LINEN_DATA_DIR: '/var/lib/linen',
      LINEN_ADMIN_USER_IDS: 'U1AAA, W2BBB',
      LINEN_DIGEST_GRACE_MINUTES: '30',
    });
    expect(set).toMatchObject({
      dataDir: '/var/lib/linen',
      digests: { adminUserIds: ['U1AAA', 'W2BBB'], graceMinutes: 30 },
    });
  });

  it('LINEN_ALLOWED_BASE_URLS lists the addresses a workspace may connect to; unset, LINEN_BASE_URL alone', () => {
    const base = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1-2', LINEN_TIMEZONE: 'UTC' };
    expect(loadConfig({ ...base, LINEN_BASE_URL: 'https://a.example/v1/' }).linen.allowedBaseUrls).toEqual([
      'https://a.example/v1',
    ]);
    const listed = loadConfig({
      ...base,
      LINEN_BASE_URL: 'https://a.example/v1',
      LINEN_ALLOWED_BASE_URLS: 'https://eu.example/v1/, https://us.example/v1,https://eu.example/v1',
    });
    expect(listed.linen.allowedBaseUrls).toEqual(['https://eu.example/v1', 'https://us.example/v1']);
  });
});
