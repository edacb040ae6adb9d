/// <reference types="google-apps-script" />
/**
 * Auto-refresh and daily history on one trigger. An editor add-on may have one time-driven trigger per user
 * and document, firing at most hourly, so the schedule owns a single hourly trigger whose run decides what is
 * due: the refresh (hourly, every 4 hours, or daily at an hour) and the day's history rows (once a day, from
 * that hour on). The trigger runs as the person who turned the schedule on, with their key; the formulas use
 * the spreadsheet owner's key, so only the owner may turn it on (when Google tells who that is), and each run
 * checks again before fetching anything (whose-key.ts).
 *
 * Nothing emails anyone when a trigger fails: each run writes its outcome to the document properties, and
 * the menu and the Auto-refresh dialog show it.
 */

import { wallClock } from '../../shared/cells/values.ts';
import { dayInZone } from '../../shared/dates.ts';
import { showDialog } from './dialog.ts';
import { documentProperties, readSettings } from './gas.ts';
import { type HistoryOutcome, recordHistory } from './history.ts';
import { MENU } from './messages.ts';
import { PROP_PENDING_REFRESH, type RefreshOutcome, refreshSpreadsheet } from './refresh.ts';
import { myEmail, ownerEmail } from './whose-key.ts';

export const HANDLER = 'linenScheduledRun';
const PROP_SCHEDULE = 'LINEN_SCHEDULE';
const PROP_STATUS = 'LINEN_SCHEDULE_STATUS';
const PROP_LEASE = 'LINEN_RUN_LEASE';
/** Apps Script stops a trigger after 6 minutes: fetching stops starting new rounds at 4.5, the rest is writing. */
export const RUN_MS = 270_000;

export const EVERY = ['off', 'hourly', '4h', 'daily'] as const;
export type Every = (typeof EVERY)[number];

export interface Schedule {
  refresh: Every;
  /** The hour (0-23, organization's time) of the daily refresh and of the history rows. */
  hour: number;
  history: boolean;
  /** Who turned it on: the trigger is theirs and runs with their key. */
  by: string | null;
  trigger: string | null;
}

interface Outcome {
  at: number;
  ok: boolean;
  message: string;
}

interface Status {
  refresh?: Outcome;
  /** When the last refresh completed. */
  refreshed?: number;
  history?: Outcome;
  /** The organization-local day the history rows were last recorded for. */
  historyDay?: string;
}

const OFF: Schedule = { refresh: 'off', hour: 6, history: false, by: null, trigger: null };

function readJson<T>(props: GoogleAppsScript.Properties.Properties, name: string, fallback: T): T {
  try {
    const v = props.getProperty(name);
    return v ? { ...fallback, ...(JSON.parse(v) as T) } : fallback;
  } catch {
    return fallback;
  }
}

const readSchedule = (props: GoogleAppsScript.Properties.Properties) => readJson(props, PROP_SCHEDULE, OFF);
const readStatus = (props: GoogleAppsScript.Properties.Properties) => readJson<Status>(props, PROP_STATUS, {});

function writeStatus(props: GoogleAppsScript.Properties.Properties, change: (s: Status) => void): void {
  const s = readStatus(props);
  change(s);
  props.setProperty(PROP_STATUS, JSON.stringify(s));
}

const pad = (n: number | undefined) => String(n).padStart(2, '0');

/** `2026-11-05 09:14` in the organization's timezone. */
function localTime(ms: number, timeZone: string): string {
  const [y, mo, d, h, mi] = wallClock(ms, timeZone);
  return `${y}-${pad(mo! + 1)}-${pad(d)} ${pad(h)}:${pad(mi)}`;
}

/** What a run at `now` has to do. Hourly triggers drift within their hour, hence the margins. */
export function dueWork(
  schedule: Schedule,
  status: Status,
  pending: boolean,
  now: number,
  timeZone: string,
): { refresh: boolean; history: boolean } {
  const today = dayInZone(new Date(now), timeZone);
  const since = now - (status.refreshed ?? 0);
  const afterHour = wallClock(now, timeZone)[3]! >= schedule.hour;
  const refresh =
    schedule.refresh !== 'off' &&
    (pending ||
      (schedule.refresh === 'hourly' && since >= 45 * 60_000) ||
      (schedule.refresh === '4h' && since >= 225 * 60_000) ||
      (schedule.refresh === 'daily' &&
        afterHour &&
        (status.refreshed === undefined || dayInZone(new Date(status.refreshed), timeZone) < today)));
  const history = schedule.history && afterHour && (status.historyDay ?? '') < today;
  return { refresh, history };
}

/** One run at a time per spreadsheet (the trigger, a menu click): a lease in the document properties. */
function withLease<T>(props: GoogleAppsScript.Properties.Properties, busy: T, work: () => T): T {
  const lock = LockService.getDocumentLock();
  if (!lock?.tryLock(10_000)) return busy;
  try {
    if (Number(props.getProperty(PROP_LEASE) ?? 0) > Date.now()) return busy;
    props.setProperty(PROP_LEASE, String(Date.now() + 6 * 60_000));
  } finally {
    lock.releaseLock();
  }
  try {
    return work();
  } finally {
    props.deleteProperty(PROP_LEASE);
  }
}

function record(outcome: RefreshOutcome | { status: 'done' | 'failed'; message: string }): Outcome {
  return { at: Date.now(), ok: outcome.status !== 'failed', message: outcome.message };
}

function recordHistoryOutcome(props: GoogleAppsScript.Properties.Properties, outcome: HistoryOutcome): void {
  writeStatus(props, (s) => {
    s.history = record(outcome);
    if (outcome.status === 'done') s.historyDay = outcome.day;
  });
}

/** The trigger's handler: checks it is the schedule's trigger and is authorized, then does what is due. */
export function linenScheduledRun(e?: { triggerUid?: string }): void {
  const started = Date.now();
  const props = documentProperties();
  if (!props) return; // not in a document: nothing to refresh, record or report to
  const failed = (message: string) =>
    writeStatus(props, (s) => {
      s.refresh = { at: started, ok: false, message };
    });
  if (!SpreadsheetApp.getActiveSpreadsheet()) {
    failed('The scheduled run found no spreadsheet to work on; nothing was changed.');
    return;
  }
  const schedule = readSchedule(props);
  if (e?.triggerUid && e.triggerUid !== schedule.trigger) {
    // A trigger left from an earlier schedule, or another person's: it removes itself.
    for (const t of ScriptApp.getProjectTriggers()) if (t.getUniqueId() === e.triggerUid) ScriptApp.deleteTrigger(t);
    return;
  }
  if (
    ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus() ===
    ScriptApp.AuthorizationStatus.REQUIRED
  ) {
    failed(`Linen Connect needs to be authorized again: open ${MENU} > Auto-refresh... once.`);
    return;
  }
  const tz = readSettings().orgTimeZone;
  withLease(props, undefined, () => {
    const due = dueWork(schedule, readStatus(props), props.getProperty(PROP_PENDING_REFRESH) !== null, started, tz);
    if (due.refresh) {
      const outcome = refreshSpreadsheet({ warm: true, deadline: started + RUN_MS });
      writeStatus(props, (s) => {
        s.refresh = record(outcome);
        if (outcome.status === 'done') s.refreshed = Date.now();
      });
    }
    if (due.history && Date.now() < started + RUN_MS)
      recordHistoryOutcome(props, recordHistory({ deadline: started + RUN_MS }));
  });
}

export interface ScheduleState {
  refresh: Every;
  hour: number;
  history: boolean;
  timeZone: string;
  /** Whose key the schedule uses, in words. */
  keyNote: string;
  lastRefresh: string;
  lastHistory: string;
  /** The last run's failure, if it failed. */
  failure: string | null;
}

export function linenScheduleState(): ScheduleState {
  const props = documentProperties();
  const schedule = props ? readSchedule(props) : OFF;
  const status = props ? readStatus(props) : {};
  const tz = readSettings().orgTimeZone;
  const owner = ownerEmail();
  const on = schedule.refresh !== 'off' || schedule.history;
  const keyNote = on
    ? `Runs with the API key saved by ${schedule.by ?? 'the person who turned it on'}${owner && schedule.by === owner ? ' (the owner, whose key the formulas use)' : ''}.`
    : `Runs with the API key of whoever turns it on; formulas use the key of the spreadsheet's owner${owner ? `, ${owner}` : ''}, so the owner turns it on.`;
  const told = (o: Outcome) => `${localTime(o.at, tz)}: ${o.message}`;
  const failed = [status.refresh, status.history].filter((o): o is Outcome => !!o && !o.ok);
  return {
    refresh: schedule.refresh,
    hour: schedule.hour,
    history: schedule.history,
    timeZone: tz,
    keyNote,
    lastRefresh: status.refresh ? told(status.refresh) : 'No refresh has run yet.',
    lastHistory: status.history ? told(status.history) : 'No history has been recorded yet.',
    failure: failed.length ? failed.map(told).join(' ') : null,
  };
}

/** The caption of the menu item: the schedule, whose key, and a failed last run. */
export function scheduleCaption(): string {
  const props = documentProperties();
  if (!props) return 'Auto-refresh...';
  const schedule = readSchedule(props);
  const status = readStatus(props);
  if (schedule.refresh === 'off' && !schedule.history) return 'Auto-refresh...';
  const what = { off: 'history only', hourly: 'hourly', '4h': 'every 4 hours', daily: `daily at ${schedule.hour}:00` }[
    schedule.refresh
  ];
  const failed = (status.refresh && !status.refresh.ok) || (status.history && !status.history.ok);
  return `Auto-refresh: ${what}, ${schedule.by ?? 'unknown'}'s key${failed ? ', last run failed' : ''}...`;
}

function scheduleFrom(input: unknown): Pick<Schedule, 'refresh' | 'hour' | 'history'> {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const refresh = EVERY.find((e) => e === o.refresh);
  if (!refresh) throw new Error('Choose how often to refresh: off, every hour, every 4 hours or daily.');
  const hour = Number(o.hour);
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new Error('Choose an hour between 0 and 23.');
  return { refresh, hour, history: o.history === true };
}

/** The dialog's Save: checks who may turn it on, then keeps exactly one trigger (theirs) or none. */
export function linenSaveSchedule(input: unknown): ScheduleState {
  const wanted = scheduleFrom(input);
  const props = documentProperties();
  if (!props) throw new Error('Auto-refresh works in a spreadsheet only.');
  const current = readSchedule(props);
  const on = wanted.refresh !== 'off' || wanted.history;
  const me = myEmail();
  const owner = ownerEmail();
  if (on) {
    if (owner && me && owner.toLowerCase() !== me.toLowerCase()) {
      throw new Error(
        `Only the spreadsheet's owner, ${owner}, can turn this on: formulas use the owner's API key, and a schedule runs with the key of whoever turns it on.`,
      );
    }
    if (!readSettings().apiKey) throw new Error(`Save your API key first (${MENU} > Set API key...).`);
  }
  // My trigger of the current schedule, if it is mine; another person's removes itself at its next run.
  const mine = ScriptApp.getProjectTriggers().filter(
    (t) => t.getHandlerFunction() === HANDLER && t.getUniqueId() === current.trigger,
  );
  let trigger: string | null = mine[0]?.getUniqueId() ?? null;
  if (!on) {
    for (const t of mine) ScriptApp.deleteTrigger(t);
    trigger = null;
  } else if (!trigger) {
    try {
      trigger = ScriptApp.newTrigger(HANDLER).timeBased().everyHours(1).create().getUniqueId();
    } catch {
      // Add-ons get one time-driven trigger per person and spreadsheet: one from an earlier setup is in the way.
      throw new Error(
        'You already have a Linen Connect trigger in this spreadsheet from an earlier setup: remove it under Extensions > Apps Script > Triggers, then save again.',
      );
    }
  }
  props.setProperty(PROP_SCHEDULE, JSON.stringify({ ...wanted, by: on ? me : null, trigger } satisfies Schedule));
  return linenScheduleState();
}

/** The dialog's "Record today's rows now". */
export function linenRecordHistoryNow(): ScheduleState {
  const props = documentProperties();
  if (!props) throw new Error('History is recorded in a spreadsheet only.');
  const started = Date.now();
  const outcome = withLease(props, null, () => recordHistory({ deadline: started + RUN_MS }));
  if (!outcome)
    throw new Error('A refresh or a history run is already going on in this spreadsheet; try again in a few minutes.');
  recordHistoryOutcome(props, outcome);
  if (outcome.status === 'failed') throw new Error(outcome.message);
  return linenScheduleState();
}

/** Shared by the Auto-refresh and Record history menu items: the same dialog, opened on its section. */
export function showScheduleDialog(focus: 'refresh' | 'history'): void {
  showDialog('Schedule', focus === 'refresh' ? 'Linen auto-refresh' : 'Linen history', [500, 520], {
    LINEN_FOCUS: focus,
  });
}
