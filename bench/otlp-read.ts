/**
 * Reading an OTLP/JSON file (`scanText`, as `traces` reads one) of 20,000 turns, each a selection
 * event and its inference span, once written in the current GenAI convention and once in
 * OpenInference's: the convention readers tried after the first must cost the current
 * convention's spans nothing, and OpenInference's turns must read at about the same speed
 * (goal ≤ 1.1×). A `JSON.parse` of every line is printed beside them, and the same two files with
 * their inference spans claimed by no reader: what OpenInference's larger text costs before any
 * reader reads it, the floor of the ratio.
 */
import { scanText } from "../src/core/traces/scan.js";
import { body, bodyIn } from "./otlp-bodies.js";
import { interleavedMedians, verdict } from "./measure.js";

const LINES = 400;

/** The same text with its inference spans claimed by no convention (same length, another kind). */
function unclaimed(text: string, kind: string, other: string): string {
  const out = text.replaceAll(kind, other);
  if (out === text) throw new Error(`the bench's spans hold no ${kind}`);
  return out;
}

export function benchOtlpRead(): string[] {
  const text = (line: (b: number) => string) =>
    Array.from({ length: LINES }, (_, b) => line(b)).join("\n") + "\n";
  const current = text(body);
  const other = text((b) => bodyIn("openinference", b));
  const read = (input: string) => () => {
    const { traces } = scanText(input);
    if (traces.length !== LINES * 50 || traces.some((t) => t.trace.model?.called?.[0] !== "a"))
      throw new Error("the bench's turns were not all joined");
  };
  const parse = (input: string) => () =>
    input.split("\n").forEach((line) => line && JSON.parse(line));
  const [currentMs, otherMs] = interleavedMedians(read(current), read(other), 9);
  const [parseMs, otherParseMs] = interleavedMedians(parse(current), parse(other), 9);
  const skim = (input: string) => () => scanText(input);
  const [bareMs, otherBareMs] = interleavedMedians(
    skim(
      unclaimed(
        current,
        '"gen_ai.operation.name","value":{"stringValue":"chat"',
        '"gen_ai.operation.name","value":{"stringValue":"chax"',
      ),
    ),
    skim(unclaimed(other, '{"stringValue":"LLM"}', '{"stringValue":"LLX"}')),
    9,
  );
  // What the current read would take with OpenInference's text and no more reading than it does.
  const floor = (currentMs + otherBareMs - bareMs) / currentMs;
  return [
    "OTLP file read (20,000 turns)",
    `  current GenAI convention: ${currentMs.toFixed(0)} ms (JSON.parse of its lines alone ${parseMs.toFixed(0)} ms, ${(currentMs / parseMs).toFixed(2)}×)`,
    `  OpenInference, the same turns: ${otherMs.toFixed(0)} ms (JSON.parse ${otherParseMs.toFixed(0)} ms): ${verdict(otherMs / currentMs, 1.1, true)}`,
    `  the same files, their inference spans claimed by no reader: ${bareMs.toFixed(0)} and ${otherBareMs.toFixed(0)} ms; the floor of the ratio ${floor.toFixed(2)}× (${(otherMs - currentMs - (otherBareMs - bareMs)).toFixed(0)} ms of the gap is the readers' and the join's)`,
  ];
}
