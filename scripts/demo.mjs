// `npm run demo`: every example fixture's waterfall, the regression check over them, and the
// deliberately failing fixture that shows what a regression looks like.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const cli = (args) =>
  spawnSync(process.execPath, ["dist/cli.js", ...args], { stdio: "inherit" }).status;
const fixtures = readdirSync("examples")
  .filter((name) => name.endsWith(".turn.json"))
  .sort()
  .map((name) => `examples/${name}`);
for (const fixture of fixtures) {
  console.log(`\n━━ palette-inspector run ${fixture}\n`);
  cli(["run", fixture]);
}
console.log("\n━━ palette-inspector check examples/*.turn.json\n");
const status = cli(["check", ...fixtures]);

console.log(
  "\n━━ palette-inspector check examples/regressions   (fails on purpose: a stale expectation)\n",
);
const regression = cli(["check", "examples/regressions"]);
if (regression !== 1)
  console.error(`\nexpected the regression example to fail with exit status 1, got ${regression}`);
process.exitCode = status !== 0 ? status : regression === 1 ? 0 : 1;
