/**
 * `palette-inspector mcp [--root DIR]...`: the assistant tools (src/tools) as an MCP server over
 * stdio. Standard output carries only JSON-RPC messages; anything else goes to standard error.
 */
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  RootsListChangedNotificationSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { safe, safeJson } from "../core/words.js";
import { RootFiles, Roots } from "../node/roots.js";
import { callTool, inputProblem, isToolName, TOOLS } from "../tools/tools.js";
import { readCommandLine, usageLine, type CommandSpec } from "./args.js";
import { EXIT, UsageError, type CliIO } from "./io.js";
import { VERSION } from "./version.js";

const MCP: CommandSpec = {
  usage: "mcp [--root DIR]...   (default root: the working directory)",
  about:
    "Serves the assistant tools to an AI assistant over stdio (MCP), reading and writing only under the roots.",
  options: {
    root: { value: "DIR", help: "a folder the tools may read and write under", repeated: true },
  },
};

/** Serves until standard input closes; bad input never ends it. */
export async function mcpCommand(args: readonly string[], io: CliIO): Promise<number> {
  const roots = new Roots(rootsOf(args, io.cwd));
  const files = new RootFiles(roots);
  const say = (text: string) => io.stderr(`palette-inspector mcp: ${safe(text)}\n`);
  const server = new Server(
    { name: "palette-inspector", version: VERSION },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map(({ name, title, description, inputSchema, outputSchema }) => ({
      name,
      title,
      description,
      inputSchema,
      outputSchema,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: input = {} } = request.params;
    if (!isToolName(name)) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
    const problem = inputProblem(name, input);
    if (problem !== null) throw new McpError(ErrorCode.InvalidParams, problem);
    const result = await callTool(name, input, files);
    return {
      content: [{ type: "text" as const, text: result.text }],
      ...(result.structured ? { structuredContent: result.structured } : {}),
      isError: result.isError,
    };
  });
  // The client's roots join the server's own, and follow the client's list as it changes.
  const askRoots = async () => {
    try {
      const { roots: offered } = await server.listRoots();
      roots.setExtra(
        offered
          .filter((root) => root.uri.startsWith("file:"))
          .map((root) => fileURLToPath(root.uri)),
      );
    } catch (error) {
      say(
        `the client's roots could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  server.oninitialized = () => {
    // askRoots catches whatever listing the roots throws and says it, so it cannot reject.
    // eslint-disable-next-line @typescript-eslint/no-floating-promises
    if (server.getClientCapabilities()?.roots) void askRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, askRoots);
  server.onerror = (error) => say(error.message);

  const transport = new LineTransport(io.stdin ?? process.stdin, io.stdout);
  const closed = new Promise<number>((done) => (server.onclose = () => done(EXIT.ok)));
  await server.connect(transport);
  return closed;
}

/** `--root DIR`, repeatable; each must be a folder. */
function rootsOf(args: readonly string[], cwd: string): string[] {
  const { positional, lists } = readCommandLine(args, MCP);
  if (positional.length > 0) throw new UsageError(usageLine(MCP));
  const roots: string[] = [];
  for (const dir of lists.get("--root") ?? []) {
    const path = isAbsolute(dir) ? dir : resolve(cwd, dir);
    let folder = false;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      // Said below, as for a file.
    }
    if (!folder) throw new UsageError(`--root ${dir} is not a folder`);
    roots.push(path);
  }
  return roots.length > 0 ? roots : [cwd];
}

/** The longest line read as a message; the rest of a longer one is skipped up to its line break. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * The MCP stdio transport: one JSON-RPC message per line. Written with C1 controls and bidi
 * marks escaped (safeJson), so that no text from a file reaches the client's terminal raw; a
 * line that is not a message, or is longer than MAX_LINE_BYTES, is said on stderr and skipped
 * whole: nothing after a cut on the same line is read as a message.
 */
class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The start of the line being read, in the chunks it came in. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Past MAX_LINE_BYTES: the line is dropped up to its line break. */
  private skipping = false;
  private open = true;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly write: (text: string) => void,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", (chunk: Buffer) => this.read(chunk));
    this.input.on("end", () => this.close().catch((error: Error) => this.onerror?.(error)));
    this.input.on("error", (error: Error) => this.onerror?.(error));
  }

  private read(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, from);
      if (end === -1) return this.hold(chunk.subarray(from));
      if (this.skipping) this.skipping = false;
      else if (this.pendingBytes + end - from > MAX_LINE_BYTES) this.tooLong();
      else {
        this.pending.push(chunk.subarray(from, end));
        this.line(Buffer.concat(this.pending).toString("utf8"));
      }
      this.pending = [];
      this.pendingBytes = 0;
      from = end + 1;
    }
  }

  /** Keeps the start of a line until its break comes, or drops it once it is too long. */
  private hold(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.pendingBytes + part.length > MAX_LINE_BYTES) {
      this.tooLong();
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private tooLong(): void {
    this.onerror?.(
      new Error(`a line longer than ${MAX_LINE_BYTES} bytes, skipped up to its line break`),
    );
  }

  private line(text: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text.replace(/\r$/, ""));
    } catch (error) {
      this.onerror?.(
        new Error(
          `a line that is not a JSON-RPC message: ${(error as Error).message.split("\n")[0]}`,
        ),
      );
      return;
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.open) this.write(safeJson(message) + "\n");
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.pending = [];
    this.onclose?.();
  }
}
