/**
 * The turns a receiver worker posts (receiver-worker.ts → receiver-thread.ts), as one flat list of
 * their fields: its structured clone costs the worker less than building a JSON text of them, and
 * far less than a clone of a LoggedTrace's objects. A selection that came as JSON text goes as that
 * text, its trace read again on the receiving thread exactly as the worker read it (textSelection).
 */
import type { ModelCall } from "../core/otel/join.js";
import { isoTime, withOtel } from "../core/otel/join.js";
import { textSelection, type OtlpSelection } from "../core/otel/request.js";
import type { LoggedTrace } from "../core/traces/trace.js";

/**
 * Per turn: changed (0 as it arrived, 1 its model call changed), index, the selection's text or
 * trace, trace id, span id, service, time (ISO), then the model call's seven fields in ModelCall's
 * order, its span id null when none was joined.
 */
const FIELDS = 14;

export type ReceiverItems = readonly unknown[];

/** Turns handed on by OtlpReceiver (onSelection), gathered for one message. */
export class TurnBatch {
  private items: unknown[] = [];

  push(changed: boolean, index: number, selection: OtlpSelection, model: ModelCall | null): void {
    const { traceId, spanId, service, time, text } = selection;
    const items = this.items;
    items.push(changed ? 1 : 0, index, text ?? selection.trace, traceId, spanId, service);
    items.push(isoTime(time));
    if (model === null) items.push(null, null, null, null, null, null, null);
    else
      items.push(
        model.span_id,
        model.model,
        model.offered,
        model.called,
        model.final_not_offered,
        model.offered_not_final,
        model.called_not_offered,
      );
  }

  /** What was pushed since the last take, as one message; null when nothing was. */
  take(): ReceiverItems | null {
    if (this.items.length === 0) return null;
    const items = this.items;
    this.items = [];
    return items;
  }
}

/** Each turn of `items` as the LoggedTrace joinedTrace makes of it. */
export function forEachTurn(
  items: ReceiverItems,
  turn: (changed: boolean, index: number, trace: LoggedTrace) => void,
): void {
  for (let at = 0; at + FIELDS <= items.length; at += FIELDS) {
    const source = items[at + 2] as string | LoggedTrace;
    const trace = typeof source === "string" ? textSelection(source) : source;
    const otel = {
      trace_id: items[at + 3] as string,
      span_id: items[at + 4] as string,
      service: items[at + 5] as string | null,
    };
    const spanId = items[at + 7] as string | null;
    const model: ModelCall | null =
      spanId === null
        ? null
        : {
            span_id: spanId,
            model: items[at + 8] as string | null,
            offered: items[at + 9] as string[] | null,
            called: items[at + 10] as string[],
            final_not_offered: items[at + 11] as string[],
            offered_not_final: items[at + 12] as string[],
            called_not_offered: items[at + 13] as string[],
          };
    turn(
      items[at] === 1,
      items[at + 1] as number,
      withOtel(trace, items[at + 6] as string, otel, model),
    );
  }
}
