/** How the CLI ends when the reader of its output goes away (`palette-inspector traces big.log | head`). */

/** EPIPE: the other end of the pipe closed. Like Unix tools, stop quietly with status 0. */
export function endQuietlyWhenPipeCloses(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void,
  stderr: (text: string) => void,
): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") return exit(0);
    stderr(`palette-inspector: cannot write the output: ${error.message}\n`);
    exit(74);
  });
}
