/** What ends a long-running command (receive, traces --follow): SIGINT or SIGTERM, anything in a test. */
export interface Until {
  readonly stopped: Promise<unknown>;
}

export function signalled(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
