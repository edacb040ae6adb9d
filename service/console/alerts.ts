/**
 * Alerts in the console: the alert worker runs in the console's process once the store is open, and each alert post
 * is printed as the platform would render it, under a line saying it was posted for everyone in the conversation (or
 * sent to the person alone, with `dm`): an answer is for the person who typed the command, an alert is a post. Keys
 * are checked every CONSOLE_ALERTS_POLL_SECONDS unless ALERTS_POLL_SECONDS says otherwise, and at once when the
 * console changes the sandbox's data.
 */
import type { KeyRefClients } from '../../base/key-ref.ts';
import { ALERT_KIND_REGISTRY } from '../../chat/alerts/check.ts';
import { alertReads } from '../../chat/alerts/reads.ts';
import { countingRequests } from '../../chat/alerts/request-count.ts';
import type { AlertStore } from '../../chat/alerts/storage/store.ts';
import { startAlertWorker } from '../../chat/alerts/worker.ts';
import type { Content } from '../../chat/content/document.ts';
import { type Clock, systemTimers, type Timers } from '../../chat/digests/clock.ts';
import { type DigestDelivery, linenFailureReason } from '../../chat/digests/delivery/delivery.ts';

/** How often the console checks each key when ALERTS_POLL_SECONDS is not set: a wait a person sits through. */
export const CONSOLE_ALERTS_POLL_SECONDS = 30;

export interface ConsoleAlertsOptions {
  store: AlertStore;
  /** The console's clients, by key reference (only its own key has one). */
  linenClientFor: KeyRefClients;
  /** A message as the platform shows it, as terminal text. */
  render: (content: Content) => string;
  print: (text: string) => void;
  /** Where a post goes, in words (`#C0CONSOLE`, `this conversation`), or that it is the person's direct messages. */
  where: (channelId: string) => { posted: string; direct: boolean };
  pollMs: number;
  clock: Clock;
  /** Check only when asked (`--ask`: one answer, then exit), never on a timer of its own. */
  onlyWhenAsked: boolean;
}

export interface ConsoleAlerts {
  /** Checks every key now and prints what they find; resolves once it is printed. */
  checkNow(): Promise<void>;
  /** Delivers the posts due now (a test post); resolves once they are printed. */
  deliverNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Nothing is ever scheduled: the worker ticks only when the console asks it to. */
const NO_TIMERS: Timers = { after: () => null, cancel: () => {} };

/** The console as a platform: a post is printed, under whom it is for. */
function consoleDelivery(options: ConsoleAlertsOptions): DigestDelivery {
  let posted = 0;
  return {
    platform: 'Console',
    findsPosted: false,
    async post(channel, message, run) {
      const to = options.where(channel);
      const header = to.direct ? 'Linen sent you a direct message' : `Linen posted in ${to.posted}, for everyone in it`;
      options.print(`\n── ${header} (alert ${run.subscriptionId}) ──`);
      options.print(options.render(message));
      return `console-${++posted}`;
    },
    findPosted: async () => null,
    explain: (code) => linenFailureReason(code) ?? `the console could not show it (${code})`,
    async tellCreator(owner, _code, reason) {
      options.print(`\n── Linen sent you a direct message ──\nYour Linen alert ${owner.id} has stopped: ${reason}.`);
    },
    classify: (err) => ({ kind: 'permanent', code: err instanceof Error ? err.name : 'console_error' }),
  };
}

export function startConsoleAlerts(options: ConsoleAlertsOptions): ConsoleAlerts {
  const delivery = consoleDelivery(options);
  const worker = startAlertWorker({
    store: options.store,
    kinds: ALERT_KIND_REGISTRY,
    deliveries: async () => delivery,
    linenClientFor: options.linenClientFor,
    readsOf: (client, now) => alertReads(client, { now }),
    counting: countingRequests,
    pollMs: options.pollMs,
    clock: options.clock,
    timers: options.onlyWhenAsked ? NO_TIMERS : systemTimers,
  });
  return {
    async checkNow() {
      await options.store.checkAllNow(options.clock.now());
      await worker.tick();
    },
    async deliverNow() {
      await worker.tick();
    },
    stop: () => worker.stop(),
  };
}
