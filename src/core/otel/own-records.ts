/**
 * The log records of one input that join only its own spans (a file read alone, standard input,
 * a file written as one document, records past a set's most kept): those whose span is an
 * inference span of no line of the input are said at its end, not dropped in silence.
 */
import type { ScanProblem } from "../traces/found.js";
import type { OtlpRecord } from "./request.js";
import { idsKey, unjoinedRecords, type OtlpSet, type PlacedRecord } from "./set-records.js";

/** Records waiting for their span, and inference spans remembered, at most; past either, a later record's missing span is not said. */
export const MAX_OWN_KEPT = 100_000;

export class OwnRecords {
  /** The records still waiting for their span, by trace and span id, each with its place in the input. */
  private readonly waiting = new Map<string, { record: PlacedRecord; order: number }[]>();
  private waitingCount = 0;
  private order = 0;
  private readonly spans = new Set<string>();
  /** How many of each line's records the set holds (and says itself): the first ones the line reads. */
  private readonly inSet = new Map<number, number>();
  private cut: number | null = null;

  /** `set`: the set the input is read in, whose first pass may hold some of its records. */
  constructor(private readonly set?: OtlpSet) {
    for (const { file, line } of set?.records ?? [])
      if (file === set?.file) this.inSet.set(line, (this.inSet.get(line) ?? 0) + 1);
  }

  /** Notes an inference span of the input: the records that name it are joined. */
  see(traceId: string, spanId: string): void {
    const key = idsKey(traceId, spanId);
    if (this.spans.size < MAX_OWN_KEPT) this.spans.add(key);
    this.waitingCount -= this.waiting.get(key)?.length ?? 0;
    this.waiting.delete(key);
  }

  /** Notes the records of a line: those the set does not hold wait for their span. */
  add(records: readonly OtlpRecord[], line: number): void {
    for (const [i, record] of records.entries()) {
      if (i < (this.inSet.get(line) ?? 0)) continue;
      const key = idsKey(record.traceId, record.spanId);
      if (this.spans.has(key)) continue;
      // Its span may be one not remembered, or it cannot wait: it cannot be said missing.
      if (this.spans.size >= MAX_OWN_KEPT || this.waitingCount >= MAX_OWN_KEPT) {
        this.cut ??= line;
        continue;
      }
      const placed = { record: { ...record, line }, order: this.order++ };
      const list = this.waiting.get(key);
      if (list) list.push(placed);
      else this.waiting.set(key, [placed]);
      this.waitingCount++;
    }
  }

  /** What is said at the input's end, in line order: each line whose records no inference span of it joined. */
  problems(): ScanProblem[] {
    const unjoined = [...this.waiting.values()].flat().sort((a, b) => a.order - b.order);
    const where = this.set
      ? "is no model call of its own input, whose records join only that input's spans"
      : "is no model call of the file";
    const said: ScanProblem[] = unjoinedRecords(
      unjoined.map(({ record }) => record),
      new Set(),
      where,
    ).map(({ line, message }) => ({ line, message }));
    if (this.cut !== null)
      said.push({
        line: this.cut,
        message: `the input holds more than ${MAX_OWN_KEPT.toLocaleString("en-US")} log records waiting for their span or inference spans; from here on a log record whose span is missing is not said`,
      });
    return said.sort((a, b) => a.line - b.line);
  }
}
