// `npm run demo`: every example fixture's waterfall, then the regression check over all of them.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const cli = (args) => spawnSync(process.execPath, ["dist/cli.js", ...args], { stdio: "inherit" }).status;
const fixtures = readdirSync("examples").filter((name) => name.endsWith(".turn.json")).sort();
for (const name of fixtures) {
  console.log(`\n━━ palette-inspector run examples/${name}\n`);
  cli(["run", `examples/${name}`]);
}
console.log("\n━━ palette-inspector check examples\n");
process.exitCode = cli(["check", "examples"]);
