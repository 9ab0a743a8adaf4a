/**
 * Builds src/node/plain-lines.wat into src/node/plain-lines-wasm.ts (the module's bytes as
 * base64, so that neither the bundles nor the tests need a WebAssembly tool). `npm run wasm`;
 * test/node/plain-lines.test.ts fails when the two disagree.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import wabt from "wabt";

const root = fileURLToPath(new URL("..", import.meta.url));
const SOURCE = "src/node/plain-lines.wat";

/** The TypeScript module holding the built bytes of the .wat text. */
export async function plainLinesModule(wat) {
  const tools = await wabt();
  const parsed = tools.parseWat(SOURCE, wat, { simd: true });
  try {
    const { buffer } = parsed.toBinary({});
    const base64 = Buffer.from(buffer).toString("base64");
    return `// Built from plain-lines.wat by scripts/build-wasm.mjs (npm run wasm): do not edit.\nexport const PLAIN_LINES_WASM =\n  "${base64}";\n`;
  } finally {
    parsed.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wat = readFileSync(`${root}${SOURCE}`, "utf8");
  writeFileSync(`${root}src/node/plain-lines-wasm.ts`, await plainLinesModule(wat));
}
