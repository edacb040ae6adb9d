/**
 * Property-based tests of `/linen` text: the grammar (every subcommand, `digest` included) and the whole answer
 * path against the sandbox, over hostile input from a fixed seed (test/support/hostile.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText } from '../../chat/answers/answer.ts';
import { formatCommand, parseCommand, SUBCOMMANDS } from '../../chat/answers/grammar.ts';
import { ArgsError, parseSubscribeArgs, tokenize } from '../../chat/digests/subscribe-args.ts';
import { LinenService } from '../../chat/linen.ts';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { createLinenClient } from '../../shared/node.ts';
import { asSlack } from '../support/digest-env.ts';
import { artefactsIn, hostileText, hostileToken, runs } from '../support/hostile.ts';
import { validateMessage } from '../support/slack-blockkit.ts';

const KINDS = new Set([
  'help',
  'home',
  'balance',
  'signals',
  'ticket',
  'tickets',
  'fillrate',
  'short',
  'rewash',
  'manifest',
  'order',
  'po',
  'invoices',
  'digest',
  'alert',
  'usage',
  'unknown',
]);

/** `/linen` text: a subcommand (or anything) followed by hostile words. */
const commandText = fc
  .tuple(fc.oneof(fc.constantFrom(...SUBCOMMANDS), hostileToken), hostileText)
  .map(([head, rest]) => `${head} ${rest}`);

describe('the /linen grammar', () => {
  it('reads any text as a command of a known kind, and its canonical text reads back the same', () => {
    fc.assert(
      fc.property(commandText, (text) => {
        const cmd = parseCommand(text);
        expect(KINDS.has(cmd.kind)).toBe(true);
        const canonical = formatCommand(cmd);
        expect(artefactsIn(JSON.stringify(cmd) + canonical, text)).toEqual([]);
        // A command that was understood replays as itself (what a Share or choose button sends back).
        if (cmd.kind !== 'usage' && cmd.kind !== 'unknown')
          expect(formatCommand(parseCommand(canonical))).toBe(canonical);
      }),
      runs(3000),
    );
  });

  it('reads any digest arguments as a subscription or a one-sentence refusal', () => {
    const digestArgs = fc
      .tuple(fc.constantFrom('shortfall', 'receivables', 'tickets', 'budgets', ''), hostileText)
      .map(([kind, rest]) => `${kind} ${rest}`.trim());
    fc.assert(
      fc.property(digestArgs, (args) => {
        try {
          const parsed = parseSubscribeArgs(tokenize(args), { time: '07:00' });
          expect(artefactsIn(JSON.stringify(parsed), args)).toEqual([]);
        } catch (e) {
          expect(e).toBeInstanceOf(ArgsError);
          const message = (e as Error).message;
          expect(message).toMatch(/^[^\n]+[.?!)"]$/);
          expect(artefactsIn(message, args)).toEqual([]);
        }
      }),
      runs(3000),
    );
  });
});

describe('the whole answer', () => {
  let sandbox: Sandbox;
  let linen: LinenService;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, today: '2026-11-20', rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    const client = createLinenClient({
      apiKey: 'lk_live_demo_all_access',
      baseUrl: sandbox.baseUrl,
      timeZone: 'America/Chicago',
      pacing: false,
    });
    linen = new LinenService({ baseUrl: sandbox.baseUrl, timeZone: 'America/Chicago', client });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('answers any command text with a valid message that shows no artefact and injects no mention or link', async () => {
    await fc.assert(
      fc.asyncProperty(commandText, async (text) => {
        const message = asSlack(
          (await answerText(text, { linen, now: () => Date.parse('2026-11-20T18:00:00Z') })).content,
        );
        expect(validateMessage(message)).toEqual([]);
        // What Slack shows: the fallback and the blocks (button values are replayed, never shown).
        const shown = JSON.stringify([message.text, message.blocks], (k, v) => (k === 'value' ? undefined : v));
        expect(artefactsIn(shown, text)).toEqual([]);
        expect(shown).not.toMatch(/<!(channel|here|everyone)|<@U|<#C|<https?:\/\/x\|/);
      }),
      runs(500),
    );
  });
});
