/** `show` from a file reads the trace it found again: a file changed in between is said, never thrown. */
import { describe, expect, it, vi } from "vitest";
import { showCommand } from "../../src/cli/traces.js";
import type * as logFile from "../../src/node/log-file.js";

vi.mock("../../src/node/log-file.js", async (original) => ({
  ...(await original<typeof logFile>()),
  readTraceAt: async (file: string) => {
    throw new Error(
      `${file} changed: the trace of line 19 is no longer there; scan the file again`,
    );
  },
}));

describe("show, when the log changes under it", () => {
  it("says the file changed, prints nothing and exits 2", async () => {
    let stdout = "";
    let stderr = "";
    const code = await showCommand(["examples/logs/agent.log", "5"], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      color: false,
      cwd: process.cwd(),
    });
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toMatch(
      /^palette-inspector: \/.*\/examples\/logs\/agent\.log changed: the trace of line 19 is no longer there; scan the file again\n$/,
    );
  });
});
