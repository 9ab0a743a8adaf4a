/** export in a folder someone else may control: nothing is ever written through a link. */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { exportCommand } from "../../src/cli/export.js";
import { cli, workspace } from "./helpers.js";
import { tempDir } from "../helpers/temp.js";

const LOG = JSON.stringify({ turn_id: "$(touch pwned)", trace: [] }) + "\n";

describe("export and links in --out", () => {
  it("--force refuses a table that is a symbolic link, and writes nothing through it or any other", async () => {
    const root = workspace({ "victim.sh": "echo hello\n", "agent.log": LOG });
    const out = join(root, "out");
    mkdirSync(out);
    writeFileSync(join(out, "tool_events.jsonl"), "old\n");
    symlinkSync(join(root, "victim.sh"), join(out, "traces.jsonl"));
    symlinkSync(join(root, "created-outside.jsonl"), join(out, "stages.jsonl"));
    const { code, stderr } = await cli([
      "export",
      join(root, "agent.log"),
      "--out",
      out,
      "--format",
      "jsonl",
      "--force",
    ]);
    expect([code, stderr]).toEqual([
      2,
      `palette-inspector: cannot write in ${out}: traces.jsonl is a symbolic link; nothing is written through a link\n`,
    ]);
    expect(readFileSync(join(root, "victim.sh"), "utf8")).toBe("echo hello\n");
    expect(existsSync(join(root, "created-outside.jsonl"))).toBe(false);
    expect(readFileSync(join(out, "tool_events.jsonl"), "utf8")).toBe("old\n");
  });

  it("refuses an --out that is itself a symbolic link", async () => {
    const root = workspace({ "elsewhere/keep": "", "agent.log": LOG });
    symlinkSync(join(root, "elsewhere"), join(root, "out"));
    const { code, stderr } = await cli([
      "export",
      join(root, "agent.log"),
      "--out",
      join(root, "out"),
    ]);
    expect([code, stderr]).toEqual([
      2,
      `palette-inspector: ${join(root, "out")} is a symbolic link; give the folder itself\n`,
    ]);
  });

  it("never writes through a link another process plants in a new --out while export runs (300 attempts)", async () => {
    const base = tempDir("pi-race-");
    const victim = join(base, "victim.sh");
    writeFileSync(victim, "echo hello\n");
    const shared = new Int32Array(new SharedArrayBuffer(8));
    // A second process's part, on another thread: makes each --out and plants the link, after a moment of its own.
    const racer = new Worker(
      `const { workerData } = require("node:worker_threads");
      const fs = require("node:fs");
      const shared = new Int32Array(workerData.shared);
      while (Atomics.load(shared, 1) === 0) {
        const i = Atomics.load(shared, 0);
        const out = workerData.base + "/out" + i;
        // Asleep, not spinning: the racer leaves the cores to the suite's timed tests.
        Atomics.wait(shared, 1, 0, Math.random() * 8);
        try { fs.mkdirSync(out); } catch {}
        try { fs.symlinkSync(workerData.victim, out + "/traces.jsonl"); } catch {}
      }`,
      { eval: true, workerData: { shared: shared.buffer, base, victim } },
    );
    const attempts = 300;
    let written = 0;
    try {
      for (let i = 0; i < attempts; i++) {
        Atomics.store(shared, 0, i);
        const code = await exportCommand(
          ["-", "--out", join(base, `out${i}`), "--format", "jsonl"],
          {
            stdout: () => {},
            stderr: () => {},
            color: false,
            cwd: base,
            stdin: Readable.from([Buffer.from(LOG)]),
          },
        );
        if (code === 0) written++;
        if (readFileSync(victim, "utf8") !== "echo hello\n") break;
      }
    } finally {
      Atomics.store(shared, 1, 1);
      await racer.terminate();
    }
    expect(readFileSync(victim, "utf8")).toBe("echo hello\n");
    // Some exports won the race and wrote their own tables: the check ran against real contention.
    expect(written).toBeGreaterThan(0);
  }, 20_000);
});
