/** logfmt and structlog key=value lines: a quoted value, found and unescaped. */

/** The index of the `"` closing the one at `open`, skipping backslash escapes; -1 if the line ends first. */
export function quotedEnd(text: string, open: number, to = text.length): number {
  for (let i = open + 1; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\" };

/** The value between the quotes as the logger had it before quoting: `\"` → `"`, `\\` → `\`. */
export function unescapeLogfmt(text: string): string {
  if (!text.includes("\\")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const escaped = c === "\\" ? ESCAPES[text[i + 1] ?? ""] : undefined;
    if (escaped === undefined) out += c;
    else {
      out += escaped;
      i++;
    }
  }
  return out;
}
