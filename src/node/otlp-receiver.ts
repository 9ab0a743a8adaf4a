/**
 * An OTLP/HTTP trace receiver (docs/formats.md, "palette-inspector receive"): `POST /v1/traces`
 * and `POST /v1/logs` (the log records that say what a model call called) in JSON or protobuf,
 * gzip or not, answered as the OTLP/HTTP specification says. Each selection
 * trace is handed on as it arrives, and again whenever a later request changes its model call.
 * It is a local tool on a port any web page can reach: Host and Origin are checked, bodies are
 * bounded (inflated too), and no request can stop it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { isIP } from "node:net";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { isJsonObject, own, type LoggedTrace } from "../core/traces/trace.js";
import {
  after,
  MAX_SPANS_PER_TRACE,
  OtelJoin,
  joinedModel,
  joinedTrace,
  sameJoin,
  type Joined,
  type KnownTrace,
  type TimeWindow,
  type Touched,
} from "../core/otel/join.js";
import {
  readRequestInSteps,
  textSelection,
  type OtlpRead,
  type OtlpRequest,
  type OtlpSelection,
} from "../core/otel/request.js";
import { allSteps } from "../core/otel/steps.js";
import {
  decodeLogsRequestInSteps,
  decodeTraceRequestInSteps,
  encodeLogsResponse,
  encodeTraceResponse,
} from "./otlp-proto.js";
import {
  answerError,
  contentKind,
  MAX_SPANS_PER_REQUEST,
  mib,
  parseJsonSteps,
  Refusal,
  refusalOf,
  spanCount,
  stopping,
  tooManySpans,
} from "./otlp-refusals.js";
import {
  boundedServer,
  BytesInFlight,
  DEFAULT_BOUNDS,
  type ReceiverBounds,
} from "./receiver-bounds.js";

const inflate = promisify(gunzip);

export const DEFAULT_MAX_BODY = 16 * 1024 * 1024;
/** Problems an answer names (every rejected span is counted). */
const MAX_PROBLEMS = 10;
/** A body longer than this is read in steps, the event loop given a turn every STEP_MS. */
const STEPPED_BODY = 256 * 1024;
const STEP_MS = 4;
/** Selections handed on between two steps. */
const SELECTIONS_PER_STEP = 64;
export const DEFAULT_PORT = 4318;
export const DEFAULT_HOST = "127.0.0.1";
/** Turns kept for re-joining when a later request brings their model call (the extension's `paletteInspector.live.maxTurns`). */
export const DEFAULT_MAX_TURNS = 10_000;

export interface ReceivedTrace {
  /** 0-based, in the order received. */
  readonly index: number;
  readonly trace: LoggedTrace;
}

export interface ReceiverOptions {
  readonly host?: string;
  readonly port?: number;
  readonly maxBody?: number;
  /** The bytes of spans kept for joins (MAX_JOIN_BYTES unless given). */
  readonly maxJoinBytes?: number;
  /** Timeouts, connections and bytes in flight (receiver-bounds.ts), each DEFAULT_BOUNDS' unless given. */
  readonly bounds?: Partial<ReceiverBounds>;
  /** The newest turns kept (default DEFAULT_MAX_TURNS); older ones, and the join state of traces left with none, are dropped. */
  readonly maxTurns?: number;
  /** A selection trace, as it arrives (its model call as far as the spans so far say). */
  readonly onTrace?: (received: ReceivedTrace) => void;
  /** A trace received before whose model call a later request changed. */
  readonly onModel?: (received: ReceivedTrace) => void;
  /**
   * Each selection as it arrives, with its join, before it is made a LoggedTrace: what a receiver
   * worker posts (receiver-items.ts).
   */
  readonly onTurn?: (index: number, selection: OtlpSelection, joined: Joined | null) => void;
  /**
   * A turn received before whose join a later request changed. Only its index: given this alone,
   * without onModel, the receiver keeps no selection, as whoever took onTurn's has it.
   */
  readonly onRejoin?: (index: number, joined: Joined | null) => void;
  /** Something received was let go for want of room (said once per kind, for the user). */
  readonly onDropped?: (notice: string) => void;
  /**
   * Every accepted request, as OTLP/JSON (a protobuf request converted): an object of its
   * `resourceSpans` or `resourceLogs` alone (an empty list when it had none), whatever else or in
   * what order it held.
   */
  readonly onRequest?: (request: OtlpRequest) => void;
}

/** The port is taken by another program. */
export class PortInUse extends Error {
  constructor(readonly port: number) {
    super(`port ${port} is in use`);
  }
}

/** An OTLP/HTTP route: both take the same checks, limits and reading; each its own message. */
interface Route {
  readonly name: string;
  /** The request's list of resources. */
  readonly key: "resourceSpans" | "resourceLogs";
  /** Its partial success's count of what was rejected. */
  readonly rejected: string;
  /** Its protobuf body, decoded to OTLP/JSON; past `maxEntries` spans or records, TooManySpans. */
  decode(body: Uint8Array, maxEntries: number): Generator<void, unknown>;
  /** Where its resources hold scopes, and its scopes items, in OTLP/JSON. */
  readonly scopes: string;
  readonly items: string;
  encode(rejected: number, message: string): Uint8Array;
}

const TRACES: Route = {
  name: "ExportTraceServiceRequest",
  key: "resourceSpans",
  rejected: "rejectedSpans",
  scopes: "scopeSpans",
  items: "spans",
  decode: decodeTraceRequestInSteps,
  encode: encodeTraceResponse,
};
const LOGS: Route = {
  name: "ExportLogsServiceRequest",
  key: "resourceLogs",
  rejected: "rejectedLogRecords",
  scopes: "scopeLogs",
  items: "logRecords",
  decode: decodeLogsRequestInSteps,
  encode: encodeLogsResponse,
};

/**
 * A kept turn, as few objects as can be (the receiver keeps maxTurns of them, and each one kept
 * costs the garbage collector): what re-joining it needs, its join as the inference span and
 * calls the join made anyway (sameJoin), and its selection only for onModel.
 */
interface Recent {
  readonly index: number;
  readonly traceId: string;
  /** Its OTel trace as the join knows it, which holds this turn (among the trace's kept turns). */
  readonly trace: Kept;
  readonly time: bigint;
  /** The join handed on last: null when none was. */
  joined: Joined | null;
  readonly selection: KeptSelection | null;
}

/** What the join holds of a trace for the receiver: its kept turns. */
type Kept = KnownTrace<Recent | Recent[]>;

/** A kept selection, one that came as JSON text as that text: its trace is read again only when its model call changes. */
interface KeptSelection {
  readonly spanId: string;
  readonly service: string | null;
  readonly text: string | undefined;
  /** Null when `text` holds it. */
  readonly trace: LoggedTrace | null;
}

export class OtlpReceiver {
  private server: Server | null = null;
  /**
   * The spans of each OTel trace, and held with them its kept turns in time order (a trace's only
   * one not in a list), re-joined when a request adds to their trace; a trace with kept turns is
   * forgotten only with its last one (drop).
   */
  private readonly join: OtelJoin<Recent | Recent[]>;
  /** Kept selections in the order received: a ring of up to maxTurns, `size` of them from `oldest`. */
  private readonly kept: (Recent | undefined)[] = [];
  private oldest = 0;
  private size = 0;
  /** The notices given (onDropped), each once. */
  private readonly noticed = new Set<string>();
  private count = 0;
  /** Requests are accepted one at a time, in the order read: a stepped one is never interleaved. */
  private accepting: Promise<void> = Promise.resolve();
  private address: { host: string; port: number } | null = null;
  readonly maxBody: number;
  readonly maxTurns: number;
  readonly bounds: ReceiverBounds;
  private readonly inFlight: BytesInFlight;

  constructor(private readonly options: ReceiverOptions = {}) {
    this.maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
    this.maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
    this.bounds = { ...DEFAULT_BOUNDS, ...options.bounds };
    this.inFlight = new BytesInFlight(this.bounds);
    this.join = new OtelJoin(undefined, options.maxJoinBytes);
  }

  /** Selection traces received so far. */
  get received(): number {
    return this.count;
  }

  /** The bytes of spans kept for joins, as the join estimates them. */
  get joinBytes(): number {
    return this.join.bytes;
  }

  /** Body bytes held by the requests being received or answered. */
  get bytesInFlight(): number {
    return this.inFlight.bytes;
  }

  /** Listens; resolves with the address bound (port 0 picks a free one), rejects PortInUse. */
  async start(): Promise<{ host: string; port: number }> {
    const host = this.options.host ?? DEFAULT_HOST;
    const server = boundedServer(this.bounds, (request, response) => {
      this.handle(request, response).catch((error: unknown) =>
        answerError(response, 500, `internal error: ${String(error)}`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) =>
        reject(
          error.code === "EADDRINUSE" ? new PortInUse(this.options.port ?? DEFAULT_PORT) : error,
        ),
      );
      server.listen(this.options.port ?? DEFAULT_PORT, host, () => resolve());
    });
    // A client that breaks its connection is its own problem, never the receiver's.
    server.on("clientError", (_error, socket) => socket.destroy());
    this.server = server;
    const bound = server.address();
    const port = typeof bound === "object" && bound !== null ? bound.port : 0;
    this.address = { host, port };
    return this.address;
  }

  /** Stops listening and closes every connection. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const route = this.check(request);
      const protobuf = contentKind(request.headers["content-type"]);
      const gzip = this.gzipped(request);
      const body = await this.collect(request, response);
      // One request at a time is inflated, decoded, read and accepted, in the order read: a stepped one is never interleaved.
      const work = this.accepting.then(() => this.take(body, gzip, protobuf, route));
      this.accepting = work.then(
        () => undefined,
        () => undefined,
      );
      const read = await work;
      const message = read.problems
        .slice(0, 10)
        .map((p) => `${p.path}: ${p.message}`)
        .join("; ");
      if (protobuf) {
        response.writeHead(200, { "content-type": "application/x-protobuf" });
        response.end(route.encode(read.rejected, message));
      } else {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify(
            read.rejected > 0
              ? {
                  partialSuccess: {
                    [route.rejected]: String(read.rejected),
                    errorMessage: message,
                  },
                }
              : {},
          ),
        );
      }
    } catch (error) {
      // An error is answered in the request's encoding, as the OTLP/HTTP specification says.
      const inProtobuf = /^\s*application\/x-protobuf\s*(;|$)/i.test(
        request.headers["content-type"] ?? "",
      );
      const refusal = refusalOf(error);
      if (refusal) answerError(response, refusal.status, refusal.message, inProtobuf);
      else throw error;
    }
  }

  /** Inflates, decodes, reads and accepts one request's body: what was read of it. */
  private async take(
    raw: Buffer,
    gzip: boolean,
    protobuf: boolean,
    route: Route,
  ): Promise<OtlpRead> {
    if (this.server === null) throw stopping();
    const body = gzip ? await this.inflated(raw) : raw;
    const stepped = body.length > STEPPED_BODY;
    const run = <T>(steps: Generator<void, T>) => (stepped ? this.inSteps(steps) : allSteps(steps));
    const decoding = protobuf
      ? route.decode(body, MAX_SPANS_PER_REQUEST)
      : parseJsonSteps(body, stepped);
    const value = await run(decoding);
    const { key } = route;
    const resources = isJsonObject(value) ? own(value, key) : undefined;
    if (!isJsonObject(value) || !(resources === undefined || Array.isArray(resources)))
      throw new Refusal(400, `not an OTLP ${route.name} (an object with a '${key}' array)`);
    const list = (resources as unknown[] | undefined) ?? [];
    if (!protobuf && spanCount(list, route.scopes, route.items) > MAX_SPANS_PER_REQUEST)
      throw tooManySpans();
    const request: OtlpRequest =
      key === "resourceSpans" ? { resourceSpans: list } : { resourceLogs: list };
    const read = await run(readRequestInSteps(request, MAX_PROBLEMS));
    this.options.onRequest?.(request);
    await run(this.accept(read));
    this.shed();
    return read;
  }

  /** Runs work in steps, giving the event loop a turn every STEP_MS; stopped with the receiver. */
  private async inSteps<T>(steps: Generator<void, T>): Promise<T> {
    for (let slice = performance.now(); ;) {
      if (this.server === null) throw stopping();
      const next = steps.next();
      if (next.done) return next.value;
      if (performance.now() - slice > STEP_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
  }

  /** Method, path, Host (DNS rebinding) and Origin (a browser page) before any body is read. */
  private check(request: IncomingMessage): Route {
    if (request.headers.origin !== undefined)
      throw new Refusal(403, "requests from a browser page (with an Origin) are refused");
    if (!this.hostAllowed(request.headers.host))
      throw new Refusal(403, `the Host header must name the address the receiver listens on`);
    const path = (request.url ?? "").split("?")[0];
    const route = path === "/v1/traces" ? TRACES : path === "/v1/logs" ? LOGS : undefined;
    if (!route) throw new Refusal(404, "only /v1/traces and /v1/logs are served");
    if (request.method !== "POST") throw new Refusal(405, "only POST is served");
    return route;
  }

  private hostAllowed(header: string | undefined): boolean {
    if (header === undefined || this.address === null) return false;
    const { host, port } = this.address;
    const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(header.toLowerCase());
    if (!match || (match[2] !== undefined && Number(match[2]) !== port)) return false;
    const name = match[1]!.replace(/^\[|\]$/g, "");
    if (name === host.toLowerCase()) return true;
    const loopback = host === "127.0.0.1" || host === "::1" || host === "localhost";
    if (loopback) return name === "localhost" || name === "127.0.0.1" || name === "::1";
    // Bound to every address: any address literal, never a name (a rebinding needs a name).
    return (host === "0.0.0.0" || host === "::") && isIP(name) !== 0;
  }

  /** Whether the body is gzip (else identity); other encodings are refused. */
  private gzipped(request: IncomingMessage): boolean {
    const encoding = (request.headers["content-encoding"] ?? "identity").toLowerCase();
    if (encoding !== "gzip" && encoding !== "identity")
      throw new Refusal(
        415,
        `Content-Encoding '${encoding.slice(0, 40)}' is not served: gzip or none`,
      );
    if (Number(request.headers["content-length"] ?? 0) > this.maxBody) throw this.tooLarge(request);
    return encoding === "gzip";
  }

  /** A gzip body inflated, refused past maxBody. */
  private async inflated(raw: Buffer): Promise<Buffer> {
    try {
      return await inflate(raw, { maxOutputLength: this.maxBody });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
        throw new Refusal(413, this.overMaxBody());
      throw new Refusal(400, `the gzip body cannot be inflated: ${(error as Error).message}`);
    }
  }

  /**
   * The raw body, by events (an async iterator costs a promise per chunk), refused past maxBody
   * or when the bytes in flight are spent; what it holds is given back once it is answered.
   */
  private collect(request: IncomingMessage, response: ServerResponse): Promise<Buffer> {
    let length = 0;
    response.once("close", () => this.inFlight.give(length));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const onData = (chunk: Buffer) => {
        if (length + chunk.length <= this.maxBody && this.inFlight.take(chunk.length, length)) {
          length += chunk.length;
          return void chunks.push(chunk);
        }
        request.off("data", onData);
        reject(length + chunk.length > this.maxBody ? this.tooLarge(request) : this.busy(request));
      };
      request.on("data", onData);
      // A body that came in one chunk is that chunk: no copy.
      request.once("end", () =>
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)),
      );
      request.once("error", reject);
    });
  }

  /** The bytes in flight are spent: OTLP exporters retry a 503 later. */
  private busy(request: IncomingMessage): Refusal {
    request.pause();
    const held = mib(this.bounds.bytesInFlight);
    return new Refusal(
      503,
      `the receiver holds ${held} MiB of request bodies already; retry later`,
    );
  }

  private overMaxBody(): string {
    return `the body is over ${this.maxBody} bytes (--max-body), inflated or not`;
  }

  private tooLarge(request: IncomingMessage): Refusal {
    // The rest of the body is not read: the connection closes after the answer.
    request.pause();
    return new Refusal(413, this.overMaxBody());
  }

  private *accept(read: OtlpRead): Generator<void, void> {
    const touched = yield* this.join.addInSteps(read);
    let handed = 0;
    const { onTurn, onTrace } = this.options;
    // A request's selections mostly come trace by trace: a trace is looked up once for its run.
    let traceId: string | undefined;
    let trace: Kept | undefined;
    for (const selection of read.selections) {
      if (selection.traceId !== traceId) {
        traceId = selection.traceId;
        trace = this.join.trace(traceId)!;
      }
      const joined = this.join.joinedIn(trace!, selection.time);
      const index = this.count++;
      this.remember(selection, trace!, index, joined, touched);
      onTurn?.(index, selection, joined);
      onTrace?.({
        index,
        trace: joinedTrace(selection, joined && joinedModel(joined, selection.trace)),
      });
      if (++handed % SELECTIONS_PER_STEP === 0) yield;
    }
    const first = this.count - read.selections.length;
    for (const [traceId, windows] of touched) {
      const trace = this.join.trace(traceId);
      const kept = trace?.held;
      // Most traces have only this request's turns, handed on above.
      if (kept === undefined || !keptBefore(kept, first)) continue;
      for (const recent of rejoined(Array.isArray(kept) ? kept : [kept], windows)) {
        // This request's own turns were handed on above.
        if (recent.index >= first) continue;
        const joined = this.join.joinedIn(trace!, recent.time);
        if (++handed % SELECTIONS_PER_STEP === 0) yield;
        if (sameJoin(joined, recent.joined)) continue;
        recent.joined = joined;
        this.options.onRejoin?.(recent.index, joined);
        if (recent.selection === null) continue;
        const selection = keptSelection(recent, recent.selection);
        const model = joined && joinedModel(joined, selection.trace);
        this.options.onModel?.({ index: recent.index, trace: joinedTrace(selection, model) });
      }
    }
  }

  private remember(
    selection: OtlpSelection,
    trace: Kept,
    index: number,
    joined: Joined | null,
    touched: Touched,
  ): void {
    if (this.maxTurns === 0) return;
    const { traceId, spanId, service, time, text } = selection;
    // Only onModel needs the selection again; whoever takes onTurn's keeps it otherwise.
    const kept: KeptSelection | null = this.options.onModel
      ? { spanId, service, text, trace: text === undefined ? selection.trace : null }
      : null;
    const turn: Recent = { index, traceId, trace, time, joined, selection: kept };
    const known = trace.held;
    if (known === undefined) trace.held = turn;
    else {
      const list = Array.isArray(known) ? known : [known];
      // In time order, after the turns of the same time: the newest is last among its equals.
      const at = timeAfter(list, time);
      if (at === list.length) list.push(turn);
      else list.splice(at, 0, turn);
      if (list !== known) trace.held = list;
    }
    if (this.size < this.maxTurns) {
      this.kept[(this.oldest + this.size++) % this.maxTurns] = turn;
      return;
    }
    this.drop(this.kept[this.oldest]!, touched);
    this.kept[this.oldest] = turn;
    this.oldest = (this.oldest + 1) % this.maxTurns;
  }

  /**
   * While the join is over its bytes, drops the oldest kept turns (with a trace's last, its spans):
   * their model calls are no longer updated, and the user is told so once.
   */
  private shed(): void {
    const { dropped } = this.join;
    if (dropped.spans > 0)
      this.notice(
        "spans",
        `spans past ${MAX_SPANS_PER_TRACE.toLocaleString("en-US")} of a kind in one OTel trace are not joined`,
      );
    if (this.join.bytes <= this.join.maxBytes && dropped.traces === 0) return;
    let turns = 0;
    while (this.join.bytes > this.join.maxBytes && this.size > 0) {
      const turn = this.kept[this.oldest]!;
      this.kept[this.oldest] = undefined;
      this.oldest = (this.oldest + 1) % this.maxTurns;
      this.size--;
      this.drop(turn, NOTHING_TOUCHED);
      turns++;
    }
    if (turns > 0 || dropped.traces > 0)
      this.notice(
        "bytes",
        `the ${mib(this.join.maxBytes)} MiB of spans kept for joins are full: the oldest are let go, and the model calls of turns received before them are no longer updated`,
      );
  }

  private notice(kind: string, text: string): void {
    if (this.noticed.has(kind)) return;
    this.noticed.add(kind);
    this.options.onDropped?.(text);
  }

  /** Drops the oldest kept turn; with its trace's last one, what the join knew of that trace, unless this request adds to it. */
  private drop(turn: Recent, touched: Touched): void {
    const { traceId, trace } = turn;
    const list = trace.held!;
    if (Array.isArray(list)) {
      let at = timeAfter(list, turn.time - 1n);
      while (list[at] !== turn) at++;
      list.splice(at, 1);
      if (list.length === 1) trace.held = list[0]!;
      return;
    }
    trace.held = undefined;
    if (!touched.has(traceId)) this.join.forget(traceId);
  }
}

const NOTHING_TOUCHED: Touched = new Map();

/**
 * The kept turns of a trace (in time order) whose model call a request may have changed, in the
 * order received: those in its windows, or all of them when the join forgot what it knew.
 */
function rejoined(list: readonly Recent[], windows: readonly TimeWindow[] | null): Recent[] {
  if (windows === null) return [...list].sort((a, b) => a.index - b.index);
  const found = new Set<Recent>();
  for (const [from, to] of windows)
    for (let at = timeAfter(list, from - 1n); at < list.length; at++) {
      if (list[at]!.time > to) break;
      found.add(list[at]!);
    }
  return [...found].sort((a, b) => a.index - b.index);
}

/** Whether any of a trace's kept turns was received before the turn of index `first`. */
function keptBefore(kept: Recent | Recent[], first: number): boolean {
  return Array.isArray(kept) ? kept.some((recent) => recent.index < first) : kept.index < first;
}

/** The index of the first of a trace's kept turns (in time order) whose selection came after `time`. */
function timeAfter(list: readonly Recent[], time: bigint): number {
  return after(list, time, (recent) => recent.time);
}

/** A kept turn's selection, its trace read again from its text when that is how it was kept. */
function keptSelection({ traceId, time }: Recent, kept: KeptSelection): OtlpSelection {
  const { spanId, service, text } = kept;
  return text === undefined
    ? { traceId, spanId, service, time, trace: kept.trace! }
    : { traceId, spanId, service, time, trace: textSelection(text), text };
}
