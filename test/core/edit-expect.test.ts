/** The one text change that sets a fixture's expect block (Update Expectation's edit). */
import { describe, expect, it } from "vitest";
import { expectChanges } from "../../src/core/fixture/edit-expect.js";

/** The text after the one change that sets its expect block. */
function withExpect(text: string, want: Parameters<typeof expectChanges>[1]): string {
  const changes = expectChanges(text, want);
  expect(changes).toHaveLength(1);
  const [change] = changes;
  return (
    text.slice(0, change!.offset) + change!.content + text.slice(change!.offset + change!.length)
  );
}

describe("the expect block edit", () => {
  it("adds an expect block to a fixture that has none, keeping CRLF line ends", () => {
    const text = '{\r\n  "offered": ["a"]\r\n}\r\n';
    expect(withExpect(text, { names: ["a"] })).toBe(
      '{\r\n  "offered": ["a"],\r\n  "expect": {\r\n    "names": [\r\n      "a"\r\n    ]\r\n  }\r\n}\r\n',
    );
  });

  it("writes the expect block in the file's own indentation: tabs, or the step of its first indented line", () => {
    expect(withExpect('{\n\t"offered": ["a"]\n}', { names: [] })).toBe(
      '{\n\t"offered": ["a"],\n\t"expect": {\n\t\t"names": []\n\t}\n}',
    );
    expect(withExpect('{"offered": ["a"],\n    "pipeline": []}', { names: ["a"] })).toBe(
      '{"offered": ["a"],\n    "pipeline": [],\n    "expect": {\n        "names": [\n            "a"\n        ]\n    }}',
    );
  });

  it("replaces an existing expect block in place, indented as the line that holds it", () => {
    const text = '{\n  "offered": ["a"], "expect": {"names": []},\n  "turn": {}\n}';
    expect(withExpect(text, { names: ["a"] })).toBe(
      '{\n  "offered": ["a"], "expect": {\n    "names": [\n      "a"\n    ]\n  },\n  "turn": {}\n}',
    );
    // On the first line there is no line break before it to measure from.
    expect(withExpect('{"expect": null}', { names: [] })).toBe('{"expect": {\n  "names": []\n}}');
  });

  it("fills an empty fixture object, and refuses text that is not a JSON object", () => {
    expect(withExpect("  {}\n", { names: [] })).toBe(
      '  {\n  "expect": {\n    "names": []\n  }\n}\n',
    );
    expect(() => expectChanges("[1]", { names: [] })).toThrow("a fixture is a JSON object");
    expect(() => expectChanges("", { names: [] })).toThrow("a fixture is a JSON object");
  });
});
