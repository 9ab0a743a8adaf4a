// Writes the README's pictures into media/readme/ as small JPEGs, from docs/screenshots/, so the
// .vsix carries them (the extension's page shows them offline) within its 1 MB budget. Run by
// `npm run screenshots` after it refreshes docs/screenshots/; headless Chromium does the scaling.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { chromium } from "playwright-core";

/** The README's pictures, by name in docs/screenshots/, and the width they are written at. */
const PICTURES = ["e2e-panel-dark", "e2e-statistics", "e2e-debug-panel", "e2e-testing"];
const WIDTH = 800;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
mkdirSync("media/readme", { recursive: true });
for (const name of PICTURES) {
  const png = readFileSync(`docs/screenshots/${name}.png`).toString("base64");
  const page = await browser.newPage({ viewport: { width: WIDTH, height: 100 } });
  await page.setContent(
    `<style>body{margin:0}img{display:block;width:${WIDTH}px}</style><img src="data:image/png;base64,${png}">`,
  );
  await page.locator("img").evaluate((img) => img.decode());
  writeFileSync(
    `media/readme/${name}.jpg`,
    await page.locator("img").screenshot({ type: "jpeg", quality: 50 }),
  );
  await page.close();
}
await browser.close();
