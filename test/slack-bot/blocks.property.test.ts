/**
 * Property-based tests of what every Slack message passes through: the mrkdwn escaper and the Block Kit
 * limiter, over hostile text from a fixed seed (test/support/hostile.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actions, type Block, button, context, divider, fields, header, section } from '../../slack-bot/blocks/kit.ts';
import { fitMessage, LIMITS, truncate } from '../../slack-bot/blocks/limits.ts';
import { esc, escLine, plain } from '../../slack-bot/blocks/mrkdwn.ts';
import { hostileText, hostileToken, runs } from '../support/hostile.ts';
import { validateMessage } from '../support/slack-blockkit.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const MENTION = /@(channel|here|everyone)\b/i;

/** Text of any length: hostile words, sometimes repeated past every Slack limit. */
const longText = fc
  .tuple(hostileText, fc.integer({ min: 1, max: 400 }))
  .map(([t, n]) => (t.length * n > 6000 ? t : t.repeat(n)));

const unescapeMrkdwn = (s: string) =>
  s
    .replace(/\u200b/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('the mrkdwn escaper', () => {
  it('leaves no angle bracket, active special mention or control character, and loses nothing else', () => {
    fc.assert(
      fc.property(longText, (text) => {
        const out = esc(text);
        expect(out).not.toMatch(/[<>]/);
        expect(out).not.toMatch(MENTION);
        expect(out).not.toMatch(CONTROL);
        expect(unescapeMrkdwn(out)).toBe(text.replace(new RegExp(CONTROL.source, 'g'), ''));
      }),
      runs(3000),
    );
  });

  it('folds to one line for list lines, and plain text keeps no control character or line break', () => {
    fc.assert(
      fc.property(longText, (text) => {
        expect(escLine(text)).not.toMatch(/\n/);
        const p = plain(text);
        expect(p).not.toMatch(/\n/);
        expect(p).not.toMatch(CONTROL);
      }),
      runs(3000),
    );
  });
});

describe('the Block Kit limiter', () => {
  it('truncates to the limit without cutting an entity, a <token> or a surrogate pair', () => {
    fc.assert(
      fc.property(longText.map(esc), fc.integer({ min: 2, max: 3000 }), (text, max) => {
        const out = truncate(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        if (text.length <= max) {
          expect(out).toBe(text);
          return;
        }
        expect(out.endsWith('…')).toBe(true);
        const kept = out.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        expect(kept).not.toMatch(/&[a-z]*$/);
        const last = kept.charCodeAt(kept.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      }),
      runs(3000),
    );
  });

  const word = hostileToken.map((t) => esc(t) || 'x');
  const mrkdwnText = longText.map((t) => esc(t) || ' ');
  const buttonArb = fc
    .tuple(word, fc.string({ minLength: 1, maxLength: 300 }), fc.option(longText, { nil: undefined }))
    .map(([text, id, value]) => button(text, id, value));
  const block: fc.Arbitrary<Block> = fc.oneof(
    longText.map((t) => header(plain(t) || 'x')),
    fc.tuple(mrkdwnText, fc.option(buttonArb, { nil: undefined })).map(([t, b]) => section(t, b)),
    fc.array(mrkdwnText, { minLength: 1, maxLength: 14 }).map((items) => fields(items)),
    fc.array(mrkdwnText, { minLength: 1, maxLength: 10 }).map((items) => context(...items)),
    fc.constant(divider()),
    fc
      .uniqueArray(buttonArb, { minLength: 1, maxLength: 30, selector: (b) => b.action_id })
      .map((buttons) => actions(buttons)),
  );

  it('makes any message of escaped text fit every Block Kit limit', () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 70 }), longText, (blocks, text) => {
        const fitted = fitMessage({ text: escLine(text), blocks });
        expect(validateMessage(fitted)).toEqual([]);
        expect(fitted.blocks.length).toBeLessThanOrEqual(LIMITS.blocks);
      }),
      runs(1000),
    );
  });
});
