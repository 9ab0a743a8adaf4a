// Drives real VS Code (code-server 4.100.3) in headless Chromium for the e2e scenarios.
// How and why it is run this way: shared notes `real-vscode-e2e.md`.
import { execFile, spawn, spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import * as fs from "node:fs/promises";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.PI_CHROMIUM ?? "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Quiet, deterministic workbench: no welcome page, tips, update checks or chat teasers.
export const BASE_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.commandCenter.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "git.enabled": false,
  "editor.minimap.enabled": false,
  "window.commandCenter": false,
  // Text typed or inserted by a scenario lands exactly as given: no auto-closed brackets or
  // quotes, no re-indented lines (a multi-line insert otherwise piles up indentation and
  // duplicates closing braces, and the JSON no longer parses).
  // As in desktop VS Code (the web default saves after a delay): an edit stays unsaved until saved.
  "files.autoSave": "off",
  "editor.autoClosingBrackets": "never",
  "editor.autoClosingQuotes": "never",
  "editor.autoClosingOvertype": "never",
  "editor.autoSurround": "never",
  "editor.autoIndent": "none",
  "editor.formatOnType": false,
  "editor.formatOnPaste": false,
  "editor.acceptSuggestionOnEnter": "off",
  "editor.quickSuggestions": { other: false, comments: false, strings: false },
  "editor.suggestOnTriggerCharacters": false,
};

/** A port that was free on 127.0.0.1 a moment ago. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Runs the example agent (examples/otel/agent.mjs of the checkout at `root`) against a receiver on `port`: its three turns. */
export async function runExampleAgent(root, port) {
  await promisify(execFile)(
    process.execPath,
    [
      path.join(root, "examples", "otel", "agent.mjs"),
      "--url",
      `http://127.0.0.1:${port}/v1/traces`,
    ],
    { cwd: root, timeout: 30_000 },
  );
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Rejects with `message` after `ms`; `onTimeout` runs first (e.g. to tear a session down). */
export async function withTimeout(promise, ms, message, onTimeout) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(async () => {
      try {
        await onTimeout?.();
      } catch {
        /* the timeout error is the one to report */
      }
      reject(new Error(message));
    }, ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Makes `dir` a code-server profile-free environment: config and data stay out of $HOME. */
function serverEnv(dir) {
  return {
    ...process.env,
    XDG_CONFIG_HOME: path.join(dir, "xdg-config"),
    XDG_DATA_HOME: path.join(dir, "xdg-data"),
    // No gallery: nothing reachable here, and no background requests to try.
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: "", itemUrl: "", resourceUrlTemplate: "" }),
  };
}

/**
 * Installs a `.vsix` into `extensionsDir` with code-server's own CLI.
 * Throws with the CLI's output when it does not report success.
 */
export function installExtension({ codeServer, vsix, extensionsDir, userDataDir, envDir }) {
  const res = spawnSync(
    codeServer,
    [
      "--user-data-dir",
      userDataDir,
      "--extensions-dir",
      extensionsDir,
      "--install-extension",
      vsix,
      "--force",
    ],
    { env: serverEnv(envDir), encoding: "utf8", timeout: 120_000 },
  );
  const out = `${res.stdout ?? ""}${res.stderr ?? ""}`;
  if (res.status !== 0 || !/successfully installed/i.test(out)) {
    throw new Error(`installing ${vsix} failed (exit ${res.status ?? res.signal}):\n${out}`);
  }
  return out.trim();
}

/**
 * Starts code-server and a headless Chromium on it, and opens `workspace`.
 *
 * options:
 *   codeServer     path of the code-server binary (scripts/setup-code-server.sh prints it)
 *   workspace      folder to open
 *   vsix           extension to install first; leave it out when `extensionsDir` already
 *                  holds it (the runner installs once per run with `installExtension`)
 *   extensionsDir  extensions folder; default: a fresh one in the session's temp dir
 *   settings       user settings merged over BASE_SETTINGS (e.g. workbench.colorTheme)
 *   trust          false = leave workspace trust on (Restricted Mode); default true
 *   logDir         where code-server.log and browser.log go; default: the session's temp dir
 *   viewport       default { width: 1400, height: 900 }
 *   readyTimeoutMs how long to wait for the workbench; default 60 s
 */
export async function startSession(options) {
  const {
    codeServer,
    workspace,
    vsix,
    settings = {},
    trust = true,
    viewport = { width: 1400, height: 900 },
    readyTimeoutMs = 60_000,
  } = options;
  if (!codeServer) throw new Error("startSession: codeServer is required");
  if (!workspace) throw new Error("startSession: workspace is required");

  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "pi-e2e-"));
  const userDataDir = path.join(tmp, "user-data");
  const extensionsDir = options.extensionsDir ?? path.join(tmp, "extensions");
  const logDir = options.logDir ?? tmp;
  await fs.mkdir(path.join(userDataDir, "User"), { recursive: true });
  await fs.mkdir(extensionsDir, { recursive: true });
  await fs.mkdir(logDir, { recursive: true });
  const settingsFile = path.join(userDataDir, "User", "settings.json");
  await fs.writeFile(settingsFile, JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2));

  const session = {
    tmp,
    userDataDir,
    extensionsDir,
    logDir,
    workspace,
    settingsFile,
    serverLog: path.join(logDir, "code-server.log"),
    browserLog: path.join(logDir, "browser.log"),
    server: undefined,
    browser: undefined,
    page: undefined,
    port: undefined,
    url: undefined,
  };
  const serverLogStream = createWriteStream(session.serverLog, { flags: "a" });
  const browserLogStream = createWriteStream(session.browserLog, { flags: "a" });

  let closed = false;
  const killServer = (signal) => {
    const pid = session.server?.pid;
    if (!pid || session.server.exitCode !== null || session.server.signalCode !== null) return;
    // Its own process group: the server and the extension host / pty children it started.
    try {
      process.kill(-pid, signal);
    } catch {
      try {
        process.kill(pid, signal);
      } catch {
        /* gone */
      }
    }
  };
  const onExit = () => killServer("SIGKILL");
  process.on("exit", onExit);

  session.close = async () => {
    if (closed) return;
    closed = true;
    try {
      await session.browser?.close();
    } catch {
      /* already gone */
    }
    const srv = session.server;
    if (srv && srv.exitCode === null && srv.signalCode === null) {
      const exited = new Promise((r) => srv.once("exit", r));
      killServer("SIGTERM");
      const done = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
      if (!done) {
        killServer("SIGKILL");
        await Promise.race([exited, sleep(2_000)]);
      }
    }
    process.off("exit", onExit);
    await new Promise((r) => serverLogStream.end(r));
    await new Promise((r) => browserLogStream.end(r));
    if (!process.env.PI_E2E_KEEP_TMP)
      await fs.rm(tmp, { recursive: true, force: true }).catch(() => {});
  };

  try {
    if (vsix) {
      serverLogStream.write(
        installExtension({ codeServer, vsix, extensionsDir, userDataDir, envDir: tmp }) + "\n",
      );
    }

    session.port = await freePort();
    const args = [
      "--auth",
      "none",
      "--bind-addr",
      `127.0.0.1:${session.port}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--config",
      path.join(tmp, "config.yaml"),
      "--user-data-dir",
      userDataDir,
      "--extensions-dir",
      extensionsDir,
    ];
    if (trust) args.push("--disable-workspace-trust");
    args.push(workspace);
    serverLogStream.write(`$ ${codeServer} ${args.join(" ")}\n`);
    session.server = spawn(codeServer, args, {
      env: serverEnv(tmp),
      detached: true, // own process group, so close() can stop it and its children by its pid
      stdio: ["ignore", "pipe", "pipe"],
    });
    session.server.stdout.pipe(serverLogStream, { end: false });
    session.server.stderr.pipe(serverLogStream, { end: false });
    const serverExited = new Promise((_, reject) =>
      session.server.once("exit", (code, sig) =>
        reject(new Error(`code-server exited early (${code ?? sig}); log: ${session.serverLog}`)),
      ),
    );
    serverExited.catch(() => {});

    session.url = `http://127.0.0.1:${session.port}`;
    await Promise.race([waitForHttp(`${session.url}/healthz`, 30_000), serverExited]);

    session.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const context = await session.browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    session.page = page;
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning")
        browserLogStream.write(`[${m.type()}] ${m.text()}\n`);
    });
    page.on("pageerror", (e) => browserLogStream.write(`[pageerror] ${e.stack ?? e}\n`));

    await page.goto(`${session.url}/?folder=${encodeURIComponent(workspace)}`, {
      timeout: readyTimeoutMs,
    });
    await page.waitForSelector(".monaco-workbench", { timeout: readyTimeoutMs });
    // The folder is loaded once the explorer shows it; extensions may still be starting.
    await page.waitForSelector(
      ".explorer-folders-view .monaco-list-row, .explorer-folders-view .monaco-list",
      { timeout: readyTimeoutMs },
    );
  } catch (err) {
    await session.close();
    throw err;
  }

  Object.assign(session, helpers(session));
  return session;
}

async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = e.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`);
}

function helpers(session) {
  const page = session.page;
  const quickInput = ".quick-input-widget";
  const quickInputBox = `${quickInput} .quick-input-box input`;

  const exactly = (text) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);

  /** A quick-input row whose label is `label` and, when given, whose description contains `description`. */
  function quickRow(label, description) {
    let row = page.locator(`${quickInput} .monaco-list-row`).filter({
      has: page.locator(".label-name", { hasText: exactly(label) }),
    });
    if (description)
      row = row.filter({ has: page.locator(".label-description", { hasText: description }) });
    return row.first();
  }

  /**
   * Opens the quick input with `keys`, types `text`, picks the row `quickRow(label, description)`,
   * and waits for the quick input to close, unless `opensAnother` (the pick opens a picker of its own).
   */
  async function quickPick(keys, text, label, timeout, description, opensAnother = false) {
    await page.keyboard.press("Escape");
    await page.keyboard.press(keys);
    const input = page.locator(quickInputBox);
    await input.waitFor({ state: "visible", timeout });
    await input.fill(text);
    const row = quickRow(label, description);
    await row.waitFor({ state: "visible", timeout });
    await row.click();
    if (opensAnother) return;
    await page
      .locator(quickInput)
      .waitFor({ state: "hidden", timeout })
      .catch(() => {});
  }

  /** Runs a command by its title from the command palette (F1). */
  async function runCommand(title, { timeout = 15_000 } = {}) {
    await quickPick("F1", `>${title}`, title, timeout);
  }

  return {
    runCommand,

    /**
     * Clicks an entry of a context menu that has just opened. The menu ignores a click that comes
     * as it opens (the right button's release), so the click is repeated until the menu is gone;
     * a menu that is closing is not clicked again.
     */
    async clickMenuItem(item, what) {
      for (let attempt = 0; attempt < 5; attempt++) {
        await item.click({ timeout: 5_000 }).catch(() => {});
        const closed = await item.waitFor({ state: "hidden", timeout: 2_000 }).then(
          () => true,
          () => false,
        );
        if (closed) return;
      }
      throw new Error(`${what}: the menu ignored every click`);
    },

    /**
     * True when the command palette lists `title` within `timeout` (contributed commands show
     * before activation). An open palette keeps the commands it knew when it opened, and an
     * extension's join once the extension host has registered it, seconds after the workbench
     * shows on a busy machine: so the palette is opened again until the deadline.
     */
    async hasCommand(title, { timeout = 10_000 } = {}) {
      const deadline = Date.now() + timeout;
      for (;;) {
        await page.keyboard.press("Escape");
        await page.keyboard.press("F1");
        const input = page.locator(quickInputBox);
        await input.waitFor({ state: "visible", timeout });
        await input.fill(`>${title}`);
        const found = await quickRow(title)
          .waitFor({
            state: "visible",
            timeout: Math.max(1, Math.min(deadline - Date.now(), 2_000)),
          })
          .then(
            () => true,
            () => false,
          );
        await page.keyboard.press("Escape");
        if (found || Date.now() >= deadline) return found;
      }
    },

    /** Opens a workspace file by its path relative to the workspace (quick open, Ctrl+P). */
    async openFile(relativePath, { timeout = 15_000 } = {}) {
      const base = path.basename(relativePath);
      const dir = path.dirname(relativePath);
      // Quick open shows a file's folder as its description: "workspace-0/logs" for logs/x.
      await quickPick("Control+P", relativePath, base, timeout, dir === "." ? undefined : dir);
      await page
        .locator(`.tabs-container .tab.active[aria-label^="${base}"]`)
        .waitFor({ state: "visible", timeout });
      await page
        .locator(".editor-group-container.active .monaco-editor .view-lines")
        .first()
        .waitFor({ state: "visible", timeout });
    },

    /**
     * The frame holding `selector`. Webviews sit two iframes deep and appear late,
     * so every frame of the page is searched until the deadline.
     */
    async findWebviewFrame(selector, timeout = 30_000) {
      const deadline = Date.now() + timeout;
      while (Date.now() < deadline) {
        for (const frame of page.frames()) {
          if (frame === page.mainFrame()) continue;
          try {
            if (await frame.$(selector)) return frame;
          } catch {
            /* frame navigated or detached meanwhile */
          }
        }
        await sleep(250);
      }
      throw new Error(`no frame holds ${selector} after ${timeout} ms`);
    },

    /** A PNG of the whole window. */
    async screenshot(file) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      return file;
    },

    /**
     * Types into the active text editor at its cursor, or first moves to `at: 'start' | 'end'`.
     * `raw: true` sends key presses one by one (so auto-closing of brackets and quotes applies).
     */
    async typeInEditor(text, { at, raw = false } = {}) {
      await focusEditor(page);
      if (at === "start") await page.keyboard.press("Control+Home");
      if (at === "end") await page.keyboard.press("Control+End");
      if (raw) await page.keyboard.type(text);
      else await page.keyboard.insertText(text);
    },

    /** Replaces the whole text of the active editor (unsaved, like a user's edit). */
    async replaceEditorText(text) {
      await focusEditor(page);
      await page.keyboard.press("Control+A");
      await page.keyboard.insertText(text);
    },

    /** The rendered text of the active editor (its visible lines), with plain spaces. */
    async editorText() {
      const lines = page
        .locator(".editor-group-container.active .monaco-editor .view-lines")
        .first();
      return (await lines.innerText()).replace(/\u00a0/g, " ");
    },

    /** Saves the active editor. */
    async saveEditor() {
      await focusEditor(page);
      await page.keyboard.press("Control+S");
    },

    /**
     * Switches the colour theme as a user would (Preferences: Color Theme), e.g.
     * "Default Light Modern". Rewriting settings.json at run time is not picked up here.
     */
    async setColorTheme(label, { timeout = 15_000 } = {}) {
      const before = await page.locator(".monaco-workbench").getAttribute("class");
      // The command's own picker replaces the palette: waiting for the palette to close would
      // wait out the whole timeout.
      await quickPick(
        "F1",
        ">Preferences: Color Theme",
        "Preferences: Color Theme",
        timeout,
        undefined,
        true,
      );
      await page.waitForFunction(
        (selector) => /Color Theme/.test(document.querySelector(selector)?.placeholder ?? ""),
        quickInputBox,
        { timeout },
      );
      const input = page.locator(quickInputBox);
      await input.fill(label);
      // 1.100 lists "Default Light Modern" as label "Light Modern" plus that description.
      const row = page.locator(`${quickInput} .monaco-list-row`).filter({ hasText: label }).first();
      await row.waitFor({ state: "visible", timeout });
      await row.click();
      await page.locator(quickInput).waitFor({ state: "hidden", timeout });
      // Light/dark/high-contrast kinds are classes of the workbench; same-kind switches have no signal.
      await page
        .waitForFunction(
          (b) => document.querySelector(".monaco-workbench")?.getAttribute("class") !== b,
          before,
          { timeout: 3_000 },
        )
        .catch(() => {});
      await sleep(500); // webviews restyle from the new --vscode-* variables a moment later
    },

    /** Texts of the visible notification toasts. */
    async notifications() {
      return page.locator(".notifications-toasts .notification-list-item-message").allInnerTexts();
    },
  };
}

// Focuses the active editor without moving its cursor (a click would).
async function focusEditor(page) {
  const group = ".editor-group-container.active .monaco-editor";
  await page.locator(`${group} .view-lines`).first().waitFor({ state: "visible", timeout: 10_000 });
  await page.locator(`${group} textarea.inputarea, ${group} .native-edit-context`).first().focus();
}
