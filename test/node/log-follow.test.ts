import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { followCommand } from "../../src/cli/follow.js";
import { FollowThread } from "../../src/node/follow-thread.js";
import { longestSlice, SLICE_MS } from "../helpers/host-cpu.js";
import { LogFollower, type FollowOptions } from "../../src/node/log-follow.js";

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
interface Follower {
  start(): Promise<void>;
  stop(): Promise<void>;
}
const followers: Follower[] = [];
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

/** The CLI follows on its own thread; the extension host in a worker thread, with the same results. */
const FOLLOWERS: [string, (path: string, options: FollowOptions) => Follower][] = [
  ["on this thread", (path, options) => new LogFollower(path, options)],
  ["in a worker thread", (path, options) => new FollowThread(path, options)],
];

async function follow(
  make: (path: string, options: FollowOptions) => Follower,
  path: string,
  fromStart: boolean,
) {
  const seen: [number, number, unknown][] = [];
  const problems: unknown[] = [];
  const follower = make(path, {
    fromStart,
    pollMs: 10,
    onTrace: (found) => seen.push([found.index, found.line, found.trace.id]),
    onProblem: (problem) => problems.push(problem),
  });
  followers.push(follower);
  await follower.start();
  return { seen, problems };
}

describe.each(FOLLOWERS)("following a growing log %s", (_, make) => {
  it("from the end: only what is appended, with its true line numbers, a half-written line once complete", async () => {
    const path = log(line("old") + "noise\n");
    const { seen } = await follow(make, path, false);
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
    const { seen, problems } = await follow(make, path, true);
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

  it("a link re-pointed at another file is no rotation: the file first opened is followed, the change said once", async () => {
    const first = log(line("a"));
    const other = first.replace(/app\.log$/, "other.log");
    writeFileSync(other, line("elsewhere-1") + line("elsewhere-2"));
    const current = first.replace(/app\.log$/, "current.log");
    symlinkSync(first, current);
    const { seen, problems } = await follow(make, current, true);
    await until(() => seen.length === 1);
    symlinkSync(other, current + ".new");
    renameSync(current + ".new", current);
    await until(() => problems.length === 1);
    appendFileSync(first, line("b"));
    await until(() => seen.length === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.map(([, , id]) => id)).toEqual(["a", "b"]);
    expect(problems).toEqual([
      {
        line: 0,
        message: `${current} now leads to ${other}, not to ${first}; still following ${first}`,
      },
    ]);
  });

  it("a FIFO is refused at once, with a writer or without, in words", async () => {
    const fifo = log("").replace(/app\.log$/, "pipe.log");
    execFileSync("mkfifo", [fifo]);
    const refused = async () => {
      const follower = make(fifo, { onTrace: () => {}, onProblem: () => {} });
      followers.push(follower);
      await expect(follower.start()).rejects.toThrow(
        "it is not a regular file (a FIFO, a device or a socket)",
      );
    };
    await refused();
    // Opened for reading and writing, a FIFO has a writer without waiting for a reader.
    const writer = openSync(fifo, constants.O_RDWR);
    try {
      await refused();
    } finally {
      closeSync(writer);
    }
  }, 5_000);
});

describe("traces --follow", () => {
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

describe("traces --follow on a FIFO", () => {
  it("exits 2 at once with the reason in words, with a writer or without (no wait, no bare ESPIPE)", async () => {
    const fifo = log("").replace(/app\.log$/, "pipe.log");
    execFileSync("mkfifo", [fifo]);
    const follow = async () => {
      let stderr = "";
      const code = await followCommand(
        fifo,
        { json: false, fromStart: false },
        { stdout: () => {}, stderr: (s) => (stderr += s), color: false, cwd: "/" },
        { stopped: new Promise(() => {}) },
      );
      return [code, stderr];
    };
    const said = [
      2,
      `palette-inspector: cannot read ${fifo}: it is not a regular file (a FIFO, a device or a socket)\n`,
    ];
    expect(await follow()).toEqual(said);
    const writer = openSync(fifo, constants.O_RDWR);
    try {
      expect(await follow()).toEqual(said);
    } finally {
      closeSync(writer);
    }
  }, 5_000);
});

describe("following a log in a worker thread", () => {
  it("a log that cannot be opened rejects the start with the reason", async () => {
    const follower = new FollowThread("/no/such.log", { onTrace: () => {}, onProblem: () => {} });
    followers.push(follower);
    await expect(follower.start()).rejects.toThrow(/ENOENT.*\/no\/such\.log/);
  });

  it("a hostile log of 1 MB followed from its start never holds this thread 50 ms, and every trace comes", async () => {
    const path = log(`[\n${Array(40_000).fill('{"trace":[],"x":"é"}').join(",")}\n]\n`);
    let traces = 0;
    const follower = new FollowThread(path, {
      fromStart: true,
      onTrace: () => traces++,
      onProblem: () => {},
    });
    followers.push(follower);
    const ms = await longestSlice(async () => {
      await follower.start();
      await until(() => traces === 40_000);
    });
    expect(traces).toBe(40_000);
    expect(ms).toBeLessThan(SLICE_MS);
  });
});
