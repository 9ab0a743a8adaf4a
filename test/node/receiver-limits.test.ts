import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OtlpReceiver, type ReceivedTrace } from "../../src/node/otlp-receiver.js";
import { MAX_JSON_CONTAINERS, MAX_SPANS_PER_REQUEST } from "../../src/node/otlp-refusals.js";
import { decodeStatus, decodeTraceResponse } from "../../src/node/otlp-proto.js";
import { DEFAULT_BOUNDS } from "../../src/node/receiver-bounds.js";
import {
  MAX_SELECTION_CHARS,
  readRequest,
  readRequestInSteps,
} from "../../src/core/otel/request.js";
import { allSteps } from "../../src/core/otel/steps.js";
import { send } from "../helpers/http-post.js";
import { chatSpan, request, selectionTrace, TRACE_A, turnSpan } from "../core/otel/otlp.js";
import { emptySpansProto } from "./otlp-bodies.js";

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

async function started(options: ConstructorParameters<typeof OtlpReceiver>[0] = {}) {
  const traces: ReceivedTrace[] = [];
  const receiver = new OtlpReceiver({ port: 0, onTrace: (t) => traces.push(t), ...options });
  receivers.push(receiver);
  const { port } = await receiver.start();
  return { receiver, port, traces };
}

const PROTOBUF = { "content-type": "application/x-protobuf" };
const oneTurn = () => JSON.stringify(request([turnSpan(TRACE_A, 1, selectionTrace("t", ["a"]))]));

describe("the OTLP receiver's bounds on one request", () => {
  it("refuses a protobuf request of more spans than it takes with 413 naming the cap, and goes on serving", async () => {
    const { port, traces } = await started();
    // 2 MB: a million empty spans.
    const refused = await send(port, emptySpansProto(1_000_000), PROTOBUF);
    expect(refused.status).toBe(413);
    expect(decodeStatus(refused.body)).toMatchObject({
      message: expect.stringContaining(
        `more than ${MAX_SPANS_PER_REQUEST.toLocaleString("en-US")} spans`,
      ),
    });
    expect((await send(port, oneTurn())).status).toBe(200);
    expect(traces).toHaveLength(1);
  });

  it("takes a protobuf request of as many spans as it allows", async () => {
    const { port } = await started();
    const answer = await send(port, emptySpansProto(MAX_SPANS_PER_REQUEST - 2), PROTOBUF);
    expect(answer.status).toBe(200);
    expect(decodeTraceResponse(answer.body)).toMatchObject({
      partialSuccess: { rejectedSpans: MAX_SPANS_PER_REQUEST - 2 },
    });
  });

  it("refuses a JSON request of more spans than it takes with 413 naming the cap, small or large", async () => {
    const { port } = await started();
    const spans = (n: number) =>
      `{"resourceSpans":[{"scopeSpans":[{"spans":[${"{},".repeat(n - 1)}{}]}]}]}`;
    for (const body of [spans(MAX_SPANS_PER_REQUEST), spans(MAX_SPANS_PER_REQUEST * 3)]) {
      const refused = await send(port, body);
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body.toString())).toMatchObject({
        message: expect.stringContaining(
          `more than ${MAX_SPANS_PER_REQUEST.toLocaleString("en-US")} spans`,
        ),
      });
    }
  });

  it("stops parsing a JSON body past the objects and arrays it takes, with 413 naming the cap", async () => {
    const { port } = await started();
    const body = `{"resourceSpans":[${"[],".repeat(MAX_JSON_CONTAINERS)}[]]}`;
    const refused = await send(port, body);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      message: expect.stringContaining(
        `more than ${MAX_JSON_CONTAINERS.toLocaleString("en-US")} objects and arrays`,
      ),
    });
    // A syntax error after them is no way round the cap: the whole text is counted before JSON.parse.
    const broken = await send(port, body.slice(0, -1));
    expect(broken.status).toBe(413);
  });

  it("counts every rejected span and names only the first 10 problems", async () => {
    const { port } = await started();
    const bad = Array.from({ length: 500 }, () => ({ traceId: "x" }));
    const answer = JSON.parse((await send(port, JSON.stringify(request(bad)))).body.toString()) as {
      partialSuccess: { rejectedSpans: string; errorMessage: string };
    };
    expect(answer.partialSuccess.rejectedSpans).toBe("500");
    const named = answer.partialSuccess.errorMessage.split("; ");
    expect(named).toHaveLength(10);
    expect(named[9]).toBe("resourceSpans[0].scopeSpans[0].spans[9].traceId: must be 32 hex digits");
    // What is kept while reading, not only what is answered.
    const read = allSteps(readRequestInSteps(request(bad), 10));
    expect([read.rejected, read.problems.length]).toEqual([500, 10]);
  });
});

/** A connection that sends what it is given and no more; resolves when the receiver closes it, with the time taken. */
function held(port: number, text = ""): { closed: Promise<number>; socket: Socket } {
  const socket = connect(port, "127.0.0.1");
  const began = performance.now();
  if (text) socket.write(text);
  socket.on("error", () => undefined);
  socket.on("data", () => undefined);
  return {
    socket,
    closed: new Promise((done) => socket.once("close", () => done(performance.now() - began))),
  };
}

const headersOf = (port: number, length: number) =>
  `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe("the OTLP receiver's bounds on what it keeps", () => {
  it("rejects a selection of more characters than it keeps, naming its length", () => {
    const long = JSON.stringify({
      ...selectionTrace("t", ["a"]),
      pad: "x".repeat(MAX_SELECTION_CHARS),
    });
    const read = readRequest(request([turnSpan(TRACE_A, 1, long)]));
    expect([read.rejected, read.selections.length]).toEqual([1, 0]);
    expect(read.problems[0]!.message).toBe(
      `is ${long.length.toLocaleString("en-US")} characters of JSON, over the ${MAX_SELECTION_CHARS.toLocaleString("en-US")} a selection may have`,
    );
  });

  it("lets the oldest turns go when the spans kept for joins are over their bytes, and says so once", async () => {
    const notices: string[] = [];
    const { port, receiver, traces } = await started({
      maxJoinBytes: 500_000,
      onDropped: (notice) => notices.push(notice),
    });
    const names = Array.from({ length: 1000 }, (_, i) => `tool_${i}`);
    for (let t = 1; t <= 40; t++) {
      const traceId = t.toString(16).padStart(32, "0");
      const spans = [
        turnSpan(traceId, 1, selectionTrace(`t${t}`, ["tool_1"])),
        chatSpan(traceId, 2, { offered: names.map((name) => `${name}_${t}`) }),
      ];
      expect((await send(port, JSON.stringify(request(spans)))).status).toBe(200);
      expect(receiver.joinBytes).toBeLessThanOrEqual(500_000);
    }
    expect(traces).toHaveLength(40);
    expect(notices).toEqual([
      "the 0.5 MiB of spans kept for joins are full: the oldest are let go, and the model calls of turns received before them are no longer updated",
    ]);
  });
});

describe("the OTLP receiver's bounds on its connections", () => {
  it("drops a connection that sends no headers, or holds its body, within seconds", async () => {
    const { port } = await started({ bounds: { headersMs: 300, requestMs: 600 } });
    const silent = held(port);
    const slow = held(port, "POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1");
    const holding = held(port, headersOf(port, 1000) + "{");
    const times = await Promise.all([silent.closed, slow.closed, holding.closed]);
    for (const ms of times) expect(ms).toBeLessThan(2_500);
  });

  it("answers a real request while hundreds of connections wait without sending their headers", async () => {
    const { port, traces } = await started();
    const waiting = Array.from({ length: 300 }, () => held(port));
    await new Promise((done) => setTimeout(done, 200));
    expect((await send(port, oneTurn())).status).toBe(200);
    expect(traces).toHaveLength(1);
    // All but the newest 32 waiting were let go as the others came.
    let closed = 0;
    for (const { closed: ended } of waiting)
      ended.then(
        () => closed++,
        () => undefined,
      );
    await new Promise((done) => setTimeout(done, 100));
    expect(closed).toBeGreaterThanOrEqual(300 - DEFAULT_BOUNDS.waitingForHeaders);
    for (const { socket } of waiting) socket.destroy();
  });

  it("refuses a large body with 503 while others hold the bytes in flight, answers a small one, and takes large ones again once they are let go", async () => {
    const bounds = { bytesInFlight: 4 * 1024 * 1024, smallBody: 64 * 1024 };
    const { port, receiver } = await started({ bounds });
    const big = 3 * 1024 * 1024;
    const first = held(port, headersOf(port, big) + " ".repeat(big - 1));
    await new Promise((done) => setTimeout(done, 200));
    const second = await send(port, " ".repeat(big - 1) + "{}");
    expect(second.status).toBe(503);
    expect(JSON.parse(second.body.toString())).toMatchObject({
      code: 14,
      message: expect.stringContaining("4 MiB of request bodies"),
    });
    expect((await send(port, oneTurn())).status).toBe(200);
    first.socket.destroy();
    await first.closed;
    await new Promise((done) => setTimeout(done, 50));
    expect(receiver.bytesInFlight).toBe(0);
    const again = await send(port, " ".repeat(big - 1) + oneTurn());
    expect(again.status).toBe(200);
  });
});
