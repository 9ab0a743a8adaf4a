/** The keyed hash a gzip trace's bytes are checked by when it is opened from a checkpoint. */
import { crc32 } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { RecentBytes, rangeHash } from "../../src/node/range-hash.js";
import { withCrc32 } from "./crc-forgery.js";

const line = (id: string) =>
  Buffer.from(`{"turn_id": "${id}", "trace": [], "note": "${"a".repeat(48)}"}`);

describe("range hash", () => {
  it("tells apart two byte ranges of equal CRC-32 (a forgery a crafted file can hold)", () => {
    const truth = line("t-right");
    const start = truth.indexOf("aaaa");
    const forged = withCrc32(line("t-wrong"), start, 48, crc32(truth));
    expect(crc32(forged)).toBe(crc32(truth));
    expect(forged.equals(truth)).toBe(false);
    expect(rangeHash(forged)).not.toBe(rangeHash(truth));
    expect(rangeHash(Buffer.from(truth))).toBe(rangeHash(truth));
  });

  it("is 16 hex digits under a key drawn when the module loads: another process gets other hashes", async () => {
    const bytes = line("t-1");
    expect(rangeHash(bytes)).toMatch(/^[0-9a-f]{16}$/);
    vi.resetModules();
    const reloaded = await import("../../src/node/range-hash.js");
    expect(reloaded.rangeHash(bytes)).toMatch(/^[0-9a-f]{16}$/);
    expect(reloaded.rangeHash(bytes)).not.toBe(rangeHash(bytes));
  });

  it("hashes a range across the chunks it was inflated in as one, and none once it is no longer held", () => {
    const text = Buffer.from("0123456789".repeat(1000));
    const recent = new RecentBytes();
    for (let at = 0; at < text.length; at += 777) recent.add(text.subarray(at, at + 777));
    expect(recent.hash(700, 2000)).toBe(rangeHash(text.subarray(700, 2700)));
    expect(recent.hash(9000, 1000)).toBe(rangeHash(text.subarray(9000)));
    expect(recent.hash(9500, 501)).toBeUndefined();
    const long = new RecentBytes();
    for (let k = 0; k < 9; k++) long.add(new Uint8Array(1024 * 1024));
    expect(long.hash(0, 10)).toBeUndefined();
    expect(long.hash(8 * 1024 * 1024, 10)).toBe(rangeHash(new Uint8Array(10)));
  });
});
