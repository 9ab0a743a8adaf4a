/**
 * A fake OpenAI-compatible model server on 127.0.0.1: `POST /v1/chat/completions` and
 * `POST /v1/responses`, plain JSON or SSE when `stream` is true. When tools are offered (and
 * `tool_choice` is not "none", and the last input is not a tool's result) it answers with one call:
 * of the forced tool, else of the first tool offered. Every request is kept in `received` as what
 * it sent (model, tool names, tool_choice): the truth the recordings are checked against.
 */
import { createServer } from "node:http";

/** A request body larger than this is refused: the scenarios send a few KB. */
const MAX_BODY = 1 << 20;
/** The arguments of every tool call: each scenario's tools take `{ query: string }`. */
const ARGUMENTS = JSON.stringify({ query: "Oslo" });
const CREATED = 1_765_000_000;

/** Which tool the fake model calls, or null for a text answer. */
function callFor(tools, toolChoice, lastIsToolResult) {
  if (!tools || tools.length === 0 || toolChoice === "none" || lastIsToolResult) return null;
  if (toolChoice && typeof toolChoice === "object") {
    return toolChoice.function?.name ?? toolChoice.name ?? tools[0];
  }
  return tools[0];
}

/** The names of the tools a request offered, in order, or null when it offered none. */
const toolNames = (tools) =>
  Array.isArray(tools) ? tools.map((tool) => tool.function?.name ?? tool.name ?? null) : null;

const usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };

function chatCompletion(body, call) {
  const message = call
    ? {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: call, arguments: ARGUMENTS } },
        ],
      }
    : { role: "assistant", content: "Done." };
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: CREATED,
    model: body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: call ? "tool_calls" : "stop" }],
    usage,
  };
}

function chatChunks(body, call) {
  const chunk = (delta, finish = null) => ({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: CREATED,
    model: body.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks = call
    ? [
        chunk({
          role: "assistant",
          content: null,
          tool_calls: [
            { index: 0, id: "call_1", type: "function", function: { name: call, arguments: "" } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ARGUMENTS } }] }),
        chunk({}, "tool_calls"),
      ]
    : [chunk({ role: "assistant", content: "Done." }), chunk({}, "stop")];
  if (body.stream_options?.include_usage) {
    chunks.push({ ...chunk({}), choices: [], usage });
  }
  return chunks.map((data) => ({ data }));
}

function responseObject(body, call, status = "completed") {
  const output =
    status !== "completed"
      ? []
      : call
        ? [
            {
              type: "function_call",
              id: "fc_1",
              call_id: "call_1",
              name: call,
              arguments: ARGUMENTS,
              status: "completed",
            },
          ]
        : [
            {
              type: "message",
              id: "msg_1",
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: "Done.", annotations: [] }],
            },
          ];
  return {
    id: "resp_1",
    object: "response",
    created_at: CREATED,
    status,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    model: body.model,
    output,
    parallel_tool_calls: true,
    temperature: body.temperature ?? 1,
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: 1,
    usage:
      status === "completed"
        ? {
            input_tokens: 12,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 5,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 17,
          }
        : null,
  };
}

function responseEvents(body, call) {
  const done = responseObject(body, call);
  const item = done.output[0];
  let sequence = 0;
  const event = (type, fields) => ({
    event: type,
    data: { type, sequence_number: sequence++, ...fields },
  });
  const events = [
    event("response.created", { response: responseObject(body, call, "in_progress") }),
    event("response.in_progress", { response: responseObject(body, call, "in_progress") }),
  ];
  if (call) {
    events.push(
      event("response.output_item.added", {
        output_index: 0,
        item: { ...item, arguments: "", status: "in_progress" },
      }),
      event("response.function_call_arguments.delta", {
        output_index: 0,
        item_id: item.id,
        delta: ARGUMENTS,
      }),
      event("response.function_call_arguments.done", {
        output_index: 0,
        item_id: item.id,
        arguments: ARGUMENTS,
      }),
    );
  } else {
    const part = { type: "output_text", text: "", annotations: [] };
    events.push(
      event("response.output_item.added", {
        output_index: 0,
        item: { ...item, content: [], status: "in_progress" },
      }),
      event("response.content_part.added", {
        output_index: 0,
        item_id: item.id,
        content_index: 0,
        part,
      }),
      event("response.output_text.delta", {
        output_index: 0,
        item_id: item.id,
        content_index: 0,
        delta: "Done.",
      }),
      event("response.output_text.done", {
        output_index: 0,
        item_id: item.id,
        content_index: 0,
        text: "Done.",
      }),
      event("response.content_part.done", {
        output_index: 0,
        item_id: item.id,
        content_index: 0,
        part: item.content[0],
      }),
    );
  }
  events.push(
    event("response.output_item.done", { output_index: 0, item }),
    event("response.completed", { response: done }),
  );
  return events;
}

const lastIsToolResultOfChat = (body) => body.messages?.at(-1)?.role === "tool";
const lastIsToolResultOfResponses = (body) =>
  Array.isArray(body.input) && body.input.at(-1)?.type === "function_call_output";

const ENDPOINTS = {
  "/v1/chat/completions": {
    name: "chat.completions",
    lastIsToolResult: lastIsToolResultOfChat,
    json: chatCompletion,
    events: (body, call) => [...chatChunks(body, call), { data: "[DONE]" }],
  },
  "/v1/responses": {
    name: "responses",
    lastIsToolResult: lastIsToolResultOfResponses,
    json: responseObject,
    events: responseEvents,
  },
};

function readBody(request) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    request.on("data", (part) => {
      size += part.length;
      if (size > MAX_BODY) {
        reject(new Error(`request body over ${MAX_BODY} bytes`));
        request.destroy();
      } else parts.push(part);
    });
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

/** Starts the server on a free port of 127.0.0.1; `received` lists what each request sent. */
export async function startFakeModelServer() {
  const received = [];
  const server = createServer(async (request, response) => {
    const endpoint = request.method === "POST" ? ENDPOINTS[request.url.split("?")[0]] : undefined;
    if (!endpoint) {
      response
        .writeHead(404, { "content-type": "application/json" })
        .end('{"error":{"message":"not found"}}');
      return;
    }
    let body;
    try {
      body = JSON.parse(await readBody(request));
    } catch (error) {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: String(error) } }));
      return;
    }
    const tools = toolNames(body.tools);
    const call = callFor(tools, body.tool_choice, endpoint.lastIsToolResult(body));
    received.push({
      endpoint: endpoint.name,
      model: body.model ?? null,
      stream: body.stream === true,
      tools,
      tool_choice: body.tool_choice ?? null,
      answered: call ? [call] : [],
    });
    if (body.stream === true) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const { event, data } of endpoint.events(body, call)) {
        const text = typeof data === "string" ? data : JSON.stringify(data);
        response.write(`${event ? `event: ${event}\n` : ""}data: ${text}\n\n`);
      }
      response.end();
    } else {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(endpoint.json(body, call)));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
