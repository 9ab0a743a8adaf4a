/**
 * The log records of a set's files, so that an inference span in one file joins the records
 * written to another (a Collector writing traces and logs to two files): each file's scan is given
 * the set's records, reads the calls of those of the other files beside its own, and says which
 * records (of any file) name one of its inference spans, so that a record whose span is in no file
 * of the set is said, not dropped in silence.
 */
import type { OtlpRecord } from "./request.js";

/** A log record and its line, for a problem when its span is missing. */
export interface PlacedRecord extends OtlpRecord {
  readonly file?: number;
  readonly line: number;
}

/** A log record of a file of a set: where it is, for a problem when no file holds its span. */
export interface SetRecord extends PlacedRecord {
  readonly file: number;
}

/** Log records of a set read for the joins of its other files; later ones join only within their own file. */
export const MAX_SET_RECORDS = 100_000;

/** What a file's scan is given of its set: the set's records, and which file it is. */
export interface OtlpSet {
  readonly records: readonly SetRecord[];
  readonly file: number;
}

export class SetRecords {
  /** The indexes of the records of each trace and span id, in set order. */
  private readonly byIds = new Map<string, number[]>();
  private readonly joined = new Set<number>();

  /** `onJoined`: each record that names an inference span of this file, once. */
  constructor(
    private readonly set: OtlpSet,
    private readonly onJoined: (index: number) => void,
  ) {
    set.records.forEach((record, index) => {
      const key = idsKey(record.traceId, record.spanId);
      const list = this.byIds.get(key);
      if (list) list.push(index);
      else this.byIds.set(key, [index]);
    });
  }

  /** What the records of the set's other files say the span called, in set order; null when none names it. */
  calls(traceId: string, spanId: string): readonly string[] | null {
    const indexes = this.byIds.get(idsKey(traceId, spanId));
    let called: string[] | null = null;
    for (const index of indexes ?? []) {
      const record = this.set.records[index]!;
      if (record.file !== this.set.file) (called ??= []).push(...record.called);
    }
    return called;
  }

  /** Notes an inference span of this file: the records that name it are joined. */
  see(traceId: string, spanId: string): void {
    for (const index of this.byIds.get(idsKey(traceId, spanId)) ?? [])
      if (!this.joined.has(index)) {
        this.joined.add(index);
        this.onJoined(index);
      }
  }
}

export const idsKey = (traceId: string, spanId: string) => `${traceId}/${spanId}`;

/** A set's records as its first pass read them. */
export interface SetRecordsRead {
  readonly records: readonly SetRecord[];
  /** Where the records past the most kept began (those join only their own file's spans); null when none were. */
  readonly cut: { readonly file: number; readonly line: number } | null;
  /** The most records kept (MAX_SET_RECORDS). */
  readonly max: number;
}

interface SetProblem {
  readonly file: number;
  readonly line: number;
  readonly message: string;
}

/**
 * What the set's scan says of its records once every file has been read: where records were
 * past the most kept, and each line whose records no file's inference span joined (`joined`: the
 * indexes the files said).
 */
export function setProblems(read: SetRecordsRead, joined: ReadonlySet<number>): SetProblem[] {
  const cut = read.cut && {
    ...read.cut,
    message: `the set holds more than ${read.max.toLocaleString("en-US")} log records; from here on they join only the spans of their own file`,
  };
  return [
    ...(cut ? [cut] : []),
    ...unjoinedRecords(read.records, joined, "is a model call of no file of the set"),
  ];
}

/**
 * The records no inference span joined, as one problem per line that holds any: each names a
 * span that `where` says is missing ("is a model call of no file of the set", "is no model call of the file").
 */
export function unjoinedRecords<R extends PlacedRecord>(
  records: readonly R[],
  joined: ReadonlySet<number>,
  where: string,
): (Pick<R, "file" | "line"> & { readonly message: string })[] {
  const byLine = new Map<string, R[]>();
  records.forEach((record, index) => {
    if (joined.has(index)) return;
    const key = `${record.file ?? ""}:${record.line}`;
    const list = byLine.get(key);
    if (list) list.push(record);
    else byLine.set(key, [record]);
  });
  return [...byLine.values()].map((list) => {
    const { file, line, traceId, spanId } = list[0]!;
    const what = list.length === 1 ? "a log record names" : `${list.length} log records name`;
    return {
      ...(file === undefined ? {} : { file }),
      line,
      message: `${what} a span that ${where} (the first: trace ${traceId}, span ${spanId}); what it says was called is joined to no model call`,
    };
  });
}
