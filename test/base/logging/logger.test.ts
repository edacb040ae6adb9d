/** What reaches the bot's log: never a key, a token, a command's response_url or a Socket Mode ticket. */
import { describe, expect, it } from 'vitest';
import { failureFields, logFields } from '../../../base/logging/log-fields.ts';
import { createLogger, type LogLevel } from '../../../base/logging/logger.ts';
import { ConfigError, loadLogFormat } from '../../../service/config.ts';
import { InternalServerError } from '../../../shared/errors.ts';
import { assertNoLeaks } from '../../support/secret-leaks.ts';

it('scrubs keys, Slack tokens, response_urls and connection tickets at every level', () => {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
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

it('scrubs a JWT (a Bot Framework or Entra token) wherever it appears, keeping the line readable', () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
  const jwt = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from('{"aud":"bot","exp":1}').toString('base64url')}.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;
  logger.debug(`token endpoint answered {"access_token":"${jwt}","expires_in":3599}`);
  logger.warn({ headers: { authorization: jwt } });
  expect(lines.join('\n')).not.toContain(jwt.slice(0, 40));
  expect(lines[0]).toContain('"access_token":"[redacted]","expires_in":3599');
});

describe('LOG_FORMAT=json', () => {
  const KEY = 'lk_live_demo_all_access';
  const SLACK = ['xoxb-1111-2222-linentesttoken', 'xapp-1-A0LINEN-2222-socketmodetesttoken'];
  const jsonLogger = () => {
    const lines: { line: string; level: LogLevel }[] = [];
    const logger = createLogger({
      level: 'debug',
      format: 'json',
      secrets: [KEY],
      write: (line, level) => lines.push({ line, level }),
    });
    return { logger, lines };
  };

  it('writes one JSON object a line, scrubbed as plain text is, fields and messages alike', () => {
    const { logger, lines } = jsonLogger();
    logger.debug(`key ${KEY}, token ${SLACK[0]} and app token ${SLACK[1]}`);
    logger.debug({ response_url: 'https://hooks.slack.com/commands/T0TEAM/123456/AbCdEf123', text: 'TKT-26-00417' });
    logger.info('connecting to wss://wss-primary.slack.com/link/?ticket=0123-abcd&app_id=A0APP');
    logger.warn('a digest', logFields({ run: 'r1', nested: { header: `Bearer ${KEY}`, list: [SLACK[0]] } }));
    logger.error(new Error(`failed for Bearer ${KEY}`));
    expect(lines).toHaveLength(5);
    const parsed = lines.map(({ line }) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((p) => p.level)).toEqual(['debug', 'debug', 'info', 'warn', 'error']);
    expect(lines.map((l) => l.level)).toEqual(['debug', 'debug', 'info', 'warn', 'error']);
    for (const p of parsed) {
      expect(p.name).toBe('linen-bot');
      expect(new Date(String(p.time)).toISOString()).toBe(p.time);
      expect(typeof p.msg).toBe('string');
    }
    expect(parsed[3]).toMatchObject({ run: 'r1', nested: { header: 'Bearer [redacted]', list: ['[redacted]'] } });
    const all = lines.map((l) => l.line).join('\n');
    expect(all).toContain('https://hooks.slack.com/commands/[redacted]');
    expect(all).toContain('?ticket=[redacted]&app_id=A0APP');
    expect(all).toContain('TKT-26-00417');
    assertNoLeaks([KEY, ...SLACK, 'AbCdEf123', '0123-abcd'], [{ source: 'log line', text: all }]);
    for (const secret of ['AbCdEf123', '0123-abcd']) expect(all).not.toContain(secret);
  });

  it('carries the request id of a failed request as request_id; plain text says it in words only', () => {
    const err = new InternalServerError({
      status: 500,
      code: 'internal_error',
      message: 'internal error',
      requestId: 'req_7f3a9c',
    });
    const { logger, lines } = jsonLogger();
    logger.info('/linen balance failed: InternalServerError request_id=req_7f3a9c', failureFields(err));
    logger.warn('a wrapped failure', new Error('the digest failed', { cause: err }));
    logger.info('a refusal before any request', failureFields(new Error('no key')));
    expect(lines.map(({ line }) => JSON.parse(line).request_id)).toEqual(['req_7f3a9c', 'req_7f3a9c', undefined]);

    const text: string[] = [];
    createLogger({ write: (line) => text.push(line) }).info('/linen balance failed', failureFields(err));
    expect(text[0]).toMatch(/ INFO \[linen-bot\] \/linen balance failed$/);
  });

  it('LOG_FORMAT: text unless set to json; any other value is a ConfigError sentence', () => {
    expect(loadLogFormat({})).toBe('text');
    expect(loadLogFormat({ LOG_FORMAT: ' ' })).toBe('text');
    expect(loadLogFormat({ LOG_FORMAT: 'json' })).toBe('json');
    expect(loadLogFormat({ LOG_FORMAT: 'JSON' })).toBe('json');
    expect(() => loadLogFormat({ LOG_FORMAT: 'xml' })).toThrow(ConfigError);
    expect(() => loadLogFormat({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be text or json (got "xml").');
  });
});
