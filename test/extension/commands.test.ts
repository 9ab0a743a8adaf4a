import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { COMMAND_IDS, registerCommand } from "../../src/extension/commands.js";
import { commands, fake } from "../fakes/vscode.js";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  contributes: { commands: { command: string }[] };
};

beforeEach(() => fake.reset());

describe("registerCommand", () => {
  it("knows exactly the commands package.json contributes", () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    expect([...COMMAND_IDS].sort()).toEqual(contributed);
  });

  it("passes the arguments through and answers with what the command returns", async () => {
    registerCommand("paletteInspector.openTrace", (a: number, b: number) => a + b);
    expect(await commands.executeCommand("paletteInspector.openTrace", 2, 3)).toBe(5);
    expect(fake.shown).toEqual([]);
  });

  it("reports a rejection in a notification, with the stack in the log", async () => {
    registerCommand("paletteInspector.goToTrace", async () => {
      throw new Error("disk [gone](command:evil)");
    });
    expect(await commands.executeCommand("paletteInspector.goToTrace")).toBeUndefined();
    expect(fake.shown).toEqual([
      {
        kind: "error",
        message:
          "Palette Inspector: paletteInspector.goToTrace failed unexpectedly: disk ［gone］(command:evil)",
      },
    ]);
    const logged = fake.logLines.find((line) => line.level === "error")?.text ?? "";
    expect(logged).toContain("Error: disk [gone](command:evil)\n");
    expect(logged).toContain("commands.test.ts");
  });

  it("reports what a synchronous command throws, even when it is not an Error", async () => {
    registerCommand("paletteInspector.removeLogSet", () => {
      throw "plain text";
    });
    await commands.executeCommand("paletteInspector.removeLogSet");
    expect(fake.shown.map((shown) => shown.message)).toEqual([
      "Palette Inspector: paletteInspector.removeLogSet failed unexpectedly: plain text",
    ]);
  });
});
