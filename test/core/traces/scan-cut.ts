/** Scans a log pushed to the scanner in pieces of the given sizes: what the chunk-boundary tests share. */
import { TraceScanner, type FoundTrace, type ScanProblem } from "../../../src/core/traces/scan.js";
import { nodeAscii } from "../../../src/node/ascii.js";

export interface CutOptions {
  /** Decode with Node's native ASCII/UTF-8 helpers (the byte-level pre-filter), as the CLI does. */
  readonly fast?: boolean;
  readonly maxLineBytes?: number;
}

export function scanCut(
  input: Uint8Array | string,
  cuts: readonly number[],
  options: CutOptions = {},
): { traces: FoundTrace[]; problems: ScanProblem[] } {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const traces: FoundTrace[] = [];
  const problems: ScanProblem[] = [];
  const scanner = new TraceScanner({
    maxLineBytes: options.maxLineBytes,
    ascii: options.fast ? nodeAscii : undefined,
    onTrace: (t) => traces.push(t),
    onProblem: (p) => problems.push(p),
  });
  let at = 0;
  for (const cut of cuts) {
    if (at >= bytes.length) break;
    scanner.push(bytes.subarray(at, at + cut));
    at += cut;
  }
  scanner.push(bytes.subarray(at));
  scanner.end();
  return { traces, problems };
}
