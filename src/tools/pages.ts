/**
 * An answer too big for one message, in pages. MCP clients drop a message past their buffer (the
 * SDK's stdio client at 10 MiB), so a structured result whose JSON is over PAGE_BYTES on the wire
 * is given as its JSON text cut into pages, each under that size, which a reader joins in order.
 */
import { counted, safeJsonText } from "../core/words.js";
import { InputRefused } from "../node/roots.js";

/** The most a structured result takes on the wire: its JSON as UTF-8, escaped as the server writes it. */
export const PAGE_BYTES = 1024 * 1024;

/** A page of a structured result too big for one answer. */
export interface Page {
  readonly page: number;
  readonly pages: number;
  /** This page's part of the result's JSON text: the parts joined in order are the whole JSON. */
  readonly json_part: string;
}

const utf8 = new TextEncoder();

/** Bytes the JSON text takes as the server writes it (UTF-8, C1 controls and bidi marks escaped). */
function wireBytes(json: string): number {
  return utf8.encode(safeJsonText(json)).length;
}

/**
 * The result itself when it fits (and page 1 is asked); else the page asked for, with the line
 * that says so. A page past the last is refused.
 */
export function pageOf(
  tool: string,
  structured: Record<string, unknown>,
  page: number,
): { structured: Record<string, unknown>; line: string | null } {
  const json = JSON.stringify(structured);
  const bytes = wireBytes(json);
  if (bytes <= PAGE_BYTES) {
    if (page > 1) throw new InputRefused(`the answer has 1 page; there is no page ${page}`);
    return { structured, line: null };
  }
  const ends = pageEnds(json);
  if (page > ends.length)
    throw new InputRefused(
      `the answer has ${counted(ends.length, "page")}; there is no page ${page}`,
    );
  const paged: Page = {
    page,
    pages: ends.length,
    json_part: json.slice(page === 1 ? 0 : ends[page - 2], ends[page - 1]),
  };
  const next =
    page < ends.length
      ? `call ${tool} again with the same arguments and page ${page + 1} for the next`
      : "this is the last";
  return {
    structured: { ...paged },
    line: `The structured result is ${mebibytes(bytes)} of JSON, over the ${mebibytes(PAGE_BYTES)} one answer holds: json_part is page ${page} of ${ends.length} of its text; ${next}.`,
  };
}

/** Where each page of the text ends: as much as fits PAGE_BYTES as a JSON string, a surrogate pair kept whole. */
function pageEnds(json: string): number[] {
  const ends: number[] = [];
  for (let start = 0; start < json.length;) {
    let size = Math.min(PAGE_BYTES, json.length - start);
    for (;;) {
      let end = start + size;
      if (end < json.length && /[\uD800-\uDBFF]/.test(json[end - 1]!)) end--;
      const bytes = wireBytes(JSON.stringify(json.slice(start, end)));
      if (bytes <= PAGE_BYTES) {
        ends.push(end);
        start = end;
        break;
      }
      // Shrink in proportion to the overshoot, and a little more, so that it fits in a try or two.
      size = Math.max(1, Math.floor((size * PAGE_BYTES * 0.99) / bytes));
    }
  }
  return ends;
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
