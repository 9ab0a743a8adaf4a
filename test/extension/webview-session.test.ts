import { resolve } from "node:path";
import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TraceSession } from "../../src/extension/panel/session.js";
import { StatsPanels, StatsSession } from "../../src/extension/stats/stats-panels.js";
import { PAGE_TRIES, READY_WAIT_MS, WebviewSession } from "../../src/extension/webview-session.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import {
  parseFromStatsView,
  STATS_REQUEST_TIMEOUTS,
  type FromStatsView,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import { fake, Uri, webviewFake, type FakeWebviewPanel } from "../fakes/vscode.js";

const real = <T>(value: unknown) => value as T;

/** A session whose handler the test writes: it plays the statistics protocol. */
class Probe extends WebviewSession<FromStatsView, ToStatsView> {
  constructor(
    panel: FakeWebviewPanel,
    private readonly handler: (message: FromStatsView, probe: Probe) => Promise<void>,
    readonly logged: string[] = [],
  ) {
    super(
      real<vscode.WebviewPanel>(panel),
      real<vscode.Uri>(Uri.file("/ext")),
      { script: "stats-webview.js", style: "stats.css", title: "Probe" },
      parseFromStatsView,
      STATS_REQUEST_TIMEOUTS,
      (line) => logged.push(line),
    );
  }
  protected handle(message: FromStatsView): Promise<void> {
    return this.handler(message, this);
  }
  say(message: ToStatsView): void {
    this.post(message);
  }
}

const replyTo = (requestId: number, message: string): ToStatsView => ({
  type: "reply",
  requestId,
  ok: true,
  message,
});

function open(handler: (message: FromStatsView, probe: Probe) => Promise<void>) {
  const panel = webviewFake.create("probe", "Probe", {});
  const probe = new Probe(panel, handler);
  panel.webview.receive({ type: "ready" });
  return { panel, probe };
}

const repliesTo = (panel: FakeWebviewPanel, requestId: number) =>
  panel.webview.posted.filter((m) => (m as { requestId?: number }).requestId === requestId);

beforeEach(() => {
  fake.reset();
  webviewFake.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a webview session", () => {
  it("sets up the page: scripts on, files only from dist/ and media/, a CSP with a nonce", () => {
    const panel = webviewFake.create("probe", "Probe", {});
    new Probe(panel, async () => {});
    expect(panel.webview.options).toEqual({
      enableScripts: true,
      localResourceRoots: [Uri.file("/ext/dist"), Uri.file("/ext/media")],
    });
    expect(panel.webview.html).toMatch(/script-src 'nonce-[^']+'/);
    expect(panel.webview.html).toContain('src="https://webview.fake/ext/dist/stats-webview.js"');
    expect(panel.webview.html).toContain("<title>Probe</title>");
    expect(panel.webview.html).toContain(
      '<link rel="stylesheet" href="https://webview.fake/ext/dist/codicons/codicon.css">',
    );
    expect(panel.webview.html).toContain(
      '<link rel="stylesheet" href="https://webview.fake/ext/media/stats.css">',
    );
  });

  it("sets a shown page again when it never says ready (its script did not load), a bounded number of times", () => {
    vi.useFakeTimers();
    const panel = webviewFake.create("probe", "Probe", {});
    const probe = new Probe(panel, async () => {});
    vi.advanceTimersByTime(READY_WAIT_MS - 1);
    expect(panel.webview.htmls).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(panel.webview.htmls).toHaveLength(2);
    // A fresh page: a new nonce, so VS Code loads it again.
    expect(panel.webview.htmls[1]).not.toBe(panel.webview.htmls[0]);
    expect(probe.logged).toEqual([
      `palette-inspector: the webview said nothing ${READY_WAIT_MS / 1000} s after it was set; setting it again`,
    ]);
    vi.advanceTimersByTime(READY_WAIT_MS * 10);
    expect(panel.webview.htmls).toHaveLength(PAGE_TRIES);
    expect(probe.logged.at(-1)).toBe(
      `palette-inspector: the webview said nothing after ${PAGE_TRIES} tries`,
    );
    // The page that finally loads is answered as ever.
    panel.webview.receive({ type: "ready" });
    probe.say({ type: "stats" } as unknown as ToStatsView);
    expect(panel.webview.posted).toEqual([{ type: "stats" }]);
  });

  it("leaves a page that said ready, or that is hidden, as it is", () => {
    vi.useFakeTimers();
    const { panel } = open(async () => {});
    vi.advanceTimersByTime(READY_WAIT_MS * 3);
    expect(panel.webview.htmls).toHaveLength(1);
    const hidden = webviewFake.create("probe", "Probe", {});
    hidden.visible = false;
    new Probe(hidden, async () => {});
    vi.advanceTimersByTime(READY_WAIT_MS * 3);
    expect(hidden.webview.htmls).toHaveLength(1);
    // Shown again and still silent: set again.
    hidden.visible = true;
    vi.advanceTimersByTime(READY_WAIT_MS);
    expect(hidden.webview.htmls).toHaveLength(2);
  });

  it("listens only once the page says ready, whatever it sent before", () => {
    const panel = webviewFake.create("probe", "Probe", {});
    const probe = new Probe(panel, async () => {});
    panel.webview.receive({ type: "openTrace", ref: 1, tool: "sql" });
    probe.say({ type: "stats" } as unknown as ToStatsView);
    expect(panel.webview.posted).toEqual([]);
    panel.webview.receive({ type: "ready" });
    probe.say({ type: "stats" } as unknown as ToStatsView);
    expect(panel.webview.posted).toEqual([{ type: "stats" }]);
  });

  it("answers a message that is no request with nothing, and logs its handler's failure", async () => {
    const { panel, probe } = open(async (message) => {
      if (message.type === "openTrace") throw new Error("trace gone");
    });
    panel.webview.receive({ type: "openTrace", ref: 1, tool: "sql" });
    await vi.waitFor(() => expect(probe.logged).toHaveLength(1));
    expect(probe.logged).toEqual([
      "palette-inspector: the webview's 'openTrace' request failed: trace gone",
    ]);
    await new Promise((r) => setTimeout(r, 0));
    expect(panel.webview.posted).toEqual([]);
    expect(fake.shown).toEqual([]);
  });

  it("drops a message the protocol does not know, without a notification", async () => {
    const handled: string[] = [];
    const { panel } = open(async (message) => {
      handled.push(message.type);
    });
    panel.webview.receive({ type: "bogus" });
    await new Promise((r) => setTimeout(r, 0));
    expect(handled).toEqual(["ready"]);
    expect(fake.shown).toEqual([]);
  });

  it("reports a handler that throws before it returns a promise", async () => {
    const { panel } = open((message) => {
      if (message.type === "openTrace") throw new Error("not async");
      return Promise.resolve();
    });
    panel.webview.receive({ type: "openTrace", ref: 1, tool: "sql" });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(1));
    expect(fake.shown[0]).toEqual({
      kind: "error",
      message: "Palette Inspector: Answering the page: not async",
    });
  });

  it("logs a message the webview did not take", async () => {
    const { panel, probe } = open(async () => {});
    vi.spyOn(panel.webview, "postMessage").mockRejectedValue(new Error("webview gone"));
    probe.say({ type: "stats" } as unknown as ToStatsView);
    await vi.waitFor(() => expect(probe.logged).toHaveLength(1));
    expect(probe.logged).toEqual([
      "palette-inspector: a message to the webview was not delivered: Error: webview gone",
    ]);
  });

  it("leaves no timer behind once a request is answered", async () => {
    vi.useFakeTimers();
    const { panel } = open(async (message, probe) => {
      if (message.type === "copyMarkdown") probe.say(replyTo(message.requestId, "copied"));
    });
    panel.webview.receive({ type: "copyMarkdown", requestId: 9, tools: [] });
    await vi.advanceTimersByTimeAsync(0);
    expect(repliesTo(panel, 9)).toEqual([replyTo(9, "copied")]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("posts nothing before the page says ready", () => {
    const panel = webviewFake.create("probe", "Probe", {});
    const probe = new Probe(panel, async () => {});
    probe.say({ type: "stats" } as unknown as ToStatsView);
    expect(panel.webview.posted).toEqual([]);
  });

  it("answers a request whose handler throws with one failed reply, and logs why", async () => {
    const { panel, probe } = open(async (message) => {
      if (message.type === "saveCsv") throw new Error("disk full");
    });
    panel.webview.receive({ type: "saveCsv", requestId: 3, tools: [] });
    await vi.waitFor(() => expect(repliesTo(panel, 3)).toHaveLength(1));
    expect(repliesTo(panel, 3)[0]).toEqual({
      type: "reply",
      requestId: 3,
      ok: false,
      message: "That did not work: disk full (details in the Palette Inspector log).",
    });
    expect(probe.logged).toEqual([
      "palette-inspector: the webview's 'saveCsv' request failed: disk full",
    ]);
  });

  it("answers a request its handler forgot with a failed reply", async () => {
    const { panel } = open(async () => {});
    panel.webview.receive({ type: "copyMarkdown", requestId: 4, tools: [] });
    await vi.waitFor(() => expect(repliesTo(panel, 4)).toHaveLength(1));
    expect(repliesTo(panel, 4)[0]).toEqual({
      type: "reply",
      requestId: 4,
      ok: false,
      message: "That did not work: the host gave no answer (details in the Palette Inspector log).",
    });
  });

  it("sends a request's first reply only", async () => {
    const { panel } = open(async (message, probe) => {
      if (message.type !== "copyMarkdown") return;
      probe.say(replyTo(message.requestId, "first"));
      probe.say(replyTo(message.requestId, "second"));
    });
    panel.webview.receive({ type: "copyMarkdown", requestId: 5, tools: [] });
    await vi.waitFor(() => expect(repliesTo(panel, 5)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(repliesTo(panel, 5)).toEqual([replyTo(5, "first")]);
  });

  it("answers a request that outlives its timeout with a failed reply, and drops the late one", async () => {
    vi.useFakeTimers();
    let finish = () => {};
    const { panel } = open(
      (message, probe) =>
        new Promise<void>((done) => {
          finish = () => {
            if (message.type === "missing") probe.say(replyTo(message.requestId, "late"));
            done();
          };
        }),
    );
    panel.webview.receive({ type: "missing", requestId: 6, tool: "sql" });
    await vi.advanceTimersByTimeAsync(STATS_REQUEST_TIMEOUTS.missing - 1);
    expect(repliesTo(panel, 6)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(repliesTo(panel, 6)).toEqual([
      {
        type: "reply",
        requestId: 6,
        ok: false,
        message:
          "That did not work: it took longer than 30 s (details in the Palette Inspector log).",
      },
    ]);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(repliesTo(panel, 6)).toHaveLength(1);
  });

  it("stops listening when disposed", async () => {
    const handled: string[] = [];
    const { panel, probe } = open(async (message) => {
      handled.push(message.type);
    });
    probe.dispose();
    panel.webview.receive({ type: "ready" });
    await new Promise((r) => setTimeout(r, 0));
    expect(handled).toEqual(["ready"]);
  });

  it("stops listening when its panel is closed", async () => {
    const handled: string[] = [];
    const { panel } = open(async (message) => {
      handled.push(message.type);
    });
    panel.dispose();
    panel.webview.receive({ type: "ready" });
    await new Promise((r) => setTimeout(r, 0));
    expect(handled).toEqual(["ready"]);
  });

  it("is the base of both the trace panel's and the statistics view's sessions", () => {
    expect(Object.getPrototypeOf(TraceSession)).toBe(WebviewSession);
    expect(Object.getPrototypeOf(StatsSession)).toBe(WebviewSession);
  });
});

describe("the statistics view's requests", () => {
  it("a 'missing' request whose work throws still gets its one failed reply", async () => {
    fake.addWorkspaceFolder(resolve("."));
    const traces = real<TracePanels>({ showReport: () => {} });
    const panels = new StatsPanels(real<vscode.Uri>(Uri.file(resolve("."))), traces);
    const session = (await panels.show([real<vscode.Uri>(Uri.file(resolve("examples/logs")))]))!;
    const panel = webviewFake.panels.at(-1)!;
    panel.webview.receive({ type: "ready" });
    vi.spyOn(session, "missing").mockImplementation(() => {
      throw new Error("samples gone");
    });
    panel.webview.receive({ type: "missing", requestId: 8, tool: "sql" });
    await vi.waitFor(() => expect(repliesTo(panel, 8)).toHaveLength(1));
    expect(repliesTo(panel, 8)[0]).toMatchObject({
      type: "reply",
      ok: false,
      message: expect.stringContaining("samples gone"),
    });
  });
});
