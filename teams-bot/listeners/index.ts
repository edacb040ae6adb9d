/**
 * Every handler, registered by route name as Microsoft's Teams samples do: messages (commands), installs,
 * card actions (a customer chosen, an invoice PDF, the connect form), the message extension's search, and the
 * file consent that delivers a PDF.
 */
import type { App } from '@microsoft/teams.apps';
import type { ServiceLogger } from '../../base/logging/logger.ts';
import type { WorkInFlight } from '../../base/work-in-flight.ts';
import type { SharedDigestDeps } from '../../chat/answers/answer.ts';
import type { Deadlines } from '../../chat/answers/answer-in-time.ts';
import type { ConnectDeps, PlaceDeps } from '../../chat/connections/answer-in-place.ts';
import type { ChatMetrics } from '../../chat/operations/metrics.ts';
import type { TenantAdmins } from '../admins.ts';
import type { TeamsConfig } from '../config.ts';
import type { Connector } from '../connector.ts';
import type { TeamsConversations } from '../conversations.ts';
import type { PendingPdfs } from '../pdf.ts';
import cardActions from './card-actions.ts';
import files from './files.ts';
import installs from './installs.ts';
import messages from './messages.ts';
import search from './search.ts';

export interface TeamsDeps {
  teams: TeamsConfig;
  logger: ServiceLogger;
  metrics: Pick<ChatMetrics, 'command' | 'action'>;
  place: Omit<PlaceDeps, 'digests' | 'connect'>;
  digests: SharedDigestDeps | undefined;
  connect: ConnectDeps | undefined;
  deadlines?: Deadlines | undefined;
  connectorFor(serviceUrl: string): Connector;
  conversations: TeamsConversations;
  admins: TenantAdmins;
  /** Work that goes on after its activity was acknowledged, counted for a shutdown. */
  work: WorkInFlight;
  /** Invoice PDFs offered, waiting for the person's consent. */
  pending: PendingPdfs;
}

export function registerListeners(app: App, deps: TeamsDeps): void {
  messages.register(app, deps);
  installs.register(app, deps);
  cardActions.register(app, deps);
  search.register(app, deps);
  files.register(app, deps);
}
