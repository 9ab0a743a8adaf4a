/**
 * A worker's outbox: batches go WINDOW at a time; the rest wait, and the work is held back once
 * more wait than its reader allows: much for a file whose turn has not come, little once its
 * items are handed on as they come.
 */
import { describe, expect, it } from "vitest";
import type { WorkerItem } from "../../src/node/scan-pool.js";
import { Outbox } from "../../src/node/worker-outbox.js";

const KiB = 1024;

/** An outbox holding `batches` closed batches of one item counted as `bytes` each. */
function filled(batches: number, bytes: number): { outbox: Outbox; posted: WorkerItem[][] } {
  const posted: WorkerItem[][] = [];
  const outbox = new Outbox((items) => posted.push(items));
  for (let b = 0; b < batches; b++) {
    outbox.add([2, `entry ${b}`], bytes);
    outbox.flush();
  }
  return { outbox, posted };
}

describe("a worker's outbox", () => {
  it("sends 4 batches before the reader takes one in, and lets the work go on while a few hundred KiB wait", () => {
    const { outbox, posted } = filled(7, 100 * KiB);
    expect(posted.map((items) => items[0])).toEqual([0, 1, 2, 3].map((b) => [2, `entry ${b}`]));
    expect(outbox.between()).toBeUndefined();
  });

  it("holds the work back from 256 KiB waiting once its items are handed on as they come, until the reader takes a batch in", async () => {
    const { outbox, posted } = filled(6, 100 * KiB);
    outbox.handedOn();
    // 200 KiB wait: under the limit.
    expect(outbox.between()).toBeUndefined();
    outbox.add([2, "entry 6"], 100 * KiB);
    outbox.flush();
    const held = outbox.between();
    expect(held).toBeInstanceOf(Promise);
    let resumed = false;
    const resuming = held!.then(() => (resumed = true));
    await new Promise((turn) => setImmediate(turn));
    expect(resumed).toBe(false);
    outbox.taken(1);
    await resuming;
    expect(resumed).toBe(true);
    expect(posted).toHaveLength(5);
    expect(posted[4]![0]).toEqual([2, "entry 4"]);
    expect(outbox.between()).toBeUndefined();
  });

  it("holds the work back only from 16 MiB waiting before that", () => {
    const { outbox } = filled(4 + 63, 256 * KiB);
    expect(outbox.between()).toBeUndefined();
    outbox.add([2, "one more"], 256 * KiB);
    outbox.flush();
    expect(outbox.between()).toBeInstanceOf(Promise);
  });
});
