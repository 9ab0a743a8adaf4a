// One build for every target: the extension host, the CLI, the webview and the benchmark.
import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

const node = {
  bundle: true,
  platform: "node",
  // jsonc-parser's UMD entry requires files esbuild cannot see; its ESM entry bundles cleanly.
  mainFields: ["module", "main"],
  target: "node20",
  format: "cjs",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
};

const browser = {
  bundle: true,
  platform: "browser",
  target: "es2022",
  format: "iife",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
};

/** main.ts's imports of its command groups, left to the bundles beside dist/cli.js. */
const COMMAND_BUNDLES = {
  "./log-commands.js": "./cli-logs.js",
  "./tool-commands.js": "./cli-tools.js",
};
const commandBundles = {
  name: "command-bundles",
  setup: (build) =>
    build.onResolve({ filter: /^\.\/(log|tool)-commands\.js$/ }, ({ path }) => ({
      path: COMMAND_BUNDLES[path],
      external: true,
    })),
};

const targets = [
  {
    ...node,
    entryPoints: ["src/extension/main.ts"],
    outfile: "dist/extension.js",
    external: ["vscode"],
  },
  {
    ...node,
    entryPoints: ["src/cli/main.ts"],
    outfile: "dist/cli.js",
    banner: { js: "#!/usr/bin/env node" },
    // The command groups are bundles of their own, required when a command needs them.
    plugins: [commandBundles],
    supported: { "dynamic-import": false },
  },
  {
    ...node,
    entryPoints: {
      "cli-logs": "src/cli/log-commands.ts",
      "cli-tools": "src/cli/tool-commands.ts",
    },
    outdir: "dist",
  },
  // Log scans run in worker threads started from this file, beside the CLI and the extension.
  { ...node, entryPoints: ["src/node/scan-worker.ts"], outfile: "dist/scan-worker.js" },
  // Large fixtures and catalogues are checked in a worker thread started from this file.
  { ...node, entryPoints: ["src/node/fixture-worker.ts"], outfile: "dist/fixture-worker.js" },
  // Start Live Traces receives in a worker thread started from this file.
  { ...node, entryPoints: ["src/node/receiver-worker.ts"], outfile: "dist/receiver-worker.js" },
  // playwright-core finds its own files at run time, so the benchmark loads it from node_modules.
  {
    ...node,
    entryPoints: ["bench/main.ts"],
    outfile: "dist/bench.js",
    external: ["playwright-core"],
  },
  // The least a scan does, timed as a whole process of its own by the shapes bench.
  { ...node, entryPoints: ["bench/floor.ts"], outfile: "dist/bench-floor.js" },
  {
    ...node,
    entryPoints: ["src/core/fixture/schema-files.ts"],
    outfile: "dist/schema-files.js",
    // In watch mode too, the schemas follow their definition on every rebuild.
    plugins: [
      {
        name: "write-schemas",
        setup: (build) =>
          build.onEnd((result) => {
            if (result.errors.length === 0) writeSchemas();
          }),
      },
    ],
  },
  {
    ...browser,
    entryPoints: ["webview/main.ts"],
    outfile: "dist/webview.js",
  },
  // The Palette Statistics view: its own page and bundle, apart from the trace panel's.
  { ...browser, entryPoints: ["webview/stats/main.ts"], outfile: "dist/stats-webview.js" },
];

/** The JSON Schema files of media/schemas/, written from the one TypeBox definition. */
function writeSchemas() {
  const require = createRequire(import.meta.url);
  const modulePath = require.resolve("./dist/schema-files.js");
  delete require.cache[modulePath];
  const { SCHEMA_FILES } = require(modulePath);
  mkdirSync("media/schemas", { recursive: true });
  for (const [file, schema] of Object.entries(SCHEMA_FILES))
    writeFileSync(`media/schemas/${file}`, JSON.stringify(schema, null, 2) + "\n");
}

/** Codicons for the webview, which may read only dist/ and media/ (not node_modules). */
function copyCodicons() {
  const require = createRequire(import.meta.url);
  mkdirSync("dist/codicons", { recursive: true });
  for (const file of ["codicon.css", "codicon.ttf"])
    copyFileSync(require.resolve(`@vscode/codicons/dist/${file}`), `dist/codicons/${file}`);
}

copyCodicons();
if (watch) {
  for (const options of targets) await (await esbuild.context(options)).watch();
  console.log("esbuild: watching");
} else {
  await Promise.all(targets.map((options) => esbuild.build(options)));
}
