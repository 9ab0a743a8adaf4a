import {
  appendFileSync,
  mkdtempSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { followCommand } from "../../src/cli/follow.js";
import { LogFollower } from "../../src/node/log-follow.js";

const line = (id: string) =>
  JSON.stringify({
    turn_id: id,
    trace: [
      {
        stage: "s",
        action: "select",
        kept: ["a"],
        dropped: [],
        added: [],
        reinstated: [],
        forced_choice: null,
        detail: "",
      },
    ],
  }) + "\n";

const folders: string[] = [];
const followers: LogFollower[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map((f) => f.stop()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function log(text: string): string {
  const folder = mkdtempSync(join(tmpdir(), "follow-"));
  folders.push(folder);
  const path = join(folder, "app.log");
  writeFileSync(path, text);
  return path;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

async function follow(path: string, fromStart: boolean) {
  const seen: [number, number, unknown][] = [];
  const problems: unknown[] = [];
  const follower = new LogFollower(path, {
    fromStart,
    pollMs: 10,
    onTrace: (found) => seen.push([found.index, found.line, found.trace.id]),
    onProblem: (problem) => problems.push(problem),
  });
  followers.push(follower);
  await follower.start();
  return { seen, problems };
}

describe("following a growing log", () => {
  it("from the end: only what is appended, with its true line numbers, a half-written line once complete", async () => {
    const path = log(line("old") + "noise\n");
    const { seen } = await follow(path, false);
    appendFileSync(path, line("new-1").slice(0, 20));
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([]);
    appendFileSync(path, line("new-1").slice(20) + line("new-2"));
    await until(() => seen.length === 2);
    expect(seen).toEqual([
      [0, 3, "new-1"],
      [1, 4, "new-2"],
    ]);
  });

  it("from the start with --from-start; across a rotation (rename, new file) and a copytruncate, never a line twice", async () => {
    const path = log(line("a"));
    const { seen, problems } = await follow(path, true);
    await until(() => seen.length === 1);
    // Written to the old file just before it is renamed, then the new file starts.
    appendFileSync(path, line("b"));
    renameSync(path, path + ".1");
    writeFileSync(path, line("c"));
    await until(() => seen.length === 3);
    appendFileSync(path, line("d"));
    await until(() => seen.length === 4);
    truncateSync(path, 0);
    await new Promise((r) => setTimeout(r, 50));
    appendFileSync(path, line("e"));
    await until(() => seen.length === 5);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([
      [0, 1, "a"],
      [1, 2, "b"],
      [2, 1, "c"],
      [3, 2, "d"],
      [4, 1, "e"],
    ]);
    expect(problems).toEqual([]);
  });

  it("traces --follow --json prints one JSON object per line per trace, with its file and line, until stopped", async () => {
    const path = log(line("a"));
    let stdout = "";
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const done = followCommand(
      path,
      { json: true, fromStart: true },
      { stdout: (s) => (stdout += s), stderr: () => {}, color: false, cwd: "/" },
      { stopped },
    );
    await until(() => stdout.includes("\n"));
    appendFileSync(path, line("b"));
    await until(() => stdout.split("\n").length === 3);
    stop();
    expect(await done).toBe(0);
    expect(
      stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { file: string; line: number; id: string }),
    ).toMatchObject([
      { file: path, line: 1, index: 0, id: "a" },
      { file: path, line: 2, index: 1, id: "b" },
    ]);
  });

  it("a log that cannot be read is one line on standard error, exit 2", async () => {
    let stderr = "";
    const code = await followCommand(
      "/no/such.log",
      { json: false, fromStart: false },
      { stdout: () => {}, stderr: (s) => (stderr += s), color: false, cwd: "/" },
      { stopped: Promise.resolve() },
    );
    expect([code, stderr]).toEqual([
      2,
      "palette-inspector: cannot read /no/such.log: no such file\n",
    ]);
  });
});
