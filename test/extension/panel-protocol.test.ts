import { describe, expect, it } from "vitest";
import { compareReports } from "../../src/core/compare.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { whatIfLevers } from "../../src/core/whatif.js";
import { contentSecurityPolicy, newNonce, panelHtml } from "../../src/extension/panel/html.js";
import {
  findToolMention,
  suggestedVariantPath,
  variantFixtureText,
} from "../../src/extension/panel/variant-file.js";
import { parseFromWebview, parsePanelState, parseToWebview } from "../../src/protocol.js";
import { loadValid, noCatalogFile } from "../core/spec/helpers.js";
import { showOf } from "../builders/panel.js";

async function report() {
  const fixture = await loadValid(
    { offered: ["a", "b"], pipeline: [{ kind: "lazy", allowed_names: ["a"] }] },
    noCatalogFile,
    "t.turn.json",
  );
  return { fixture, report: runFixture(fixture) };
}

describe("parseFromWebview", () => {
  it.each([
    [{ type: "ready", edit: {} }],
    [{ type: "clearWhatIf" }],
    [{ type: "whatIf", requestId: 1, edit: { role: "admin" } }],
    [{ type: "saveVariant", requestId: 2, edit: {} }],
    [{ type: "copyMarkdown", requestId: 3, run: "shown" }],
    [{ type: "copyMarkdown", requestId: 4, run: "whatIf" }],
    [{ type: "revealTool", tool: "sql" }],
    [{ type: "openSource", compared: false }],
    [{ type: "compare" }],
  ])("accepts %j", (message) => expect(parseFromWebview(message, () => {})).toEqual(message));

  it.each([
    ["a string", "ready"],
    ["null", null],
    ["an unknown type", { type: "eval", code: "x" }],
    ["a type named like an object's own method", { type: "toString" }],
    ["a type named like an object's prototype", { type: "__proto__" }],
    ["a missing request id", { type: "whatIf", edit: {} }],
    ["a negative request id", { type: "whatIf", requestId: -1, edit: {} }],
    ["a malformed edit", { type: "whatIf", requestId: 1, edit: { role: 3 } }],
    ["an empty tool", { type: "revealTool", tool: "" }],
    ["an openSource without its flag", { type: "openSource" }],
    ["a copy carrying its own text", { type: "copyMarkdown", requestId: 1, text: "[x](y)" }],
    ["a copy of an edit", { type: "copyMarkdown", requestId: 1, edit: null }],
  ])("ignores and logs %s", (_why, message) => {
    const logged: string[] = [];
    expect(parseFromWebview(message, (line) => logged.push(line))).toBeNull();
    expect(logged).toHaveLength(1);
  });
});

describe("parseToWebview", () => {
  it("accepts a show, a what-if result, problems and a reply", async () => {
    const { fixture, report: run } = await report();
    const show = showOf(run, {
      levers: whatIfLevers(fixture.json, []),
      source: "file:///t.turn.json",
      turn: { query: "", role: "" },
    });
    expect(parseToWebview(show, () => {})).toBe(show);
    expect(
      parseToWebview(
        {
          type: "problems",
          file: "t",
          source: null,
          problems: [{ severity: "error", file: "t", line: 1, column: 2, message: "m" }],
        },
        () => {},
      ),
    ).not.toBeNull();
    expect(
      parseToWebview({ type: "reply", requestId: 1, ok: true, message: "" }, () => {}),
    ).not.toBeNull();
  });

  it("accepts role palettes only as stage, role and tool names", async () => {
    const { report: run } = await report();
    const show = (rolePalettes: unknown) => showOf(run, { rolePalettes });
    const good = show([{ stage: "role", role: "admin", tools: ["sql"] }]);
    expect(parseToWebview(good, () => {})).toBe(good);
    for (const bad of [
      {},
      [{ stage: "role", role: "admin", tools: "sql" }],
      [{ role: "admin", tools: [] }],
    ])
      expect(parseToWebview(show(bad), () => {})).toBeNull();
  });

  it("accepts a comparison only with a name for each side and whether it is a replay", async () => {
    const { report: run } = await report();
    const show = (compared: object) =>
      showOf(run, {
        compared: { report: run, comparison: compareReports(run, run), ...compared },
      });
    const good = show({ names: ["a.log #1", "b.log #2"], replay: false });
    expect(parseToWebview(good, () => {})).toBe(good);
    for (const bad of [
      { replay: false },
      { names: ["only one"], replay: false },
      { names: ["a", 2], replay: false },
      { names: ["a", "b"] },
    ])
      expect(parseToWebview(show(bad), () => {})).toBeNull();
  });

  it("rejects a report whose records are malformed, so the webview never renders half a shape", async () => {
    const { report: run } = await report();
    const logged: string[] = [];
    const broken = { ...run, trace: [{ ...run.trace[0], kept: "a" }] };
    expect(
      parseToWebview(
        { type: "show", view: { report: broken, levers: null, source: null, compared: null } },
        (line) => logged.push(line),
      ),
    ).toBeNull();
    expect(
      parseToWebview({ type: "whatIfResult", requestId: 1, variant: run }, (line) =>
        logged.push(line),
      ),
    ).toBeNull();
    expect(logged).toEqual([
      'palette-inspector: ignored a malformed or unknown message from the host (type "show")',
      'palette-inspector: ignored a malformed or unknown message from the host (type "whatIfResult")',
    ]);
  });
});

describe("a report's model call in a show", () => {
  const MODEL = {
    span_id: "58fe64e7f01ea217",
    model: "gpt-4o",
    offered: ["final_answer"],
    called: ["send_email"],
    tool_choice: "auto",
    convention: "openinference",
    final_not_offered: ["send_email"],
    offered_not_final: [],
    called_not_offered: ["send_email"],
  };
  const show = async (model: unknown) => showOf({ ...(await report()).report, model });

  it("is accepted whole, as null (none joined) or absent (not from OpenTelemetry)", async () => {
    const unrecorded = {
      ...MODEL,
      offered: null,
      called: null,
      tool_choice: null,
      final_not_offered: null,
      offered_not_final: null,
      called_not_offered: null,
    };
    for (const model of [MODEL, { ...MODEL, model: null, offered: null }, unrecorded, null]) {
      const message = await show(model);
      expect(parseToWebview(message, () => {})).toBe(message);
    }
    const absent = showOf((await report()).report);
    expect(parseToWebview(absent, () => {})).toBe(absent);
  });

  it.each([
    ["a string", "gpt-4o"],
    ["no span id", { ...MODEL, span_id: undefined }],
    ["a call that is not a name", { ...MODEL, called: [1] }],
    ["offered tools that are not a list", { ...MODEL, offered: "final_answer" }],
    ["a difference missing", { ...MODEL, called_not_offered: undefined }],
    ["a tool choice that is not a name", { ...MODEL, tool_choice: 1 }],
    ["an unknown convention", { ...MODEL, convention: "mine" }],
  ])("is refused as %s, so the webview never renders half a shape", async (_why, model) => {
    const logged: string[] = [];
    expect(parseToWebview(await show(model), (line) => logged.push(line))).toBeNull();
    expect(logged).toHaveLength(1);
  });
});

describe("parsePanelState", () => {
  it("keeps a well-formed state and starts fresh on anything else", () => {
    const state = {
      source: "file:///a.turn.json",
      selectedTool: "sql",
      scrollY: 10,
      matrix: true,
      edit: { role: "x" },
    };
    expect(parsePanelState(state)).toEqual(state);
    expect(parsePanelState({ ...state, scrollY: "10" })).toBeNull();
    expect(parsePanelState(undefined)).toBeNull();
  });
});

describe("panelHtml", () => {
  it("carries the CSP with default-src 'none' and a nonce, and escapes what it interpolates", () => {
    const html = panelHtml(
      {
        cspSource: "https://x",
        script: 'https://x/a.js"><script>',
        style: "https://x/s.css",
        codicons: "https://x/c.css",
      },
      "abc",
    );
    expect(html).toContain(`content="${contentSecurityPolicy("https://x", "abc")}"`);
    expect(html).toContain('src="https://x/a.js&quot;>&lt;script>"');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("makes a different nonce every time", () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });
});

describe("the panel page, word for word", () => {
  const assets = {
    cspSource: "https://x",
    script: "https://x/w.js?a=1&b=2",
    style: "https://x/s.css",
    codicons: "https://x/c.css",
  };

  it("allows nothing by default, files from the webview's origin, and only the nonce'd script", () => {
    expect(contentSecurityPolicy("https://x", "N")).toBe(
      "default-src 'none'; img-src https://x; style-src https://x 'nonce-N'; font-src https://x; script-src 'nonce-N'",
    );
  });

  it("links both stylesheets, hands the nonce to the toolkit, and escapes ampersands", () => {
    const html = panelHtml(assets, "N");
    expect(html).toContain('<meta property="csp-nonce" content="N">');
    expect(html).toContain('<link rel="stylesheet" href="https://x/c.css">');
    expect(html).toContain('<link rel="stylesheet" href="https://x/s.css">');
    expect(html).toContain('<script nonce="N" src="https://x/w.js?a=1&amp;b=2"></script>');
    expect(html).toContain('<html lang="en">');
  });

  it("titles the page and labels its root, by default as the Selection Trace", () => {
    expect(panelHtml(assets, "N")).toContain(
      '<title>Selection Trace</title>\n</head>\n<body>\n<main id="root" aria-label="Selection Trace"></main>',
    );
    const stats = panelHtml({ ...assets, title: 'Stats <"a">' }, "N");
    expect(stats).toContain("<title>Stats &lt;&quot;a&quot;></title>");
    expect(stats).toContain('aria-label="Stats &lt;&quot;a&quot;>"');
  });
});

describe("variant files", () => {
  it("re-points a relative catalogue path from the new location, leaving inline catalogues alone", () => {
    const text = variantFixtureText(
      { catalog: "./tools.catalog.json", offered: [] },
      "/ws/turns/a.turn.json",
      "/ws/turns/what/b.turn.json",
    );
    expect(JSON.parse(text).catalog).toBe("../tools.catalog.json");
    expect(
      JSON.parse(variantFixtureText({ catalog: "./c.json" }, "/ws/a.turn.json", "/ws/b.turn.json"))
        .catalog,
    ).toBe("./c.json");
    expect(
      JSON.parse(variantFixtureText({ catalog: [] }, "/a/x.turn.json", "/b/y.turn.json")).catalog,
    ).toEqual([]);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("leaves an absolute or URL catalogue, and a fixture without one, as they are", () => {
    const catalogOf = (catalog: unknown) =>
      JSON.parse(
        variantFixtureText(
          (catalog === undefined ? { offered: [] } : { catalog, offered: [] }) as never,
          "/ws/turns/a.turn.json",
          "/ws/other/deeper/b.turn.json",
        ),
      ).catalog;
    expect(catalogOf("/abs/tools.catalog.json")).toBe("/abs/tools.catalog.json");
    expect(catalogOf("HTTPS://example.com/t.json")).toBe("HTTPS://example.com/t.json");
    expect(catalogOf("file:///t.json")).toBe("file:///t.json");
    expect(catalogOf("tools.catalog.json")).toBe("../../turns/tools.catalog.json");
    // A colon further in is part of a relative name, not a URL scheme.
    expect(catalogOf("v1/a:b.catalog.json")).toBe("../../turns/v1/a:b.catalog.json");
    expect(catalogOf(undefined)).toBeUndefined();
    expect(
      JSON.parse(
        variantFixtureText({ catalog: "t.json" }, "/ws/a.turn.json", "/ws/b/../c.turn.json"),
      ).catalog,
    ).toBe("./t.json");
    expect(variantFixtureText({ offered: ["a"] }, "/a.turn.json", "/b.turn.json")).toBe(
      '{\n  "offered": [\n    "a"\n  ]\n}\n',
    );
  });

  it("names the variant after the fixture, whatever its case or suffix", () => {
    expect(suggestedVariantPath("/ws/Weather.TURN.JSON")).toBe("/ws/Weather.whatif.turn.json");
    expect(suggestedVariantPath("/ws/plain.json")).toBe("/ws/plain.whatif.turn.json");
    expect(suggestedVariantPath("/ws/notes.txt")).toBe("/ws/notes.txt.whatif.turn.json");
    expect(suggestedVariantPath("/ws/a.turn.json.json")).toBe("/ws/a.turn.json.whatif.turn.json");
  });

  it("suggests a sibling name and finds a tool's mention", () => {
    expect(suggestedVariantPath("/ws/weather.turn.json")).toBe("/ws/weather.whatif.turn.json");
    expect(findToolMention('{"offered": ["a\\"b", "sql"]}', "sql")).toEqual({
      offset: 21,
      length: 5,
    });
    expect(findToolMention('{"offered": ["a\\"b"]}', 'a"b')).toEqual({ offset: 13, length: 6 });
    expect(findToolMention("{}", "x")).toBeNull();
    expect(findToolMention('"sql" first', "sql")).toEqual({ offset: 0, length: 5 });
  });
});
