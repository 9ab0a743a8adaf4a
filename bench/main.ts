import { benchEngine } from "./engine.js";
import { benchOrder } from "./order.js";
import { benchRender } from "./render.js";
import { benchTraces } from "./traces.js";
import { benchWhatIf } from "./whatif.js";

/** `npm run bench`: every speed goal as a ratio against a baseline measured in the same run. */
async function main(): Promise<void> {
  const sections: (() => string[] | Promise<string[]>)[] = [
    benchEngine,
    benchWhatIf,
    benchTraces,
    benchOrder,
    benchRender,
  ];
  for (const section of sections) for (const line of await section()) console.log(line);
}

void main();
