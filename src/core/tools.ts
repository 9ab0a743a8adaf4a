/** A tool offered to the pipeline: its name, or an object whose `name` field names it. */
export type Tool = string | { readonly [key: string]: unknown };

/** The tool's name, or null for an unnamed tool (an object without a string `name`). */
export function toolName(tool: Tool): string | null {
  if (typeof tool === "string") return tool;
  const name = tool.name;
  return typeof name === "string" ? name : null;
}

/** Names of the named tools, in order; unnamed tools have none to list. */
export function toolNames(tools: readonly Tool[]): string[] {
  const out: string[] = [];
  for (const tool of tools) {
    const name = toolName(tool);
    if (name !== null) out.push(name);
  }
  return out;
}

/**
 * Keep, in input order, every tool whose name is in `names` and every unnamed tool:
 * unnamed tools cannot be gated by a name-keyed policy, so they survive every name filter.
 * With `dropped`, the name of each tool left out is appended there, in the same walk.
 */
export function filterByNames(
  tools: readonly Tool[],
  names: Iterable<string>,
  dropped?: string[],
): Tool[] {
  const allowed = names instanceof Set ? (names as ReadonlySet<string>) : new Set(names);
  const kept: Tool[] = [];
  for (const tool of tools) {
    const name = toolName(tool);
    if (name === null || allowed.has(name)) kept.push(tool);
    else if (dropped !== undefined) dropped.push(name);
  }
  return kept;
}

/** Python's `sorted()` order for strings: by code point, not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done || cb.done) return ca.done ? (cb.done ? 0 : -1) : 1;
    const d = ca.value.codePointAt(0)! - cb.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}
