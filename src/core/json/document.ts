import { LineIndex, pointerToPath, type PathSegment, type Range } from "./positions.js";
import {
  firstSyntaxError,
  MAX_JSON_DEPTH,
  tooDeepMessage,
  type JsonSyntaxError,
} from "./syntax.js";

export type { JsonSyntaxError } from "./syntax.js";

/** Where one value (and, for an object member, its key) stands in the text. */
export interface Located {
  readonly key?: { readonly offset: number; readonly length: number };
  readonly value: { readonly offset: number; readonly length: number };
}

export interface DuplicateKey {
  readonly path: readonly PathSegment[];
  readonly offset: number;
  readonly length: number;
}

/**
 * A parsed JSON text that can say where any value stands. The value comes from the native
 * `JSON.parse` (fast); positions come from one structural pass, made only when asked.
 */
export class JsonDocument {
  private lineIndex: LineIndex | undefined;

  private constructor(
    readonly text: string,
    readonly value: unknown,
  ) {}

  /** Built on first use: most loads never need a position. */
  get lines(): LineIndex {
    return (this.lineIndex ??= new LineIndex(this.text));
  }

  /**
   * Parses `text` (a leading UTF-8 BOM is accepted); a syntax error, or nesting deeper than
   * MAX_JSON_DEPTH, is located exactly.
   */
  static parse(
    raw: string,
  ):
    | { document: JsonDocument; duplicates: DuplicateKey[] }
    | { error: JsonSyntaxError; lines: LineIndex; text: string } {
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { error: syntaxError(text), lines: new LineIndex(text), text };
    }
    const { duplicates, tooDeep } = scanStructure(text, null);
    if (tooDeep !== undefined)
      return {
        error: { offset: tooDeep, length: 1, message: tooDeepMessage },
        lines: new LineIndex(text),
        text,
      };
    return { document: new JsonDocument(text, value), duplicates };
  }

  /** Locates many paths in one pass; a path that is absent maps to its nearest present ancestor. */
  locateAll(paths: readonly (readonly PathSegment[])[]): Map<string, Located> {
    const wanted = new Map<string, Set<string>>();
    for (const path of paths)
      for (let n = 0; n < path.length; n++) {
        const parent = pointerOf(path.slice(0, n));
        let below = wanted.get(parent);
        if (!below) wanted.set(parent, (below = new Set()));
        below.add(String(path[n]));
      }
    return scanStructure(this.text, wanted).located;
  }

  /** The range of the value at `path` (or its key, when `key` and there is one), else of its nearest ancestor. */
  rangeOf(path: readonly PathSegment[], located: Map<string, Located>, key = false): Range {
    for (let n = path.length; n >= 0; n--) {
      const found = located.get(pointerOf(path.slice(0, n)));
      if (!found) continue;
      const span = key && n === path.length && found.key ? found.key : found.value;
      // A whole object or array is marked by its first character, not its many lines.
      const length = /[[{]/.test(this.text[span.offset] ?? "") ? 1 : span.length;
      return this.lines.range(span.offset, length);
    }
    return this.lines.range(0, 0);
  }
}

export function pointerOf(path: readonly PathSegment[]): string {
  return path
    .map((segment) => "/" + String(segment).replace(/~/g, "~0").replace(/\//g, "~1"))
    .join("");
}

/** JSON.parse refused the text: say where, without building a syntax tree of it. */
function syntaxError(text: string): JsonSyntaxError {
  return firstSyntaxError(text) ?? { offset: 0, length: 0, message: "malformed JSON" };
}

/** The quote that ends the string opening at `open`; the native search skips long strings fast. */
function closingQuote(text: string, open: number): number {
  let j = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
}

function nextBackslash(text: string, from: number): number {
  const at = text.indexOf("\\", from);
  return at === -1 ? Number.POSITIVE_INFINITY : at;
}

/** White space, a comma or a closing bracket: where a bare literal ends. */
function isDelimiter(c: number): boolean {
  return c === 44 || c === 93 || c === 125 || c === 32 || c === 10 || c === 13 || c === 9;
}

interface Frame {
  readonly array: boolean;
  readonly parent: Frame | undefined;
  /** This container's own place in its parent (a key or an index); "" for the root. */
  readonly segment: string | number;
  /** Its JSON pointer, made only when positions are wanted or a duplicate is reported. */
  pointer: string | undefined;
  /** The segments of its values whose positions are wanted, if any are. */
  readonly below: ReadonlySet<string> | undefined;
  /** Keys seen so far: a short list (most objects are small), a Set past SMALL_OBJECT. */
  keys: string[] | Set<string> | null;
  index: number;
  key: string;
  keyOffset: number;
  keyLength: number;
  expectKey: boolean;
}

const SMALL_OBJECT = 16;

function escapeSegment(segment: string | number): string {
  return typeof segment === "number"
    ? String(segment)
    : segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function framePointer(frame: Frame): string {
  return (frame.pointer ??= frame.parent
    ? `${framePointer(frame.parent)}/${escapeSegment(frame.segment)}`
    : "");
}

/** Records `key` in the frame; false when the object already had it. */
function addKey(frame: Frame, key: string): boolean {
  const keys = frame.keys!;
  if (Array.isArray(keys)) {
    if (keys.includes(key)) return false;
    keys.push(key);
    if (keys.length > SMALL_OBJECT) frame.keys = new Set(keys);
    return true;
  }
  if (keys.has(key)) return false;
  keys.add(key);
  return true;
}

/**
 * One pass over text that JSON.parse has accepted: finds duplicate keys (which JSON.parse
 * would silently collapse), the first bracket nested deeper than MAX_JSON_DEPTH (where the
 * pass stops) and, when asked, where each wanted pointer's value stands.
 */
/** Wanted positions: by a container's pointer, the segments (keys, indices as text) of its values. */
type Wanted = ReadonlyMap<string, ReadonlySet<string>>;

function scanStructure(
  text: string,
  wanted: Wanted | null,
): { duplicates: DuplicateKey[]; located: Map<string, Located>; tooDeep?: number } {
  const duplicates: DuplicateKey[] = [];
  const located = new Map<string, Located>();
  const stack: Frame[] = [];
  const open: ({ pointer: string; offset: number; key: Located["key"] } | null)[] = [];
  const n = text.length;

  const childSegment = (frame: Frame | undefined): string | number =>
    frame === undefined ? "" : frame.array ? frame.index : frame.key;
  const childPointer = (frame: Frame | undefined): string =>
    frame === undefined ? "" : `${framePointer(frame)}/${escapeSegment(childSegment(frame))}`;
  /** The pointer of a value in `frame` when its position is wanted, else undefined (no pointer made). */
  const wantedPointer = (frame: Frame | undefined): string | undefined => {
    if (!wanted) return undefined;
    if (frame === undefined) return "";
    const below = frame.below;
    if (!below || !below.has(frame.array ? String(frame.index) : frame.key)) return undefined;
    return childPointer(frame);
  };
  const keyOf = (frame: Frame | undefined) =>
    frame && !frame.array ? { offset: frame.keyOffset, length: frame.keyLength } : undefined;
  const pathOf = (frame: Frame): PathSegment[] => [
    ...pointerToPath(framePointer(frame)),
    frame.key,
  ];

  // The next backslash at or after the cursor, found once and reused: most strings have none.
  let backslash = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 58 /* : */) continue;
    const top = stack[stack.length - 1];
    if (c === 44 /* , */) {
      if (top!.array) top!.index++;
      else top!.expectKey = true;
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      const start = open.pop();
      if (start)
        located.set(start.pointer, {
          key: start.key,
          value: { offset: start.offset, length: i + 1 - start.offset },
        });
      continue;
    }
    if (c === 34 /* " */) {
      const j = closingQuote(text, i);
      if (backslash < i) backslash = nextBackslash(text, i);
      const escaped = backslash < j;
      if (top && !top.array && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        top.key = key;
        top.keyOffset = i;
        top.keyLength = j + 1 - i;
        top.expectKey = false;
        if (!addKey(top, key)) duplicates.push({ path: pathOf(top), offset: i, length: j + 1 - i });
      } else {
        const pointer = wantedPointer(top);
        if (pointer !== undefined)
          located.set(pointer, { key: keyOf(top), value: { offset: i, length: j + 1 - i } });
      }
      i = j;
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (stack.length >= MAX_JSON_DEPTH) return { duplicates, located, tooDeep: i };
      const array = c === 91;
      const pointer = wantedPointer(top);
      open.push(pointer !== undefined ? { pointer, offset: i, key: keyOf(top) } : null);
      stack.push({
        array,
        parent: top,
        segment: childSegment(top),
        pointer,
        below: pointer === undefined ? undefined : wanted!.get(pointer),
        keys: array ? null : [],
        index: 0,
        key: "",
        keyOffset: 0,
        keyLength: 0,
        expectKey: !array,
      });
      continue;
    }
    // A number, true, false or null: runs to the next delimiter.
    let j = i;
    while (j < n && !isDelimiter(text.charCodeAt(j))) j++;
    const pointer = wantedPointer(top);
    if (pointer !== undefined)
      located.set(pointer, { key: keyOf(top), value: { offset: i, length: j - i } });
    i = j - 1;
  }
  return { duplicates, located };
}
