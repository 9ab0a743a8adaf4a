/**
 * The turns a receiver worker posts (receiver-worker.ts → receiver-thread.ts), as one flat list of
 * their fields: its structured clone costs the worker less than building a JSON text of them, and
 * far less than a clone of a LoggedTrace's objects. A selection that came as JSON text goes as that
 * text, its trace read again on the receiving thread exactly as the worker read it (textSelection).
 * The worker keeps no selection: the receiving thread keeps the newest maxTurns, so that a later
 * change of a turn's join comes as its index and join alone, and its model call is worked out here.
 */
import type { Joined } from "../core/otel/join.js";
import type { Convention, ModelCall, OtelIds } from "../core/traces/model-call.js";
import { isoTime, joinedModel, withOtel } from "../core/otel/join.js";
import { textSelection, type OtlpSelection } from "../core/otel/request.js";
import type { LoggedTrace } from "../core/traces/trace.js";

/**
 * Per turn: changed (0 as it arrived, 1 its join changed), index, the selection's text or trace,
 * trace id, span id, service, time (Unix nanoseconds, made ISO text here), then the join: the
 * inference span's id, model, offered tools, tool choice, the tools called and the convention they
 * were read in; its span id null when none was joined. A changed turn's selection fields are null.
 */
const FIELDS = 13;

export type ReceiverItems = readonly unknown[];

/** Turns handed on by OtlpReceiver (onTurn, onRejoin), gathered for one message. */
export class TurnBatch {
  private items: unknown[] = [];

  /** A turn as it arrived. */
  push(index: number, selection: OtlpSelection, joined: Joined | null): void {
    const { traceId, spanId, service, time, text } = selection;
    this.items.push(0, index, text ?? selection.trace, traceId, spanId, service, time);
    this.join(joined);
  }

  /** A turn received before, whose join changed. */
  pushRejoin(index: number, joined: Joined | null): void {
    this.items.push(1, index, null, null, null, null, null);
    this.join(joined);
  }

  /** What was pushed since the last take, as one message; null when nothing was. */
  take(): ReceiverItems | null {
    if (this.items.length === 0) return null;
    const items = this.items;
    this.items = [];
    return items;
  }

  private join(joined: Joined | null): void {
    if (joined === null) this.items.push(null, null, null, null, null, null);
    else {
      const { call, called, convention } = joined;
      this.items.push(call.spanId, call.model, call.offered, call.toolChoice, called, convention);
    }
  }
}

/** The characters of selection text the receiving thread keeps for later changes (128 Mi): the oldest go first. */
export const MAX_KEPT_CHARS = 128 * 1024 * 1024;

/**
 * The receiving thread's side: each turn of a message as the LoggedTrace joinedTrace makes of it,
 * keeping the newest `maxTurns` selections (by index), and no more than `maxChars` of their JSON
 * text, for the changes that come later.
 */
export class TurnReader {
  /** A ring of the kept turns' selections, by index modulo maxTurns: as they came, with their OTel ids and time. */
  private readonly sources: (string | LoggedTrace | undefined)[];
  private readonly otel: (OtelIds | undefined)[];
  private readonly times: string[];
  /** Each kept selection's length as JSON text, and their sum. */
  private readonly lengths: Float64Array;
  private chars = 0;
  /** The index after the newest turn read. */
  private next = 0;
  /** The oldest turn whose selection is kept. */
  private oldest = 0;
  /** Changes that came for turns no longer kept, passed over. */
  passedOver = 0;

  constructor(
    private readonly maxTurns: number,
    private readonly maxChars = MAX_KEPT_CHARS,
  ) {
    this.sources = new Array<string | LoggedTrace | undefined>(maxTurns);
    this.otel = new Array<OtelIds | undefined>(maxTurns);
    this.times = new Array<string>(maxTurns);
    this.lengths = new Float64Array(maxTurns);
  }

  /**
   * Calls `turn` for each turn of `items`, in order. A change of a turn no longer kept here (past
   * maxChars; past maxTurns the worker keeps none either) is passed over, and counted.
   */
  read(
    items: ReceiverItems,
    turn: (changed: boolean, index: number, trace: LoggedTrace) => void,
  ): void {
    for (let at = 0; at + FIELDS <= items.length; at += FIELDS) {
      const changed = items[at] === 1;
      const index = items[at + 1] as number;
      const slot = index % this.maxTurns;
      let source: string | LoggedTrace;
      let otel: OtelIds;
      let time: string;
      if (changed) {
        if (!(index < this.next && index >= Math.max(this.oldest, this.next - this.maxTurns))) {
          this.passedOver++;
          continue;
        }
        source = this.sources[slot]!;
        otel = this.otel[slot]!;
        time = this.times[slot]!;
      } else {
        source = items[at + 2] as string | LoggedTrace;
        otel = otelOf(items, at);
        time = isoTime(items[at + 6] as bigint);
        this.next = index + 1;
        if (this.maxTurns > 0) this.keep(slot, index, source, otel, time);
      }
      const trace = typeof source === "string" ? textSelection(source) : source;
      turn(changed, index, withOtel(trace, time, otel, modelOf(items, at, trace)));
    }
  }

  /** Keeps a turn's selection in `slot`, letting the oldest go while the kept text is over maxChars. */
  private keep(
    slot: number,
    index: number,
    source: string | LoggedTrace,
    otel: OtelIds,
    time: string,
  ): void {
    // A structured selection is measured as the spool writes it.
    const length = typeof source === "string" ? source.length : JSON.stringify(source).length;
    this.oldest = Math.max(this.oldest, index + 1 - this.maxTurns);
    this.chars += length - this.lengths[slot]!;
    this.sources[slot] = source;
    this.otel[slot] = otel;
    this.times[slot] = time;
    this.lengths[slot] = length;
    while (this.chars > this.maxChars && this.oldest < index) {
      const gone = this.oldest++ % this.maxTurns;
      this.chars -= this.lengths[gone]!;
      this.lengths[gone] = 0;
      this.sources[gone] = undefined;
      this.otel[gone] = undefined;
    }
  }
}

function otelOf(items: ReceiverItems, at: number): OtelIds {
  return {
    trace_id: items[at + 3] as string,
    span_id: items[at + 4] as string,
    service: items[at + 5] as string | null,
  };
}

/** The model call of the join at `at`, for the selection whose trace is `trace`. */
function modelOf(items: ReceiverItems, at: number, trace: LoggedTrace): ModelCall | null {
  const spanId = items[at + 7] as string | null;
  if (spanId === null) return null;
  const call = {
    spanId,
    model: items[at + 8] as string | null,
    offered: items[at + 9] as readonly string[] | null,
    toolChoice: items[at + 10] as string | null,
  };
  const called = items[at + 11] as readonly string[] | null;
  return joinedModel({ call, called, convention: items[at + 12] as Convention }, trace);
}
