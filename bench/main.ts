import { benchCommands } from "./commands.js";
import { benchEngine } from "./engine.js";
import { benchFixtures } from "./fixtures.js";
import { benchFollow } from "./follow.js";
import { benchHostScan } from "./host-scan.js";
import { benchJobs } from "./jobs.js";
import { benchLogIndex } from "./log-index.js";
import { benchOrder } from "./order.js";
import { benchOtlpRead } from "./otlp-read.js";
import { benchReceiver } from "./receiver.js";
import { benchReceiverMemory, receiverWorkerInChild, WORKER_FLAG } from "./receiver-memory.js";
import { benchRender } from "./render.js";
import { MEASURE_FLAG, measureInChild } from "./child.js";
import { benchMcp } from "./mcp.js";
import { benchScanSpeed } from "./scan-speed.js";
import { benchShapes } from "./shapes.js";
import { benchStats } from "./stats.js";
import { benchStatsCompare } from "./stats-compare.js";
import { benchTraces } from "./traces.js";
import { benchWhatIf } from "./whatif.js";

/**
 * `npm run bench`: every speed goal as a ratio against a baseline measured in the same run.
 * `npm run bench -- logs` runs only the sections whose name is given.
 */
async function main(): Promise<void> {
  const sections: Record<string, () => string[] | Promise<string[]>> = {
    engine: benchEngine,
    whatif: benchWhatIf,
    fixtures: benchFixtures,
    traces: benchTraces,
    commands: benchCommands,
    jobs: benchJobs,
    scan: benchScanSpeed,
    order: benchOrder,
    logs: benchLogIndex,
    render: benchRender,
    stats: benchStats,
    compare: benchStatsCompare,
    mcp: benchMcp,
    receiver: benchReceiver,
    otlp: benchOtlpRead,
    shapes: benchShapes,
    follow: benchFollow,
    host: benchHostScan,
  };
  // Minutes of hostile loads: run only when named.
  const named: Record<string, () => Promise<string[]>> = {
    "receiver-memory": benchReceiverMemory,
  };
  const only = process.argv.slice(2);
  if (only[0] === MEASURE_FLAG) return measureInChild(only[1]!, only[2]!);
  if (only[0] === WORKER_FLAG) return receiverWorkerInChild();
  for (const [name, section] of Object.entries({ ...sections, ...named }))
    if ((only.length === 0 && !(name in named)) || only.includes(name))
      for (const line of await section()) console.log(line);
}

void main();
