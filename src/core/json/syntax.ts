import {
  createScanner,
  printParseErrorCode,
  type JSONScanner,
  type ParseErrorCode as Code,
  type ScanError as Scan,
  type SyntaxKind as Kind,
} from "jsonc-parser";

// jsonc-parser declares these enums `const`, which this build cannot inline: their values by name.
const SyntaxKind = {
  OpenBraceToken: 1 as Kind,
  CloseBraceToken: 2 as Kind,
  OpenBracketToken: 3 as Kind,
  CloseBracketToken: 4 as Kind,
  CommaToken: 5 as Kind,
  ColonToken: 6 as Kind,
  NullKeyword: 7 as Kind,
  TrueKeyword: 8 as Kind,
  FalseKeyword: 9 as Kind,
  StringLiteral: 10 as Kind,
  NumericLiteral: 11 as Kind,
  LineCommentTrivia: 12 as Kind,
  BlockCommentTrivia: 13 as Kind,
  LineBreakTrivia: 14 as Kind,
  Trivia: 15 as Kind,
  Unknown: 16 as Kind,
  EOF: 17 as Kind,
};
const ParseErrorCode = {
  InvalidSymbol: 1 as Code,
  InvalidNumberFormat: 2 as Code,
  PropertyNameExpected: 3 as Code,
  ValueExpected: 4 as Code,
  ColonExpected: 5 as Code,
  CommaExpected: 6 as Code,
  CloseBraceExpected: 7 as Code,
  CloseBracketExpected: 8 as Code,
  EndOfFileExpected: 9 as Code,
  InvalidCommentToken: 10 as Code,
  UnexpectedEndOfString: 12 as Code,
  UnexpectedEndOfNumber: 13 as Code,
  InvalidUnicode: 14 as Code,
  InvalidEscapeCharacter: 15 as Code,
  InvalidCharacter: 16 as Code,
};

/** How deep a fixture or catalogue may nest; deeper input is refused before anything recurses. */
export const MAX_JSON_DEPTH = 64;

export interface JsonSyntaxError {
  readonly offset: number;
  readonly length: number;
  readonly message: string;
}

export const tooDeepMessage = `nested deeper than ${MAX_JSON_DEPTH} levels; the limit is ${MAX_JSON_DEPTH}`;

/** The scanner's errors by ScanError value (1, an unclosed comment, shows as the comment). */
const SCAN_ERRORS: Partial<Record<Scan, Code>> = {
  [2 as Scan]: ParseErrorCode.UnexpectedEndOfString,
  [3 as Scan]: ParseErrorCode.UnexpectedEndOfNumber,
  [4 as Scan]: ParseErrorCode.InvalidUnicode,
  [5 as Scan]: ParseErrorCode.InvalidEscapeCharacter,
  [6 as Scan]: ParseErrorCode.InvalidCharacter,
};

class Stop {
  constructor(readonly error: JsonSyntaxError) {}
}

/**
 * The first syntax error of a strict JSON text, or the first place it nests deeper than
 * MAX_JSON_DEPTH; null when there is neither. One pass over jsonc-parser's tokens with an
 * explicit stack bounded by the depth limit: no recursion, no syntax tree, and it stops at
 * the first error. Reports what jsonc-parser's own parser reports first.
 */
export function firstSyntaxError(text: string): JsonSyntaxError | null {
  const scanner = createScanner(text, false);
  try {
    checkSyntax(scanner);
    return null;
  } catch (stop) {
    if (stop instanceof Stop) return stop.error;
    throw stop;
  }
}

function fail(scanner: JSONScanner, message: string): never {
  throw new Stop({
    offset: scanner.getTokenOffset(),
    length: scanner.getTokenLength(),
    message,
  });
}

function failWith(scanner: JSONScanner, code: Code): never {
  const words = printParseErrorCode(code)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  fail(scanner, `malformed JSON: ${words === "value expected" ? "a value was expected" : words}`);
}

/** The next token that is not white space; a comment or a bad token is the error it is. */
function next(scanner: JSONScanner): Kind {
  for (;;) {
    const token = scanner.scan();
    const scanError = SCAN_ERRORS[scanner.getTokenError()];
    if (scanError !== undefined) failWith(scanner, scanError);
    if (token === SyntaxKind.LineCommentTrivia || token === SyntaxKind.BlockCommentTrivia)
      failWith(scanner, ParseErrorCode.InvalidCommentToken);
    if (token === SyntaxKind.Unknown) failWith(scanner, ParseErrorCode.InvalidSymbol);
    if (token !== SyntaxKind.Trivia && token !== SyntaxKind.LineBreakTrivia) return token;
  }
}

type Mode = "value" | "member" | "inArray" | "inObject" | "after";

function checkSyntax(scanner: JSONScanner): void {
  // One entry per open container: true for an array. Its length never passes MAX_JSON_DEPTH.
  const open: boolean[] = [];
  let needsComma = false;
  let token = next(scanner);
  if (token === SyntaxKind.EOF) failWith(scanner, ParseErrorCode.ValueExpected);
  let mode: Mode = "value";
  for (;;) {
    switch (mode) {
      case "value":
        if (token === SyntaxKind.OpenBracketToken || token === SyntaxKind.OpenBraceToken) {
          if (open.length >= MAX_JSON_DEPTH) fail(scanner, tooDeepMessage);
          open.push(token === SyntaxKind.OpenBracketToken);
          needsComma = false;
          token = next(scanner);
          mode = open[open.length - 1] ? "inArray" : "inObject";
          continue;
        }
        if (token === SyntaxKind.NumericLiteral && Number.isNaN(Number(scanner.getTokenValue())))
          failWith(scanner, ParseErrorCode.InvalidNumberFormat);
        if (
          token !== SyntaxKind.StringLiteral &&
          token !== SyntaxKind.NumericLiteral &&
          token !== SyntaxKind.NullKeyword &&
          token !== SyntaxKind.TrueKeyword &&
          token !== SyntaxKind.FalseKeyword
        )
          failWith(scanner, ParseErrorCode.ValueExpected);
        token = next(scanner);
        mode = "after";
        continue;
      case "after":
        if (open.length === 0) {
          if (token !== SyntaxKind.EOF) failWith(scanner, ParseErrorCode.EndOfFileExpected);
          return;
        }
        needsComma = true;
        mode = open[open.length - 1] ? "inArray" : "inObject";
        continue;
      case "inArray":
      case "inObject": {
        const array: boolean = mode === "inArray";
        if (token === (array ? SyntaxKind.CloseBracketToken : SyntaxKind.CloseBraceToken)) {
          open.pop();
          token = next(scanner);
          mode = "after";
          continue;
        }
        if (token === SyntaxKind.EOF)
          failWith(
            scanner,
            array ? ParseErrorCode.CloseBracketExpected : ParseErrorCode.CloseBraceExpected,
          );
        if (token === SyntaxKind.CommaToken) {
          if (!needsComma) failWith(scanner, ParseErrorCode.ValueExpected);
          token = next(scanner);
        } else if (needsComma) failWith(scanner, ParseErrorCode.CommaExpected);
        mode = array ? "value" : "member";
        continue;
      }
      case "member":
        if (token !== SyntaxKind.StringLiteral)
          failWith(scanner, ParseErrorCode.PropertyNameExpected);
        token = next(scanner);
        if (token !== SyntaxKind.ColonToken) failWith(scanner, ParseErrorCode.ColonExpected);
        token = next(scanner);
        mode = "value";
        continue;
    }
  }
}
