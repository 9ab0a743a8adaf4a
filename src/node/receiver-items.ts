/**
 * The turns a receiver worker posts (receiver-worker.ts → receiver-thread.ts): one JSON text of
 * their fields, in which a selection that came as JSON text stands as that text. Posting a string
 * copies it at once, where a structured clone of each turn's fields costs the worker more than
 * joining it; the receiving thread's one JSON.parse reads the selections it had to read anyway.
 */
import type { ModelCall } from "../core/otel/join.js";
import { isoTime, withOtel } from "../core/otel/join.js";
import { parsedSelection, type OtlpSelection } from "../core/otel/request.js";
import type { LoggedTrace } from "../core/traces/trace.js";

/**
 * Per turn, in `json`: changed (0 as it arrived, 1 its model call changed), index, the selection
 * (its JSON text, or its place in `traces`), trace id, span id, service, time (ISO), then the model
 * call's seven fields in ModelCall's order, its span id null when none was joined.
 */
const FIELDS = 14;

export interface ReceiverItems {
  /** A JSON array of FIELDS values per turn. */
  readonly json: string;
  /** The selections that came as OTLP values, not as JSON text, as the worker read them. */
  readonly traces: readonly LoggedTrace[];
}

const NO_MODEL = ",null,null,null,null,null,null,null";
/** Hex ids (the reader accepts nothing else) and isoTime's text, which need no escaping. */
const quoted = (safe: string) => `"${safe}"`;

/** Turns handed on by OtlpReceiver (onSelection), gathered for one message. */
export class TurnBatch {
  private parts: string[] = [];
  private traces: LoggedTrace[] = [];
  /** The last offered list written and its text: an agent offers the same tools call after call, and the reader shares such lists. */
  private offered: readonly string[] | null = null;
  private offeredText = "null";

  push(changed: boolean, index: number, selection: OtlpSelection, model: ModelCall | null): void {
    const { traceId, spanId, service, time, text } = selection;
    const source = text ?? String(this.traces.push(selection.trace) - 1);
    const turn = `${changed ? 1 : 0},${index},${source},${quoted(traceId)},${quoted(spanId)},${JSON.stringify(service)},${quoted(isoTime(time))}`;
    this.parts.push(model === null ? turn + NO_MODEL : `${turn},${this.model(model)}`);
  }

  /** What was pushed since the last take, as one message; null when nothing was. */
  take(): ReceiverItems | null {
    if (this.parts.length === 0) return null;
    const items = { json: `[${this.parts.join(",")}]`, traces: this.traces };
    this.parts = [];
    this.traces = [];
    return items;
  }

  private model(model: ModelCall): string {
    if (model.offered !== this.offered) {
      this.offered = model.offered;
      this.offeredText = JSON.stringify(model.offered);
    }
    return [
      quoted(model.span_id),
      JSON.stringify(model.model),
      this.offeredText,
      names(model.called),
      names(model.final_not_offered),
      names(model.offered_not_final),
      names(model.called_not_offered),
    ].join(",");
  }
}

/** Most lists of a model call are empty. */
const names = (list: readonly string[]) => (list.length === 0 ? "[]" : JSON.stringify(list));

/** Each turn of `items` as the LoggedTrace joinedTrace makes of it. */
export function forEachTurn(
  items: ReceiverItems,
  turn: (changed: boolean, index: number, trace: LoggedTrace) => void,
): void {
  const values = JSON.parse(items.json) as unknown[];
  for (let at = 0; at + FIELDS <= values.length; at += FIELDS) {
    const source = values[at + 2];
    const trace = typeof source === "number" ? items.traces[source]! : parsedSelection(source);
    const otel = {
      trace_id: values[at + 3] as string,
      span_id: values[at + 4] as string,
      service: values[at + 5] as string | null,
    };
    const spanId = values[at + 7] as string | null;
    const model: ModelCall | null =
      spanId === null
        ? null
        : {
            span_id: spanId,
            model: values[at + 8] as string | null,
            offered: values[at + 9] as string[] | null,
            called: values[at + 10] as string[],
            final_not_offered: values[at + 11] as string[],
            offered_not_final: values[at + 12] as string[],
            called_not_offered: values[at + 13] as string[],
          };
    turn(
      values[at] === 1,
      values[at + 1] as number,
      withOtel(trace, values[at + 6] as string, otel, model),
    );
  }
}
