import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as vscode from "vscode";
import {
  DiagnosticSeverity,
  fake,
  Range,
  Uri,
  workspace,
  type CodeAction,
} from "../fakes/vscode.js";
import { FixtureDiagnostics } from "../../src/extension/diagnostics.js";

let diagnostics: FixtureDiagnostics;
/** Lets the clock run `ms` on: debounced validations start, and what they await settles. */
const settle = async (ms = 20) => {
  await vi.advanceTimersByTimeAsync(ms);
};

beforeEach(() => {
  vi.useFakeTimers();
  fake.reset();
  fake.addWorkspaceFolder("/ws");
  diagnostics = new FixtureDiagnostics(1);
});
afterEach(() => {
  diagnostics.dispose();
  vi.useRealTimers();
});

describe("Problems panel", () => {
  it("reports its problems as one owner, named for the extension", () => {
    expect(fake.diagnosticOwners()).toEqual(["palette-inspector"]);
  });

  it("shows schema and semantic errors with exact ranges and JSON paths as the user types", async () => {
    const uri = Uri.file("/ws/a.turn.json");
    const doc = fake.openDocument(uri, '{"pipeline": []}');
    await settle();
    expect(fake.diagnostics(uri)).toEqual([]);

    fake.editDocument(doc, '{\n  "pipeline": [\n    {"kind": "lazy", "alowed_names": []}\n  ]\n}');
    await settle();
    const [problem] = fake.diagnostics(uri)!;
    expect(problem!.message).toBe(
      "unknown key 'alowed_names'; did you mean 'allowed_names'? (at $.pipeline[0].alowed_names)",
    );
    expect(problem!.severity).toBe(DiagnosticSeverity.Error);
    expect([
      problem!.range.start.line,
      problem!.range.start.character,
      problem!.range.end.character,
    ]).toEqual([2, 21, 35]);
  });

  it("shows warnings a schema cannot express: a stage naming a tool nobody offers", async () => {
    const uri = Uri.file("/ws/w.turn.json");
    fake.openDocument(
      uri,
      '{"offered": ["search"], "pipeline": [{"kind": "lazy", "allowed_names": ["serch"]}]}',
    );
    await settle();
    const [warning] = fake.diagnostics(uri)!;
    expect(warning!.severity).toBe(DiagnosticSeverity.Warning);
    expect(warning!.message).toMatch(/'serch' is neither offered nor in the catalogue/);
  });

  it("validates catalogue files on their own and ignores other JSON", async () => {
    const catalog = Uri.file("/ws/tools.catalog.json");
    fake.openDocument(catalog, '[{"name": "a"}, {"name": "a"}]');
    const other = Uri.file("/ws/package.json");
    fake.openDocument(other, "{ not json");
    await settle();
    expect(fake.diagnostics(catalog)!.map((d) => d.message)).toEqual([
      "duplicate tool name 'a' in the catalogue (at $[1].name)",
    ]);
    expect(fake.diagnostics(other)).toBeUndefined();
  });

  it("leaves a JSON document's syntax error to VS Code's JSON service, so it is listed once", async () => {
    const asJson = Uri.file("/ws/s.turn.json");
    const asText = Uri.file("/ws/t.turn.json");
    const asJsonc = Uri.file("/ws/u.turn.json");
    fake.openDocument(asJson, '{"offered": [');
    fake.openDocument(asText, '{"offered": [', "plaintext");
    fake.openDocument(asJsonc, '{\n  // note\n  "offered": []\n}', "jsonc");
    await settle();
    expect(fake.diagnostics(asJson)).toEqual([]);
    expect(fake.diagnostics(asText)!.map((d) => d.message)).toEqual([
      expect.stringMatching(/^malformed JSON/),
    ]);
    // The jsonc service takes the comment the fixture format refuses: only ours reports it.
    expect(fake.diagnostics(asJsonc)!.map((d) => d.message)).toEqual([
      expect.stringMatching(/^malformed JSON/),
    ]);
  });

  it("reports a JSON document's syntax error itself when VS Code's JSON validation is off", async () => {
    fake.settings.set("json.validate.enable", false);
    const uri = Uri.file("/ws/s.turn.json");
    fake.openDocument(uri, '{"offered": [');
    await settle();
    expect(fake.diagnostics(uri)).toHaveLength(1);
  });

  it("leaves a catalogue's syntax error to VS Code when the catalogue is open as JSON, not when it is closed", async () => {
    fake.writeFile("/ws/c.catalog.json", "[");
    const catalog = Uri.file("/ws/c.catalog.json");
    const fixture = Uri.file("/ws/f.turn.json");
    const doc = fake.openDocument(fixture, '{"catalog": "./c.catalog.json"}');
    await settle();
    expect(fake.diagnostics(catalog)!.map((d) => d.message)).toEqual([
      expect.stringMatching(/^malformed JSON/),
    ]);
    fake.openDocument(catalog);
    fake.editDocument(doc, '{"catalog": "./c.catalog.json", "offered": []}');
    await settle();
    expect(fake.diagnostics(catalog) ?? []).toEqual([]);
  });

  it("clears a document's problems when it is closed", async () => {
    const uri = Uri.file("/ws/b.turn.json");
    const doc = fake.openDocument(uri, '{"ofered": []}');
    await settle();
    expect(fake.diagnostics(uri)).toHaveLength(1);
    fake.closeDocument(doc);
    expect(fake.diagnostics(uri)).toBeUndefined();
  });
});

/**
 * Writes /ws/tools.catalog.json and makes reading it wait until `release` (only the first read,
 * or every read); `restore` puts the real reader back.
 */
function slowCatalogRead(options: { onlyFirst: boolean }) {
  let release: () => void = () => {};
  const slow = new Promise<void>((resolve) => (release = resolve));
  const catalog = fake.writeFile("/ws/tools.catalog.json", '[{"name": "a"}]');
  const readFile = workspace.fs.readFile;
  let waiting = true;
  workspace.fs.readFile = async (uri: Uri) => {
    if (waiting && uri.toString() === catalog.toString()) {
      waiting = !options.onlyFirst;
      await slow;
    }
    return readFile(uri);
  };
  return { catalog, release: () => release(), restore: () => (workspace.fs.readFile = readFile) };
}

describe("Problems panel, out-of-order validations", () => {
  it("keeps the newest text's problems when an older validation finishes later", async () => {
    // Only one validator may listen, or another one's validation would take the slow read.
    diagnostics.dispose();
    // A catalogue read that is slow only for the first validation.
    const { release, restore } = slowCatalogRead({ onlyFirst: true });
    try {
      diagnostics = new FixtureDiagnostics(0);
      const uri = Uri.file("/ws/c.turn.json");
      const doc = fake.openDocument(uri, '{"catalog": "./tools.catalog.json"}');
      await settle(10);
      fake.editDocument(doc, '{"catalog": "./tools.catalog.json", "pipeline": [{"kind": "nope"}]}');
      await settle(10);
      expect(fake.diagnostics(uri)!.map((d) => d.message)).toEqual([
        expect.stringMatching(/unknown stage kind "nope"/),
      ]);
      release();
      await settle(10);
      expect(fake.diagnostics(uri)!.map((d) => d.message)).toEqual([
        expect.stringMatching(/unknown stage kind "nope"/),
      ]);
    } finally {
      restore();
    }
  });
});

describe("quick fixes", () => {
  /** Applies the one Quick Fix offered for the document's diagnostic matching `message`. */
  async function quickFix(uri: Uri, message: RegExp): Promise<{ title: string; text: string }> {
    const diagnostic = fake.diagnostics(uri)!.find((d) => message.test(d.message))!;
    expect(diagnostic, `a diagnostic matching ${message}`).toBeDefined();
    const document = fake.documents.find((d) => d.uri.toString() === uri.toString())!;
    const [action, ...more] = diagnostics.provideCodeActions(
      document as unknown as vscode.TextDocument,
      diagnostic.range as never,
      { diagnostics: [diagnostic] } as never,
    ) as unknown as CodeAction[];
    expect(more).toEqual([]);
    await workspace.applyEdit(action!.edit! as never);
    return { title: action!.title, text: document.getText() };
  }

  it("every 'did you mean' has a fix: a key typo, a tool in a stage, an always_include typo", async () => {
    const uri = Uri.file("/ws/q.turn.json");
    fake.openDocument(
      uri,
      JSON.stringify({
        offered: ["search", "final_answer"],
        pipline: [],
      }),
    );
    await settle();
    expect(await quickFix(uri, /unknown key 'pipline'; did you mean 'pipeline'/)).toMatchObject({
      title: "Change to 'pipeline'",
    });
    expect(JSON.parse(fake.documents[0]!.getText())).toHaveProperty("pipeline");

    fake.editDocument(
      fake.documents[0]!,
      JSON.stringify({
        offered: ["search", "final_answer"],
        pipeline: [{ kind: "allowlist", always_include: ["final_anwser"] }],
      }),
    );
    await settle();
    const fixed = await quickFix(
      uri,
      /'final_anwser' is neither offered.*did you mean 'final_answer'/,
    );
    expect(fixed.title).toBe("Change to 'final_answer'");
    expect(JSON.parse(fixed.text).pipeline[0].always_include).toEqual(["final_answer"]);
  });

  it("a misspelt stage kind has a fix that puts the kind it resembles in place", async () => {
    const uri = Uri.file("/ws/k.turn.json");
    fake.openDocument(uri, '{"pipeline": [{"kind": "polcy", "max_safety_level": "low"}]}');
    await settle();
    const fixed = await quickFix(uri, /unknown stage kind "polcy"; did you mean 'policy'\?/);
    expect(fixed.title).toBe("Change to 'policy'");
    expect(JSON.parse(fixed.text).pipeline[0]).toEqual({ kind: "policy", max_safety_level: "low" });
  });

  it("an unknown tool in offered is a warning with a suggestion and a fix", async () => {
    const uri = Uri.file("/ws/o.turn.json");
    fake.openDocument(
      uri,
      JSON.stringify({
        catalog: [{ name: "search" }, { name: "final_answer" }],
        offered: ["serch"],
      }),
    );
    await settle();
    const warning = fake.diagnostics(uri)!.find((d) => /offered/.test(d.message))!;
    expect(warning.severity).toBe(DiagnosticSeverity.Warning);
    expect(warning.message).toBe(
      "'serch' is offered but not in the catalogue; did you mean 'search'? (at $.offered[0])",
    );
    expect(JSON.parse((await quickFix(uri, /offered/)).text).offered).toEqual(["search"]);
  });

  it("an allowlist with use_catalog and no catalogue warns, with a fix that removes the key", async () => {
    const uri = Uri.file("/ws/u.turn.json");
    fake.openDocument(
      uri,
      '{\n  "offered": ["a"],\n  "pipeline": [{ "kind": "allowlist", "always_include": ["a"], "use_catalog": true }]\n}',
    );
    await settle();
    const fixed = await quickFix(uri, /'use_catalog' is true but the fixture has no catalogue/);
    expect(fixed.title).toBe("Remove 'use_catalog'");
    // Only the key goes: the rest of the line stays as the user wrote it.
    expect(fixed.text).toBe(
      '{\n  "offered": ["a"],\n  "pipeline": [{ "kind": "allowlist", "always_include": ["a"] }]\n}',
    );
  });
});

describe("a fixture too large to read", () => {
  it("is reported in the Problems panel without being opened, and cleared when it shrinks", async () => {
    diagnostics.dispose();
    const big = fake.writeFile(
      "/ws/big.turn.json",
      `{"description": "${"x".repeat(11 * 1024 * 1024)}`,
    );
    fake.writeFile("/ws/small.turn.json", "{}");
    diagnostics = new FixtureDiagnostics(1);
    await settle();
    expect(fake.diagnostics(big)!.map((d) => [d.message, d.range.start.line])).toEqual([
      ["fixture is 11.1 MB; the limit is 10 MB", 0],
    ]);
    expect(fake.diagnostics(Uri.file("/ws/small.turn.json"))).toBeUndefined();
    await workspace.fs.writeFile(big, new TextEncoder().encode("{}"));
    await settle();
    expect(fake.diagnostics(big)).toBeUndefined();
  });
});

describe("Problems panel, a fixture's catalogue", () => {
  it("shows the catalogue's problems on the catalogue file, and clears them when no open fixture refers to it", async () => {
    const catalog = fake.writeFile("/ws/tools.catalog.json", '[{"name": "a"}, {"name": "a"}]');
    const uri = Uri.file("/ws/k.turn.json");
    const doc = fake.openDocument(uri, '{"catalog": "./tools.catalog.json"}');
    await settle();
    expect(fake.diagnostics(catalog)!.map((d) => d.message)).toEqual([
      "duplicate tool name 'a' in the catalogue (at $[1].name)",
    ]);
    expect(fake.diagnostics(uri)).toEqual([]);
    fake.editDocument(doc, '{"offered": ["a"]}');
    await settle();
    expect(fake.diagnostics(catalog)).toBeUndefined();
    fake.editDocument(doc, '{"catalog": "./tools.catalog.json"}');
    await settle();
    expect(fake.diagnostics(catalog)).toHaveLength(1);
    fake.closeDocument(doc);
    expect(fake.diagnostics(catalog)).toBeUndefined();
    expect(fake.diagnostics(uri)).toBeUndefined();
  });

  it("an unreadable catalogue on its own, open as plain text, reports its JSON error", async () => {
    const catalog = Uri.file("/ws/bad.catalog.json");
    fake.openDocument(catalog, "[", "plaintext");
    await settle();
    expect(fake.diagnostics(catalog)).toHaveLength(1);
    expect(fake.diagnostics(catalog)![0]!.severity).toBe(DiagnosticSeverity.Error);
  });

  it("waits for the user to pause typing before validating", async () => {
    diagnostics.dispose();
    diagnostics = new FixtureDiagnostics(40);
    const uri = Uri.file("/ws/t.turn.json");
    const doc = fake.openDocument(uri, "{}");
    await settle();
    fake.editDocument(doc, '{"ofered": []}');
    await settle();
    expect(fake.diagnostics(uri)).toEqual([]);
    await settle(60);
    expect(fake.diagnostics(uri)).toHaveLength(1);
  });

  it("stops listening once disposed", async () => {
    diagnostics.dispose();
    const uri = Uri.file("/ws/d.turn.json");
    fake.openDocument(uri, "{");
    await settle();
    expect(fake.diagnostics(uri)).toBeUndefined();
  });
});

describe("Quick fix actions", () => {
  it("are preferred quick fixes tied to their diagnostic; a diagnostic without a fix offers none", async () => {
    const uri = Uri.file("/ws/f.turn.json");
    const doc = fake.openDocument(uri, '{"pipline": [], "offered": 3}');
    await settle();
    const all = fake.diagnostics(uri)!;
    const typo = all.find((d) => /pipline/.test(d.message))!;
    const other = all.find((d) => !/pipline/.test(d.message))!;
    expect(other).toBeDefined();
    const actions = diagnostics.provideCodeActions(
      doc as unknown as vscode.TextDocument,
      typo.range as never,
      { diagnostics: [other, typo] } as never,
    ) as unknown as CodeAction[];
    expect(actions.map((a) => [a.title, a.kind?.value, a.isPreferred, a.diagnostics])).toEqual([
      ["Change to 'pipeline'", "quickfix", true, [typo]],
    ]);
    const moved = { ...typo, range: new Range(0, 0, 0, 1) };
    expect(
      diagnostics.provideCodeActions(
        doc as unknown as vscode.TextDocument,
        typo.range as never,
        { diagnostics: [moved] } as never,
      ),
    ).toEqual([]);
    const elsewhere = fake.openDocument(Uri.file("/ws/g.turn.json"), "{}");
    expect(
      diagnostics.provideCodeActions(
        elsewhere as unknown as vscode.TextDocument,
        typo.range as never,
        { diagnostics: [typo] } as never,
      ),
    ).toEqual([]);
  });
});

describe("a fixture too large to read, deleted or closed", () => {
  it("clears a deleted closed fixture's problems, keeps an open one's, and checks a closed fixture's size", async () => {
    diagnostics.dispose();
    const huge = `{"description": "${"x".repeat(11 * 1024 * 1024)}`;
    const big = fake.writeFile("/ws/big.turn.json", huge);
    diagnostics = new FixtureDiagnostics(1);
    await settle();
    expect(fake.diagnostics(big)).toHaveLength(1);
    fake.deleteFile("/ws/big.turn.json");
    expect(fake.diagnostics(big)).toBeUndefined();

    const open = Uri.file("/ws/open.turn.json");
    const doc = fake.openDocument(open, '{"ofered": []}');
    await settle();
    fake.writeFile("/ws/open.turn.json", '{"ofered": []}');
    fake.deleteFile("/ws/open.turn.json");
    expect(fake.diagnostics(open)).toHaveLength(1);

    fake.files.set(open.toString(), huge);
    fake.closeDocument(doc);
    await settle();
    expect(fake.diagnostics(open)!.map((d) => d.message)).toEqual([
      "fixture is 11.1 MB; the limit is 10 MB",
    ]);
  });
});

describe("sizes and the order things happen in", () => {
  const HUGE = `{"description": "${"x".repeat(11 * 1024 * 1024)}`;

  it("an open fixture or catalogue too large to validate says which it is", async () => {
    const fixture = Uri.file("/ws/open-big.turn.json");
    const catalog = Uri.file("/ws/open-big.catalog.json");
    fake.openDocument(fixture, HUGE);
    fake.openDocument(catalog, HUGE);
    await settle();
    expect(fake.diagnostics(fixture)!.map((d) => d.message)).toEqual([
      "fixture is 11.1 MB; the limit is 10 MB",
    ]);
    expect(fake.diagnostics(catalog)!.map((d) => d.message)).toEqual([
      expect.stringMatching(/^catalogue is 11\.1 MB; the limit is/),
    ]);
  });

  it("reports closed fixtures too large to read at start and when created, whatever else is open, but not under node_modules", async () => {
    diagnostics.dispose();
    const big = fake.writeFile("/ws/big.turn.json", HUGE);
    const vendored = fake.writeFile("/ws/node_modules/pkg/big.turn.json", HUGE);
    fake.openDocument(Uri.file("/ws/other.turn.json"), "{}");
    diagnostics = new FixtureDiagnostics(1);
    await settle();
    expect(fake.diagnostics(big)).toHaveLength(1);
    expect(fake.diagnostics(vendored)).toBeUndefined();
    const created = fake.writeFile("/ws/created.turn.json", HUGE);
    await settle();
    expect(fake.diagnostics(created)).toHaveLength(1);
  });

  it("an open fixture keeps its document's problems when its file on disk grows too large", async () => {
    const uri = Uri.file("/ws/o.turn.json");
    fake.openDocument(uri, '{"ofered": []}');
    await settle();
    const before = fake.diagnostics(uri)!.map((d) => d.message);
    fake.writeFile("/ws/o.turn.json", HUGE);
    await settle();
    expect(fake.diagnostics(uri)!.map((d) => d.message)).toEqual(before);
    expect(before).not.toEqual([expect.stringMatching(/limit/)]);
  });

  it("a fixture opened while its size was being checked shows its document's problems", async () => {
    diagnostics.dispose();
    fake.writeFile("/ws/r.turn.json", HUGE);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stat = workspace.fs.stat;
    workspace.fs.stat = async (uri: Uri) => {
      await gate;
      return stat(uri);
    };
    try {
      diagnostics = new FixtureDiagnostics(1);
      // The check at start has found the file and is waiting for its size.
      await settle();
      const uri = Uri.file("/ws/r.turn.json");
      fake.openDocument(uri, "{}");
      await settle();
      release();
      await settle();
      expect(fake.diagnostics(uri)).toEqual([]);
    } finally {
      workspace.fs.stat = stat;
    }
  });

  it("a validation of a closed document that ends after it is opened again does not win", async () => {
    diagnostics.dispose();
    const { release, restore } = slowCatalogRead({ onlyFirst: true });
    try {
      diagnostics = new FixtureDiagnostics(0);
      const uri = Uri.file("/ws/c.turn.json");
      const doc = fake.openDocument(uri, '{"catalog": "./tools.catalog.json"}');
      await settle();
      fake.closeDocument(doc);
      fake.openDocument(uri, '{"catalog": "./tools.catalog.json", "pipeline": [{"kind": "nope"}]}');
      await settle();
      release();
      await settle();
      expect(fake.diagnostics(uri)!.map((d) => d.message)).toEqual([
        expect.stringMatching(/unknown stage kind "nope"/),
      ]);
    } finally {
      restore();
    }
  });

  it("offers no fix for a problem without one, nor for another problem at the same place", async () => {
    const uri = Uri.file("/ws/p.turn.json");
    const doc = fake.openDocument(uri, '{"offered": 3}');
    await settle();
    const [problem] = fake.diagnostics(uri)!;
    expect(
      diagnostics.provideCodeActions(
        doc as unknown as vscode.TextDocument,
        problem!.range as never,
        { diagnostics: [problem] } as never,
      ),
    ).toEqual([]);
    fake.editDocument(doc, '{"pipline": []}');
    await settle();
    const [typo] = fake.diagnostics(uri)!;
    expect(
      diagnostics.provideCodeActions(
        doc as unknown as vscode.TextDocument,
        typo!.range as never,
        { diagnostics: [{ ...typo!, message: "something else" }] } as never,
      ),
    ).toEqual([]);
  });
});

describe("catalogues and closing", () => {
  it("a valid catalogue has no problems", async () => {
    const catalog = Uri.file("/ws/ok.catalog.json");
    fake.openDocument(catalog, '[{"name": "a"}]');
    await settle();
    expect(fake.diagnostics(catalog)).toEqual([]);
  });

  it("closing a catalogue too large to read reports nothing about it as a fixture", async () => {
    const catalog = fake.writeFile(
      "/ws/huge.catalog.json",
      `[{"name": "${"x".repeat(11 * 1024 * 1024)}`,
    );
    const doc = fake.openDocument(catalog);
    await settle();
    fake.closeDocument(doc);
    await settle();
    expect(fake.diagnostics(catalog)).toBeUndefined();
  });

  it("a validation still running when its document closes publishes nothing", async () => {
    diagnostics.dispose();
    const { release, restore } = slowCatalogRead({ onlyFirst: false });
    try {
      diagnostics = new FixtureDiagnostics(0);
      const uri = Uri.file("/ws/c.turn.json");
      // Valid JSON with a tool the catalogue lacks: its warning waits for the catalogue.
      const doc = fake.openDocument(uri, '{"catalog": "./tools.catalog.json", "offered": ["zz"]}');
      await settle();
      fake.closeDocument(doc);
      release();
      await settle();
      expect(fake.diagnostics(uri)).toBeUndefined();
    } finally {
      restore();
    }
  });
});

describe("a catalogue changed on disk", () => {
  it("re-validates the open fixtures, which then see the catalogue as it is now", async () => {
    fake.writeFile("/ws/tools.catalog.json", '[{"name": "a"}]');
    const uri = Uri.file("/ws/k.turn.json");
    fake.openDocument(uri, '{"catalog": "./tools.catalog.json", "offered": ["b"]}');
    await settle();
    expect(fake.diagnostics(uri)!.map((d) => d.message)).toEqual([
      expect.stringMatching(/'b' is offered but not in the catalogue/),
    ]);
    fake.writeFile("/ws/tools.catalog.json", '[{"name": "a"}, {"name": "b"}]');
    await settle();
    expect(fake.diagnostics(uri)).toEqual([]);
  });
});
