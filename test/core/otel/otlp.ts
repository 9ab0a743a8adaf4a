/** OTLP/JSON requests built by hand, as the OpenTelemetry SDK's JSON exporter writes them. */
export const TRACE_A = "0af7651916cd43dd8448eb211c80319c";
export const TRACE_B = "1bf7651916cd43dd8448eb211c80319d";

let nextSpan = 1;
export function spanId(): string {
  return (nextSpan++).toString(16).padStart(16, "0");
}

export const str = (stringValue: string) => ({ stringValue });

export function attrs(values: Record<string, unknown>) {
  return Object.entries(values).map(([key, value]) => ({
    key,
    value: typeof value === "string" ? str(value) : value,
  }));
}

export function selectionTrace(id: string, tools: string[], dropped: string[] = []) {
  return {
    turn_id: id,
    trace: [
      {
        stage: "intent",
        action: "select",
        kept: tools,
        dropped,
        added: [],
        reinstated: [],
        forced_choice: null,
        detail: "",
      },
    ],
    tools,
  };
}

/** A span holding a selection event at `ms` milliseconds. */
export function turnSpan(traceId: string, ms: number, selection: unknown, id = spanId()) {
  return {
    traceId,
    spanId: id,
    name: "agent.turn",
    startTimeUnixNano: String(BigInt(ms) * 1_000_000n),
    attributes: [],
    events: [
      {
        name: "symfonic.tool_selection",
        timeUnixNano: String(BigInt(ms) * 1_000_000n),
        attributes: attrs({
          "symfonic.selection":
            typeof selection === "string" ? selection : JSON.stringify(selection),
        }),
      },
    ],
  };
}

export function chatSpan(
  traceId: string,
  ms: number,
  fields: { offered?: unknown; calls?: string[]; model?: string; id?: string; operation?: string },
) {
  return {
    traceId,
    spanId: fields.id ?? spanId(),
    name: "chat",
    startTimeUnixNano: String(BigInt(ms) * 1_000_000n),
    attributes: attrs({
      "gen_ai.operation.name": fields.operation ?? "chat",
      ...(fields.model !== undefined && { "gen_ai.request.model": fields.model }),
      ...(fields.offered !== undefined && {
        "gen_ai.tool.definitions":
          typeof fields.offered === "string" || !Array.isArray(fields.offered)
            ? fields.offered
            : JSON.stringify(fields.offered.map((name) => ({ name }))),
      }),
      ...(fields.calls && {
        "gen_ai.output.messages": JSON.stringify([
          {
            role: "assistant",
            // No call is said with a text: output of nothing records nothing.
            parts:
              fields.calls.length > 0
                ? fields.calls.map((name) => ({ type: "tool_call", name }))
                : [{ type: "text", content: "no tool" }],
          },
        ]),
      }),
    }),
  };
}

export function toolSpan(traceId: string, ms: number, name: string) {
  return {
    traceId,
    spanId: spanId(),
    name: `execute_tool ${name}`,
    startTimeUnixNano: String(BigInt(ms) * 1_000_000n),
    attributes: attrs({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name }),
  };
}

export function request(spans: unknown[], service: string | null = "agent") {
  return {
    resourceSpans: [
      {
        resource: { attributes: service === null ? [] : attrs({ "service.name": service }) },
        scopeSpans: [{ scope: { name: "test" }, spans }],
      },
    ],
  };
}

/** One request per line, as the Collector's file exporter writes them. */
export function lines(...requests: unknown[]): string {
  return requests.map((r) => JSON.stringify(r)).join("\n") + "\n";
}
