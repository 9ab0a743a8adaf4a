/**
 * The host checks a large fixture or catalogue in a worker thread: a hostile one of 10 MB never
 * holds its event loop, and its problems are those a check on the host's thread lists. A slice is
 * measured in the host thread's own CPU time, which neither the worker nor a busy machine adds to.
 */
import type * as vscode from "vscode";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatProblem, type Problem } from "../../src/core/fixture/problems.js";
import { MAX_SOURCE_BYTES } from "../../src/core/fixture/source.js";
import { MAX_SCHEMA_ISSUES } from "../../src/core/fixture/validate.js";
import { problemsOf } from "../../src/extension/diagnostics.js";
import { deactivate } from "../../src/extension/main.js";
import { loadFixtureFromUri } from "../../src/extension/fixtures.js";
import { fake, Uri } from "../fakes/vscode.js";
import { longestSlice, SLICE_MS } from "../helpers/host-cpu.js";

const ENTRIES = 200_000;

/**
 * A JSON list of catalogue entries each with two mistakes: a visibility that is a number, a cost
 * that is text. Written as text: the objects of a value would leave the host's heap a collection
 * to make while it is measured.
 */
const badEntries = () =>
  `[${Array.from({ length: ENTRIES }, (_, i) => `{"name":"t${i}","visibility":1,"cost_usd":"x"}`).join(",")}]`;

/** What the check lists, on any thread: the first 1,000 errors, then how many more. */
function expectHostileProblems(problems: readonly Problem[], first: string): void {
  expect(problems).toHaveLength(MAX_SCHEMA_ISSUES + 1);
  expect(formatProblem(problems[0]!)).toBe(first);
  expect(problems.at(-1)!.message).toBe(
    `… and ${2 * ENTRIES - MAX_SCHEMA_ISSUES} more schema errors (the first ${MAX_SCHEMA_ISSUES} are listed)`,
  );
}

const asDocument = (document: unknown) => document as vscode.TextDocument;

beforeAll(async () => {
  // The host compiles its validator once, for its first small fixture: that is not measured here.
  await problemsOf(asDocument(fake.openDocument(Uri.file("/warm.turn.json"), "{}")));
});

beforeEach(() => {
  fake.reset();
  fake.addWorkspaceFolder("/ws");
});

describe("large hostile fixtures in the extension host", () => {
  const fixture = `{"catalog":${badEntries()},"pipeline":[]}`;
  const uri = Uri.file("/ws/hostile.turn.json");
  const firstProblem = `${uri.toString()}:1:52: error: expected number or null, found the string "x" (at $.catalog[0].cost_usd)`;

  it("a fixture of 10 MB with 200,000 bad catalogue entries: the Problems panel lists its errors, never holding the host's event loop 50 ms", async () => {
    expect(fixture.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(fixture.length).toBeLessThanOrEqual(MAX_SOURCE_BYTES);
    const document = asDocument(fake.openDocument(uri, fixture));
    let problems: readonly Problem[] = [];
    const ms = await longestSlice(async () => (problems = await problemsOf(document)));
    expectHostileProblems(problems, firstProblem);
    expect(ms).toBeLessThan(SLICE_MS);
  }, 60_000);

  it("the same fixture run from the Testing view or the panel is refused with the same problems, off the host's thread", async () => {
    fake.openDocument(uri, fixture);
    let loaded: Awaited<ReturnType<typeof loadFixtureFromUri>> | undefined;
    const ms = await longestSlice(
      async () => (loaded = await loadFixtureFromUri(uri as unknown as vscode.Uri)),
    );
    expect(loaded!.ok).toBe(false);
    expectHostileProblems(loaded!.problems, firstProblem);
    expect(ms).toBeLessThan(SLICE_MS);
  }, 60_000);

  it("a small fixture naming a catalogue file of 10 MB with 200,000 bad entries: their errors are placed in the catalogue, off the host's thread", async () => {
    // As bytes: the fake disk would encode a text on every read, which a real disk does not.
    const catalogue = fake.writeBytes(
      "/ws/hostile.catalog.json",
      new TextEncoder().encode(badEntries()),
    );
    const document = asDocument(
      fake.openDocument(
        Uri.file("/ws/small.turn.json"),
        '{"catalog": "./hostile.catalog.json", "pipeline": []}',
      ),
    );
    let problems: readonly Problem[] = [];
    const ms = await longestSlice(async () => (problems = await problemsOf(document)));
    expectHostileProblems(
      problems,
      `${catalogue.toString()}:1:41: error: expected number or null, found the string "x" (at $[0].cost_usd)`,
    );
    expect(ms).toBeLessThan(SLICE_MS);
  }, 60_000);

  it("a worker that ends during a check (the extension deactivated) makes it one problem of its file; the next check starts another", async () => {
    const document = asDocument(fake.openDocument(uri, fixture));
    const checking = problemsOf(document);
    // The worker has the fixture once the host's part of the check is done.
    await new Promise((settle) => setTimeout(settle, 100));
    await deactivate();
    expect((await checking).map(formatProblem)).toEqual([
      `${uri.toString()}:1:1: error: the check of this file stopped: its worker thread ended (exit code 1)`,
    ]);
    expectHostileProblems(await problemsOf(document), firstProblem);
  }, 60_000);
});
