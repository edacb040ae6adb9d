/**
 * A fake Slack Socket Mode endpoint on loopback: the WebSocket server a `apps.connections.open` URL points at.
 * The test decides what Slack says (`hello`, envelopes, `disconnect`); every frame the client sends back
 * (acknowledgements `{ envelope_id, payload? }`) is recorded with the time it arrived.
 */
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { createWaiters } from './waiters.ts';

export interface SocketFrame {
  data: Record<string, any>;
  at: number;
}

export interface Envelope {
  envelope_id: string;
  type: 'slash_commands' | 'interactive' | 'events_api';
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
}

export interface FakeSocketMode {
  /** The URL to hand out from apps.connections.open. */
  url: string;
  /** Every frame received from the client, parsed. */
  received: SocketFrame[];
  /** How many connections were accepted so far. */
  connections: number;
  /** Wait for the next connection (or the current one if already connected and not yet awaited). */
  waitForConnection(timeoutMs?: number): Promise<void>;
  /** Send a frame to the connected client. */
  send(message: Record<string, unknown>): void;
  /** Send an envelope; resolves with the time it was sent. */
  sendEnvelope(envelope: Envelope): number;
  /** Wait for the acknowledgement of `envelopeId`. */
  waitForAck(envelopeId: string, timeoutMs?: number): Promise<SocketFrame>;
  /** Wait until the client closed the connection; resolves with the close code. */
  waitForClose(timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startFakeSocketMode(path = '/link/'): Promise<FakeSocketMode> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  const received: SocketFrame[] = [];
  const { notify, waitFor } = createWaiters();
  let current: WebSocket | null = null;
  let connections = 0;
  let awaitedConnections = 0;
  let closeCode: number | null = null;

  wss.on('connection', (socket) => {
    current = socket;
    connections++;
    closeCode = null;
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return;
      try {
        received.push({ data: JSON.parse(raw.toString()) as Record<string, any>, at: performance.now() });
      } catch {
        received.push({ data: { unparsable: raw.toString() }, at: performance.now() });
      }
      notify();
    });
    socket.on('close', (code) => {
      if (current === socket) current = null;
      closeCode = code;
      notify();
    });
    notify();
  });

  const port = (wss.address() as AddressInfo).port;
  const send = (message: Record<string, unknown>) => {
    if (!current) throw new Error('no Socket Mode client is connected');
    current.send(JSON.stringify(message));
  };

  return {
    // Slack's real URL carries a one-time ticket in the query; keep the same shape.
    url: `ws://127.0.0.1:${port}${path}?ticket=fake-ticket-0001&app_id=A0LINEN`,
    received,
    get connections() {
      return connections;
    },
    waitForConnection(timeoutMs = 5_000) {
      const connected = () => {
        if (connections <= awaitedConnections || !current) return undefined;
        awaitedConnections = connections;
        return true;
      };
      return waitFor(connected, timeoutMs, 'a Socket Mode connection').then(() => {});
    },
    send,
    sendEnvelope(envelope) {
      send(envelope as unknown as Record<string, unknown>);
      return performance.now();
    },
    waitForAck(envelopeId, timeoutMs = 3_000) {
      return waitFor(
        () => received.find((f) => f.data.envelope_id === envelopeId),
        timeoutMs,
        `the acknowledgement of ${envelopeId}`,
      );
    },
    waitForClose(timeoutMs = 5_000) {
      return waitFor(
        () => (current === null && closeCode !== null ? closeCode : undefined),
        timeoutMs,
        'the client to close the socket',
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}
