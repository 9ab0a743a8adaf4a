import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChunkedOutput } from "../../src/cli/chunked-output.js";
import { tracesCommand } from "../../src/cli/traces.js";
import { workspace } from "./helpers.js";

describe("output in large writes", () => {
  it("holds text until the next may not fit, escapes only what is not plain ASCII, and writes the rest on flush", () => {
    const writes: string[] = [];
    const escaped: string[] = [];
    const out = new ChunkedOutput(
      (text) => writes.push(text),
      (text) => (escaped.push(text), text.replace(/[^a-z]/g, "?")),
      16,
    );
    for (const text of ["ab", "c\u00e9", "d\x7f", "ef"]) out.add(text);
    expect(writes).toEqual(["abc?d?"]);
    out.flush();
    out.flush();
    expect(writes).toEqual(["abc?d?", "ef"]);
    expect(escaped).toEqual(["c\u00e9", "d\x7f"]);
  });

  it("writes a text too long for any chunk on its own, after what it held", () => {
    const writes: string[] = [];
    const out = new ChunkedOutput((text) => writes.push(text), null, 8);
    out.add("a");
    out.add("bcd");
    out.add("e");
    out.flush();
    expect(writes).toEqual(["a", "bcd", "e"]);
  });

  it("writes traces --json of many traces in a few chunks, as JSON.stringify prints the document, control characters escaped", async () => {
    const log = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ turn_id: `t-${i}\u009b`, trace: [], tools: ["search", `s\u202e${i}`] }),
    ).join("\n");
    const root = workspace({ "many.log": log });
    const writes: string[] = [];
    const code = await tracesCommand([join(root, "many.log"), "--json"], {
      stdout: (text) => writes.push(text),
      stderr: () => {},
      color: false,
      cwd: root,
    });
    const stdout = writes.join("");
    expect(code).toBe(0);
    expect(writes.length).toBeLessThan(10);
    expect(stdout).not.toMatch(/[\u009b\u202e]/);
    expect(stdout).toBe(
      JSON.stringify(JSON.parse(stdout), null, 2).replace(
        /[\u009b\u202e]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      ) + "\n",
    );
    expect(JSON.parse(stdout).traces[19_999]).toMatchObject({
      index: 19_999,
      id: "t-19999\u009b",
      names: ["search", "s\u202e19999"],
    });
  });

  it("writes the traces table of many traces in a few chunks", async () => {
    const log = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ turn_id: `t-${i}`, trace: [], tools: ["search"] }),
    ).join("\n");
    const root = workspace({ "many.log": log });
    const writes: string[] = [];
    await tracesCommand([join(root, "many.log")], {
      stdout: (text) => writes.push(text),
      stderr: () => {},
      color: false,
      cwd: root,
    });
    expect(writes.length).toBeLessThan(10);
    expect(writes.join("").split("\n")).toHaveLength(1 + 20_000 + 3);
  });
});
