/// <reference types="office-js" />
/**
 * The task pane: connect a key (checked against the API, as `/linen connect` checks one: its customers and its
 * scopes), choose the organization's timezone, forget the key, and Refresh. It runs in the same runtime as the
 * cells, so what it saves is what they use at once. API text (customer names, messages) is only ever set as text.
 */

import { cellMessage } from '../../../shared/cells/messages.ts';
import { runAsync } from '../../../shared/core/run.ts';
import { isValidTimeZone } from '../../../shared/dates.ts';
import { AuthenticationError, SCOPE_LABELS } from '../../../shared/errors.ts';
import { checkKey, KEY_SCOPES, type KeyReport } from '../../../shared/key-check.ts';
import { maskKey } from '../../../shared/redact.ts';
import { type Runtime, SET_KEY } from '../runtime.ts';
import { machineTimeZone } from '../storage.ts';

/** The whole check (a list and three one-row pages) in the time a person waits at a button. */
const CHECK_MS = 15_000;

/** "12 customers: A, B, C and 9 more. Access: processing, accounting; not direct-sales." */
export function reportText(report: KeyReport): string {
  const names = report.customers.map((c) => c.name).sort((a, b) => a.localeCompare(b));
  const shown = names.slice(0, 3).join(', ');
  const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
  const customers = `${names.length} customer${names.length === 1 ? '' : 's'}${names.length ? `: ${shown}${more}` : ''}`;
  const label = (s: string) => (SCOPE_LABELS[s] ?? s).replace(/ \(.*\)$/, '');
  const missing = KEY_SCOPES.filter((s) => !report.scopes.includes(s));
  const access = report.scopes.length ? report.scopes.map(label).join(', ') : 'none of the scopes';
  return `${customers}. Access: ${access}${missing.length ? `; not ${missing.map(label).join(', ')}` : ''}.`;
}

/** Recalculate the workbook: every LINEN. formula runs again. */
async function recalculate(): Promise<void> {
  await Excel.run(async (context) => {
    context.workbook.application.calculate(Excel.CalculationType.full);
    await context.sync();
  });
}

export function startTaskPane(runtime: Runtime, root: HTMLElement): void {
  const el = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  const status = el<HTMLParagraphElement>('status');
  const report = el<HTMLParagraphElement>('report');
  const key = el<HTMLInputElement>('key');
  const zone = el<HTMLInputElement>('timezone');
  const message = el<HTMLParagraphElement>('message');
  const buttons = [el<HTMLButtonElement>('connect'), el<HTMLButtonElement>('forget'), el<HTMLButtonElement>('refresh')];

  const zones = el<HTMLDataListElement>('timezones');
  const supported = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  for (const z of supported) zones.append(new Option(z, z));

  const say = (text: string, error = false) => {
    message.textContent = text;
    message.className = error ? 'message error' : 'message';
  };
  const showConnected = (apiKey: string | null) => {
    status.textContent = apiKey ? `Connected with the key ${maskKey(apiKey)}.` : 'Not connected: paste a key below.';
    status.className = apiKey ? 'status connected' : 'status';
  };
  /** Run a button's work with every button disabled; a failure is one sentence. */
  const busy = (work: () => Promise<void>) => async () => {
    for (const b of buttons) b.disabled = true;
    say('');
    try {
      await work();
    } catch (e) {
      say(cellMessage(e, [key.value.trim()], SET_KEY), true);
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  };

  runtime.saved().then(
    (saved) => {
      showConnected(saved.apiKey);
      zone.value = runtime.timeZoneOf(saved);
    },
    (e: unknown) => {
      status.textContent = 'The saved settings could not be read.';
      say(cellMessage(e, [], SET_KEY), true);
      zone.value = machineTimeZone();
    },
  );

  el('connect').addEventListener(
    'click',
    busy(async () => {
      const saved = await runtime.saved().catch(() => ({ apiKey: null, timeZone: null }));
      const apiKey = key.value.trim() || saved.apiKey;
      if (!apiKey) return say('Paste your Linen API key first.', true);
      if (/\s/.test(apiKey)) return say('The key contains spaces or line breaks; paste it again.', true);
      const timeZone = zone.value.trim() || machineTimeZone();
      if (!isValidTimeZone(timeZone))
        return say(`"${timeZone}" is not a time zone; choose one such as America/Chicago.`, true);
      say('Checking the key…');
      const session = runtime.sessionFor(apiKey, timeZone);
      let checked: KeyReport;
      try {
        checked = await runAsync(checkKey(session.api, CHECK_MS), session.transport);
      } catch (e) {
        if (e instanceof AuthenticationError)
          return say('The Linen API rejected this key (revoked or mistyped): check it and paste it again.', true);
        throw e;
      }
      await runtime.connect(apiKey, timeZone);
      key.value = '';
      showConnected(apiKey);
      report.textContent = reportText(checked);
      await recalculate();
      say('Connected. Every LINEN. formula has been recalculated with this key.');
    }),
  );

  el('forget').addEventListener(
    'click',
    busy(async () => {
      await runtime.disconnect();
      showConnected(null);
      report.textContent = '';
      await recalculate();
      say('The key was removed from this computer. LINEN. formulas now say how to connect.');
    }),
  );

  el('refresh').addEventListener(
    'click',
    busy(async () => {
      runtime.refresh();
      await recalculate();
      say('Refreshed: every LINEN. formula was recalculated with fresh data.');
    }),
  );
}
