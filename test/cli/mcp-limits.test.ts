/**
 * `palette-inspector mcp` at its size limits: an answer too big for one message comes in pages
 * the SDK's own stdio client reads, and an over-long line is skipped whole.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINE_BYTES } from "../../src/cli/mcp.js";
import { PAGE_BYTES } from "../../src/tools/pages.js";
import { TEXT_LIMIT } from "../../src/tools/text.js";
import { writtenRecord } from "../builders/logged.js";
import { tempDir } from "../helpers/temp.js";
import { cli } from "./helpers.js";

const dir = tempDir("pi-mcp-limits-");
const bundle = join(dir, "cli.js");
const root = join(dir, "root");
/** Two stage details of 8.75 MiB: a trace whose `show --json` is 17.5 MiB. */
const DETAIL = "d".repeat(8.75 * 1024 * 1024);

type Result = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

let client: Client;
let closed = false;

beforeAll(async () => {
  buildSync({
    entryPoints: ["src/cli/main.ts"],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "cjs",
    mainFields: ["module", "main"],
    logLevel: "error",
  });
  const trace = {
    turn_id: "big",
    trace: [
      writtenRecord("intent", "select", { kept: ["a"], detail: DETAIL }),
      writtenRecord("role", "select", { kept: ["a"], detail: DETAIL }),
    ],
    tools: ["a"],
  };
  mkdirSync(root);
  writeFileSync(join(root, "big.log"), `${JSON.stringify(trace)}\n`);
  client = new Client({ name: "test", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, "mcp", "--root", root],
    stderr: "pipe",
  });
  await client.connect(transport);
  client.onclose = () => (closed = true);
}, 60_000);

afterAll(async () => {
  await client?.close();
});

const show = (page?: number) =>
  client.callTool({
    name: "show_trace",
    arguments: { logs: ["big.log"], trace: 1, ...(page === undefined ? {} : { page }) },
  }) as Promise<Result>;

describe("an answer over the size of one message", () => {
  it("comes in pages the SDK's stdio client reads, each under the stated size, that join to the whole", async () => {
    const whole = await cli(["show", join(root, "big.log"), "1", "--json"]);
    expect(whole.stdout.length).toBeGreaterThan(17.5 * 1024 * 1024);

    const first = await show();
    expect(first.isError).toBe(false);
    const { pages } = first.structuredContent as { pages: number };
    expect(pages).toBeGreaterThan(17);
    expect(first.content[0]!.text).toMatch(
      /The structured result is 17\.5 MiB of JSON, over the 1\.0 MiB one answer holds: json_part is page 1 of \d+ of its text; call show_trace again with the same arguments and page 2 for the next\.$/,
    );
    expect(first.content[0]!.text.length).toBeLessThan(TEXT_LIMIT);

    const parts: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const result = page === 1 ? first : await show(page);
      const answer = result.structuredContent as { page: number; json_part: string };
      expect(answer.page).toBe(page);
      expect(Buffer.byteLength(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(
        PAGE_BYTES + 100,
      );
      parts.push(answer.json_part);
    }
    expect(JSON.parse(parts.join(""))).toEqual(JSON.parse(whole.stdout));
    // The connection survived every answer.
    expect(closed).toBe(false);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  }, 180_000);

  it("refuses a page past the last, saying how many there are", async () => {
    const result = await show(1000);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^the answer has \d+ pages; there is no page 1000$/);
    const small = (await client.callTool({
      name: "list_traces",
      arguments: { logs: ["big.log"], page: 2 },
    })) as Result;
    expect(small.content[0]!.text).toBe("the answer has 1 page; there is no page 2");
  }, 60_000);
});

describe("an over-long line on the MCP server's input", () => {
  it("is skipped up to its line break: a request after the cut on that line is not answered, the next line is", async () => {
    const child = spawn(process.execPath, [bundle, "mcp", "--root", root]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const message = (id: number, method: string, params: object = {}) =>
      JSON.stringify({ jsonrpc: "2.0", id, method, params });
    child.stdin.write(
      message(1, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      }) + "\n",
    );
    // The cut falls inside the padding; the request after it shares the over-long line.
    child.stdin.write(`${" ".repeat(MAX_LINE_BYTES + 10)}${message(2, "tools/list")}\n`);
    child.stdin.write(message(3, "tools/list") + "\n");
    await expect.poll(() => stdout.split("\n").length, { timeout: 30_000 }).toBe(3);
    child.stdin.end();
    await new Promise((done) => child.on("exit", done));
    const ids = stdout
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toEqual([1, 3]);
    expect(stderr).toBe(
      `palette-inspector mcp: a line longer than ${MAX_LINE_BYTES} bytes, skipped up to its line break\n`,
    );
  }, 60_000);
});
