/** A trace deep in a gzip is inflated from the nearest checkpoint the scan recorded. */
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { open as openFile } from "node:fs/promises";
import { join } from "node:path";
import { constants, crc32, createGzip, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { FoundTrace } from "../../src/core/traces/scan.js";
import { gzipBlocks } from "../../src/node/gzip-blocks.js";
import {
  readTraceAt,
  scanLogs,
  type ScannedTrace,
  type TraceLocation,
} from "../../src/node/log-file.js";
import { TraceIndex } from "../../src/node/trace-index.js";
import {
  type Checkpoint,
  CHECKPOINT_EVERY,
  checkpointBytes,
  checkpointsOf,
  inflateFromCheckpoint,
  recordCheckpoints,
} from "../../src/node/gzip-checkpoints.js";
import { withCrc32 } from "./crc-forgery.js";
import { tempDir } from "../helpers/temp.js";

/** About `mb` MB of log text, one line in 50 a JSON trace numbered by its line. */
function logText(mb: number): Buffer {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 1; bytes < mb * 1024 * 1024; i++) {
    const line =
      i % 50 === 0
        ? `2025-03-14T09:26:50Z INFO selection {"turn_id": "t-${i}", "trace": [{"stage": "role", "action": "select", "kept": ["search"], "dropped": ["sql${i % 7}"]}]}`
        : `2025-03-14T09:26:50Z INFO GET /v1/items/${(i * 7919) % 100000} status=200 bytes=${i % 5000} user=u${i % 313}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return Buffer.from(lines.join("\n") + "\n");
}

/** A gzip stream flushed every 100 KB, as a service flushing its log writes it. */
async function flushed(text: Buffer, kind: number): Promise<Buffer> {
  const gzip = createGzip();
  const parts: Buffer[] = [];
  gzip.on("data", (part: Buffer) => parts.push(part));
  for (let at = 0; at < text.length; at += 100_000) {
    gzip.write(text.subarray(at, at + 100_000));
    await new Promise<void>((resolve) => gzip.flush(kind, () => resolve()));
  }
  gzip.end();
  await new Promise((resolve) => gzip.on("end", resolve));
  return Buffer.concat(parts);
}

let dir: string;
let plain: Buffer;

beforeAll(() => {
  dir = tempDir("pi-gzip-checkpoints-");
  plain = logText(13);
  writeFileSync(join(dir, "app.log"), plain);
});

/** Scans one file with checkpoints, waits for its walk, and gives its traces' locations. */
async function scanned(name: string, checkpoints = true): Promise<ScannedTrace[]> {
  const found: ScannedTrace[] = [];
  const path = join(dir, name);
  const scan = await scanLogs([{ name, path }], {
    checkpoints,
    onTrace: (trace) => found.push(trace),
    onProblem: (problem) => expect.fail(problem.message),
  });
  await scan.checkpointed;
  return found;
}

/** Reads a trace and says where inflating began. */
async function open(
  name: string,
  at: TraceLocation,
): Promise<{ found: FoundTrace; from: number[] }> {
  const from: number[] = [];
  const found = await readTraceAt(join(dir, name), at, { onInflateFrom: (o) => from.push(o) });
  return { found, from };
}

describe("gzip checkpoints", () => {
  it.each([
    ["one member, level 6", "six.log.gz", () => gzipSync(plain)],
    ["level 1", "one.log.gz", () => gzipSync(plain, { level: 1 })],
    ["stored blocks (level 0)", "zero.log.gz", () => gzipSync(plain, { level: 0 })],
    [
      "two members (cat a.gz b.gz)",
      "two.log.gz",
      () =>
        Buffer.concat([
          gzipSync(plain.subarray(0, 5_000_123)),
          gzipSync(plain.subarray(5_000_123)),
        ]),
    ],
    [
      "a sync flush every 100 KB (empty stored blocks at any bit)",
      "synced.log.gz",
      () => flushed(plain, constants.Z_SYNC_FLUSH),
    ],
    ["a full flush every 100 KB", "full.log.gz", () => flushed(plain, constants.Z_FULL_FLUSH)],
  ])(
    "%s: the last trace is inflated from the nearest checkpoint, byte for byte the plain file's",
    async (_, name, make) => {
      writeFileSync(join(dir, name), await make());
      const traces = await scanned(name);
      const path = join(dir, name);
      const list = await checkpointsOf(path);
      // One about every 4 MiB of the 13 MB (a member's start needs none), a few KiB each.
      expect(list.length).toBeGreaterThanOrEqual(2);
      for (let k = 1; k < list.length; k++)
        expect(list[k]!.out - list[k - 1]!.out).toBeGreaterThanOrEqual(CHECKPOINT_EVERY);
      expect(checkpointBytes(path) / list.length).toBeLessThan(8 * 1024);
      for (const at of [traces.at(-1)!, traces[Math.floor(traces.length / 2)]!]) {
        const { found, from } = await open(name, at);
        const nearest = Math.max(...list.filter((c) => c.out <= at.offset).map((c) => c.out));
        expect(from).toEqual([nearest]);
        expect(found).toEqual(await readTraceAt(join(dir, "app.log"), at));
        expect(found.trace.id).toBe(`t-${at.line}`);
        const bytes = await inflateFromCheckpoint(path, at.offset, at.length, () => false);
        expect(Buffer.from(bytes!).equals(plain.subarray(at.offset, at.offset + at.length))).toBe(
          true,
        );
        expect(plain.subarray(at.offset, at.offset + at.length).toString()).toContain(
          `"t-${at.line}"`,
        );
      }
    },
    60_000,
  );

  it("a trace before the first checkpoint, a scan without checkpoints and a changed file inflate from the start", async () => {
    writeFileSync(join(dir, "start.log.gz"), gzipSync(plain));
    const traces = await scanned("start.log.gz");
    expect((await open("start.log.gz", traces[0]!)).from).toEqual([0]);
    const last = traces.at(-1)!;
    expect((await open("start.log.gz", last)).from).not.toEqual([0]);
    // Touched since the scan: its checkpoints are dropped, never used on other bytes.
    utimesSync(join(dir, "start.log.gz"), new Date(), new Date(Date.now() + 5000));
    expect((await open("start.log.gz", last)).from).toEqual([0]);
    expect(await checkpointsOf(join(dir, "start.log.gz"))).toEqual([]);
    writeFileSync(join(dir, "none.log.gz"), gzipSync(plain));
    const unwalked = await scanned("none.log.gz", false);
    expect((await open("none.log.gz", unwalked.at(-1)!)).from).toEqual([0]);
  }, 60_000);

  it("uses a checkpoint only when it gives the bytes the scan saw: a misled walk's offset, or no hash, inflates from the start", async () => {
    const name = "misled.log.gz";
    writeFileSync(join(dir, name), gzipSync(plain));
    const traces = await scanned(name);
    expect(traces.every((t) => /^[0-9a-f]{16}$/.test(t.hash!))).toBe(true);
    const list = (await checkpointsOf(join(dir, name))) as Checkpoint[];
    const at = traces.filter((t) => t.offset > list[0]!.out && t.offset < list[1]!.out).at(-1)!;
    const truth = await readTraceAt(join(dir, "app.log"), at);
    expect(await open(name, at)).toEqual({ found: truth, from: [list[0]!.out] });
    // A walk misled by a crafted file: its checkpoint's offset names bytes 100 further on.
    list[0] = { ...list[0]!, out: list[0]!.out - 100 };
    expect(await open(name, at)).toEqual({ found: truth, from: [list[0].out, 0] });
    expect(await open(name, { ...at, hash: undefined })).toEqual({ found: truth, from: [0] });
    // The Selection Traces view's index keeps the hash with the location, and no hash as none.
    const index = new TraceIndex();
    index.add(at as FoundTrace, 0);
    index.add({ ...(at as FoundTrace), hash: undefined }, 0);
    expect([index.location(0).hash, "hash" in index.location(1)]).toEqual([at.hash, false]);
    index.add({ ...(at as FoundTrace), hash: "000000000000000a" }, 0);
    expect(index.location(2).hash).toBe("000000000000000a");
    // A set of plain logs holds no hashes; the first hashed trace after them keeps its own alone.
    const plainFirst = new TraceIndex();
    plainFirst.finish();
    const empty = plainFirst.columnBytes;
    for (let i = 0; i < 3; i++) plainFirst.add({ ...(at as FoundTrace), hash: undefined }, 0);
    plainFirst.finish();
    const plainBytes = plainFirst.columnBytes;
    plainFirst.add({ ...(at as FoundTrace), hash: "00000000000000ff" }, 1);
    plainFirst.finish();
    // The fourth trace's columns, and two halves of a hash for each of the four.
    expect(plainFirst.columnBytes - plainBytes).toBe((plainBytes - empty) / 3 + 4 * 8);
    expect([0, 1, 2].map((i) => "hash" in plainFirst.location(i))).toEqual([false, false, false]);
    expect(plainFirst.location(3).hash).toBe("00000000000000ff");
    // Columns cut to size when empty still take what comes after.
    const [first, second] = [0, 1].map(() => new TraceIndex());
    first!.finish();
    for (const index of [first!, second!]) index.add(at as FoundTrace, 2);
    expect([first!.location(0), first!.fileOf(0)]).toEqual([second!.location(0), 2]);
  });

  it("opens the right trace when a misled checkpoint gives other bytes of the same CRC-32", async () => {
    const name = "forged.log.gz";
    const traceLine = (id: string) =>
      Buffer.from(
        `2025-03-14T09:26:50Z INFO selection {"turn_id": "${id}", "trace": [{"stage": "role", "action": "select", "kept": ["search"], "dropped": []}], "note": "${"a".repeat(48)}"}`,
      );
    const right = traceLine("t-right");
    const pad = right.indexOf("aaaa");
    // The next line: another trace, made to have the CRC-32 of the first.
    const wrong = withCrc32(traceLine("t-wrong"), pad, 48, crc32(right));
    const middle = CHECKPOINT_EVERY + 500_000;
    const cut = plain.indexOf("\n", middle) + 1;
    const text = Buffer.concat([
      plain.subarray(0, cut),
      right,
      Buffer.from("\n"),
      wrong,
      Buffer.from("\n"),
      plain.subarray(cut),
    ]);
    writeFileSync(join(dir, name), gzipSync(text));
    const traces = await scanned(name);
    const at = traces.find((t) => t.trace.id === "t-right")!;
    const next = traces[at.index + 1]!;
    expect(next.trace.id).toBe("t-wrong");
    const bytesOf = (t: TraceLocation) => text.subarray(t.offset, t.offset + t.length);
    expect(crc32(bytesOf(next))).toBe(crc32(bytesOf(at)));
    // A walk misled into naming the next line's bytes as this trace's.
    const list = (await checkpointsOf(join(dir, name))) as Checkpoint[];
    expect(list[0]!.out).toBeLessThan(at.offset);
    list[0] = { ...list[0]!, out: list[0]!.out - (next.offset - at.offset) };
    const misread = await inflateFromCheckpoint(join(dir, name), at.offset, at.length, () => false);
    expect(Buffer.from(misread!).equals(bytesOf(next))).toBe(true);
    const { found, from } = await open(name, at);
    expect(found.trace.id).toBe("t-right");
    expect(from).toEqual([list[0].out, 0]);
  }, 60_000);

  it("keeps the checkpoints of a member followed by bytes that are not gzip, as gzip -d reads it", async () => {
    const path = join(dir, "junk.log.gz");
    writeFileSync(path, Buffer.concat([gzipSync(plain), Buffer.from("junkjunk")]));
    await recordCheckpoints(path, () => false);
    expect((await checkpointsOf(path)).length).toBeGreaterThanOrEqual(2);
  });

  it("keeps no checkpoint of a member whose CRC-32 does not match what was inflated, and never rejects", async () => {
    const gz = gzipSync(plain);
    gz[gz.length - 8]! ^= 0xff;
    writeFileSync(join(dir, "crc.log.gz"), gz);
    await expect(recordCheckpoints(join(dir, "crc.log.gz"), () => false)).resolves.toBeUndefined();
    expect(await checkpointsOf(join(dir, "crc.log.gz"))).toEqual([]);
    writeFileSync(join(dir, "plain.log"), readFileSync(join(dir, "app.log")).subarray(0, 1000));
    await expect(recordCheckpoints(join(dir, "plain.log"), () => false)).resolves.toBeUndefined();
    expect(await checkpointsOf(join(dir, "plain.log"))).toEqual([]);
  });

  it("stops walking a crafted block that inflates past its cap (70 MB from 440 KB) without holding it", async () => {
    // One fixed-code block: 'a', then 271,000 copies of 258 bytes at distance 1, then its end.
    const bits: number[] = [];
    const put = (value: number, n: number) => {
      for (let k = 0; k < n; k++) bits.push((value >> k) & 1);
    };
    const code = (value: number, n: number) => {
      for (let k = n - 1; k >= 0; k--) bits.push((value >> k) & 1);
    };
    put(1, 1);
    put(1, 2);
    code(0x30 + 0x61, 8);
    for (let i = 0; i < 271_000; i++) {
      code(0xc5, 8);
      code(0, 5);
    }
    code(0, 7);
    const deflated = Buffer.alloc(Math.ceil(bits.length / 8));
    bits.forEach((bit, i) => (deflated[i >> 3]! |= bit << (i & 7)));
    const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    const path = join(dir, "bomb.log.gz");
    writeFileSync(path, Buffer.concat([header, deflated, Buffer.alloc(8)]));
    const handle = await openFile(path);
    try {
      const walk = async () => {
        for await (const block of gzipBlocks(handle, (await handle.stat()).size, null))
          expect.fail(`a block of ${block.data.length} bytes was read`);
      };
      await expect(walk()).rejects.toThrow(/a block inflates to more than 67108864 bytes/);
    } finally {
      await handle.close();
    }
    await expect(recordCheckpoints(path, () => false)).resolves.toBeUndefined();
    expect(await checkpointsOf(path)).toEqual([]);
  });
});
