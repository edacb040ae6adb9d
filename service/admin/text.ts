/** The status report as aligned plain-text tables under headings, for a terminal. */
import type { AlertCheck } from './alert-status.ts';
import type { StatusReport } from './status.ts';
import { table } from './table.ts';
import { when } from './when.ts';

type Workspace = StatusReport['workspaces'][number];
const INSTALL: Record<Workspace['install'], (w: Workspace) => string> = {
  workspace: () => 'workspace',
  'org-wide': () => 'org-wide',
  'via-organization': () => 'via its org',
  conversations: (w) => `${w.conversations} conversation${w.conversations === 1 ? '' : 's'}`,
  none: () => 'none stored',
};

const place = (p: string) => (p === '*' ? 'workspace' : `#${p}`);

/** `2026-11-20T17:55:00Z (5 min ago), 3 requests`, or why it could not read; `none yet` before the first. */
function lastCheck(check: AlertCheck | null, at: (d: Date | null) => string): string {
  if (!check) return 'no check (nothing active)';
  if (!check.at) return `none yet (due ${at(check.nextAt)})`;
  if (check.error) return `${at(check.at)}, could not read: ${check.error}`;
  const n = check.requests ?? 0;
  return `${at(check.at)}, ${n} request${n === 1 ? '' : 's'}`;
}

function section(title: string, rows: number, lines: string[]): string[] {
  return ['', `${title} (${rows})`, ...lines];
}

export function renderText(report: StatusReport, store: string, now: Date): string {
  const at = (d: Date | null) => (d ? when(d, now) : '-');
  const out = [`linen-connect status at ${when(now, now).replace(' (now)', '')}, store: ${store}`];

  out.push(
    ...section(
      'Workspaces',
      report.workspaces.length,
      report.workspaces.length
        ? table(
            ['PLATFORM', 'WORKSPACE', 'ORGANIZATION', 'INSTALL', 'INSTALLED', 'KEYS', 'DIGESTS'],
            report.workspaces.map((w) => [
              w.platform,
              w.workspace === '*' ? '* (every workspace)' : w.workspace,
              w.organization ?? '-',
              INSTALL[w.install](w),
              at(w.installedAt),
              String(w.keys),
              String(w.subscriptions),
            ]),
          )
        : ['No workspace has installed the app.'],
    ),
  );

  const connections = report.connections.length
    ? table(
        ['PLATFORM', 'WORKSPACE', 'PLACE', 'KEY', 'ADDRESS', 'TIMEZONE', 'SCOPES', 'CONNECTED', 'LAST ANSWERED'],
        report.connections.map((c) => [
          c.platform,
          c.workspace,
          place(c.place),
          c.key,
          c.baseUrl,
          c.timeZone,
          c.scopes.join(',') || '-',
          at(c.connectedAt),
          c.lastAnsweredAt ? at(c.lastAnsweredAt) : c.lastAnsweredKnown ? 'not yet' : 'unknown',
        ]),
      )
    : [
        'No connection row: a bot for one workspace reads its key from LINEN_API_KEY in its environment, not from the store.',
        ...(report.environmentKey ? [`LINEN_API_KEY here is ${report.environmentKey}.`] : []),
      ];
  out.push(...section('Connections', report.connections.length, connections));

  out.push(
    ...section(
      'Subscriptions',
      report.subscriptions.length,
      report.subscriptions.length
        ? table(
            ['PLATFORM', 'WORKSPACE', 'ID', 'KIND', 'CHANNEL', 'SCHEDULE', 'KEY', 'STATE', 'NEXT RUN', 'LAST RUN'],
            report.subscriptions.map((s) => [
              s.platform,
              s.workspace ?? '-',
              s.id,
              s.kind,
              `#${s.channel}`,
              s.schedule,
              s.key,
              s.state,
              at(s.nextRunAt),
              s.lastRun ? `${s.lastRun.status} ${at(s.lastRun.at)}` : 'none yet',
            ]),
          )
        : ['No digest is subscribed.'],
    ),
  );

  out.push(
    ...section(
      'Failing',
      report.failing.length,
      report.failing.length
        ? table(
            ['PLATFORM', 'WORKSPACE', 'ID', 'CHANNEL', 'STATE', 'SINCE', 'REASON'],
            report.failing.map((f) => [
              f.platform,
              f.workspace ?? '-',
              f.id,
              `#${f.channel}`,
              f.state,
              at(f.since),
              f.code ? `${f.reason} (${f.code})` : f.reason,
            ]),
          )
        : ['No subscription is failing.'],
    ),
  );

  out.push(
    ...section(
      'Alerts',
      report.alerts.length,
      report.alerts.length
        ? table(
            ['PLATFORM', 'WORKSPACE', 'ID', 'KIND', 'WATCHES', 'POSTS IN', 'KEY', 'STATE', 'LAST FIRED', 'LAST CHECK'],
            report.alerts.map((a) => [
              a.platform,
              a.workspace ?? '-',
              a.id,
              a.kind,
              a.watches,
              a.postsIn,
              a.key,
              a.state,
              a.lastFiredAt ? at(a.lastFiredAt) : 'not yet',
              lastCheck(a.lastCheck, at),
            ]),
          )
        : ['No alert is set.'],
    ),
  );

  out.push(
    ...section(
      'Failing alerts',
      report.failingAlerts.length,
      report.failingAlerts.length
        ? table(
            ['PLATFORM', 'WORKSPACE', 'ID', 'POSTS IN', 'STATE', 'SINCE', 'REASON'],
            report.failingAlerts.map((f) => [
              f.platform,
              f.workspace ?? '-',
              f.id,
              f.postsIn,
              f.state,
              at(f.since),
              f.code ? `${f.reason} (${f.code})` : f.reason,
            ]),
          )
        : ['No alert is failing.'],
    ),
  );
  return `${out.join('\n')}\n`;
}
