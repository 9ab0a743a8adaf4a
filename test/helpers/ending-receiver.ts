import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp.js";

/**
 * A receiver worker's script that says it listens on port 1, gives each of `notices` as the
 * receiver says what it let go, then ends with exit code 3 after `ms`: what a ReceiverThread sees
 * when its worker dies while it runs.
 */
export function endingReceiverScript(ms: number, notices: readonly string[] = []): string {
  const script = join(tempDir(), "ends.js");
  writeFileSync(
    script,
    `const { parentPort } = require("node:worker_threads");
     parentPort.postMessage({ kind: "listening", host: "127.0.0.1", port: 1 });
     for (const notice of ${JSON.stringify(notices)}) parentPort.postMessage({ kind: "dropped", notice });
     setTimeout(() => process.exit(3), ${ms});`,
  );
  return script;
}
