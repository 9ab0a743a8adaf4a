/**
 * The OTLP receiver's throughput against a bare Node `http` server that reads and `JSON.parse`s
 * the same bodies, in the same run and with the same client: 1,000 requests of 100 spans (50
 * turns, each a selection event and its inference span), 8 in flight on keep-alive connections,
 * best of 5 rounds each, each round new traces. The receiver is the one Start Live Traces runs:
 * one ReceiverThread (the OtlpReceiver in a worker thread, default maxTurns) for every round, its
 * first printed apart, timed until this thread, which the client shares, has taken in every turn
 * (a consumer that only counts them); the bare server runs on this thread, once as it is and
 * once also parsing the JSON strings inside the bodies that any receiver of them has to read:
 * that second time bounds the ratio any receiver could reach. Then the same against a mix of
 * conventions (otlp-bodies.ts) with log records on `/v1/logs`; every turn must end up joined to
 * its call.
 */
import { createServer, request, Agent, type Server } from "node:http";
import { OtlpReceiver } from "../src/node/otlp-receiver.js";
import { ReceiverThread } from "../src/node/receiver-thread.js";
import { load, verdict } from "./measure.js";
import { body, bodyIn, CONVENTIONS, logsBody, type MixedConvention } from "./otlp-bodies.js";

const REQUESTS = 1000;
const IN_FLIGHT = 8;
const ROUNDS = 5;

/** A request to send: its body, to `/v1/traces`, or with the path it goes to. */
type Posted = string | { readonly path: string; readonly text: string };

async function send(port: number, bodies: readonly Posted[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const posted = bodies[next++]!;
      const [path, text] =
        typeof posted === "string" ? ["/v1/traces", posted] : [posted.path, posted.text];
      await new Promise<void>((done, fail) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path,
            method: "POST",
            agent,
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(text),
            },
          },
          (res) => {
            res.resume();
            res.on("end", done);
          },
        );
        req.on("error", fail);
        req.end(text);
      });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  agent.destroy();
  return performance.now() - started;
}

/**
 * The attributes whose JSON text a receiver must parse to know the selection and the model call
 * (tool definitions, the same text call after call, can be remembered by their text).
 */
const JSON_ATTRIBUTES = new Set(["symfonic.selection", "gen_ai.output.messages"]);

interface Attribute {
  readonly key: string;
  readonly value: { readonly stringValue?: string };
}

/** Parses the JSON text of every attribute in JSON_ATTRIBUTES, of spans and of their events. */
function parseAttributes(request: {
  resourceSpans: {
    scopeSpans: { spans: { attributes: Attribute[]; events?: { attributes: Attribute[] }[] }[] }[];
  }[];
}): void {
  const parse = (attributes: readonly Attribute[]) => {
    for (const { key, value } of attributes)
      if (JSON_ATTRIBUTES.has(key) && value.stringValue !== undefined)
        JSON.parse(value.stringValue);
  };
  for (const { scopeSpans } of request.resourceSpans)
    for (const { spans } of scopeSpans)
      for (const span of spans) {
        parse(span.attributes);
        for (const event of span.events ?? []) parse(event.attributes);
      }
}

/**
 * What any server must do at least: read the body and parse it; with `attributes`, also parse the
 * JSON text inside it that a receiver must read (the least any receiver of these bodies does).
 */
function bareServer(attributes = false): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (attributes) parseAttributes(request);
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({ server, port: (server.address() as { port: number }).port }),
    ),
  );
}

/**
 * The receiver's live set (heap after a full GC, less the heap before it started) at 10,000,
 * 50,000 and 100,000 turns received with maxTurns 10,000: the bodies are made batch by batch so
 * that none is held while the heap is measured. Flat means that 50,000 more turns, every one of
 * them dropping an older one, leave it as it was: at 10,000 no turn has been dropped yet, and the
 * join's map of traces is still a size smaller than the one it settles at once traces come and go.
 */
async function liveSet(): Promise<number[]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the bench runs with --expose-gc");
  const heap = () => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  const before = heap();
  const receiver = new OtlpReceiver({ port: 0, maxTurns: 10_000 });
  const { port } = await receiver.start();
  const sizes: number[] = [];
  let sent = 0;
  for (const turns of [10_000, 50_000, 100_000]) {
    for (; sent < turns / 50; sent += 200)
      await send(
        port,
        Array.from({ length: Math.min(200, turns / 50 - sent) }, (_, i) => body(sent + i)),
      );
    sizes.push(heap() - before);
  }
  await receiver.stop();
  return sizes;
}

/** The mix's conventions, request by request: each of the readers', and spans whose calls are in log records. */
const MIX = Object.keys(CONVENTIONS) as MixedConvention[];

/** A round of the mix: request `b` in convention b mod 5, each of the log-record ones followed by its logs. */
function mixedBodies(round: number): Posted[] {
  const bodies: Posted[] = [];
  for (let k = 0; k < REQUESTS; k++) {
    const b = round * REQUESTS + k;
    const convention = MIX[k % MIX.length]!;
    bodies.push(bodyIn(convention, b));
    if (convention === "logs") bodies.push({ path: "/v1/logs", text: logsBody(b) });
  }
  return bodies;
}

interface Rounds {
  readonly bare: number;
  /** The bare server also parsing the JSON strings a receiver must read; with `floor` only. */
  readonly floor: number | null;
  readonly ours: number;
  readonly first: number;
}

/**
 * ROUNDS rounds of `bodiesOf(round)` (each REQUESTS requests of 50 turns, new traces every round)
 * sent to the bare server(s) and to one receiver; the best of each. The receiver's round ends when
 * every response has come and this thread has taken in every turn; `check` then sees each turn's
 * last model call (the log records' calls come as an update of a turn already taken in).
 */
async function rounds(
  bodiesOf: (round: number) => Posted[],
  floor: boolean,
  check: (calls: readonly (readonly string[] | null | undefined)[]) => void,
): Promise<Rounds> {
  const bare: number[] = [];
  const floors: number[] = [];
  const ours: number[] = [];
  // One receiver takes every round, as Start Live Traces' takes a running agent's turns: its
  // first round includes compiling its code, so the best round is its throughput once running.
  let turns = 0;
  let allIn = () => {};
  const calls: (readonly string[] | null | undefined)[] = [];
  const receiver = new ReceiverThread({
    port: 0,
    onTrace: ({ index, trace }) => {
      calls[index] = trace.model?.called;
      if (++turns % (REQUESTS * 50) === 0) allIn();
    },
    onModel: ({ index, trace }) => void (calls[index] = trace.model?.called),
  });
  const address = await receiver.start();
  for (let round = 0; round < ROUNDS; round++) {
    const bodies = bodiesOf(round);
    for (const [times, attributes] of floor
      ? ([
          [bare, false],
          [floors, true],
        ] as const)
      : ([[bare, false]] as const)) {
      const { server, port } = await bareServer(attributes);
      times.push(await send(port, bodies));
      await new Promise((done) => server.close(done));
    }
    const handed = new Promise<void>((done) => (allIn = done));
    const started = performance.now();
    await Promise.all([send(address.port, bodies), handed]);
    ours.push(performance.now() - started);
  }
  await receiver.stop();
  if (turns !== ROUNDS * REQUESTS * 50)
    throw new Error(`the receiver handed on ${turns} turns, not ${ROUNDS * REQUESTS * 50}`);
  check(calls);
  return {
    bare: Math.min(...bare),
    floor: floor ? Math.min(...floors) : null,
    ours: Math.min(...ours),
    first: ours[0]!,
  };
}

export async function benchReceiver(): Promise<string[]> {
  const before = load();
  const calledA = (calls: readonly (readonly string[] | null | undefined)[]) => {
    const wrong = calls.filter((called) => called?.length !== 1 || called[0] !== "a").length;
    if (wrong > 0) throw new Error(`${wrong} turns were not joined to their call of a`);
  };
  const current = await rounds(
    (round) => Array.from({ length: REQUESTS }, (_, b) => body(round * REQUESTS + b)),
    true,
    calledA,
  );
  const mixed = await rounds(mixedBodies, false, calledA);
  const live = await liveSet();
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const spans = (ms: number) => Math.round((REQUESTS * 100) / (ms / 1000)).toLocaleString("en-US");
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const { bare: b, floor: f, ours: o } = current;
  return [
    `OTLP receiver (load before: ${before}; after: ${load()})`,
    `  1,000 requests of 100 spans, ${IN_FLIGHT} in flight: receiver ${s(o)} (${spans(o)} spans/s; its first round, just started, ${s(current.first)}), bare http + JSON.parse ${s(b)} (${spans(b)} spans/s) → ${verdict(b / o, 0.5, false)}`,
    // The goal against what the issue asks a receiver to read, before any of its own work.
    `  the bare server also parsing the selection and output-message JSON strings in the bodies: ${s(f!)}, ${(b / f!).toFixed(2)}× the bare server (the most a receiver of these bodies could reach, on one thread)`,
    `  a mix: each fifth of the requests in the current convention, the older one, OpenInference, the AI SDK's ai.*, and spans whose calls come as 200 more requests of log records on /v1/logs: receiver ${s(mixed.ours)} (first round ${s(mixed.first)}), bare http + JSON.parse ${s(mixed.bare)} → ${verdict(mixed.bare / mixed.ours, 0.5, false)}`,
    `  live set with maxTurns 10,000: ${live.map(mb).join(", ")} at 10k, 50k, 100k turns → 100k against 50k ${verdict(live[2]! / live[1]!, 1.2, true)}`,
  ];
}
