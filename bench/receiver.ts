/**
 * The OTLP receiver's throughput against a bare Node `http` server that reads and `JSON.parse`s
 * the same bodies, in the same run and with the same client: 1,000 requests of 100 spans (50
 * turns, each a selection event and its inference span), 8 in flight on keep-alive connections,
 * best of 5 rounds each, each round new traces. The receiver is the one Start Live Traces runs:
 * one ReceiverThread (the OtlpReceiver in a worker thread, default maxTurns) for every round, its
 * first printed apart, timed until this thread, which the client shares, has taken in every turn
 * (a consumer that only counts them); the bare server runs on this thread, once as it is and
 * once also parsing the JSON strings inside the bodies that any receiver of them has to read:
 * that second time bounds the ratio any receiver could reach.
 */
import { createServer, request, Agent, type Server } from "node:http";
import { OtlpReceiver } from "../src/node/otlp-receiver.js";
import { ReceiverThread } from "../src/node/receiver-thread.js";
import { verdict } from "./measure.js";

const REQUESTS = 1000;
const IN_FLIGHT = 8;
const ROUNDS = 5;

export function body(b: number): string {
  const spans = [];
  for (let i = 0; i < 100; i += 2) {
    const traceId = `${b.toString(16).padStart(8, "0")}${"0".repeat(22)}${(i >> 1).toString(16).padStart(2, "0")}`;
    const nanos = String(BigInt(1_700_000_000_000 + i) * 1_000_000n);
    const selection = JSON.stringify({
      turn_id: `t${b}-${i}`,
      trace: [
        {
          stage: "intent",
          action: "select",
          kept: ["a", "b"],
          dropped: ["c"],
          added: [],
          reinstated: [],
          forced_choice: null,
          detail: "",
        },
      ],
      tools: ["a", "b"],
    });
    spans.push(
      {
        traceId,
        spanId: `${b.toString(16).padStart(8, "0")}${i.toString(16).padStart(8, "0")}`,
        name: "turn",
        startTimeUnixNano: nanos,
        attributes: [],
        events: [
          {
            name: "symfonic.tool_selection",
            timeUnixNano: nanos,
            attributes: [{ key: "symfonic.selection", value: { stringValue: selection } }],
          },
        ],
      },
      {
        traceId,
        spanId: `${b.toString(16).padStart(8, "0")}${(i + 1).toString(16).padStart(8, "0")}`,
        name: "chat",
        startTimeUnixNano: nanos,
        attributes: [
          { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
          { key: "gen_ai.tool.definitions", value: { stringValue: '[{"name":"a"},{"name":"b"}]' } },
          {
            key: "gen_ai.output.messages",
            value: {
              stringValue: '[{"role":"assistant","parts":[{"type":"tool_call","name":"a"}]}]',
            },
          },
        ],
      },
    );
  }
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }],
  });
}

async function send(port: number, bodies: readonly string[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const text = bodies[next++]!;
      await new Promise<void>((done, fail) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: "/v1/traces",
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

export async function benchReceiver(): Promise<string[]> {
  const bare: number[] = [];
  const floor: number[] = [];
  const ours: number[] = [];
  // One receiver takes every round, as Start Live Traces' takes a running agent's turns: its
  // first round includes compiling its code, so the best round is its throughput once running.
  let turns = 0;
  let allIn = () => {};
  const receiver = new ReceiverThread({
    port: 0,
    onTrace: () => ++turns % (REQUESTS * 50) === 0 && allIn(),
  });
  const address = await receiver.start();
  for (let round = 0; round < ROUNDS; round++) {
    // Each round's turns are new traces, never a re-join of an earlier round's.
    const bodies = Array.from({ length: REQUESTS }, (_, b) => body(round * REQUESTS + b));
    for (const [times, attributes] of [
      [bare, false],
      [floor, true],
    ] as const) {
      const { server, port } = await bareServer(attributes);
      times.push(await send(port, bodies));
      await new Promise((done) => server.close(done));
    }
    const handed = new Promise<void>((done) => (allIn = done));
    const started = performance.now();
    await send(address.port, bodies);
    await handed;
    ours.push(performance.now() - started);
  }
  await receiver.stop();
  if (turns !== ROUNDS * REQUESTS * 50)
    throw new Error(`the receiver handed on ${turns} turns, not ${ROUNDS * REQUESTS * 50}`);
  const [b, f, o] = [Math.min(...bare), Math.min(...floor), Math.min(...ours)];
  const live = await liveSet();
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const spans = (ms: number) => Math.round((REQUESTS * 100) / (ms / 1000)).toLocaleString("en-US");
  return [
    "OTLP receiver",
    `  1,000 requests of 100 spans, ${IN_FLIGHT} in flight: receiver ${(o / 1000).toFixed(2)} s (${spans(o)} spans/s; its first round, just started, ${(ours[0]! / 1000).toFixed(2)} s), bare http + JSON.parse ${(b / 1000).toFixed(2)} s (${spans(b)} spans/s) → ${verdict(b / o, 0.5, false)}`,
    // The goal against what the issue asks a receiver to read, before any of its own work.
    `  the bare server also parsing the selection and output-message JSON strings in the bodies: ${(f / 1000).toFixed(2)} s, ${(b / f).toFixed(2)}× the bare server (the most a receiver of these bodies could reach, on one thread)`,
    `  live set with maxTurns 10,000: ${live.map(mb).join(", ")} at 10k, 50k, 100k turns → 100k against 50k ${verdict(live[2]! / live[1]!, 1.2, true)}`,
  ];
}
