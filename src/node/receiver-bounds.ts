/**
 * The OTLP receiver's bounds on its peers (docs/formats.md, "palette-inspector receive"): how long
 * a connection may take to send its headers and its request, how many connections are open, and
 * how many body bytes all requests together may hold at once. A slow or held connection is dropped
 * in seconds, and one that never sends its headers gives way to a new one, so that real requests
 * are answered while such an attack lasts.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import type { Socket } from "node:net";

export interface ReceiverBounds {
  /** Milliseconds a connection has to send a request's headers. */
  readonly headersMs: number;
  /** Milliseconds a connection has to send a whole request, its body with it. */
  readonly requestMs: number;
  /** Milliseconds an idle kept-alive connection stays open. */
  readonly idleMs: number;
  /** Connections open at once; more are closed as they come. */
  readonly connections: number;
  /** Connections that have not sent their headers yet: past this many, the oldest of them is dropped. */
  readonly waitingForHeaders: number;
  /** Body bytes (raw, as received) held by all requests at once, until each is answered. */
  readonly bytesInFlight: number;
  /** The first bytes of every body, never refused for want of room: a small request always gets in. */
  readonly smallBody: number;
}

export const DEFAULT_BOUNDS: ReceiverBounds = {
  headersMs: 5_000,
  requestMs: 15_000,
  idleMs: 5_000,
  connections: 128,
  waitingForHeaders: 32,
  bytesInFlight: 64 * 1024 * 1024,
  smallBody: 256 * 1024,
};

/** An http server held to `bounds`: its timeouts checked every second, its connections counted. */
export function boundedServer(bounds: ReceiverBounds, listener: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: bounds.headersMs,
      requestTimeout: bounds.requestMs,
      keepAliveTimeout: bounds.idleMs,
      // Node looks for connections past their timeouts every 30 s by default.
      connectionsCheckingInterval: Math.min(1_000, bounds.headersMs),
    },
    listener,
  );
  server.maxConnections = bounds.connections;
  // In the order they came: the oldest that has sent no headers yet is the first dropped.
  const waiting = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    waiting.add(socket);
    socket.once("close", () => waiting.delete(socket));
    if (waiting.size <= bounds.waitingForHeaders) return;
    const oldest = waiting.values().next().value!;
    waiting.delete(oldest);
    oldest.destroy();
  });
  server.on("request", (request: { socket: Socket }) => waiting.delete(request.socket));
  return server;
}

/** Body bytes held by the requests being received or answered, against bounds.bytesInFlight. */
export class BytesInFlight {
  private held = 0;

  constructor(private readonly bounds: ReceiverBounds) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  /**
   * Takes `bytes` more for a request that holds `body` bytes with them: false, and nothing taken,
   * when they would go past the budget and the body is past its small first bytes.
   */
  take(bytes: number, body: number): boolean {
    if (this.held + bytes > this.bounds.bytesInFlight && body > this.bounds.smallBody) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back what a request held, once it is answered. */
  give(bytes: number): void {
    this.held -= bytes;
  }
}
