/** One log line's traces (`scanLine`): what it finds, where a value left open starts, and why. */
import { describe, expect, it } from "vitest";
import { prefixContext } from "../../../src/core/traces/line-pairs.js";
import { endsSplitString, mayOpen, scanLine } from "../../../src/core/traces/line.js";

const T = JSON.stringify({ turn_id: "a", trace: [{ stage: "intent", action: "abstain" }] });
const RECORD = "StageRecord(stage='intent', action='abstain')";
/** A value as a logfmt renderer quotes it. */
const logfmt = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** Each trace as `trace <id>` and each problem as its text, with where a value is left open. */
function scan(line: string) {
  const { found, openAt, unclosed } = scanLine(line);
  const items = found.map((f) => ("trace" in f ? `trace ${String(f.trace.id)}` : f.problem));
  return { found: items, openAt, unclosed };
}

describe("where a value left open at the end of a line starts", () => {
  it("is -1 when every bracket closes, on the fast path and the general one", () => {
    expect(scan("plain text")).toEqual({ found: [], openAt: -1, unclosed: null });
    expect(scan(T)).toEqual({ found: ["trace a"], openAt: -1, unclosed: null });
    expect(scan(`A ${T} B`)).toEqual({ found: ["trace a"], openAt: -1, unclosed: null });
    // No marker and no opener at the end: nothing is read, not even the open brace.
    expect(scan("x { y").openAt).toBe(-1);
  });

  it("is the outermost open bracket that starts a value; what it holds is read once it closes", () => {
    const cut = "truncated JSON: the list opened at column 1 is not closed";
    expect(scan(`[ ${T}`)).toEqual({ found: [], openAt: 0, unclosed: cut });
    expect(scan(`  [ ${T}`).openAt).toBe(2);
    expect(scan('"trace": [1').openAt).toBe(9);
    expect(scan('"trace": [{"a": 1}').openAt).toBe(9);
    // A value whose first marker is a Python one is not taken whole as JSON either.
    expect(scan('( {"note": "x trace=(1)"}')).toEqual({
      found: [],
      openAt: 0,
      unclosed: "truncated Python repr: the tuple opened at column 1 is not closed",
    });
    expect(scan(`values[${T},`)).toEqual({
      found: [],
      openAt: 6,
      unclosed: "truncated JSON: the list opened at column 7 is not closed",
    });
  });

  it("is not a bracket a prefix wrote around text: what closed inside that is read", () => {
    expect(scan(`(retry 2/3 selection ${T}`)).toEqual({
      found: ["trace a"],
      openAt: -1,
      unclosed: null,
    });
    expect(scan(`(retry 2/3 selection SelectionResult(tools=('a',`).openAt).toBe(21);
    expect(scan(`{{{ worker ${T} [`)).toEqual({
      found: ["trace a"],
      openAt: 12 + T.length,
      unclosed: null,
    });
    for (const first of ["'a'", "1,", "-1.5e-3,", "None,", "b'x'", "f(", "<Tool a>", "["])
      expect(scan(`(${first} ${RECORD}`).found, first).toEqual([]);
    for (const first of ["see", "2/3", "1 o", "None of", "it's"])
      expect(scan(`(${first} ${RECORD}`).found, first).toEqual(["trace null"]);
  });

  it("skips a closing bracket that does not match the one open", () => {
    expect(scan(`note (see] ${T} x`)).toEqual({ found: ["trace a"], openAt: -1, unclosed: null });
    expect(scan(`note [1, see) ${T},`).openAt).toBe(5);
  });

  it("starts at the name of a call, every name and dot character counted, nothing else", () => {
    for (const c of ["a", "z", "A", "Z", "0", "9", "_", "."])
      expect(scan(`${c}(1,`).openAt, c).toBe(0);
    for (const c of ["`", "~", "@", "^", "/", ":", "-"]) expect(scan(`${c}(1,`).openAt, c).toBe(1);
  });

  it("is found past any blank at the end of the line", () => {
    for (const blank of [" ", "\t", "\r", "\n"])
      expect(scan(`items = [${blank}${blank}`).openAt, JSON.stringify(blank)).toBe(8);
  });
});

describe("a trace cut off by a bracket left open", () => {
  it("names the grammar and the bracket from the first marker inside it", () => {
    expect(scan(`${RECORD.slice(0, -1)}`).unclosed).toBe(
      "truncated Python repr: the call StageRecord(…) opened at column 1 is not closed",
    );
    expect(scan(`x ${RECORD.slice(0, -1)}`).unclosed).toBe(
      "truncated Python repr: the call StageRecord(…) opened at column 3 is not closed",
    );
    // A JSON trace before the bracket, or a JSON marker inside the call, does not make it JSON.
    expect(scan(`${T} x StageRecord(stage='intent', extra={"trace": [1`)).toEqual({
      found: ["trace a"],
      openAt: T.length + 3,
      unclosed: `truncated Python repr: the call StageRecord(…) opened at column ${T.length + 4} is not closed`,
    });
    expect(scan(`x StageRecord(stage='intent', extra={"trace": [1`).unclosed).toBe(
      "truncated Python repr: the call StageRecord(…) opened at column 3 is not closed",
    );
    expect(scan(`[ "trace": [ 1, ${T}`)).toEqual({
      found: [],
      openAt: 0,
      unclosed: "truncated JSON: the list opened at column 1 is not closed",
    });
    expect(scan("INFO ({'trace': (1").unclosed).toBe(
      "truncated Python repr: the tuple opened at column 6 is not closed",
    );
  });

  it("is not reported when every marker inside the bracket was read", () => {
    // A record call starts at its marker; the value read covers it.
    expect(scan(`x (see ${RECORD}`)).toEqual({ found: ["trace null"], openAt: -1, unclosed: null });
    // A marker before the bracket is not the bracket's.
    expect(scan(`x "trace": [1] y [see ${RECORD}`).unclosed).toBeNull();
    // An unreadable value covers its markers too, the ones before a value inside it included.
    const broken = `{"trace": [1, ], "x": {"trace": [2]}, bad}`;
    const { found, unclosed } = scan(`[${" ".repeat(8)}x ${broken}`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^invalid JSON: /);
    expect(unclosed).toBeNull();
    expect(scan(`x [see {"trace": [1, }`).unclosed).toBeNull();
    // A call whose arguments hold no trace is read: its quoted marker is not a cut-off trace.
    expect(scan(`[x f('"trace": [', 1)`)).toEqual({ found: [], openAt: -1, unclosed: null });
    // Values past the per-line budget count as read.
    const crowded = scan(`[ x ${Array<string>(66).fill(RECORD).join(" ")}`);
    expect(crowded.found).toHaveLength(65);
    expect(crowded.unclosed).toBeNull();
  });

  it("is taken back when a later pass, past a quote that does not close, reads the value", () => {
    expect(scan(`[ msg=${logfmt(T)} '`)).toEqual({
      found: ["trace a"],
      openAt: -1,
      unclosed: null,
    });
  });

  it("gives up after 16 passes over quotes that do not close in a prefix's brackets", () => {
    expect(scan(`${"[x ".repeat(15)}${T} '`).found).toEqual(["trace a"]);
    expect(scan(`${"[x ".repeat(16)}${T} '`)).toEqual({
      found: [],
      openAt: -1,
      unclosed: "truncated JSON: the list opened at column 46 is not closed",
    });
  });

  it("is the value a quote cuts off, and nothing inside it stands in for it", () => {
    expect(scan(`x [${T}, {'a': 'it`)).toEqual({
      found: [],
      openAt: -1,
      unclosed: "truncated JSON: the list opened at column 3 is not closed",
    });
    expect(scan(`x SelectionResult(tools=('a',), forc`).unclosed).toBe(
      "truncated Python repr: the call SelectionResult(…) opened at column 3 is not closed",
    );
    // A SelectionResult cut in a string holds no marker yet: it is cut all the same.
    expect(scan(`x SelectionResult(tools=(Tool(name='a', d='it\\'s`).unclosed).toBe(
      "truncated Python repr: the call SelectionResult(…) opened at column 3 is not closed",
    );
  });

  it("is the quoted value of a trace= pair that does not close", () => {
    expect(scan(`a=1 trace='[{"stage": "s", `)).toEqual({
      found: [],
      openAt: -1,
      unclosed: "truncated value: the quoted value opened at column 11 is not closed",
    });
    // A value read after the quote is not cut by it.
    expect(scan(`a='x b=${T}`)).toEqual({ found: ["trace a"], openAt: -1, unclosed: null });
  });
});

describe("the values of a line", () => {
  it("reads only values holding a marker", () => {
    expect(scan(`A ${T} B {not valid}`).found).toEqual(["trace a"]);
    expect(scan(`note='\\x4' data=${T} x`).found).toEqual(["trace a"]);
  });

  it("reads a value as JSON only when every marker of the line inside it is a JSON key", () => {
    const json = /^invalid JSON: /;
    expect(scan(`${RECORD} {"trace": [1, }`).found).toEqual([
      "trace null",
      expect.stringMatching(json),
    ]);
    expect(scan(`{"trace": [1, } ${RECORD}`).found).toEqual([
      expect.stringMatching(json),
      "trace null",
    ]);
  });

  it("reports an unreadable value, and no value inside it stands in for it", () => {
    expect(scan(`{"x": ???, "sel": ${T}}`)).toEqual({
      found: [expect.stringMatching(/^invalid JSON: Unexpected token '\?'/)],
      openAt: -1,
      unclosed: null,
    });
    expect(
      scan(`{'a': 1, 'r': ${RECORD}, 'm': ${"[".repeat(101)}${"]".repeat(101)}}`).found,
    ).toEqual(["invalid Python repr: the repr is nested deeper than 100 levels"]);
  });

  it("reads the values inside text a prefix put in brackets", () => {
    expect(scan(`[worker 3: ${T}]`).found).toEqual(["trace a"]);
    expect(scan(`(see ${RECORD} and ${RECORD})`).found).toEqual(["trace null", "trace null"]);
  });

  it("reads a quoted value once, as the one value it is, and reports what is wrong inside it", () => {
    const b = T.replace('"a"', '"b"');
    expect(scan(`a=${logfmt(T)} b=${logfmt(b)}`).found).toEqual(["trace a", "trace b"]);
    // logfmt keeps an escape it does not know; Python's \x needs two digits.
    expect(scan(`msg=${logfmt(`${T} \\x`).replace("\\\\x", "\\x")}`).found).toEqual(["trace a"]);
    expect(scan(`msg='bad \\x4 {"trace": []}'`).found).toEqual([
      "invalid Python repr: invalid \\x escape at column 10",
    ]);
    expect(scan(`msg=${logfmt(`${T} [{"trace": [1`)}`).found).toEqual([
      "trace a",
      // The column is the decoded value's.
      `truncated JSON: the list opened at column ${T.length + 2} is not closed`,
    ]);
  });

  it("decodes a quoted value one level only: a quoted value inside the decoded text is not decoded again", () => {
    // The decoded text's quotes are plain text there: a key="…" in it is neither cut at its first quote nor unescaped a second time.
    expect(scan(`msg='data="${T.replace(/"/g, '\\"')}"'`)).toEqual({
      found: ["trace a"],
      openAt: -1,
      unclosed: null,
    });
    const b = T.replace('"a"', '"b"');
    expect(scan(`msg='a=${T} data=${logfmt(b).replace(/\\/g, "\\\\")}'`).found).toEqual([
      "trace a",
      // The nested value, left encoded, is an object at column T.length + 10 of the decoded text: its `\"` opens no string.
      `invalid Python repr: unexpected '\\' at column ${T.length + 11}`,
    ]);
  });
});

describe("a trace= pair read with its siblings", () => {
  const tools = (line: string) =>
    scanLine(line).found.map((f) => ("trace" in f ? f.trace.tools : f.problem));

  it("decodes a quoted value with its own quoting's escapes", () => {
    const python = "trace='[StageRecord(stage=\\'intent\\', action=\\'abstain\\')]'";
    expect(tools(`event=selection ${python} tools=('search',)`)).toEqual([["search"]]);
    const json = `trace=${logfmt("[{'stage': 'intent', 'action': 'abstain', 'detail': 'it\\'s'}]")}`;
    expect(tools(`event=selection ${json.replace("\\\\'", "\\'")} tools=('search',)`)).toEqual([
      ["search"],
    ]);
  });

  it("reports a value it cannot read", () => {
    expect(scan("event=selection trace='[\\x4]'").found).toEqual([
      "invalid Python repr: invalid \\x escape at column 25",
    ]);
    expect(scan("event=selection trace=[foo bar]").found).toEqual([
      `invalid JSON: Unexpected token 'o', "[foo bar]" is not valid JSON`,
    ]);
  });

  it("reads a top-level pair without a marker inside it, and not one nested in a call", () => {
    expect(scan("event=selection trace=[{'stage': 'intent', 'action': 'abstain'}]").found).toEqual([
      "trace null",
    ]);
    expect(scan("wrap( trace=[{'stage': 'intent', 'action': 'abstain'}], ???)").found).toEqual([
      "invalid Python repr: unexpected '?' at column 57",
    ]);
  });

  it("takes the id from the pairs around the value, never from inside it", () => {
    const record = '{"stage": "intent", "action": "abstain", "detail": "see turn_id=bad"}';
    expect(scan(`trace=[${record}] turn_id=good`).found).toEqual(["trace good"]);
    expect(scan(`trace=[${record}]turn_id=good`).found).toEqual(["trace good"]);
  });
});

describe("many trace= pairs on one line", () => {
  it("each takes the first id before it, else the first after it, and the line's time", () => {
    const line = "ts=5 trace=[] trace=[] turn_id=b trace=[] trace=[] turn_id=c trace=[]";
    expect(scan(line).found).toEqual(["trace b", "trace b", "trace b", "trace b", "trace b"]);
    expect(scan("trace=[] x=1 trace=[] turn_id=b trace=[] turn_id=c").found).toEqual([
      "trace b",
      "trace b",
      "trace b",
    ]);
    const first = scanLine(`turn_id=a ${line}`).found.map((f) => "trace" in f && f.trace.id);
    expect(first).toEqual(["a", "a", "a", "a", "a"]);
    const times = scanLine(line).found.map((f) => "trace" in f && f.trace.time);
    expect(times).toEqual(["5", "5", "5", "5", "5"]);
  });

  it("a line of up to 64 pairs gives each its trace; of 20,000 (180 KB), 64 and a problem for the rest", () => {
    const line = (n: number) => `ts=1 ${"trace=[] ".repeat(n)}turn_id=z`;
    const all = scanLine(line(64)).found;
    expect(all).toHaveLength(64);
    expect(all.at(-1)).toMatchObject({ trace: { id: "z", time: "1" } });
    const { found } = scanLine(line(20_000));
    expect(found).toHaveLength(65);
    expect(found[63]).toMatchObject({ trace: { id: "z", time: "1" } });
    expect(found[64]).toEqual({
      problem: "more than 64 values on this line hold a trace marker; the rest were not read",
    });
  });
});

describe("a line's budget", () => {
  it("a value that fails is read once, not again through each value inside it, level after level", () => {
    const depth = 40;
    const inner = `{'trace': [${"1, ".repeat(20_000)}]}`;
    const { found } = scan(`x ${"wrap(".repeat(depth)}${inner}, bad${")".repeat(depth)}`);
    expect(found).toEqual(["invalid Python repr: unexpected name 'bad' (not a Python literal)"]);
  });

  it("quoted values spend it too: 64 are read, and the rest are said to be left unread", () => {
    const { found } = scan('k="StageRecord(" '.repeat(1000));
    expect(found).toHaveLength(65);
    expect(found.at(-1)).toBe(
      "more than 64 values on this line hold a trace marker; the rest were not read",
    );
  });

  it("a trace after 200,000 brackets a prefix left open is still found", () => {
    const { found } = scan(`INFO ${"(".repeat(200_000)}retry {'trace': [], 'turn_id': 'deep'}`);
    expect(found).toEqual(["trace deep"]);
  });

  it("a trace inside brackets a prefix left open is read with the bracket that closes them", () => {
    expect(scan("INFO (note [{'trace': [], 'turn_id': 'in'} )").found).toEqual(["trace in"]);
  });

  it("a trace inside a prefix's brackets is still found when, past 1,000 open ones, those around it or below it are forgotten", () => {
    const { found } = scan(
      `INFO (retry (note {'trace': [], 'turn_id': 'kept'} ${"(x ".repeat(2000)}`,
    );
    expect(found).toEqual(["trace kept"]);
    const later = `INFO (retry ${"(x ".repeat(900)}(note {'trace': [], 'turn_id': 'moved'} `;
    expect(scan(`${later}${"(x ".repeat(300)}`).found).toEqual(["trace moved"]);
  });

  it("a line is read the same whatever brackets the line before it left open", () => {
    const line = "INFO (retry [{'trace': [], 'turn_id': 'a'}] (note {'trace': [], 'turn_id': 'b'}";
    const alone = scanLine(line);
    for (const before of [
      `INFO (retry (note {'trace': [], 'turn_id': 'kept'} ${"(x ".repeat(2000)}`,
      "INFO {'x': [{'trace': [], 'turn_id': 'c'}, (",
      "INFO ({'trace': [}",
    ]) {
      scanLine(before);
      expect(scanLine(line)).toEqual(alone);
    }
    expect(alone.found).toHaveLength(2);
  });
});

describe("a value's time and id from the text before it", () => {
  const context = (prefix: string) => prefixContext(`${prefix}{}`, prefix.length, null);

  it("takes a timestamp only at the start, blanks and a bracket before it allowed", () => {
    expect(context("  2024-05-01 12:00:00 INFO ").time).toBe("2024-05-01 12:00:00");
    expect(context("see 2024-05-01 12:00:00 ").time).toBeNull();
    for (const zone of ["Z", "+02:00", "-0200"])
      expect(context(`[2024-05-01T12:00:00.5${zone}] `).time).toBe(`2024-05-01T12:00:00.5${zone}`);
  });

  it("takes ids and times from pairs, quoted or not, the first of each", () => {
    expect(context("request_id=r1 ts=1 ")).toEqual({ id: "r1", time: "1" });
    expect(context("trace_id=t1 ")).toEqual({ id: "t1", time: null });
    expect(context("turn_id=o'brien turn_id=x ")).toEqual({ id: "o'brien", time: null });
    expect(context(`time="2024-05-01 12:00:00" `).time).toBe("2024-05-01 12:00:00");
    expect(context("time='2024-05-01 12:00:00' ").time).toBe("2024-05-01 12:00:00");
  });

  it("looks only before the value", () => {
    expect(prefixContext("INFO {} turn_id=later", 5, null)).toEqual({ id: null, time: null });
    const line = `[{"trace": [{"stage": "intent", "action": "abstain", "detail": "a turn_id=bad"}]}]`;
    expect(scan(line).found).toEqual(["trace null"]);
  });
});

describe("a line that may open a value continued below", () => {
  it("ends with a bracket, a comma or the first piece of a split string", () => {
    for (const line of ["x {", "x [", "x (", "x,", "x 'a '", 'x "a\\n"', "x 'a\\t'", "x 'a\\r'"])
      expect(mayOpen(line, line.length), line).toBe(true);
    for (const line of ["x", "x a b", "x 'abc'", "x 'an'", "x '\\x'", "x )"])
      expect(mayOpen(line, line.length), line).toBe(false);
  });

  it("takes a split string only from a quote after a blank or a blank's escape", () => {
    expect(endsSplitString("a b", 3)).toBe(false);
    expect(endsSplitString("'a '", 4)).toBe(true);
    expect(endsSplitString("'a\\n'", 5)).toBe(true);
    expect(endsSplitString("'an'", 4)).toBe(false);
    expect(endsSplitString("'\\x'", 4)).toBe(false);
  });

  it("takes the escape of any character Python's split() cuts at, unless its backslash is escaped", () => {
    for (const escape of [
      "\\x0b",
      "\\x0c",
      "\\x1f",
      "\\x85",
      "\\xa0",
      "\\u2009",
      "\\u3000",
      "\\u2028",
    ])
      expect(endsSplitString(`'a${escape}'`, escape.length + 3), escape).toBe(true);
    for (const piece of ["'a\\\\n'", "'a\\x41'", "'a\\u3001'", "'a\\\\xa0'"])
      expect(endsSplitString(piece, piece.length), piece).toBe(false);
  });
});
