import { describe, expect, it } from "vitest";
import { neutralise, notice } from "../../src/extension/notify.js";

const LINK = "[x](command:workbench.action.openSettings?%22PWNED%22)";

describe("notification text", () => {
  it("breaks the link syntax VS Code renders in notifications", () => {
    const text = notice`Cannot read ${LINK}.`.text;
    expect(text).not.toMatch(/\[[^\]]*\]\(/);
    expect(text).toBe("Cannot read ［x］(command:workbench.action.openSettings?%22PWNED%22).");
  });

  it("removes controls, line breaks and bidi overrides, and shortens long names", () => {
    expect(neutralise("a\u001b]0;title\u0007b\nc\u202ed")).toBe(
      "a ]0;title b c d".replace("]", "］"),
    );
    expect(Array.from(neutralise("x".repeat(500))).length).toBe(60);
    expect(neutralise(`/home/someone/${"x".repeat(500)}/app.log`)).toMatch(
      /^\/home\/some.*…x+\/app\.log$/,
    );
    expect(neutralise("short")).toBe("short");
  });
});
