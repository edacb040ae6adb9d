/**
 * Signed payloads the bot cannot route: a kind it never asks for, or one missing what routing needs (who clicked,
 * the action, the view, the callback_id, in multi-workspace mode the workspace). Slack never sends them; anything
 * holding the signing secret can. Each is acknowledged with a 200 and one info line, wherever Bolt notices it:
 * while taking the payload apart (it throws before any listener), while authorizing it (no workspace to authorize),
 * or never (a payload of no kind it knows is left unacknowledged).
 */
import type { IncomingMessage } from 'node:http';
import {
  type AnyMiddlewareArgs,
  type BufferedIncomingMessage,
  type CodedError,
  ErrorCode,
  HTTPModuleFunctions,
  type Logger,
  type ReceiverProcessEventErrorHandlerArgs,
  type ReceiverUnhandledRequestHandlerArgs,
} from '@slack/bolt';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** What a payload is, in the words of the log line. */
const KINDS: Record<string, string> = {
  block_actions: 'a click',
  view_submission: 'a view submission',
  view_closed: 'a closed view',
  shortcut: 'a shortcut',
  message_action: 'a message action',
};

/** The workspace (or Enterprise Grid organization) a payload comes from, as Bolt reads it to authorize. */
function workspaceOf(b: Obj): unknown {
  if (isObj(b.event)) {
    const auth = Array.isArray(b.authorizations) && isObj(b.authorizations[0]) ? b.authorizations[0] : {};
    return auth.team_id ?? auth.enterprise_id ?? b.team_id ?? b.enterprise_id;
  }
  if (b.command !== undefined) return b.team_id || b.enterprise_id;
  const team = isObj(b.team) ? b.team : {};
  const user = isObj(b.user) ? b.user : {};
  const view = isObj(b.view) ? b.view : {};
  const enterprise = isObj(b.enterprise) ? b.enterprise : {};
  return view.app_installed_team_id || team.id || user.team_id || enterprise.id || team.enterprise_id;
}

/**
 * Why the bot cannot route a payload (`a click with no user`), or undefined when it can. `needsWorkspace`: in
 * multi-workspace mode every payload is answered with its workspace's token, so one naming no workspace cannot be.
 */
export function unroutable(body: unknown, options: { needsWorkspace?: boolean } = {}): string | undefined {
  if (!isObj(body)) return 'a payload that is not an object';
  const missingWorkspace = options.needsWorkspace && !isText(workspaceOf(body));
  // Events and commands: their listeners answer whatever fields are missing.
  if (body.event !== undefined) {
    if (!isObj(body.event)) return 'an event with no event';
    return missingWorkspace ? 'an event with no team' : undefined;
  }
  if (body.command !== undefined) return missingWorkspace ? 'a command with no team' : undefined;
  // In the order Bolt tells the kinds apart.
  const type = typeof body.type === 'string' ? body.type : undefined;
  const kind =
    (type !== undefined && Object.hasOwn(KINDS, type) && KINDS[type]) ||
    `a payload of ${type === undefined ? 'no type' : `type ${JSON.stringify(type.slice(0, 40))}`}`;
  if (body.name !== undefined || type === 'block_suggestion') return `${kind}: the bot has no menus that load options`;
  const action = body.actions !== undefined || type === 'dialog_submission';
  const shortcut = type === 'shortcut' || type === 'message_action';
  const view = type === 'view_submission' || type === 'view_closed';
  if ((action && type !== 'block_actions') || !(action || shortcut || view)) {
    // A click whose `actions` is missing altogether is not recognized as a click by Bolt.
    if (type === 'block_actions') return `${kind} with no action`;
    return `${kind}: the bot asks Slack for no such payload`;
  }
  if (!isObj(body.user)) return `${kind} with no user`;
  if (action) {
    const [first] = Array.isArray(body.actions) ? body.actions : [];
    if (!isObj(first) || !isText(first.action_id)) return `${kind} with no action`;
  } else if (view) {
    if (!isObj(body.view)) return `${kind} with no view`;
    if (!isText(body.view.callback_id)) return `${kind} with no callback_id`;
  } else if (!isText(body.callback_id)) return `${kind} with no callback_id`;
  return missingWorkspace ? `${kind} with no team` : undefined;
}

/** The payload of a request the receiver has read (undefined when it cannot be parsed again). */
function bodyOf(request: IncomingMessage): unknown {
  try {
    return HTTPModuleFunctions.parseHTTPRequestBody(request as BufferedIncomingMessage);
  } catch {
    return undefined;
  }
}

function ignore(reason: string, logger: Pick<Logger, 'info'>, response: import('node:http').ServerResponse): void {
  logger.info(`ignored ${reason}`);
  if (response.headersSent) return;
  response.writeHead(200);
  response.end();
}

/**
 * The HTTP receiver's handlers: a payload Bolt failed to take apart, or left unacknowledged, is ignored when the
 * bot cannot route it; any other failure keeps Bolt's own answer (500, or 404 after 3 s) and error line.
 */
export function unroutableReceiverHandlers() {
  return {
    processEventErrorHandler: async (args: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> => {
      const reason = args.response.headersSent ? undefined : unroutable(bodyOf(args.request));
      if (!reason) return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
      ignore(reason, args.logger, args.response);
      return true;
    },
    unhandledRequestHandler: (args: ReceiverUnhandledRequestHandlerArgs): void => {
      const reason = unroutable(bodyOf(args.request));
      if (reason) ignore(reason, args.logger, args.response);
      else HTTPModuleFunctions.defaultUnhandledRequestHandler(args);
    },
  };
}

/** Whether an error from Bolt is its authorize step finding no workspace in the payload (an info line, not an error). */
export function unroutableAuthorization(error: CodedError, body: unknown, needsWorkspace: boolean): string | undefined {
  if (error.code !== ErrorCode.AuthorizationError) return undefined;
  return unroutable(body, { needsWorkspace });
}

/** Bolt's ack for the payloads that have one. */
type WithAck = AnyMiddlewareArgs & { ack?: () => Promise<void> };

/**
 * First in the global middleware: a payload that got this far but that no listener could match (a click with no
 * action, a shortcut or view with no callback_id) ends here, acknowledged, before listener matching.
 */
export function ignoreUnroutable(logger: Pick<Logger, 'info'>) {
  return async (args: AnyMiddlewareArgs & { next: () => Promise<void> }): Promise<void> => {
    const reason = unroutable(args.body);
    if (!reason) return args.next();
    await (args as WithAck).ack?.();
    logger.info(`ignored ${reason}`);
  };
}
