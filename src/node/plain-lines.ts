/**
 * The scanner's pass over plain lines in WebAssembly (plain-lines.wat): 16 bytes compared at a
 * time where the scanner's own loop takes a line at a time. It passes over exactly the lines the
 * scanner would only count (test/node/plain-lines.test.ts holds it to that).
 */
import type { PlainLines } from "../core/traces/scan.js";
import { MAY_OPEN_AT_END } from "../core/traces/scan-text.js";
import { PLAIN_LINES_WASM } from "./plain-lines-wasm.js";

/** Where the text starts in the module's memory: after the 256-byte table of line ends. */
const TEXT = 256;
/** Zero bytes after the text: a step of 32 bytes reads up to 47 bytes past its start. */
const PADDING = 48;
const PAGE = 64 * 1024;

/** The little of the WebAssembly API this uses (the compiler's lib has its types only with the DOM's). */
interface Wasm {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}

interface Exports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly skip: (from: number, end: number, max: number) => number;
  readonly lines: { readonly value: number };
}

const wasm = (globalThis as unknown as { readonly WebAssembly: Wasm }).WebAssembly;
let compiled: object | null = null;

/** A pass of its own (its own memory) for one scanner. */
export function wasmPlainLines(): PlainLines {
  compiled ??= new wasm.Module(Buffer.from(PLAIN_LINES_WASM, "base64"));
  const { memory, skip, lines } = new wasm.Instance(compiled).exports as unknown as Exports;
  const table = new Uint8Array(memory.buffer, 0, 256);
  table.set(MAY_OPEN_AT_END);
  // A quote opens a value only as a split string's first piece: the module looks closer.
  table[0x22] = table[0x27] = 2;
  let length = 0;
  return {
    load(bytes) {
      const need = TEXT + bytes.length + PADDING;
      if (need > memory.buffer.byteLength)
        memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
      const text = new Uint8Array(memory.buffer, TEXT, bytes.length + PADDING);
      text.set(bytes);
      text.fill(0, bytes.length);
      length = bytes.length;
    },
    skip(from, maxLineBytes) {
      const stop = skip(TEXT + from, TEXT + length, Math.min(maxLineBytes, 0x7fffffff)) - TEXT;
      return { to: stop, lines: lines.value };
    },
  };
}
