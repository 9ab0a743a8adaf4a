/** The assistant tools in a folder someone else controls: what they read and write stays under the roots. */
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RootFiles, Roots } from "../../src/node/roots.js";
import { callTool } from "../../src/tools/tools.js";
import { swapper } from "../helpers/swapper.js";
import { tempDir } from "../helpers/temp.js";

const ATTEMPTS = 300;
/** A fixture is read, or one written, in microseconds: its race window is narrow, so more calls meet it. */
const FIXTURE_ATTEMPTS = 1000;
const logLine = (id: string) =>
  JSON.stringify({ turn_id: id, trace: [{ stage: "s", action: "select", kept: [id] }] }) + "\n";

/** A root holding `inside`, and a folder beside it, outside every root. */
function folders() {
  const base = tempDir("pi-roots-");
  const root = join(base, "root");
  const outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside, files: new RootFiles(new Roots([root])) };
}

describe("the tools under a swapper", () => {
  it(`list_traces never reads the file a swapped link points to outside the roots (${ATTEMPTS} calls)`, async () => {
    const { root, outside, files } = folders();
    writeFileSync(join(root, "mine.log"), logLine("mine"));
    writeFileSync(join(outside, "secret.log"), logLine("SECRET"));
    await swapper(join(root, "swap.log"), [
      join(root, "mine.log"),
      `->${join(outside, "secret.log")}`,
    ]);
    let read = 0;
    for (let i = 0; i < ATTEMPTS; i++) {
      const answer = await callTool("list_traces", { logs: ["swap.log"] }, files);
      expect(JSON.stringify(answer)).not.toContain("SECRET");
      if (!answer.isError) read++;
    }
    // Both read and refused: the swapper kept swapping while the tool was called.
    expect([read > 0, read < ATTEMPTS]).toEqual([true, true]);
  }, 30_000);

  it(`run_fixture never runs the fixture a swapped link points to outside the roots (${FIXTURE_ATTEMPTS} calls)`, async () => {
    const { root, outside, files } = folders();
    writeFileSync(join(root, "mine.json"), JSON.stringify({ offered: ["mine"] }));
    writeFileSync(join(outside, "secret.json"), JSON.stringify({ offered: ["SECRET"] }));
    await swapper(join(root, "swap.turn.json"), [
      join(root, "mine.json"),
      `->${join(outside, "secret.json")}`,
    ]);
    let ran = 0;
    for (let i = 0; i < FIXTURE_ATTEMPTS; i++) {
      const answer = await callTool("run_fixture", { path: "swap.turn.json" }, files);
      expect(JSON.stringify(answer)).not.toContain("SECRET");
      if (!answer.isError) ran++;
    }
    expect([ran > 0, ran < FIXTURE_ATTEMPTS]).toEqual([true, true]);
  }, 30_000);

  it(`trace_to_fixture's write never lands outside the roots through a folder swapped to a link (${FIXTURE_ATTEMPTS} writes)`, async () => {
    const { root, outside, files } = folders();
    mkdirSync(join(root, "real", "sub"), { recursive: true });
    mkdirSync(join(outside, "sub"));
    await swapper(join(root, "swap"), [`->${join(root, "real")}`, `->${outside}`]);
    let written = 0;
    for (let i = 0; i < FIXTURE_ATTEMPTS; i++) {
      // The tool's write, without the log scan before it: more attempts in the same time.
      const named = await files.writeNewFile(`swap/sub/x${i}.turn.json`, "{}").catch(() => null);
      if (named === null) continue;
      written++;
      expect(existsSync(join(root, "real", "sub", `x${i}.turn.json`))).toBe(true);
    }
    expect(readdirSync(join(outside, "sub"))).toEqual([]);
    expect([written > 0, written < FIXTURE_ATTEMPTS]).toEqual([true, true]);
  }, 30_000);
});

describe("the tools and FIFOs", () => {
  it("refuse a FIFO under a root at once, four at a time, and the file tools keep answering", async () => {
    const { root, files } = folders();
    writeFileSync(join(root, "ok.turn.json"), JSON.stringify({ offered: ["a"] }));
    for (let i = 0; i < 4; i++) execFileSync("mkfifo", [join(root, `pipe${i}.log`)]);
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) => callTool("list_traces", { logs: [`pipe${i}.log`] }, files)),
    );
    for (const answer of answers) {
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain("it is not a regular file (a FIFO, a device or a socket)");
    }
    expect((await callTool("run_fixture", { path: "ok.turn.json" }, files)).isError).toBe(false);
  }, 5_000);
});

describe("the tools and hard links", () => {
  it("refuse a log or fixture under a root that has another name (a hard link), which may lie outside", async () => {
    const { root, outside, files } = folders();
    writeFileSync(join(outside, "secret.log"), logLine("SECRET"));
    writeFileSync(join(outside, "secret.json"), JSON.stringify({ offered: ["SECRET"] }));
    linkSync(join(outside, "secret.log"), join(root, "linked.log"));
    linkSync(join(outside, "secret.json"), join(root, "linked.turn.json"));
    const refusal =
      "it has 2 names (hard links), and another may lie outside the roots; the tools read only a file with one name";
    for (const answer of [
      await callTool("list_traces", { logs: ["linked.log"] }, files),
      await callTool("run_fixture", { path: "linked.turn.json" }, files),
    ]) {
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain(refusal);
      expect(answer.text).not.toContain("SECRET");
    }
  });
});

describe("trace_to_fixture's out", () => {
  it("is written only as a *.turn.json name in no dot-folder", async () => {
    const { root, files } = folders();
    writeFileSync(join(root, "agent.log"), logLine("mine"));
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    mkdirSync(join(root, "sub", ".vscode"), { recursive: true });
    const write = (out: string) =>
      callTool("trace_to_fixture", { logs: ["agent.log"], trace: 1, out }, files);
    for (const out of [".git/hooks/post-checkout", "package.json", ".envrc", "x.json"])
      expect(await write(out)).toEqual({
        text: `not written: ${out} is not named *.turn.json`,
        isError: true,
      });
    for (const out of [
      ".git/x.turn.json",
      "sub/.vscode/x.turn.json",
      join(root, ".x", "y.turn.json"),
    ])
      expect(await write(out)).toEqual({
        text: `not written: ${out} lies in a dot-folder (.git, .vscode, …); fixtures are never written there`,
        isError: true,
      });
    expect(readdirSync(root).sort()).toEqual([".git", "agent.log", "sub"]);
    expect(readdirSync(join(root, ".git", "hooks"))).toEqual([]);
    expect((await write("sub/replay.turn.json")).isError).toBe(false);
  });
});
