/** Each command group turns its own usage errors into a message and exit 2; any other failure goes on. */
import { describe, expect, it } from "vitest";
import { guarded, UsageError } from "../../src/cli/io.js";
import { cli } from "./helpers.js";

function io() {
  const err: string[] = [];
  return {
    err,
    io: { stdout: () => {}, stderr: (t: string) => err.push(t), color: false, cwd: "." },
  };
}

describe("a guarded command", () => {
  it("prints a usage error line by line, each line escaped, and exits 2", async () => {
    const { err, io: out } = io();
    const code = await guarded(() => Promise.reject(new UsageError("bad \x1b[31mname\nusage: x")))(
      [],
      out,
    );
    expect([code, err]).toEqual([2, ["palette-inspector: bad \\u001b[31mname\nusage: x\n"]]);
  });

  it("lets any other failure go on, unprinted", async () => {
    const { err, io: out } = io();
    await expect(guarded(() => Promise.reject(new Error("boom")))([], out)).rejects.toThrow("boom");
    expect(err).toEqual([]);
  });

  it.each(["receive", "mcp"])("%s reports a bad option as a usage error", async (name) => {
    const run = await cli([name, "--nope"]);
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toMatch(/^palette-inspector: .*--nope/);
  });
});
