// What the panel says: each thing once, named for what it is, and current with the run on screen.
import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, openWhatIf, send, waitForPosted } from "./page.js";
import { EXAMPLE, largeFixture, load, showFixture, whatIfResult } from "./reports.js";

test("a what-if that moves the role shows its role in the header, with the fixture's beside it", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(EXAMPLE);
  await send(page, showFixture(fixture));
  const role = page.locator('.header [data-stat="role"]');
  assert.equal(await role.textContent(), "Role: analyst");
  await openWhatIf(page);
  await page.locator('[data-lever="role"]').locator("input").fill("admin");
  const request = await waitForPosted(page, "whatIf");
  assert.equal(request.edit.role, "admin");
  await send(page, whatIfResult(fixture, request.edit, request.requestId));
  await page.waitForFunction(() =>
    document.querySelector('.header [data-stat="role"]')?.textContent?.startsWith("Role: admin"),
  );
  assert.equal(await role.textContent(), "Role: admin (what-if; the fixture's: analyst)");
  await page.locator('[data-action="reset"]').click();
  await page.waitForFunction(
    () => document.querySelector('.header [data-stat="role"]')?.textContent === "Role: analyst",
  );
  await page.close();
});

test("a run without a catalogue says once that no tool has a description, not on every tool", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(largeFixture(6, 3), "large.turn.json")));
  const sees = page.locator(".model-sees");
  await sees.waitFor();
  const text = await sees.innerText();
  assert.equal(text.match(/no tool catalogue/g)?.length, 1, text);
  assert.doesNotMatch(text, /agent-facing manifest/);
  await page.close();
});

test("with a catalogue, only a final tool missing from it is marked", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load({ ...EXAMPLE, offered: ["search", "get_weather", "internal_tool"] });
  await send(page, showFixture(fixture));
  const sees = page.locator(".model-sees");
  await sees.waitFor();
  const text = await sees.innerText();
  assert.doesNotMatch(text, /no tool catalogue/);
  assert.match(text, /get_weather — Current weather for a city\./);
  await page.close();
});

test("a name the run does not know is named once", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  const input = page.locator("#lineage-input");
  await input.fill("nope");
  await input.press("Enter");
  await page.waitForFunction(() =>
    document.querySelector("#lineage-answer")?.textContent?.includes("is not a tool"),
  );
  assert.equal(
    await page.locator("#lineage-answer").innerText(),
    "nope is not a tool of this run.",
  );
  await page.close();
});

test("a tool a role palette names but the run never offered says where it is named", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load({
    ...EXAMPLE,
    offered: ["search", "get_weather", "sql", "final_answer"],
  });
  const message = showFixture(fixture);
  if (message.type !== "show") throw new Error(message.type);
  await send(page, {
    ...message,
    view: {
      ...message.view,
      rolePalettes: [
        { stage: "role", role: "analyst", tools: ["search", "get_weather", "sql"] },
        { stage: "role", role: "admin", tools: ["search", "delete_rows"] },
      ],
    },
  });
  const input = page.locator("#lineage-input");
  await input.fill("delete_rows");
  await input.press("Enter");
  await page.waitForFunction(() =>
    document.querySelector("#lineage-answer")?.textContent?.includes("never offered"),
  );
  assert.equal(
    await page.locator("#lineage-answer").innerText(),
    "delete_rows is not a tool of this run. It is in the palette of role admin (stage role), but the run never offered it: add it to the turn's offered tools or to the catalogue.",
  );
  await page.close();
});
