/**
 * Checking a fixture of 200,000 bad catalogue entries (10 MB) against a valid one of the same
 * size: only the errors a listing can show are kept and described, so the bad one costs about
 * what parsing and validating the good one does, not a multiple per error.
 */
import { loadFixture } from "../src/core/fixture/load.js";
import { load, timed, verdict } from "./measure.js";

const ENTRIES = 200_000;
const RUNS = 5;

function fixture(bad: boolean): string {
  const catalog = Array.from({ length: ENTRIES }, (_, i) => ({
    name: `t${i}`,
    visibility: bad ? 1 : "agent",
    cost_usd: bad ? "x" : 1,
  }));
  return JSON.stringify({ catalog, pipeline: [] });
}

export async function benchFixtures(): Promise<string[]> {
  const texts = [fixture(true), fixture(false)] as const;
  const noCatalogue = () => Promise.reject(new Error("the fixture names no catalogue file"));
  const times: [number[], number[]] = [[], []];
  // Taken in turn after one warm-up each, so both meet the same heap and machine.
  for (let run = -1; run < RUNS; run++)
    for (const [k, text] of texts.entries()) {
      const ms = await timed(() => loadFixture({ file: "bench.turn.json", text }, noCatalogue));
      if (run >= 0) times[k]!.push(ms);
    }
  const [bad, good] = times.map((list) => list.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!);
  return [
    `fixture check, ${(texts[0].length / 1e6).toFixed(1)} MB (${load()})`,
    `  200,000 bad catalogue entries ${bad!.toFixed(0)} ms, as many valid ones ${good!.toFixed(0)} ms: ${verdict(bad! / good!, 2, true)}`,
  ];
}
