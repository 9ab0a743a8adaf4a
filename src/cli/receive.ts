/**
 * `palette-inspector receive [--host 127.0.0.1] [--port 4318] [--out FILE] [--out-max BYTES] [--max-body BYTES]`
 * (docs/formats.md, "palette-inspector receive"): an OTLP/HTTP receiver that prints each selection
 * trace as it arrives, one line as `traces` lists it, until SIGINT or SIGTERM. `--out` appends each
 * request as one `{"resourceSpans": …}` line, up to `--out-max` bytes written.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { safe, safeJson } from "../core/words.js";
import { summarizeTrace } from "../core/traces/summary.js";
import {
  DEFAULT_HOST,
  DEFAULT_MAX_BODY,
  DEFAULT_PORT,
  OtlpReceiver,
  PortInUse,
} from "../node/otlp-receiver.js";
import { readReason } from "../node/log-source.js";
import { openAppendSync } from "../node/safe-file.js";
import { readCommandLine, usageLine, type CommandSpec } from "./args.js";
import { EXIT, UsageError, type CliIO } from "./io.js";
import { signalled, type Until } from "./signals.js";
import { rowHeader, traceCells } from "./trace-row.js";

const RECEIVE: CommandSpec = {
  usage:
    "receive [--host 127.0.0.1] [--port 4318] [--out FILE] [--out-max BYTES] [--max-body BYTES]",
  about:
    "Receives OTLP/HTTP traces (POST /v1/traces) and prints each selection trace as it arrives, until SIGINT or SIGTERM.",
  options: {
    host: { value: "H", help: "the address to listen on (default 127.0.0.1: this machine only)" },
    port: { value: "P", help: "the port (default 4318; 0 picks a free one)" },
    out: { value: "FILE", help: "also append every accepted request to FILE, for traces FILE" },
    "out-max": {
      value: "BYTES",
      help: "stop writing --out after this many bytes this run (default 1 GiB)",
    },
    "max-body": { value: "BYTES", help: "the largest request body, after gzip (default 16 MiB)" },
  },
};
const USAGE = usageLine(RECEIVE);
/** Bytes `--out` writes in one run unless told (1 GiB): a client sending as fast as it can fills no disk. */
export const DEFAULT_OUT_MAX = 2 ** 30;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export async function receiveCommand(
  args: readonly string[],
  io: CliIO,
  until: Until = { stopped: signalled() },
): Promise<number> {
  const { positional, values } = readCommandLine(args, RECEIVE);
  if (positional.length > 0) throw new UsageError(USAGE);
  const host = values.get("--host") ?? DEFAULT_HOST;
  const port = whole(values.get("--port"), DEFAULT_PORT, "--port", 0, 65535);
  const maxBody = whole(values.get("--max-body"), DEFAULT_MAX_BODY, "--max-body", 1, 2 ** 31 - 1);
  const outMax = whole(values.get("--out-max"), DEFAULT_OUT_MAX, "--out-max", 0, 2 ** 53 - 1);
  const outName = values.get("--out");
  let out: WriteStream | null = null;
  if (outName !== undefined) {
    let fd: number;
    try {
      fd = openAppendSync(isAbsolute(outName) ? outName : resolve(io.cwd, outName));
    } catch (error) {
      io.stderr(`palette-inspector: cannot write ${safe(outName)}: ${safe(readReason(error))}\n`);
      return EXIT.invalidInput;
    }
    out = createWriteStream("", { fd });
  }
  let written = 0;
  let full = false;
  const receiver = new OtlpReceiver({
    host,
    port,
    maxBody,
    onTrace: ({ index, trace }) => {
      const summary = summarizeTrace({
        index,
        line: 0,
        offset: 0,
        length: 0,
        ordinal: index,
        trace,
      });
      // A received trace has no line: its row is the one `traces` prints without that column.
      const cells = traceCells(summary, null);
      cells.splice(1, 1);
      io.stdout(cells.join("  ").trimEnd() + "\n");
    },
    onDropped: (notice) => io.stderr(`palette-inspector: ${notice}\n`),
    onRequest: (request) => {
      if (!out) return;
      const line = safeJson(request) + "\n";
      const bytes = Buffer.byteLength(line);
      if (written + bytes <= outMax) {
        written += bytes;
        out.write(line);
      } else if (!full) {
        full = true;
        io.stderr(
          `palette-inspector: ${safe(outName!)} has had the ${outMax} bytes --out-max allows a run: later requests are not written to it\n`,
        );
      }
    },
  });
  let address;
  try {
    address = await receiver.start();
  } catch (error) {
    out?.end();
    if (!(error instanceof PortInUse)) throw error;
    io.stderr(`palette-inspector: port ${error.port} is in use; choose another with --port N\n`);
    return EXIT.invalidInput;
  }
  if (!LOOPBACK.has(host))
    io.stderr(
      `palette-inspector: listening on ${safe(host)}, not only this machine: any host that reaches it can send traces\n`,
    );
  io.stdout(`listening on http://${host.includes(":") ? `[${host}]` : host}:${address.port}\n`);
  io.stdout(rowHeader(false));
  await until.stopped;
  await receiver.stop();
  if (out) await new Promise<void>((done) => out.end(done));
  return EXIT.ok;
}

function whole(
  text: string | undefined,
  fallback: number,
  flag: string,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new UsageError(
      `${flag} must be a whole number from ${min} to ${max}, not '${text}'\n${USAGE}`,
    );
  return Number(text);
}
