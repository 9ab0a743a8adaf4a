/**
 * JSON.parse of a large UTF-8 text in steps, so that a caller can give the event loop a turn
 * between them: containers larger than SMALL_VALUE bytes are walked here, every smaller value is
 * decoded and handed to JSON.parse whole (never the whole text as one string: decoding or
 * flattening 16 MiB at once is itself a long pause). Every byte this walk looks at is ASCII, which
 * UTF-8 never uses inside a longer character. The value is JSON.parse's; on any text it would
 * refuse, JSON.parse itself is called on the whole text, so the error is always JSON.parse's own.
 * Past `maxContainers` objects and arrays it stops, before it builds them (TooManyContainers).
 */

/** Values up to this many bytes are parsed by JSON.parse in one go. */
const SMALL_VALUE = 64 * 1024;
/** Bytes read between two steps. */
const STEP = 64 * 1024;

class Refused extends Error {}

/**
 * Containers nested deeper than this are refused (TooDeep): each level walked scans up to
 * SMALL_VALUE bytes for its end, and OTLP nests no deeper than protobuf's limit of 100 messages.
 */
export const MAX_WALKED_DEPTH = 512;

/** A text nested deeper than MAX_WALKED_DEPTH where it is walked. */
export class TooDeep extends Error {}

/** A text of more objects and arrays than its reader allows. */
export class TooManyContainers extends Error {
  constructor(readonly max: number) {
    super(`the JSON holds more than ${max.toLocaleString("en-US")} objects and arrays`);
  }
}

/** The text of bytes [start, end) as UTF-8. */
export type Decode = (start: number, end: number) => string;

/** Yields every STEP bytes or so; returns what JSON.parse of the decoded bytes returns. */
export function* parseJsonInSteps(
  bytes: Uint8Array,
  decode: Decode,
  maxContainers = Number.POSITIVE_INFINITY,
): Generator<void, unknown> {
  // A small text is one step: walking it first only to find its end cost more than parsing it.
  if (bytes.length <= SMALL_VALUE) return JSON.parse(decode(0, bytes.length)) as unknown;
  const parser = new Walker(bytes, decode, maxContainers);
  try {
    const value = yield* parser.value();
    parser.blanks();
    if (parser.at !== bytes.length) throw new Refused();
    return value;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    // JSON.parse of the whole text, for its own error, builds all it holds first: counted before.
    if (parser.containerEnd(0, bytes.length, true) > maxContainers)
      throw new TooManyContainers(maxContainers);
    return JSON.parse(decode(0, bytes.length)) as unknown;
  }
}

class Walker {
  at = 0;
  private parsed = 0;
  /** Objects and arrays read so far (and, when the walk gave up, in the whole text). */
  private containers = 0;

  constructor(
    private readonly text: Uint8Array,
    private readonly decode: Decode,
    private readonly maxContainers: number,
  ) {}

  /** Counts `opened` more objects and arrays; past the most allowed, the read stops. */
  count(opened: number): void {
    this.containers += opened;
    if (this.containers > this.maxContainers) throw new TooManyContainers(this.maxContainers);
  }

  blanks(): void {
    const text = this.text;
    for (let c = text[this.at]; c === 32 || c === 10 || c === 13 || c === 9;) c = text[++this.at];
  }

  *value(depth = 0): Generator<void, unknown> {
    this.blanks();
    const start = this.at;
    const open = this.text[start];
    if (open === 0x7b || open === 0x5b) {
      const end = this.containerEnd(start, start + SMALL_VALUE, false);
      if (end === -1) {
        // The search read SMALL_VALUE bytes in vain: at each level of a large text, a step's worth.
        yield* this.read(SMALL_VALUE);
        if (depth === MAX_WALKED_DEPTH) throw new TooDeep();
        return yield* open === 0x7b ? this.object(depth + 1) : this.array(depth + 1);
      }
      return yield* this.whole(start, end);
    }
    return yield* this.whole(start, this.scalarEnd(start));
  }

  private *whole(start: number, end: number): Generator<void, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(this.decode(start, end));
    } catch {
      throw new Refused();
    }
    this.at = end;
    yield* this.read(end - start);
    return value;
  }

  /** Counts `bytes` more read; yields once a step's worth has been. */
  private *read(bytes: number): Generator<void, void> {
    this.parsed += bytes;
    if (this.parsed < STEP) return;
    this.parsed = 0;
    yield;
  }

  private *object(depth: number): Generator<void, Record<string, unknown>> {
    this.count(1);
    const object: Record<string, unknown> = {};
    this.at++;
    this.blanks();
    if (this.text[this.at] === 0x7d) {
      this.at++;
      return object;
    }
    for (;;) {
      this.blanks();
      if (this.text[this.at] !== 0x22) throw new Refused();
      const key = yield* this.whole(this.at, this.scalarEnd(this.at));
      this.blanks();
      if (this.text[this.at++] !== 0x3a) throw new Refused();
      // Defined, not assigned, as JSON.parse does: `__proto__` stays a key.
      Object.defineProperty(object, key as string, {
        value: yield* this.value(depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.blanks();
      const next = this.text[this.at++];
      if (next === 0x7d) return object;
      if (next !== 0x2c) throw new Refused();
    }
  }

  private *array(depth: number): Generator<void, unknown[]> {
    this.count(1);
    const array: unknown[] = [];
    this.at++;
    this.blanks();
    if (this.text[this.at] === 0x5d) {
      this.at++;
      return array;
    }
    for (;;) {
      array.push(yield* this.value(depth));
      this.blanks();
      const next = this.text[this.at++];
      if (next === 0x5d) return array;
      if (next !== 0x2c) throw new Refused();
    }
  }

  /** Where the string or other scalar at `start` ends (JSON.parse judges it). */
  private scalarEnd(start: number): number {
    const text = this.text;
    if (text[start] === 0x22) return this.stringEnd(start);
    let at = start;
    for (let c = text[at]; at < text.length; c = text[++at])
      if (c === 0x2c || c === 0x5d || c === 0x7d || c === 32 || c === 10 || c === 13 || c === 9)
        break;
    return at;
  }

  /** Past the closing quote of the string opening at `start`, or the text's end. */
  private stringEnd(start: number): number {
    const text = this.text;
    for (
      let quote = text.indexOf(0x22, start + 1);
      quote !== -1;
      quote = text.indexOf(0x22, quote + 1)
    ) {
      let backslashes = 0;
      while (text[quote - 1 - backslashes] === 0x5c) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
    }
    return text.length;
  }

  /**
   * Past the bracket closing the container at `start` (its objects and arrays counted), or -1 when
   * it goes on past `limit`; with `opens`, the number of objects and arrays up to `limit` instead.
   */
  containerEnd(start: number, limit: number, opens: boolean): number {
    const text = this.text;
    let depth = 0;
    let opened = 0;
    for (let at = start; at < text.length && at < limit;) {
      const c = text[at];
      if (c === 0x22) {
        at = this.stringEnd(at);
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        depth++;
        opened++;
      } else if ((c === 0x7d || c === 0x5d) && --depth === 0 && !opens) {
        this.count(opened);
        return at + 1;
      }
      at++;
    }
    return opens ? opened : -1;
  }
}
