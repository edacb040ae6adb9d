/**
 * A bare Teams SDK `App` (no product code but the node:http adapter) pointed at the Bot Framework fakes, on its own
 * loopback server: what the SDK does by itself, for the tests that pin it down and as the baseline a benchmark
 * measures the bot against.
 *
 * The options that make the SDK work with the fakes, as the bot must set them:
 * - `clientId`, and `tenantId` (the registration's home tenant: without it the SDK asks for tokens of the
 *   `botframework.com` tenant, which a single-tenant bot cannot get);
 * - `token`: a client-credentials request of our own to `{loginEndpoint}/{tenant}/oauth2/v2.0/token`, since the SDK's
 *   client-secret flow (MSAL) refuses an authority that is not https;
 * - `cloud`: `withOverrides(PUBLIC, { openIdMetadataUrl, loginEndpoint })`; the SDK derives the keys address from
 *   `openIdMetadataUrl` and keeps `PUBLIC.tokenIssuer` (`https://api.botframework.com`) as the issuer it requires;
 * - `dangerouslyAllowUnauthenticatedRequests: false`, explicitly: left undefined, the SDK reads
 *   DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS from the environment;
 * - `httpServerAdapter`: the node:http adapter, on which `app.initialize()` registers `POST /api/messages`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC, withOverrides } from '@microsoft/teams.api';
import { App } from '@microsoft/teams.apps';
import { NodeHttpAdapter } from '../../teams-bot/http-adapter.ts';
import type { TeamsFakes } from './teams-fakes.ts';

type AppOptions = NonNullable<ConstructorParameters<typeof App>[0]>;
type AppLogger = NonNullable<AppOptions['logger']>;

export interface BareTeamsApp {
  app: App;
  server: Server;
  /** `http://127.0.0.1:<port>/api/messages` */
  endpoint: string;
  /** The (scope, tenant) of every token the SDK asked the `token` option for, in order. */
  tokenAsks: { scope: string | string[]; tenantId: string | undefined }[];
  close(): Promise<void>;
}

/** A logger that keeps every line the SDK writes (for the check that none carries a token), or writes nothing. */
export function recordingLogger(lines: string[] | null, name = 'app'): AppLogger {
  const write =
    (level: string) =>
    (...msg: unknown[]) => {
      if (!lines) return;
      const text = msg.map((m) =>
        m instanceof Error ? `${m.message} ${m.stack}` : typeof m === 'string' ? m : JSON.stringify(m),
      );
      lines.push(`${level} ${name} ${text.join(' ')}`);
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    trace: write('trace'),
    log: (level, ...msg) => write(level)(...msg),
    child: (child) => recordingLogger(lines, `${name}/${child}`),
  };
}

export async function startBareTeamsApp(
  fakes: Pick<TeamsFakes, 'tokens' | 'openid'>,
  options: {
    /** Registers the handlers (before the app is initialized). */
    register?: (app: App) => void;
    /** Where the SDK's log lines go (default: nowhere). */
    logLines?: string[];
    /** Left out by default: pass `undefined` explicitly to see what the SDK does when the option is not set. */
    dangerouslyAllowUnauthenticatedRequests?: boolean | undefined;
    activity?: AppOptions['activity'];
  } = {},
): Promise<BareTeamsApp> {
  const { tokens, openid } = fakes;
  const cloud = withOverrides(PUBLIC, { openIdMetadataUrl: openid.metadataUrl, loginEndpoint: tokens.origin });
  const tokenAsks: BareTeamsApp['tokenAsks'] = [];
  const adapter = new NodeHttpAdapter();
  const app = new App({
    clientId: tokens.clientId,
    tenantId: tokens.tenantId,
    cloud,
    token: async (scope, tenantId) => {
      tokenAsks.push({ scope, tenantId });
      const res = await fetch(`${cloud.loginEndpoint}/${tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: tokens.clientId,
          client_secret: tokens.clientSecret,
          scope: Array.isArray(scope) ? scope.join(' ') : scope,
        }),
      });
      if (!res.ok) throw new Error(`The token endpoint answered ${res.status}.`);
      return ((await res.json()) as { access_token: string }).access_token;
    },
    httpServerAdapter: adapter,
    logger: recordingLogger(options.logLines ?? null),
    dangerouslyAllowUnauthenticatedRequests:
      'dangerouslyAllowUnauthenticatedRequests' in options ? options.dangerouslyAllowUnauthenticatedRequests : false,
    ...(options.activity ? { activity: options.activity } : {}),
  });
  options.register?.(app);
  await app.initialize();

  const server = createServer(async (req, res) => {
    if (!(await adapter.handle(req, res))) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    app,
    server,
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/messages`,
    tokenAsks,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
