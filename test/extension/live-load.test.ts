/**
 * The receiver runs in the extension host's thread: a client sending 1,000 requests of 100 spans
 * as fast as it can (from a process of its own) never holds that thread's event loop over 50 ms.
 * A slice is measured in the host thread's own CPU time, as in scan-off-thread.test.ts.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as vscode from "vscode";
import { describe, expect, it } from "vitest";
import { LiveTraces } from "../../src/extension/logs/live-traces.js";
import { TraceTree, type TraceNode } from "../../src/extension/logs/trace-tree.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import { fake, window } from "../fakes/vscode.js";
import { longestSlice, SLICE_MS } from "../helpers/host-cpu.js";
import { tempDir } from "../helpers/temp.js";

const REQUESTS = 1000;
const SPANS = 100;
/** One span in ten holds a selection: 10,000 turns in all. */
const TURNS_PER_REQUEST = 10;

/** The client: builds each request's 100 spans and posts them, four at a time. */
const CLIENT = `
const [url, requests, spans, turns] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a)));
const attr = (key, stringValue) => ({ key, value: { stringValue } });
let span = 0;
function body(r) {
  const list = [];
  for (let s = 0; s < spans; s++) {
    const traceId = (r * spans + Math.floor(s / (spans / turns))).toString(16).padStart(32, "0");
    const spanId = (++span).toString(16).padStart(16, "0");
    const time = String(BigInt(Date.now()) * 1000000n + BigInt(s));
    if (s % (spans / turns) === 0)
      list.push({ traceId, spanId, name: "turn", startTimeUnixNano: time, events: [{ name: "symfonic.tool_selection", timeUnixNano: time,
        attributes: [attr("symfonic.selection", JSON.stringify({ turn_id: "t-" + r + "-" + s, tools: ["search", "calendar"],
          trace: [{ stage: "intent", action: "select", kept: ["search", "calendar"], dropped: ["mail"], added: [], reinstated: [], forced_choice: null, detail: "" }] }))] }] });
    else
      list.push({ traceId, spanId, name: "chat", startTimeUnixNano: time, attributes: [attr("gen_ai.operation.name", "chat"),
        attr("gen_ai.tool.definitions", JSON.stringify([{ name: "search" }, { name: "calendar" }]))] });
  }
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [attr("service.name", "load")] }, scopeSpans: [{ spans: list }] }] });
}
let next = 0, failed = 0;
const started = performance.now();
async function worker() {
  while (next < requests) {
    const r = next++;
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: body(r) });
    await response.arrayBuffer();
    if (response.status !== 200) failed++;
  }
}
await Promise.all([worker(), worker(), worker(), worker()]);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ failed, seconds, perSecond: requests / seconds }));
`;

describe("the live receiver in the extension host", () => {
  it("keeps its event loop free (no slice over 50 ms) while a client sends 1,000 requests of 100 spans", async () => {
    fake.reset();
    fake.settings.set("paletteInspector.live.port", 0);
    const tree = new TraceTree();
    const view = window.createTreeView("paletteInspector.traces", { treeDataProvider: tree });
    const live = new LiveTraces(
      tree,
      view as unknown as vscode.TreeView<TraceNode>,
      {} as TracePanels,
    );
    await live.start();
    const port = Number(/:(\d+) ·/.exec(fake.statusBarItems[0]!.text)![1]);
    const script = join(tempDir(), "client.mjs");
    writeFileSync(script, CLIENT);

    let output = "";
    const longest = await longestSlice(async () => {
      output = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            script,
            `http://127.0.0.1:${port}/v1/traces`,
            String(REQUESTS),
            String(SPANS),
            String(TURNS_PER_REQUEST),
          ],
          { stdio: ["ignore", "pipe", "inherit"] },
        );
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
        child.on("error", reject);
        child.on("exit", (code) =>
          code === 0 ? resolve(text) : reject(new Error(`the client exited with ${code}`)),
        );
      });
    });
    const result = JSON.parse(output) as { failed: number; seconds: number; perSecond: number };
    console.log(
      `live receiver: ${REQUESTS} requests of ${SPANS} spans in ${result.seconds.toFixed(1)} s (${result.perSecond.toFixed(0)}/s); the host's longest slice ${longest.toFixed(1)} ms`,
    );
    expect(result.failed).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fake.statusBarItems[0]!.text).toBe(
      `$(broadcast) OTLP :${port} · ${REQUESTS * TURNS_PER_REQUEST} turns`,
    );
    expect(longest).toBeLessThan(SLICE_MS);
    await live.stop();
  }, 180_000);
});
