/**
 * `npm run bench -- receiver-memory` (only when named: it takes minutes): the hostile loads of a
 * security review against `palette-inspector receive` and against Start Live Traces' receiver (a
 * ReceiverThread in a process of its own, as in the extension host), each load in a fresh
 * process, reporting its peak RSS against the ceiling docs/formats.md states, whether it lived,
 * and how many real requests sent meanwhile were answered.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { ReceiverThread } from "../src/node/receiver-thread.js";

export const WORKER_FLAG = "--receiver-worker";
/** The peak RSS either process stays under, whatever the load (docs/formats.md). */
const CEILING_MIB = 1024;
const MIB = 2 ** 20;

type Load = (port: number) => Promise<void>;

function post(port: number, body: Uint8Array | string, type = "application/json"): Promise<number> {
  return new Promise((done) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/v1/traces",
        method: "POST",
        headers: { "content-type": type },
      },
      (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode!));
      },
    );
    req.on("error", () => done(0));
    req.end(body);
  });
}

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, "0");

function emptySpansProto(count: number): Buffer {
  const varint = (value: number) => {
    const bytes: number[] = [];
    for (; value > 0x7f; value = Math.floor(value / 128)) bytes.push((value & 0x7f) | 0x80);
    bytes.push(value);
    return Buffer.from(bytes);
  };
  const field = (tag: number, body: Buffer) =>
    Buffer.concat([Buffer.from([(tag << 3) | 2]), varint(body.length), body]);
  const spans = Buffer.alloc(count * 2);
  for (let i = 0; i < spans.length; i += 2) spans[i] = 0x12;
  return field(1, field(2, spans));
}

const wrap = (spans: string[]) =>
  `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[${spans.join(",")}]}]}]}`;

function turnsBody(round: number, count: number): string {
  const spans: string[] = [];
  for (let i = 0; i < count; i++) {
    const selection = JSON.stringify({
      turn_id: `t${round}-${i}`,
      trace: [
        {
          stage: "intent",
          action: "select",
          kept: ["a"],
          dropped: ["b"],
          added: [],
          reinstated: [],
          forced_choice: null,
          detail: "",
        },
      ],
      tools: ["a"],
    });
    spans.push(
      JSON.stringify({
        traceId: hex(round * 1e6 + i, 32),
        spanId: hex(i, 16),
        name: "turn",
        startTimeUnixNano: String(1e15 + i),
        events: [
          {
            name: "symfonic.tool_selection",
            timeUnixNano: String(1e15 + i),
            attributes: [{ key: "symfonic.selection", value: { stringValue: selection } }],
          },
        ],
      }),
    );
  }
  return wrap(spans);
}

/** Inference spans each offering `tools` tools of its own, in traces of one span. */
function offeringBody(round: number, spans: number, tools: number): string {
  return wrap(
    Array.from({ length: spans }, (_, s) => {
      const definitions = JSON.stringify(
        Array.from({ length: tools }, (_, t) => ({ name: `t${t}_${round}_${s}` })),
      );
      return JSON.stringify({
        traceId: hex(round * 1e4 + s + 1, 32),
        spanId: hex(s + 1, 16),
        name: "chat",
        startTimeUnixNano: "1000",
        attributes: [
          { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
          { key: "gen_ai.tool.definitions", value: { stringValue: definitions } },
        ],
      });
    }),
  );
}

function plainInferenceBody(round: number, count: number): string {
  const spans: string[] = [];
  for (let i = 0; i < count; i++)
    spans.push(
      `{"traceId":"${hex(round * 1e6 + Math.floor(i / 1000) + 1, 32)}","spanId":"${hex(i + 1, 16)}","name":"chat","startTimeUnixNano":"${1000 + i}","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]}`,
    );
  return wrap(spans);
}

function hold(port: number, text: string): Socket {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  socket.write(text);
  return socket;
}

const LOADS: Record<string, Load> = {
  "2 MB protobuf of 1M empty spans ×8": async (port) => {
    const body = emptySpansProto(1_000_000);
    await Promise.all(Array.from({ length: 8 }, () => post(port, body, "application/x-protobuf")));
  },
  "16 MiB JSON of 30,000 turns ×4": async (port) => {
    await Promise.all([0, 1, 2, 3].map((r) => post(port, turnsBody(r + 1, 30_000))));
  },
  "16 MiB JSON of 5.5M empty spans ×4": async (port) => {
    const body = wrap(Array.from({ length: 5_500_000 }, () => "{}"));
    await Promise.all(Array.from({ length: 4 }, () => post(port, body)));
  },
  "32 bodies of 16 MiB − 1 byte held open 5 s": async (port) => {
    const length = 16 * MIB;
    const head = `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const body = " ".repeat(length - 1);
    const sockets = Array.from({ length: 32 }, () => hold(port, head + body));
    await new Promise((done) => setTimeout(done, 5_000));
    for (const socket of sockets) socket.destroy();
  },
  "900 connections sending no headers for 8 s": async (port) => {
    const sockets = Array.from({ length: 900 }, () => hold(port, "POST /v1/traces HTTP/1.1\r\n"));
    await new Promise((done) => setTimeout(done, 8_000));
    for (const socket of sockets) socket.destroy();
  },
  "45 requests of 60 inference spans each offering 10,000 tools": async (port) => {
    for (let r = 0; r < 45; r++) await post(port, offeringBody(r + 1, 60, 10_000));
  },
  "12 requests of 80,000 plain inference spans": async (port) => {
    for (let r = 0; r < 12; r++) await post(port, plainInferenceBody(r + 1, 80_000));
  },
  "20 turns with an 8 MiB detail": async (port) => {
    const detail = "d".repeat(8 * MIB);
    for (let r = 0; r < 20; r++) {
      const selection = JSON.stringify({
        turn_id: `big${r}`,
        trace: [
          {
            stage: "s",
            action: "select",
            kept: ["a"],
            dropped: [],
            added: [],
            reinstated: [],
            forced_choice: null,
            detail,
          },
        ],
        tools: ["a"],
      });
      await post(
        port,
        wrap([
          JSON.stringify({
            traceId: hex(r + 1, 32),
            spanId: hex(1, 16),
            name: "turn",
            startTimeUnixNano: "1",
            events: [
              {
                name: "symfonic.tool_selection",
                timeUnixNano: "1",
                attributes: [{ key: "symfonic.selection", value: { stringValue: selection } }],
              },
            ],
          }),
        ]),
      );
    }
  },
};

/** The receiver process: its port once listening. */
async function listening(child: ChildProcess): Promise<number> {
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  for (let i = 0; i < 500; i++) {
    const port = /(?:listening on http:\/\/[^:]+:|port )(\d+)/.exec(out)?.[1];
    if (port) return Number(port);
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error(`the receiver did not start: ${out}`);
}

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** One load against a fresh receiver process: its peak RSS, whether it lived, real requests answered. */
async function measure(args: readonly string[], load: Load): Promise<string> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let died = "";
  child.stderr!.on("data", (d: Buffer) => (died += d.toString()));
  const port = await listening(child);
  let answered = 0;
  let sent = 0;
  let loading = true;
  const real = (async () => {
    while (loading) {
      sent++;
      if ((await post(port, turnsBody(9999, 1))) === 200) answered++;
      await new Promise((done) => setTimeout(done, 250));
    }
  })();
  const started = performance.now();
  await load(port);
  const seconds = (performance.now() - started) / 1000;
  loading = false;
  await real;
  const alive = child.exitCode === null;
  const peak = alive ? peakRss(child.pid!) : NaN;
  child.kill("SIGTERM");
  await new Promise((done) => child.once("exit", done));
  const fate = alive ? "lived" : `DIED (${died.trim().split("\n").at(-1)})`;
  const within = alive && peak <= CEILING_MIB * MIB;
  return `${(peak / MIB).toFixed(0)} MiB peak RSS, ${fate}, ${answered}/${sent} real requests answered, ${seconds.toFixed(1)} s → ${within ? "ok" : "OVER THE CEILING"}`;
}

/** In the child: a ReceiverThread as Start Live Traces runs it, until SIGTERM. */
export async function receiverWorkerInChild(): Promise<void> {
  let turns = 0;
  const thread = new ReceiverThread({
    port: 0,
    onTrace: () => turns++,
    onFailure: (message) => {
      process.stderr.write(`the worker failed: ${message}\n`);
      process.exit(3);
    },
  });
  const { port } = await thread.start();
  process.stdout.write(`port ${port}\n`);
  process.once("SIGTERM", () => void thread.stop().then(() => process.exit(0)));
}

export async function benchReceiverMemory(): Promise<string[]> {
  const lines = [`OTLP receiver memory under hostile loads (ceiling ${CEILING_MIB} MiB peak RSS)`];
  // RECEIVER_LOADS=word,word measures only the loads whose names hold one of the words.
  const words = process.env["RECEIVER_LOADS"]?.split(",");
  for (const [name, load] of Object.entries(LOADS)) {
    if (words && !words.some((word) => name.includes(word))) continue;
    lines.push(`  ${name}`);
    lines.push(
      `    receive:     ${await measure(["dist/cli.js", "receive", "--port", "0"], load)}`,
    );
    lines.push(`    Live Traces: ${await measure([__filename, WORKER_FLAG], load)}`);
    console.log(lines.slice(-3).join("\n"));
  }
  return [];
}
