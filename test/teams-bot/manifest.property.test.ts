/**
 * Whatever an operator sets, `npm run package:teams` either writes a manifest Teams' schema accepts or stops with a
 * sentence naming the setting (a PackageError): never a manifest with a hole, a broken string or a stack trace.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillManifest, PackageError } from '../../scripts/package-teams.ts';
import { hostileToken, runs } from '../support/hostile.ts';
import { teamsManifestErrors } from '../support/teams-manifest-schema.ts';

const TEMPLATE = readFileSync(resolve(import.meta.dirname, '../../teams-bot/manifest.json'), 'utf8');
const GOOD = {
  TEAMS_CLIENT_ID: '8f0a5c1e-3b2d-4c6e-9a7f-1e2d3c4b5a69',
  PUBLIC_HOST: 'linen-bot.example.com',
  TEAMS_APP_VERSION: '2.0.1',
  TEAMS_WEBSITE_URL: 'https://linen.example.com/',
  TEAMS_PRIVACY_URL: 'https://linen.example.com/privacy',
  TEAMS_TERMS_URL: 'https://linen.example.com/terms',
};
type Name = keyof typeof GOOD;

/** A value an operator might set: hostile text, or a near miss of a good value. */
const settingValue = (good: string) =>
  fc.oneof(
    hostileToken,
    fc.constant(`${good}/`),
    fc.constant(` ${good} `),
    fc.constant(good.toUpperCase()),
    fc.constant(`${good}"`),
    fc.constant(`${good}\\`),
    fc.constant(good.replace('https://', 'http://')),
  );

describe('filling the Teams manifest from the environment', () => {
  it('gives a manifest the schema accepts, or a PackageError naming the setting, for any value of one setting', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...(Object.keys(GOOD) as Name[]))
          .chain((name) => fc.tuple(fc.constant(name), settingValue(GOOD[name]))),
        ([name, value]) => {
          let text: string;
          try {
            text = fillManifest(TEMPLATE, { env: { ...GOOD, [name]: value }, packageVersion: '0.1.0' });
          } catch (e) {
            expect(e).toBeInstanceOf(PackageError);
            expect((e as Error).message).toMatch(new RegExp(`^(Set )?${name} `));
            expect((e as Error).message.split('\n')).toHaveLength(1);
            return;
          }
          expect(text).not.toMatch(/\$\{[A-Z0-9_]+\}/);
          expect(teamsManifestErrors(JSON.parse(text))).toEqual([]);
        },
      ),
      runs(300),
    );
  });
});
