import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "./temp.js";

const forTheFile = tempDir("pi-temp-file-");
let forOneTest = "";

describe("tempDir", () => {
  it("makes an empty folder named by its prefix", () => {
    forOneTest = tempDir("pi-temp-test-");
    expect(existsSync(forOneTest)).toBe(true);
    expect(forOneTest).toMatch(/pi-temp-test-[^/\\]+$/);
  });

  it("removes a folder made in a test when that test ends, and keeps one made for the file", () => {
    expect(forOneTest).not.toBe("");
    expect(existsSync(forOneTest)).toBe(false);
    expect(existsSync(forTheFile)).toBe(true);
  });
});

// Registered after the helper's own hook, so it runs before it (vitest runs afterAll hooks in reverse).
afterAll(() => {
  expect(existsSync(forTheFile)).toBe(true);
});
