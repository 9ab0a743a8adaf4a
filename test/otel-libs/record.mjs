#!/usr/bin/env node
/**
 * Records every library's turns: each runner in `libs/` runs in its own Node process (the
 * instrumentations patch modules globally), one at a time, against its own loopback fake model
 * server. `npm run record -- NAME...` records only those runners.
 *
 *   cd test/otel-libs && npm ci && npm run record
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { RECORDINGS } from "./common.mjs";

/** The runners, in the order they are recorded: each runs `libs/SCRIPT.mjs ARGS` and writes `recordings/NAME/`. */
const RUNNERS = [
  { name: "official-openai", script: "official-openai", args: [] },
  { name: "traceloop-0.27", script: "traceloop", args: ["0.27"] },
  { name: "traceloop-0.22", script: "traceloop", args: ["0.22"] },
  { name: "openinference-openai", script: "openinference-openai", args: [] },
  { name: "openinference-openai", script: "openinference-openai", args: ["capture-off"] },
  { name: "openinference-langchain", script: "openinference-langchain", args: [] },
  { name: "openinference-langchain", script: "openinference-langchain", args: ["capture-off"] },
  { name: "openinference-agents", script: "openinference-agents", args: [] },
  { name: "ai-sdk-7-otel", script: "ai-sdk", args: ["7-otel"] },
  { name: "ai-sdk-7-legacy", script: "ai-sdk", args: ["7-legacy"] },
  { name: "ai-sdk-6", script: "ai-sdk", args: ["6"] },
];
const NAMES = [...new Set(RUNNERS.map((runner) => runner.name))];

/** A runner that takes longer than this has hung (each takes a few seconds). */
const TIMEOUT_MS = 120_000;

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !NAMES.includes(name));
if (unknown.length > 0) {
  console.error(`unknown runner ${unknown.join(", ")}; the runners are ${NAMES.join(", ")}`);
  process.exit(2);
}
const chosen = RUNNERS.filter((runner) => wanted.length === 0 || wanted.includes(runner.name));
for (const name of new Set(chosen.map((runner) => runner.name))) {
  rmSync(join(RECORDINGS, name), { recursive: true, force: true });
}
let failed = 0;
for (const { name, script, args } of chosen) {
  const run = spawnSync(
    process.execPath,
    [new URL(`./libs/${script}.mjs`, import.meta.url).pathname, ...args],
    {
      stdio: "inherit",
      timeout: TIMEOUT_MS,
      // The clients need a key; the fake server ignores it. No request leaves 127.0.0.1.
      env: { ...process.env, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    },
  );
  if (run.status !== 0) {
    failed++;
    console.error(`${name}: failed (${run.error?.message ?? `exit ${run.status ?? run.signal}`})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
