// File names, problem and mismatch messages from a workspace reach the
// terminal with their escape sequences (window title, OSC 8 links, screen clear) defused.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, workspace } from "./helpers.js";

const OSC_TITLE = "\u001b]0;PWNED\u0007";
const CSI_C1 = "\u009b2J";
const BIDI = "\u202e";
/** Invisible format characters: the Arabic letter mark, zero-width space and joiner, word joiner. */
const INVISIBLE = "\u061c\u200b\u200d\u2060";
/** ESC, BEL, C1 controls (CSI, OSC), bidi overrides and format characters: none may reach a terminal raw. */
const RAW = /[\u001b\u0007\u0080-\u009f\u202a-\u202e\u2066-\u2069\u061c\u200b\u2060]|\u200d/;

const hostileName = `${OSC_TITLE}x.turn.json`;

function hostileWorkspace(): string {
  return workspace({
    [hostileName]: {
      offered: [`a${CSI_C1}`, `b${BIDI}`],
      pipeline: [{ kind: "lazy", allowed_names: [`a${CSI_C1}`] }],
      expect: { names: [`b${BIDI}${OSC_TITLE}`] },
    },
    [`bad${BIDI}.turn.json`]: { pipeline: [{ kind: `\u001b[2J${CSI_C1}` }] },
  });
}

describe("terminal escape injection in the CLI", () => {
  it("check prints hostile file names, problems and mismatches escaped", async () => {
    const { code, stdout, stderr } = await cli(["check", hostileWorkspace()]);
    expect(code).toBe(2);
    expect(stdout + stderr).not.toMatch(RAW);
    expect(stdout).toContain("\\u001b]0;PWNED\\u0007x.turn.json");
    expect(stdout).toContain("\\u009b2J");
  });

  it("run prints the waterfall, problems and mismatches escaped", async () => {
    const root = hostileWorkspace();
    const failed = await cli(["run", join(root, hostileName)]);
    expect(failed.code).toBe(1);
    expect(failed.stdout + failed.stderr).not.toMatch(RAW);
    const invalid = await cli(["run", join(root, `bad${BIDI}.turn.json`)]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("bad\\u202e.turn.json");
    expect(invalid.stdout + invalid.stderr).not.toMatch(RAW);
  });

  it("--json stays valid JSON with C1 controls and bidi overrides escaped", async () => {
    const root = hostileWorkspace();
    for (const args of [
      ["check", root, "--json"],
      ["run", join(root, hostileName), "--json"],
    ]) {
      const { stdout } = await cli(args);
      expect(stdout).not.toMatch(RAW);
      expect(stdout).toContain("\\u009b");
      expect(JSON.stringify(JSON.parse(stdout))).toContain(CSI_C1);
    }
    const { stdout } = await cli(["check", root, "--json"]);
    expect(stdout).toContain("\\u202e");
  });

  it("traces and show escape a hostile log name, its problems and its traces", async () => {
    const root = workspace({});
    const log = join(root, `${OSC_TITLE}.log`);
    const record = {
      stage: `s${CSI_C1}`,
      action: "select",
      kept: [`t${BIDI}`, `u${INVISIBLE}`],
      dropped: [],
      added: [],
      reinstated: [],
      forced_choice: null,
      detail: OSC_TITLE,
    };
    writeFileSync(
      log,
      `${JSON.stringify({ turn_id: `${CSI_C1}${INVISIBLE}`, trace: [record], tools: [`u${INVISIBLE}`] })}\n${JSON.stringify({ trace: [{ stage: CSI_C1 }] })}\n`,
    );
    for (const args of [
      ["traces", log],
      ["traces", log, "--json"],
      ["show", log],
      ["show", log, "--json"],
      ["show", log, "7"],
      ["show", `${log}.missing`],
    ]) {
      const { stdout, stderr } = await cli(args);
      expect(stdout + stderr, args.join(" ")).not.toMatch(RAW);
      if (args.length === 2 && args[0] === "traces")
        expect(stdout).toContain("\\u061c\\u200b\\u200d\\u2060");
      if (args.includes("--json")) expect(() => JSON.parse(stdout)).not.toThrow();
    }
  });
});
