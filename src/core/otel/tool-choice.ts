/**
 * A request's `tool_choice` in the shapes the instrumentations record it, as the model call's
 * tool_choice (traces/model-call.ts): OpenAI's Chat Completions and Responses, and the AI SDK's.
 */
import { isJsonObject } from "../traces/trace.js";
import type { ToolChoice } from "../traces/model-call.js";

/**
 * The tool choice a request sent: a mode, or the forced tool's name. Unsent, it is the API's
 * default: "auto" with tools, "none" without; null for a shape no API has.
 */
export function requestToolChoice(sent: unknown, offered: readonly string[] | null): ToolChoice {
  if (sent === undefined || sent === null)
    return offered === null ? null : offered.length > 0 ? "auto" : "none";
  if (sent === "auto" || sent === "none" || sent === "required") return sent;
  if (!isJsonObject(sent)) return null;
  const type = sent["type"];
  // The AI SDK's modes are objects: {"type":"auto"}.
  if (type === "auto" || type === "none" || type === "required") return type;
  const fn = sent["function"];
  const name =
    type === "tool"
      ? sent["toolName"]
      : type === "function"
        ? (sent["name"] ?? (isJsonObject(fn) ? fn["name"] : undefined))
        : undefined;
  return typeof name === "string" ? name : null;
}
