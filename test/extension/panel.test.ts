import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { reportFromTrace } from "../../src/core/traces/report.js";
import { scanText } from "../../src/core/traces/scan.js";
import {
  EventEmitter,
  fake,
  Uri,
  ViewColumn,
  webviewFake,
  type FakeWebviewPanel,
} from "../fakes/vscode.js";
import { loadFixtureFromUri as load } from "../../src/extension/fixtures.js";
import { TracePanels, TRACE_VIEW_TYPE } from "../../src/extension/panel/panels.js";
import { reportView, type RunReport } from "../../src/core/report.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { RERUN_DEBOUNCE_MS } from "../../src/extension/panel/session.js";
import { parseToWebview, type ToWebview } from "../../src/protocol.js";
import { showOf } from "../builders/panel.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

const CATALOG = JSON.stringify([
  { name: "search", summary: "Search.", safety_level: "low" },
  { name: "sql", summary: "SQL.", safety_level: "high" },
  { name: "final_answer", summary: "Answer." },
]);
const FIXTURE = {
  description: "two stages",
  catalog: "../catalog/tools.catalog.json",
  turn: { role: "analyst" },
  pipeline: [
    { kind: "forced", resolver: { kind: "fixed", tool: "search" } },
    { kind: "policy", max_safety_level: "medium" },
  ],
};

const extensionUri = Uri.file("/ext");
let panels: TracePanels;
let logged: string[];
let fixtureUri: Uri;

beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  fake.addWorkspaceFolder("/ws");
  logged = [];
  fake.writeFile("/ws/catalog/tools.catalog.json", CATALOG);
  fixtureUri = fake.writeFile("/ws/turns/weather.turn.json", JSON.stringify(FIXTURE, null, 2));
  panels = new TracePanels(extensionUri, load, (message) => logged.push(message));
});
afterEach(() => {
  panels.dispose();
  vi.useRealTimers();
});

const posted = (panel: FakeWebviewPanel) => panel.webview.posted as ToWebview[];
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
/**
 * Waits until the panel has posted `count` messages: the loader reads files asynchronously, and
 * the test's own timeout bounds the wait.
 */
const postedCount = (panel: FakeWebviewPanel, count: number) =>
  vi.waitFor(() => expect(panel.webview.posted).toHaveLength(count), { timeout: 30_000 });
async function openReady(): Promise<FakeWebviewPanel> {
  await panels.showFixture(fixtureUri);
  const panel = webviewFake.panels.at(-1)!;
  panel.webview.receive({ type: "ready", edit: {} });
  await postedCount(panel, 1);
  return panel;
}
/** Lets debounced work start under fake timers, then waits in real time for the file reads. */
async function afterDebounce(panel: FakeWebviewPanel, count: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(RERUN_DEBOUNCE_MS + 10);
  vi.useRealTimers();
  await postedCount(panel, count);
}
async function request(
  panel: FakeWebviewPanel,
  message: Record<string, unknown>,
): Promise<ToWebview> {
  const before = panel.webview.posted.length;
  panel.webview.receive(message);
  await vi.waitFor(() => expect(panel.webview.posted.length).toBeGreaterThan(before), {
    timeout: 30_000,
  });
  return posted(panel).at(-1)!;
}

describe("TracePanels.showFixture", () => {
  it("opens a panel whose page allows only its own nonce'd script and files from dist and media", async () => {
    await panels.showFixture(fixtureUri);
    const panel = webviewFake.panels[0]!;
    expect(panel.viewType).toBe(TRACE_VIEW_TYPE);
    expect(panel.title).toBe("Selection Trace: weather.turn.json");
    const options = panel.webview.options as {
      enableScripts: boolean;
      localResourceRoots: Uri[];
      retainContextWhenHidden?: boolean;
    };
    expect(options.enableScripts).toBe(true);
    expect(options.localResourceRoots.map(String)).toEqual([
      "file:///ext/dist",
      "file:///ext/media",
    ]);
    expect(
      (panel.createOptions as { retainContextWhenHidden?: boolean }).retainContextWhenHidden,
    ).toBeUndefined();
    const html = panel.webview.html;
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)![1]!;
    expect(html).toContain(
      `default-src 'none'; img-src https://webview.fake; style-src https://webview.fake 'nonce-${nonce}'; font-src https://webview.fake; script-src 'nonce-${nonce}'`,
    );
    expect(html).toMatch(
      new RegExp(
        `<script nonce="${nonce.replace(/[+/=]/g, "\\$&")}" src="[^"]*/ext/dist/webview\\.js"></script>`,
      ),
    );
    expect(html).toMatch(/<link rel="stylesheet" href="[^"]*\/ext\/media\/panel\.css">/);
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("posts nothing before ready, then the run, the levers and the source", async () => {
    await panels.showFixture(fixtureUri);
    const panel = webviewFake.panels[0]!;
    await flush();
    expect(panel.webview.posted).toEqual([]);
    panel.webview.receive({ type: "ready", edit: {} });
    await postedCount(panel, 1);
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.report.names).toEqual(["search", "final_answer"]);
    expect(show.view.report.trace.map((r) => r.action)).toEqual(["force", "select"]);
    expect(show.view.levers?.policies).toEqual([
      { stage: "policy", maxSafetyLevel: "medium", budgetUsd: null },
    ]);
    expect(show.view.source).toBe("file:///ws/turns/weather.turn.json");
  });

  it("reveals and re-runs an open panel instead of opening a second", async () => {
    const panel = await openReady();
    await panels.showFixture(fixtureUri);
    expect(webviewFake.panels).toHaveLength(1);
    expect(panel.revealed).toBe(1);
    await postedCount(panel, 2);
    expect(posted(panel).filter((m) => m.type === "show")).toHaveLength(2);
  });

  it("renders a fresh nonce each time the page is built", async () => {
    const panel = await openReady();
    panels.open[0]!.render();
    const nonces = panel.webview.htmls.map((html) => /nonce-([^']+)'/.exec(html)![1]);
    expect(nonces).toHaveLength(2);
    expect(nonces[0]).not.toBe(nonces[1]);
  });
});

describe("an invalid fixture", () => {
  it("shows its problems with 1-based line and column", async () => {
    fake.writeFile("/ws/turns/weather.turn.json", '{\n  "pipeline": [ { "kind": "intnet" } ]\n}');
    const panel = await openReady();
    const message = posted(panel)[0]!;
    expect(message).toMatchObject({
      type: "problems",
      file: "/ws/turns/weather.turn.json",
      source: "file:///ws/turns/weather.turn.json",
    });
    if (message.type !== "problems") throw new Error();
    // A place people read: the workspace-relative path, never the loader's file:/// URI.
    expect(message.problems[0]).toMatchObject({
      severity: "error",
      file: "turns/weather.turn.json",
      line: 2,
      column: 27,
    });
    expect(message.problems[0]!.message).toMatch(
      /^unknown stage kind "intnet"; .* \(at \$\.pipeline\[0\]\.kind\)$/,
    );
  });

  it("places a problem of its catalogue in the catalogue file", async () => {
    fake.writeFile("/ws/catalog/tools.catalog.json", '[{"name": "a"}, {"name": "a"}]');
    const panel = await openReady();
    const message = posted(panel)[0]!;
    if (message.type !== "problems") throw new Error(message.type);
    expect(message.problems.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual([
      "catalog/tools.catalog.json:1:26",
    ]);
  });

  it("names its files relative to their folder, without the folder's name in a multi-root workspace", async () => {
    fake.addWorkspaceFolder("/other");
    fixtureUri = Uri.file("/ws/turns/missing.turn.json");
    const panel = await openReady();
    const message = posted(panel)[0]!;
    if (message.type !== "problems") throw new Error(message.type);
    expect(message.problems.map((p) => [p.file, p.message])).toEqual([
      ["turns/missing.turn.json", "cannot read turns/missing.turn.json: the file does not exist"],
    ]);
  });

  it("re-runs on unsaved edits, and shows the run once they fix it", async () => {
    fake.writeFile("/ws/turns/weather.turn.json", '{ "pipeline": [ { "kind": "intnet" } ] }');
    const panel = await openReady();
    expect(posted(panel)[0]!.type).toBe("problems");
    vi.useFakeTimers();
    fake.editDocument(fake.openDocument(fixtureUri), JSON.stringify(FIXTURE));
    await afterDebounce(panel, 2);
    expect(posted(panel)[1]!.type).toBe("show");
  });

  it("shows a loader failure as one problem, never a stack", async () => {
    fixtureUri = Uri.file("/ws/turns/missing.turn.json");
    const panel = await openReady();
    const message = posted(panel)[0]!;
    if (message.type !== "problems") throw new Error(message.type);
    expect(message.problems).toEqual([
      {
        severity: "error",
        file: "turns/missing.turn.json",
        line: 1,
        column: 1,
        message: "cannot read turns/missing.turn.json: the file does not exist",
      },
    ]);
    expect(JSON.stringify(message)).not.toMatch(/\n\s+at /);
  });
});

describe("live re-run", () => {
  it("re-runs on unsaved edits of the fixture, debounced", async () => {
    const panel = await openReady();
    vi.useFakeTimers();
    const document = fake.openDocument(fixtureUri);
    fake.editDocument(document, JSON.stringify({ ...FIXTURE, pipeline: [FIXTURE.pipeline[1]] }));
    fake.editDocument(document, JSON.stringify({ ...FIXTURE, pipeline: [] }));
    await afterDebounce(panel, 2);
    const shows = posted(panel).filter((m) => m.type === "show");
    expect(shows).toHaveLength(2);
    if (shows[1]!.type !== "show") throw new Error();
    expect(shows[1]!.view.report.trace).toEqual([]);
  });

  it("shows the newest text when an older run finishes later", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // The second load reads the text at once but answers only when released.
    const slowFirst = async (uri: Uri) => {
      const result = load(uri);
      if (calls++ === 1) await gate;
      return result;
    };
    const own = new TracePanels(extensionUri, slowFirst, () => {});
    try {
      await own.showFixture(fixtureUri);
      const panel = webviewFake.panels.at(-1)!;
      panel.webview.receive({ type: "ready", edit: {} });
      await flush();
      const document = fake.openDocument(fixtureUri);
      const older = own.open[0]!.refresh();
      fake.editDocument(document, JSON.stringify({ ...FIXTURE, pipeline: [] }));
      await own.open[0]!.refresh();
      release();
      await older;
      const last = posted(panel)
        .filter((m) => m.type === "show")
        .at(-1)!;
      if (last.type !== "show") throw new Error();
      expect(last.view.report.trace).toEqual([]);
    } finally {
      own.dispose();
    }
  });

  it("re-runs when the catalogue changes, and ignores other documents", async () => {
    const panel = await openReady();
    vi.useFakeTimers();
    fake.editDocument(fake.openDocument(Uri.file("/ws/other.json"), "{}"), "{ }");
    await vi.advanceTimersByTimeAsync(RERUN_DEBOUNCE_MS + 10);
    expect(posted(panel)).toHaveLength(1);
    // A re-run the other document started would post before the catalogue's, which starts later.
    const catalog = fake.openDocument(Uri.file("/ws/catalog/tools.catalog.json"));
    fake.editDocument(
      catalog,
      JSON.stringify([
        { name: "search", safety_level: "low" },
        { name: "sql", safety_level: "low" },
      ]),
    );
    await afterDebounce(panel, 2);
    const last = posted(panel).at(-1)!;
    if (last.type !== "show") throw new Error(last.type);
    expect(last.view.report.names).toEqual(["search", "sql"]);
    expect(posted(panel)).toHaveLength(2);
  });

  it("re-runs when the fixture changes on disk", async () => {
    const panel = await openReady();
    vi.useFakeTimers();
    fake.writeFile(
      "/ws/turns/weather.turn.json",
      JSON.stringify({ ...FIXTURE, description: "changed on disk" }),
    );
    await afterDebounce(panel, 2);
    const last = posted(panel).at(-1)!;
    if (last.type !== "show") throw new Error(last.type);
    expect(last.view.report.description).toBe("changed on disk");
  });

  it("re-runs when a fixture whose name holds glob characters changes on disk", async () => {
    fixtureUri = fake.writeFile("/ws/turns/weather[eu] {v2}.turn.json", JSON.stringify(FIXTURE));
    const panel = await openReady();
    vi.useFakeTimers();
    fake.writeFile(
      "/ws/turns/weather[eu] {v2}.turn.json",
      JSON.stringify({ ...FIXTURE, description: "changed on disk" }),
    );
    await afterDebounce(panel, 2);
    const last = posted(panel).at(-1)!;
    if (last.type !== "show") throw new Error(last.type);
    expect(last.view.report.description).toBe("changed on disk");
  });

  it("re-runs when a fixture with no catalogue file changes on disk", async () => {
    fixtureUri = fake.writeFile(
      "/ws/turns/inline.turn.json",
      JSON.stringify({ offered: ["a"], pipeline: [] }),
    );
    const panel = await openReady();
    vi.useFakeTimers();
    fake.writeFile(
      "/ws/turns/inline.turn.json",
      JSON.stringify({ offered: ["a", "b"], pipeline: [] }),
    );
    await afterDebounce(panel, 2);
    const last = posted(panel).at(-1)!;
    if (last.type !== "show") throw new Error(last.type);
    expect(last.view.report.names).toEqual(["a", "b"]);
  });

  it("re-runs when its catalogue changes on disk", async () => {
    const panel = await openReady();
    vi.useFakeTimers();
    // sql falls under the policy's ceiling once it is rated low.
    fake.writeFile("/ws/catalog/tools.catalog.json", CATALOG.replace('"high"', '"low"'));
    await afterDebounce(panel, 2);
    const last = posted(panel).at(-1)!;
    if (last.type !== "show") throw new Error(last.type);
    expect(last.view.report.names).toEqual(["search", "sql", "final_answer"]);
  });

  it("does not re-run for a file beside it that only the watcher's escaped glob matches", async () => {
    // The watcher's glob is "w?1?.turn.json": the file it names is picked out by its URI.
    fixtureUri = fake.writeFile("/ws/turns/w[1].turn.json", JSON.stringify(FIXTURE));
    const panel = await openReady();
    vi.useFakeTimers();
    fake.writeFile("/ws/turns/wx1y.turn.json", JSON.stringify(FIXTURE));
    await vi.advanceTimersByTimeAsync(RERUN_DEBOUNCE_MS + 10);
    vi.useRealTimers();
    await flush();
    expect(posted(panel)).toHaveLength(1);
  });

  it("does not re-run when a file beside the fixture changes on disk", async () => {
    const panel = await openReady();
    vi.useFakeTimers();
    fake.writeFile("/ws/turns/other.turn.json", JSON.stringify(FIXTURE));
    fake.writeFile("/ws/turns/weather.turn.json.bak", "{}");
    await vi.advanceTimersByTimeAsync(RERUN_DEBOUNCE_MS + 10);
    expect(posted(panel)).toHaveLength(1);
    // A re-run those files started would post before the fixture's own, which starts later.
    fake.writeFile(
      "/ws/turns/weather.turn.json",
      JSON.stringify({ ...FIXTURE, description: "changed on disk" }),
    );
    await afterDebounce(panel, 2);
    const last = posted(panel).at(-1)!;
    if (last.type !== "show") throw new Error(last.type);
    expect(last.view.report.description).toBe("changed on disk");
    expect(posted(panel)).toHaveLength(2);
  });
});

describe("what-if", () => {
  it("answers with the variant's run and its comparison with the unmodified run", async () => {
    const panel = await openReady();
    const reply = await request(panel, {
      type: "whatIf",
      requestId: 7,
      edit: { policies: { policy: { maxSafetyLevel: "high" } } },
    });
    if (reply.type !== "whatIfResult") throw new Error(reply.type);
    expect(reply.requestId).toBe(7);
    expect(reply.variant.names).toEqual(["search", "sql", "final_answer"]);
    expect(reply.comparison.final.onlyVariant).toEqual(["sql"]);
    expect(reply.comparison.stages[1]).toMatchObject({
      stage: "policy",
      dropped: { onlyBase: ["sql"], onlyVariant: [] },
    });
  });

  it("refuses an edit naming a stage the fixture lacks, or one that makes an invalid fixture", async () => {
    const panel = await openReady();
    expect(
      await request(panel, { type: "whatIf", requestId: 1, edit: { enabled: { ghost: false } } }),
    ).toEqual({
      type: "reply",
      requestId: 1,
      ok: false,
      message: "no stage named 'ghost' in the pipeline",
    });
    const invalid = await request(panel, {
      type: "whatIf",
      requestId: 2,
      edit: { policies: { policy: { maxSafetyLevel: "extreme" } } },
    });
    expect(invalid).toMatchObject({ type: "reply", requestId: 2, ok: false });
    if (invalid.type !== "reply") throw new Error();
    expect(invalid.message).toMatch(
      /not a valid fixture: safety level 'extreme' is not on the scale/,
    );
  });

  it("a live re-run with a what-if active posts one show that carries the variant, run on the new text", async () => {
    const panel = await openReady();
    const edit = { policies: { policy: { maxSafetyLevel: "high" } } };
    await request(panel, { type: "whatIf", requestId: 1, edit });
    const before = posted(panel).length;
    vi.useFakeTimers();
    fake.editDocument(
      fake.openDocument(fixtureUri),
      JSON.stringify({ ...FIXTURE, description: "edited" }),
    );
    await vi.advanceTimersByTimeAsync(RERUN_DEBOUNCE_MS + 10);
    const after = posted(panel).slice(before);
    expect(after.map((m) => m.type)).toEqual(["show"]);
    const show = after[0]!;
    if (show.type !== "show" || show.view.whatIf === null || "error" in show.view.whatIf)
      throw new Error("no variant");
    expect(show.view.report.description).toBe("edited");
    expect(show.view.whatIf.edit).toEqual(edit);
    expect(show.view.whatIf.variant.description).toBe("edited");
    expect(show.view.whatIf.variant.names).toEqual(["search", "sql", "final_answer"]);
    expect(show.view.whatIf.comparison.final.onlyVariant).toEqual(["sql"]);
  });

  it("after clearWhatIf, or a ready with no edit, live re-runs carry no what-if; a ready with an edit runs it at once", async () => {
    const panel = await openReady();
    await request(panel, { type: "whatIf", requestId: 1, edit: { enabled: { policy: false } } });
    panel.webview.receive({ type: "clearWhatIf" });
    await panels.open[0]!.refresh();
    const cleared = posted(panel).at(-1)!;
    if (cleared.type !== "show") throw new Error(cleared.type);
    expect(cleared.view.whatIf).toBeNull();
    panel.webview.receive({ type: "ready", edit: { enabled: { policy: false } } });
    await vi.waitFor(() =>
      expect(posted(panel).at(-1)!.type === "show" && posted(panel).length).toBe(4),
    );
    const restored = posted(panel).at(-1)!;
    if (restored.type !== "show") throw new Error(restored.type);
    expect(restored.view.whatIf).toMatchObject({ edit: { enabled: { policy: false } } });
  });

  it("a ready with an edit the fixture cannot take shows the run with the what-if's error", async () => {
    await panels.showFixture(fixtureUri);
    const panel = webviewFake.panels.at(-1)!;
    const edit = { enabled: { ghost: false } };
    panel.webview.receive({ type: "ready", edit });
    await postedCount(panel, 1);
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.whatIf).toEqual({ edit, error: "no stage named 'ghost' in the pipeline" });
    expect(show.view.report.names).toEqual(["search", "final_answer"]);
  });

  it("restores no what-if from a saved one that moves no lever", async () => {
    await panels.showFixture(fixtureUri);
    const panel = webviewFake.panels.at(-1)!;
    panel.webview.receive({ type: "ready", edit: { enabled: {}, verdicts: {} } });
    await postedCount(panel, 1);
    const shown = posted(panel)[0]!;
    if (shown.type !== "show") throw new Error(shown.type);
    expect(shown.view.whatIf).toBeNull();
  });

  it("posts no tool objects: the report and the variant carry names, never `tools`", async () => {
    const panel = await openReady();
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.report).not.toHaveProperty("tools");
    const reply = await request(panel, { type: "whatIf", requestId: 2, edit: { role: "x" } });
    if (reply.type !== "whatIfResult") throw new Error(reply.type);
    expect(reply.variant).not.toHaveProperty("tools");
  });

  it("ignores and logs malformed or unknown messages", async () => {
    const panel = await openReady();
    panel.webview.receive({ type: "whatIf", requestId: 1, edit: { enabled: { policy: "off" } } });
    panel.webview.receive({ type: "rm -rf" });
    panel.webview.receive("ready");
    await flush();
    expect(panel.webview.posted).toHaveLength(1);
    expect(logged).toHaveLength(3);
    expect(logged[1]).toMatch(
      /ignored a malformed or unknown message from the webview \(type "rm -rf"\)/,
    );
  });
});

describe("Copy as Markdown", () => {
  it("puts the waterfall of the run (or of the what-if) on the clipboard", async () => {
    fake.addWorkspaceFolder("/ws");
    const panel = await openReady();
    expect(await request(panel, { type: "copyMarkdown", requestId: 3, run: "shown" })).toEqual({
      type: "reply",
      requestId: 3,
      ok: true,
      message: "Copied the waterfall as Markdown.",
    });
    expect(fake.clipboard).toMatch(/^### Selection trace: turns\/weather\.turn\.json\n/);
    expect(fake.clipboard).toMatch(/\| 2 \| policy \| policy \| select \| 3 → 2 \|/);
    await request(panel, { type: "whatIf", requestId: 4, edit: { enabled: { policy: false } } });
    await request(panel, { type: "copyMarkdown", requestId: 5, run: "whatIf" });
    expect(fake.clipboard).toMatch(
      /^### Selection trace: turns\/weather\.turn\.json \(what-if\)\n/,
    );
    expect(fake.clipboard).toMatch(/\| 2 \| policy \| policy \| disabled \|/);
  });
});

describe("Copy as Markdown copies what is on screen", () => {
  it("copies a comparison as the second run's waterfall and the two runs stage by stage, both sides named", async () => {
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error("the test fixture did not load");
    const { applyWhatIf } = await import("../../src/core/whatif.js");
    const base = {
      ...runFixture(loaded.fixture),
      origin: { kind: "log" as const, line: 3, index: 0 },
      file: "/ws/one.log",
    };
    const variant = {
      ...runFixture(
        loaded.fixture,
        applyWhatIf(loaded.fixture.json, { enabled: { policy: false } }),
      ),
      origin: { kind: "log" as const, line: 9, index: 2 },
      file: "/ws/two.log",
    };
    panels.showComparison(base, variant);
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "ready", edit: {} });
    await flush();
    expect(
      await request(panel, { type: "copyMarkdown", requestId: 1, run: "shown" }),
    ).toMatchObject({
      ok: true,
      message: "Copied the waterfall and the comparison as Markdown.",
    });
    const text = fake.clipboard;
    expect(text).toMatch(/^### Selection trace: two\.log, line 9\n/);
    expect(text).toContain(`Offered 3 → final ${variant.names.length};`);
    // "#1" would link to an issue on GitHub: a name that holds one is a code span.
    expect(text).toContain("#### Compared: `one.log #1` ↔ `two.log #3`");
    expect(text).toContain("A: `one.log #1`  \nB: `two.log #3`");
    expect(text).toMatch(/\| policy \| [^|]+ \| select \| disabled \|/);
    expect(text).toContain("Final palette: sql only in `two.log #3`.");
    expect(text).toContain(
      "handed on here only in A: search, final\\_answer; B ends with them too",
    );
  });

  it("copies the what-if the page shows again after it was hidden and reloaded", async () => {
    const edit = { enabled: { policy: false } };
    await panels.showFixture(fixtureUri);
    const panel = webviewFake.panels.at(-1)!;
    // A page reloaded after a tab switch says which levers it keeps; the host runs them once.
    panel.webview.receive({ type: "ready", edit });
    await postedCount(panel, 1);
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.whatIf).toMatchObject({ edit });
    expect(
      await request(panel, { type: "copyMarkdown", requestId: 2, run: "whatIf" }),
    ).toMatchObject({
      ok: true,
    });
    expect(fake.clipboard).toMatch(
      /^### Selection trace: turns\/weather\.turn\.json \(what-if\)\n/,
    );
    expect(fake.clipboard).toContain("#### Compared: the fixture's run ↔ the what-if");
    expect(fake.clipboard).toMatch(/\| policy \| [^|]+ \| select \| disabled \|/);
  });
});

describe("Save as fixture…", () => {
  const edit = { policies: { policy: { maxSafetyLevel: "high" } } };

  it("writes the variant to a new file, with the catalogue path still pointing at the catalogue", async () => {
    const panel = await openReady();
    fake.answers.saveDialog.push(Uri.file("/ws/variants/high.turn.json"));
    expect(await request(panel, { type: "saveVariant", requestId: 5, edit })).toEqual({
      type: "reply",
      requestId: 5,
      ok: true,
      message: "Saved variants/high.turn.json.",
    });
    // The dialog proposes a what-if name beside the fixture, and says what it saves.
    expect(fake.dialogs.at(-1)).toEqual({
      defaultUri: Uri.file("/ws/turns/weather.whatif.turn.json"),
      filters: { "Turn fixture": ["json"] },
      saveLabel: "Save what-if as fixture",
      title: "Save the what-if as a new fixture",
    });
    expect(fake.shownDocuments.at(-1)!.options).toEqual({ viewColumn: ViewColumn.One });
    const saved = JSON.parse(fake.files.get("file:///ws/variants/high.turn.json")!);
    expect(saved.catalog).toBe("../catalog/tools.catalog.json");
    expect(saved.pipeline[1]).toEqual({ kind: "policy", max_safety_level: "high" });
    expect(JSON.parse(fake.files.get(fixtureUri.toString())!)).toEqual(FIXTURE);
  });

  it("Save as fixture describes the variant, opens it, and expects what it now decides", async () => {
    const panel = await openReady();
    fake.answers.saveDialog.push(Uri.file("/ws/variants/support.turn.json"));
    const variant = { role: "support", policies: { policy: { maxSafetyLevel: "high" } } };
    expect(
      await request(panel, { type: "saveVariant", requestId: 6, edit: variant }),
    ).toMatchObject({ ok: true });
    const saved = JSON.parse(fake.files.get("file:///ws/variants/support.turn.json")!);
    expect(saved.description).toBe(
      "what-if of weather.turn.json: role support; policy ceiling high",
    );
    expect(saved.turn).toEqual({ role: "support" });
    expect(saved.expect).toEqual({
      names: ["search", "sql", "final_answer"],
      forced_choice: "search",
    });
    expect(fake.shownDocuments.at(-1)!.uri.toString()).toBe(
      "file:///ws/variants/support.turn.json",
    );
  });

  it("never overwrites silently: cancel, the fixture itself, and an existing file not confirmed", async () => {
    const panel = await openReady();
    const before = new Map(fake.files);
    fake.answers.saveDialog.push(undefined);
    expect(await request(panel, { type: "saveVariant", requestId: 1, edit })).toMatchObject({
      ok: false,
      message: "Not saved.",
    });
    // Even when the user says Replace to the fixture itself.
    fake.answers.saveDialog.push(fixtureUri);
    fake.answers.message.push("Replace");
    expect(await request(panel, { type: "saveVariant", requestId: 2, edit })).toEqual({
      type: "reply",
      requestId: 2,
      ok: false,
      message: "Not saved: that is the fixture itself; choose a new name.",
    });
    fake.answers.saveDialog.push(Uri.file("/ws/catalog/tools.catalog.json"));
    fake.answers.message.push(undefined);
    expect(await request(panel, { type: "saveVariant", requestId: 3, edit })).toMatchObject({
      ok: false,
      message: "Not saved.",
    });
    expect(fake.shown.at(-1)!.message).toMatch(/already exists\. Replace it\?/);
    expect(fake.files).toEqual(before);
  });

  it("replaces an existing file only when the user says Replace", async () => {
    const panel = await openReady();
    fake.writeFile("/ws/turns/old.turn.json", "{}");
    fake.answers.saveDialog.push(Uri.file("/ws/turns/old.turn.json"));
    fake.answers.message.push("Replace");
    expect(await request(panel, { type: "saveVariant", requestId: 1, edit })).toMatchObject({
      ok: true,
    });
    expect(JSON.parse(fake.files.get("file:///ws/turns/old.turn.json")!).catalog).toBe(
      "../catalog/tools.catalog.json",
    );
  });
});

/** The test fixture's run as a trace logged in `file`: at a line, the index-th trace of the log. */
async function loggedRun(file: string): Promise<(line: number, index?: number) => RunReport> {
  const loaded = await load(fixtureUri);
  if (!loaded.ok) throw new Error("the test fixture did not load");
  return (line, index = 0) => ({
    ...runFixture(loaded.fixture),
    origin: { kind: "log", line, index },
    file,
  });
}

describe("showReport (a logged trace)", () => {
  it("shows the report read-only: no levers, no source, no what-if", async () => {
    const report = (await loggedRun("/ws/app.log"))(12, 3);
    panels.showReport(report);
    const panel = webviewFake.panels[0]!;
    expect(panel.title).toBe("Selection Trace: #4 app.log:12");
    panel.webview.receive({ type: "ready", edit: {} });
    await flush();
    expect(posted(panel)[0]).toEqual(showOf(reportView(report)));
    expect(await request(panel, { type: "whatIf", requestId: 1, edit: {} })).toMatchObject({
      type: "reply",
      ok: false,
    });
  });
});

describe("showReport (a turn read from OpenTelemetry)", () => {
  it("posts the model call the turn fed, which the page's parser accepts, and copies it as Markdown", async () => {
    const found = scanText(readFileSync("examples/otel/turns.otlp.jsonl", "utf8")).traces[2]!;
    const report = reportFromTrace(found, "/ws/turns.otlp.jsonl");
    panels.showReport(report);
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "ready", edit: {} });
    await flush();
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.report.model).toEqual(report.model);
    expect(show.view.report.model?.called_not_offered).toEqual(["send_email"]);
    expect(parseToWebview(JSON.parse(JSON.stringify(show)), () => {})).toEqual(show);
    await request(panel, { type: "copyMarkdown", requestId: 1, run: "shown" });
    expect(fake.clipboard).toContain(
      "\n#### What the model got\n\nModel call: gpt-4o, span 58fe64e7f01ea217 (OTel GenAI).\n",
    );
    expect(fake.clipboard).toContain(
      "> **Warning:** send\\_email called, but not offered to the model.",
    );
  });
});

describe("showComparison (two logged traces)", () => {
  it("shows the second run against the first, stage by stage, read-only", async () => {
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error();
    const { applyWhatIf } = await import("../../src/core/whatif.js");
    const log = (line: number) => ({ kind: "log" as const, line, index: 0 });
    const base = { ...runFixture(loaded.fixture), origin: log(3), file: "/ws/app.log" };
    const variant = {
      ...runFixture(
        loaded.fixture,
        applyWhatIf(loaded.fixture.json, { enabled: { policy: false } }),
      ),
      origin: log(9),
      file: "/ws/app.log",
    };
    panels.showComparison(base, variant);
    const panel = webviewFake.panels[0]!;
    expect(panel.title).toBe("Selection Trace: app.log #1 (line 3) ↔ app.log #1 (line 9)");
    panel.webview.receive({ type: "ready", edit: {} });
    await flush();
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.levers).toBeNull();
    expect(show.view.compared?.report.origin).toEqual(log(9));
    expect(show.view.compared?.comparison.stages[1]).toMatchObject({
      stage: "policy",
      base: "select",
      variant: "disabled",
      actionChanged: true,
    });
  });

  it("has no log line to go back to for a replay, which is a fixture's run", async () => {
    const at = await loggedRun("file:///ws/app.log");
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error("the test fixture did not load");
    panels.showComparison(at(3), runFixture(loaded.fixture));
    webviewFake.panels[0]!.webview.receive({ type: "openSource", compared: true });
    await flush();
    expect(fake.shownDocuments).toEqual([]);
  });

  it("a logged trace's panel goes back to its line; a fixture's panel has no log to go to", async () => {
    panels.showReport((await loggedRun("file:///ws/app.log"))(5));
    webviewFake.panels[0]!.webview.receive({ type: "openSource", compared: false });
    await vi.waitFor(() => expect(fake.shownDocuments).toHaveLength(1));
    expect(fake.shownDocuments[0]!.uri.toString()).toBe("file:///ws/app.log");
    expect(fake.shownDocuments[0]!.selection?.start.line).toBe(4);
    const fixturePanel = await openReady();
    fixturePanel.webview.receive({ type: "openSource", compared: false });
    await flush();
    await flush();
    expect(fake.shownDocuments).toHaveLength(1);
    expect(logged).toEqual([]);
  });

  it("goes back to the log line of either trace", async () => {
    const at = await loggedRun("file:///ws/app.log");
    panels.showComparison(at(3), at(9));
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "openSource", compared: true });
    panel.webview.receive({ type: "openSource", compared: false });
    // Each asks the file system whether an editor can open the log: wait for both to open it.
    await vi.waitFor(() => expect(fake.shownDocuments).toHaveLength(2));
    expect(fake.shownDocuments.map((d) => [d.uri.toString(), d.selection?.start.line])).toEqual(
      expect.arrayContaining([
        ["file:///ws/app.log", 8],
        ["file:///ws/app.log", 2],
      ]),
    );
    // The log opens in the first column, and takes the focus: the user is going there.
    expect(fake.shownDocuments.map((d) => d.options)).toEqual([
      expect.objectContaining({ viewColumn: ViewColumn.One, preserveFocus: false }),
      expect.objectContaining({ viewColumn: ViewColumn.One, preserveFocus: false }),
    ]);
  });
});

describe("the serializer", () => {
  it("restores a panel from the fixture URI its webview kept, and drops one without", async () => {
    fake.addWorkspaceFolder("/ws");
    const serializer = webviewFake.serializers.get(TRACE_VIEW_TYPE)!;
    const restored = webviewFake.create(TRACE_VIEW_TYPE, "old title", {});
    await serializer.deserializeWebviewPanel(restored, {
      source: fixtureUri.toString(),
      selectedTool: "sql",
      scrollY: 40,
      matrix: false,
      edit: {},
    });
    expect(restored.webview.html).toContain("webview.js");
    restored.webview.receive({ type: "ready", edit: {} });
    await vi.waitFor(() => expect(posted(restored)[0]?.type).toBe("show"), { timeout: 30_000 });
    expect(restored.title).toBe("Selection Trace: weather.turn.json");
    const orphan = webviewFake.create(TRACE_VIEW_TYPE, "log", {});
    await serializer.deserializeWebviewPanel(orphan, {
      source: null,
      selectedTool: null,
      scrollY: 0,
      matrix: false,
      edit: {},
    });
    expect(orphan.disposed).toBe(true);
    await serializer.deserializeWebviewPanel(
      webviewFake.create(TRACE_VIEW_TYPE, "junk", {}),
      "junk",
    );
    expect(webviewFake.panels.at(-1)!.disposed).toBe(true);
  });

  it("forgets a panel once it is closed", async () => {
    const panel = await openReady();
    panel.dispose();
    expect(panels.open).toHaveLength(0);
    await panels.showFixture(fixtureUri);
    expect(webviewFake.panels).toHaveLength(2);
  });
});

describe("one panel per subject", () => {
  it("running an open fixture, or opening the same logged trace or comparison again, reveals its panel", async () => {
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error();
    const at = (line: number) => ({
      ...runFixture(loaded.fixture),
      origin: { kind: "log" as const, line, index: line },
      file: "/ws/app.log",
    });
    await panels.showFixture(fixtureUri as never);
    await panels.showFixture(fixtureUri as never);
    panels.showReport(at(12));
    panels.showReport(at(12));
    panels.showComparison(at(12), at(30));
    panels.showComparison(at(12), at(30));
    expect(webviewFake.panels.map((panel) => [panel.title, panel.revealed])).toEqual([
      ["Selection Trace: weather.turn.json", 1],
      ["Selection Trace: #13 app.log:12", 1],
      ["Selection Trace: app.log #13 ↔ app.log #31", 1],
    ]);
    panels.showReport(at(30));
    expect(webviewFake.panels).toHaveLength(4);
    // A replay is titled by the logged trace it replays; a fixture's run by its file.
    panels.showComparison(at(12), runFixture(loaded.fixture), true);
    expect(webviewFake.panels.at(-1)!.title).toBe("Selection Trace: app.log #13 ↔ replay");
    panels.showComparison(at(12), runFixture(loaded.fixture));
    expect(webviewFake.panels.at(-1)!.title).toBe(
      "Selection Trace: app.log #13 ↔ weather.turn.json",
    );
  });
});

describe("a fixture that cannot be read", () => {
  it.each([
    [{ code: "NoPermissions" }, "permission denied"],
    [{ code: "EACCES" }, "permission denied"],
    [{ code: "FileIsADirectory" }, "it is a folder"],
    [{ code: "EISDIR" }, "it is a folder"],
    [{ code: "ENOENT" }, "the file does not exist"],
    [new Error("disk on fire"), "disk on fire"],
    ["a plain string", "a plain string"],
    [null, "null"],
    [undefined, "undefined"],
  ])("says why in words: %j", async (thrown, words) => {
    panels.dispose();
    panels = new TracePanels(
      extensionUri,
      () => Promise.reject(thrown),
      (message) => logged.push(message),
    );
    const panel = await openReady();
    const message = posted(panel)[0]!;
    if (message.type !== "problems") throw new Error(message.type);
    expect(message.problems.map((p) => p.message)).toEqual([
      `cannot read turns/weather.turn.json: ${words}`,
    ]);
    expect(message.file).toBe(fixtureUri.fsPath);
    expect(message.source).toBe(fixtureUri.toString());
  });
});

describe("reveal a tool in the fixture", () => {
  it("selects the tool's first mention in the fixture, in the first column", async () => {
    const panel = await openReady();
    panel.webview.receive({ type: "revealTool", tool: "search" });
    await vi.waitFor(() => expect(fake.shownDocuments).toHaveLength(1));
    const [shown] = fake.shownDocuments;
    expect(shown!.uri.toString()).toBe(fixtureUri.toString());
    const text = JSON.stringify(FIXTURE, null, 2);
    const line = text.slice(0, text.indexOf('"search"')).split("\n").length - 1;
    const column = text.split("\n")[line]!.indexOf('"search"');
    expect(shown!.selection).toMatchObject({
      start: { line, character: column },
      end: { line, character: column + '"search"'.length },
    });
    expect(shown!.options).toMatchObject({ viewColumn: ViewColumn.One, preserveFocus: false });
  });

  it("says so when the fixture does not name the tool itself", async () => {
    const panel = await openReady();
    panel.webview.receive({ type: "revealTool", tool: "sql" });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(1));
    expect(fake.shown[0]!.message).toBe(
      "Palette Inspector: the fixture does not name 'sql' itself (it comes from the catalogue).",
    );
    expect(fake.shownDocuments).toEqual([]);
  });

  it("does nothing for a logged trace, which has no fixture to show", async () => {
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error();
    panels.showReport({
      ...runFixture(loaded.fixture),
      origin: { kind: "log", line: 1, index: 0 },
    });
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "ready", edit: {} });
    panel.webview.receive({ type: "revealTool", tool: "search" });
    await flush();
    await flush();
    expect(fake.shownDocuments).toEqual([]);
    expect(fake.shown).toEqual([]);
    expect(logged).toEqual([]);
  });
});

describe("requests an invalid fixture's panel cannot honour", () => {
  it("answers each with why, and copies nothing", async () => {
    fake.writeFile("/ws/turns/weather.turn.json", '{"pipeline": [{"kind": "intnet"}]}');
    const panel = await openReady();
    expect(await request(panel, { type: "copyMarkdown", requestId: 1, run: "shown" })).toEqual({
      type: "reply",
      requestId: 1,
      ok: false,
      message: "Nothing to copy yet.",
    });
    expect(await request(panel, { type: "whatIf", requestId: 2, edit: {} })).toEqual({
      type: "reply",
      requestId: 2,
      ok: false,
      message: "The fixture has problems; fix them before asking what-if.",
    });
    expect(await request(panel, { type: "saveVariant", requestId: 3, edit: {} })).toEqual({
      type: "reply",
      requestId: 3,
      ok: false,
      message: "Only a valid fixture can be saved as a what-if.",
    });
    expect(fake.clipboard).toBe("");
  });

  it("refuses to save a what-if that is not a valid fixture", async () => {
    const panel = await openReady();
    const reply = await request(panel, {
      type: "saveVariant",
      requestId: 4,
      edit: { enabled: { ghost: false } },
    });
    expect(reply).toEqual({
      type: "reply",
      requestId: 4,
      ok: false,
      message: "no stage named 'ghost' in the pipeline",
    });
  });
});

describe("panel titles and subjects", () => {
  async function runOf(origin: unknown, file: string) {
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error();
    return { ...runFixture(loaded.fixture), origin, file } as ReturnType<typeof runFixture>;
  }

  it("names a report by its file's last part, from a Windows path too, or a debug value by its expression", async () => {
    panels.showReport(await runOf({ kind: "log", line: 4, index: 1 }, "C:\\logs\\app.log"));
    panels.showReport(await runOf({ kind: "fixture" }, "/ws/turns/weather.turn.json"));
    panels.showReport(
      await runOf({ kind: "debug", expression: "agent.pipeline" }, "/ws/agent.py"),
      undefined,
    );
    expect(webviewFake.panels.map((panel) => panel.title)).toEqual([
      "Selection Trace: #2 app.log:4",
      "Selection Trace: weather.turn.json",
      "Selection Trace: agent.pipeline",
    ]);
  });

  it("gives the same line of another log, or a comparison the other way round, a panel of its own", async () => {
    const a = await runOf({ kind: "log", line: 4, index: 0 }, "/ws/a.log");
    const b = await runOf({ kind: "log", line: 4, index: 0 }, "/ws/b.log");
    panels.showReport(a);
    panels.showReport(b);
    panels.showComparison(a, b);
    panels.showComparison(b, a);
    expect(webviewFake.panels.map((panel) => panel.revealed)).toEqual([0, 0, 0, 0]);
    expect(panels.open).toHaveLength(4);
  });

  it("closes its panels and stops restoring when disposed", async () => {
    await panels.showFixture(fixtureUri);
    panels.showReport(await runOf({ kind: "log", line: 1, index: 0 }, "/ws/a.log"));
    panels.dispose();
    expect(webviewFake.panels.map((panel) => panel.disposed)).toEqual([true, true]);
    expect(panels.open).toEqual([]);
    expect(webviewFake.serializers.has(TRACE_VIEW_TYPE)).toBe(false);
  });
});

describe("showDebug (a value read from a paused debug session)", () => {
  it("shows the value read-only, marks it stale when it changes, runs its buttons, and lets it go when closed", async () => {
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error();
    const changed = new EventEmitter<void>();
    const actions: string[] = [];
    // The panel needs only this of a DebugInspection: no debuggee behind it.
    const inspection = {
      expression: "agent.pipeline",
      report: {
        ...runFixture(loaded.fixture),
        origin: { kind: "debug", expression: "agent.pipeline" },
      },
      stale: false,
      onDidChange: changed.event,
      disposed: false,
      dispose() {
        this.disposed = true;
      },
    };
    const session = panels.showDebug({
      kind: "debug",
      inspection: inspection as never,
      act: async (action, target) => {
        actions.push(`${action}:${target === (inspection as never) ? "this" : "other"}`);
      },
    });
    const panel = webviewFake.panels[0]!;
    expect(panel.title).toBe("Selection Trace: agent.pipeline");
    expect(session.panel).toBe(panel);
    panel.webview.receive({ type: "ready", edit: {} });
    await postedCount(panel, 1);
    const first = posted(panel)[0]!;
    if (first.type !== "show") throw new Error(first.type);
    expect(first.view).toMatchObject({ levers: null, source: null, whatIf: null, stale: false });
    expect(first.view.report.names).toEqual(["search", "final_answer"]);
    inspection.stale = true;
    changed.fire();
    await postedCount(panel, 2);
    expect(posted(panel)[1]).toMatchObject({ type: "show", view: { stale: true } });
    panel.webview.receive({ type: "debugAction", action: "refresh" });
    await vi.waitFor(() => expect(actions).toEqual(["refresh:this"]));
    // A debug value has no log line to go back to.
    panel.webview.receive({ type: "openSource", compared: false });
    await flush();
    expect(fake.shownDocuments).toEqual([]);
    expect(logged).toEqual([]);
    // A debug panel is read afresh each time: a second one opens beside it.
    panels.showDebug({ kind: "debug", inspection: inspection as never, act: async () => {} });
    expect(webviewFake.panels).toHaveLength(2);
    panel.dispose();
    expect(inspection.disposed).toBe(true);
    changed.fire();
    await flush();
    expect(posted(panel)).toHaveLength(2);
  });

  it("a re-run that fails unexpectedly when the value changes says so, once", async () => {
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error();
    const changed = new EventEmitter<void>();
    let broken = false;
    const inspection = {
      expression: "turn",
      get report() {
        if (broken) throw new Error("the value went away");
        return { ...runFixture(loaded.fixture), origin: { kind: "debug", expression: "turn" } };
      },
      stale: false,
      onDidChange: changed.event,
      dispose() {},
    };
    panels.showDebug({ kind: "debug", inspection: inspection as never, act: async () => {} });
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "ready", edit: {} });
    await postedCount(panel, 1);
    broken = true;
    changed.fire();
    const errors = () => fake.shown.filter((shown) => shown.kind === "error");
    await vi.waitFor(() => expect(errors()).toHaveLength(1));
    expect(errors().map((shown) => shown.message)).toEqual([
      "Palette Inspector: Re-running the trace panel: the value went away",
    ]);
  });

  it("ignores debug buttons on a panel that is not a debug value", async () => {
    const panel = await openReady();
    panel.webview.receive({ type: "debugAction", action: "refresh" });
    await flush();
    expect(posted(panel)).toHaveLength(1);
    expect(logged).toEqual([]);
  });
});

describe("what a fixture's panel shows and copies", () => {
  it("carries the turn's query and role, and each expectation the run fails", async () => {
    fake.writeFile(
      "/ws/turns/weather.turn.json",
      JSON.stringify({ ...FIXTURE, expect: { names: ["search"] } }),
    );
    const panel = await openReady();
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.turn).toEqual({ query: "", role: "analyst" });
    expect(show.view.failed).toHaveLength(1);
    expect(show.view.compared).toBeNull();
    expect(show.view.whatIf).toBeNull();
  });

  it("a fixture with no turn has an empty query and role", async () => {
    fake.writeFile("/ws/turns/weather.turn.json", JSON.stringify({ ...FIXTURE, turn: undefined }));
    const panel = await openReady();
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.turn).toEqual({ query: "", role: "" });
  });

  it("loads the icons' stylesheet from dist", async () => {
    const panel = await openReady();
    expect(panel.webview.html).toMatch(
      /<link rel="stylesheet" href="[^"]*\/ext\/dist\/codicons\/codicon\.css">/,
    );
  });

  it("has no what-if to copy before one has run, and names a file outside the workspace by its name", async () => {
    fake.reset();
    webviewFake.reset();
    fixtureUri = fake.writeFile(
      "/elsewhere/turns/far.turn.json",
      JSON.stringify({ offered: ["a"], pipeline: [] }),
    );
    panels.dispose();
    panels = new TracePanels(extensionUri, load, (message) => logged.push(message));
    const panel = await openReady();
    expect(await request(panel, { type: "copyMarkdown", requestId: 1, run: "whatIf" })).toEqual({
      type: "reply",
      requestId: 1,
      ok: false,
      message: "The what-if has no run to copy.",
    });
    await request(panel, { type: "copyMarkdown", requestId: 2, run: "shown" });
    expect(fake.clipboard).toMatch(/^### Selection trace: far\.turn\.json\n/);
  });

  it("shows a logged trace with the tool it was opened on selected, and none otherwise", async () => {
    const at = await loggedRun("/ws/app.log");
    panels.showReport(at(1), "one", "sql");
    panels.showReport(at(2));
    const [withTool, without] = webviewFake.panels;
    expect(withTool!.title).toBe("Selection Trace: one");
    for (const panel of [withTool!, without!]) panel.webview.receive({ type: "ready", edit: {} });
    await flush();
    const views = [withTool!, without!].map((panel) => {
      const show = posted(panel)[0]!;
      if (show.type !== "show") throw new Error(show.type);
      return show.view;
    });
    expect(views[0]!.selectedTool).toBe("sql");
    expect("selectedTool" in views[1]!).toBe(false);
  });
});

describe("where panels open", () => {
  it("opens each panel beside the editor without taking focus, and reveals an open one the same way", async () => {
    await panels.showFixture(fixtureUri);
    await panels.showFixture(fixtureUri);
    const [panel] = webviewFake.panels;
    expect(panel!.showOptions).toEqual({ viewColumn: ViewColumn.Beside, preserveFocus: true });
    expect(panel!.reveals).toEqual([{ viewColumn: undefined, preserveFocus: true }]);
  });

  it("without a log of its own, warns on the console", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const quiet = new TracePanels(extensionUri, load);
      await webviewFake.serializers
        .get(TRACE_VIEW_TYPE)!
        .deserializeWebviewPanel(webviewFake.create(TRACE_VIEW_TYPE, "old", {}), {
          source: "https://example.com/a.turn.json",
          selectedTool: null,
          scrollY: 0,
          matrix: false,
          edit: {},
        });
      expect(warn).toHaveBeenCalledWith(
        "palette-inspector: a saved panel was not restored: its saved source is not a file on this machine",
      );
      quiet.dispose();
    } finally {
      warn.mockRestore();
    }
  });
});

describe("Compare… on a panel", () => {
  type Item = { label: string; detail: string };
  const items = () => fake.quickPicks.at(-1)!.items as Item[];

  it("offers the fixture's saved what-if first, then other fixtures and the runs of other open panels, and opens the pick", async () => {
    fake.writeFile("/ws/turns/other.turn.json", JSON.stringify(FIXTURE));
    fake.writeFile(
      "/ws/turns/weather.whatif.turn.json",
      JSON.stringify({ ...FIXTURE, pipeline: [FIXTURE.pipeline[0]] }),
    );
    panels.showReport((await loggedRun("file:///ws/app.log"))(7, 4));
    const panel = await openReady();
    fake.answers.quickPick.push((choices: Item[]) =>
      choices.find((choice) => choice.label === "turns/weather.whatif.turn.json"),
    );
    panel.webview.receive({ type: "compare" });
    await vi.waitFor(() => expect(webviewFake.panels).toHaveLength(3), { timeout: 30_000 });
    expect(items().map((item) => [item.label, item.detail])).toEqual([
      ["app.log #5", "open in another panel"],
      ["turns/weather.whatif.turn.json", "a saved what-if of this fixture"],
      ["turns/other.turn.json", "a fixture of this workspace, run now"],
    ]);
    expect(fake.quickPicks.at(-1)!.options).toMatchObject({
      title: "Compare weather.turn.json with…",
    });
    const compared = webviewFake.panels[2]!;
    expect(compared.title).toBe("Selection Trace: weather.turn.json ↔ weather.whatif.turn.json");
    compared.webview.receive({ type: "ready", edit: {} });
    await postedCount(compared, 1);
    const show = posted(compared)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.compared?.names).toEqual(["weather.turn.json", "weather.whatif.turn.json"]);
    // The what-if drops the policy stage: it no longer drops sql.
    expect(show.view.compared?.comparison.changed).toBe(true);
  });

  it("offers the runs of a comparison's and a debug value's panels whose page never loaded", async () => {
    const at = await loggedRun("file:///ws/app.log");
    panels.showComparison(at(3), at(9));
    const loaded = await load(fixtureUri);
    if (!loaded.ok) throw new Error("the test fixture did not load");
    const report = { ...runFixture(loaded.fixture), origin: { kind: "debug", expression: "turn" } };
    panels.showDebug({
      kind: "debug",
      inspection: {
        expression: "turn",
        report,
        stale: false,
        onDidChange: () => ({ dispose() {} }),
        dispose() {},
      } as never,
      act: async () => {},
    });
    const panel = await openReady();
    fake.answers.quickPick.push(undefined);
    panel.webview.receive({ type: "compare" });
    await vi.waitFor(() => expect(fake.quickPicks).toHaveLength(1), { timeout: 30_000 });
    expect(items().map((item) => [item.label, item.detail])).toEqual([
      ["app.log #1", "open in another panel"],
      ["turn (debug value)", "open in another panel"],
    ]);
  });

  it("a logged trace compares with a fixture too; a fixture that cannot run is said, and nothing opens", async () => {
    fake.writeFile("/ws/turns/broken.turn.json", "{");
    panels.showReport((await loggedRun("file:///ws/app.log"))(7, 4));
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "ready", edit: {} });
    await postedCount(panel, 1);
    fake.answers.quickPick.push((choices: Item[]) =>
      choices.find((choice) => choice.label === "turns/broken.turn.json"),
    );
    panel.webview.receive({ type: "compare" });
    await vi.waitFor(() => expect(fake.shown.length).toBeGreaterThan(0), { timeout: 30_000 });
    expect(items().map((item) => item.label)).toEqual([
      "turns/broken.turn.json",
      "turns/weather.turn.json",
    ]);
    expect(fake.shown.at(-1)).toMatchObject({ kind: "error" });
    expect(JSON.stringify(fake.shown.at(-1))).toContain("turns/broken.turn.json has problems");
    expect(webviewFake.panels).toHaveLength(1);
  });
});

describe("the role palettes a fixture's panel is sent", () => {
  it("lists each role's palette by stage, leaving out a role with no policy", async () => {
    fixtureUri = fake.writeFile(
      "/ws/turns/roles.turn.json",
      JSON.stringify({
        ...FIXTURE,
        pipeline: [
          ...FIXTURE.pipeline,
          { kind: "role", name: "palette", role_tools: { analyst: ["search"], admin: null } },
        ],
      }),
    );
    const panel = await openReady();
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.rolePalettes).toEqual([
      { stage: "palette", role: "analyst", tools: ["search"] },
    ]);
  });
});
