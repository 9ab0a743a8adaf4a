import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReceivedTrace } from "../../src/node/otlp-receiver.js";
import { PortInUse } from "../../src/node/otlp-receiver.js";
import { ReceiverThread } from "../../src/node/receiver-thread.js";
import { chatSpan, request, selectionTrace, turnSpan, TRACE_A } from "../core/otel/otlp.js";
import { endingReceiverScript } from "../helpers/ending-receiver.js";
import { tempDir } from "../helpers/temp.js";

const threads: ReceiverThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.stop()));
});

function thread(options: ConstructorParameters<typeof ReceiverThread>[0], script?: string) {
  const made = script ? new ReceiverThread(options, script) : new ReceiverThread(options);
  threads.push(made);
  return made;
}

const post = (port: number, body: unknown) =>
  fetch(`http://127.0.0.1:${port}/v1/traces`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the OTLP receiver in a worker thread", () => {
  it("hands on each turn as it arrives and again when a later request brings its model call, and every turn before a stop", async () => {
    const traces: ReceivedTrace[] = [];
    const models: ReceivedTrace[] = [];
    const receiver = thread({
      port: 0,
      onTrace: (t) => traces.push(t),
      onModel: (t) => models.push(t),
    });
    const { host, port } = await receiver.start();
    expect(host).toBe("127.0.0.1");
    expect(
      (await post(port, request([turnSpan(TRACE_A, 1000, selectionTrace("t-1", ["a"]))]))).status,
    ).toBe(200);
    await post(port, request([chatSpan(TRACE_A, 1001, { offered: ["a"], model: "m" })]));
    await receiver.stop();
    expect(traces.map((t) => [t.index, t.trace.id, t.trace.model])).toEqual([[0, "t-1", null]]);
    expect(models.map((t) => [t.index, t.trace.model?.model])).toEqual([[0, "m"]]);
    expect(receiver.received).toBe(1);
  });

  it("rejects the start with PortInUse when the port is taken", async () => {
    const other = createServer();
    await new Promise<void>((done) => other.listen(0, "127.0.0.1", done));
    try {
      const taken = (other.address() as { port: number }).port;
      const start = thread({ port: taken }).start();
      await expect(start).rejects.toBeInstanceOf(PortInUse);
      await expect(start).rejects.toMatchObject({ port: taken });
    } finally {
      other.close();
    }
  });

  it("a worker that ends once listening says why, and a stop after it resolves", async () => {
    const script = endingReceiverScript(10);
    const failures: string[] = [];
    const receiver = thread({ onFailure: (message) => failures.push(message) }, script);
    expect(await receiver.start()).toEqual({ host: "127.0.0.1", port: 1 });
    await vi.waitFor(() => expect(failures).toEqual(["its worker thread ended (exit code 3)"]));
    await receiver.stop();
  });

  it("a worker that fails before listening rejects the start with its error", async () => {
    const script = join(tempDir(), "throws.js");
    writeFileSync(script, `throw new Error("no receiver here");`);
    await expect(thread({}, script).start()).rejects.toThrow("no receiver here");
  });
});
