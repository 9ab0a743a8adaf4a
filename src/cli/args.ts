/**
 * A command's line, read by node:util's parseArgs against the command's table of options:
 * options before or after the arguments, `--name value` or `--name=value`, and `--help` (`-h`)
 * for every command. An argument that starts with one `-` (`-` for standard input) is an argument.
 */
import { parseArgs } from "node:util";
import { HelpAsked, UsageError } from "./io.js";

/** One option: a flag, or one that takes a value (`value` names it in the help: `--jobs N`). */
export interface OptionSpec {
  readonly value?: string;
  readonly help: string;
  /** Given more than once, every value is kept (`--root DIR`...); otherwise the last counts. */
  readonly repeated?: boolean;
}

/** A command: how it is used (after `palette-inspector `), what it does, and its options by name (no `--`). */
export interface CommandSpec {
  readonly usage: string;
  readonly about: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
}

/** What a command line says; options are named with their `--`. */
export interface CommandLine {
  readonly positional: string[];
  readonly flags: ReadonlySet<string>;
  /** The value of each option given (the last, when given more than once). */
  readonly values: ReadonlyMap<string, string>;
  /** Every value of a `repeated` option, in order. */
  readonly lists: ReadonlyMap<string, readonly string[]>;
}

export const JSON_OPTION: OptionSpec = { help: "print JSON instead of text" };
export const JOBS_OPTION: OptionSpec = {
  value: "N",
  help: "log files read at once, each in a thread (default: the cores)",
};

/** `usage: palette-inspector …`, as a usage error prints it. */
export function usageLine(spec: CommandSpec): string {
  return `usage: palette-inspector ${spec.usage}`;
}

/** The command's `--help`: usage, what it does, and each option. */
export function helpText(spec: CommandSpec): string {
  const rows: [string, string][] = Object.entries(spec.options).map(([name, option]) => [
    `--${name}${option.value === undefined ? "" : ` ${option.value}`}`,
    option.help + (option.repeated ? " (repeatable)" : ""),
  ]);
  rows.push(["--help", "print this help"]);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [
    usageLine(spec),
    "",
    spec.about,
    "",
    "options:",
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`),
    "",
  ].join("\n");
}

/** Reads `args` by the command's table; an unknown option, or a value missing or not wanted, is a usage error. */
export function readCommandLine(args: readonly string[], spec: CommandSpec): CommandLine {
  const { tokens } = parseArgs({
    args: [...args],
    options: Object.fromEntries(
      Object.entries(spec.options).map(([name, option]) => [
        name,
        { type: option.value === undefined ? ("boolean" as const) : ("string" as const) },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positional: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const taken = new Set<number>();
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      positional.push(token.value);
      continue;
    }
    if (token.name === "help" || token.rawName === "-h") throw new HelpAsked(helpText(spec));
    // One dash is an argument, as before (`-` is standard input); parseArgs splits `-12` in two.
    if (!token.rawName.startsWith("--")) {
      if (!taken.has(token.index)) positional.push(args[token.index]!);
      taken.add(token.index);
      continue;
    }
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    if (option === undefined) throw new UsageError(`unknown option ${token.rawName}`);
    if (option.value === undefined) {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
      flags.add(token.rawName);
      continue;
    }
    if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    values.set(token.rawName, token.value);
    lists.set(token.rawName, [...(lists.get(token.rawName) ?? []), token.value]);
  }
  return { positional, flags, values, lists };
}
