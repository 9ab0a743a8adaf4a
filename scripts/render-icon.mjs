// Renders scripts/icon.svg to media/icon.png (256×256) in headless Chromium, as the Marketplace
// wants a PNG icon. Run it after changing the drawing: `node scripts/render-icon.mjs`.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
await page.setContent(`<body style="margin:0">${readFileSync("scripts/icon.svg", "utf8")}</body>`);
await page.screenshot({
  path: "media/icon.png",
  omitBackground: true,
  clip: { x: 0, y: 0, width: 256, height: 256 },
});
await browser.close();
