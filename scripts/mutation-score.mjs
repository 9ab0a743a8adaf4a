// `npm run mutation:score`: adds up the mutation reports of the parts measured one at a time
// (reports/mutation/parts/*.json, see stryker.config.mjs) into a score per folder and for
// src/core and src/extension, as Stryker counts it: killed and timed-out mutants over all but
// the ignored and the ones that did not compile. A file measured in two parts counts from the
// newer report; a report of a file that has changed since is stale and left out; a file no
// report holds is listed as not measured.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

const ROOTS = ["src/core", "src/extension"];
const partsDir = "reports/mutation/parts";

const reports = existsSync(partsDir)
  ? readdirSync(partsDir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => join(partsDir, name))
      .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
  : [];

/** Each file's mutants from the newest report that holds it, with that report's name. */
const measured = new Map();
const stale = new Map();
for (const report of reports) {
  const { files } = JSON.parse(readFileSync(report, "utf8"));
  for (const [file, { source, mutants }] of Object.entries(files)) {
    const current = existsSync(file) ? readFileSync(file, "utf8") : null;
    if (current !== source) {
      stale.set(file, report);
      continue;
    }
    stale.delete(file);
    measured.set(file, { report, mutants });
  }
}

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

function tally(files) {
  const count = { detected: 0, undetected: 0, files: 0 };
  for (const file of files) {
    const entry = measured.get(file);
    if (!entry) continue;
    count.files++;
    for (const { status } of entry.mutants) {
      if (DETECTED.has(status)) count.detected++;
      else if (UNDETECTED.has(status)) count.undetected++;
    }
  }
  return count;
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [relative(".", path).split(sep).join("/")] : [];
  });
}

const score = ({ detected, undetected }) =>
  detected + undetected === 0 ? "—" : `${((100 * detected) / (detected + undetected)).toFixed(1)}%`;
const row = (name, files) => {
  const count = tally(files);
  return `| ${name} | ${count.files} of ${files.length} | ${count.detected + count.undetected} | ${count.detected} | ${count.undetected} | ${score(count)} |`;
};

const lines = [
  "| Folder | Files measured | Mutants | Killed | Survived | Score |",
  "|---|---|---|---|---|---|",
];
const missing = [];
for (const root of ROOTS) {
  const all = sources(root);
  const folders = new Map();
  for (const file of all) {
    const rest = file.slice(root.length + 1).split("/");
    const folder = rest.length > 1 ? `${root}/${rest[0]}/` : `${root}/ (top level)`;
    folders.set(folder, [...(folders.get(folder) ?? []), file]);
  }
  for (const [folder, files] of [...folders].sort()) lines.push(row(`\`${folder}\``, files));
  lines.push(row(`**\`${root}\` in all**`, all));
  missing.push(...all.filter((file) => !measured.has(file)));
}

console.log(lines.join("\n"));
if (stale.size > 0)
  console.log(
    `\nStale (changed since measured, left out): ${[...stale].map(([file, report]) => `${file} (${report})`).join(", ")}`,
  );
if (missing.length > 0) console.log(`\nNot measured: ${missing.join(", ")}`);
if (reports.length === 0)
  console.log(
    `\nNo reports in ${partsDir}: measure a part with MUTATION_PART=name npm run mutation`,
  );
