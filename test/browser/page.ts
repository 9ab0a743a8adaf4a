/**
 * Loads the real panel page (the host's HTML, CSP included, with dist/webview.js) into headless
 * Chromium, with a fake `acquireVsCodeApi` that records what the webview posts.
 */
import { mkdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { panelHtml } from "../../src/extension/panel/html.js";
import type { FromWebview, ToWebview } from "../../src/protocol.js";
import type { ToStatsView } from "../../src/stats-protocol.js";

export const ORIGIN = "https://webview.test";
/** The repository root: the runner and the benchmark run from it (npm scripts do). */
const ROOT = process.cwd();
/** Where screenshots go: git-ignored test results, unless `npm run screenshots` names docs/screenshots. */
export const SCREENSHOTS_DIR = process.env.PI_SCREENSHOTS_DIR ?? "test-results/screenshots";

/** Writes the page's PNG (the full page, or what the viewport shows) to SCREENSHOTS_DIR, once its fonts are loaded. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.evaluate("document.fonts.ready");
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, name), fullPage });
}

/** Opens the what-if levers from the toolbar, as a user would. */
export async function openWhatIf(page: Page): Promise<void> {
  await page.locator('.toolbar [data-action="whatif"]').click();
  await page.locator("#whatif").waitFor();
}

/** With the levers open, Copy as Markdown pressed and refused by the host: what the status line says then. */
export async function refusedWhatIfCopy(page: Page): Promise<void> {
  await openWhatIf(page);
  await page.locator('[data-action="copy"]').click();
  const request = await waitForPosted(page, "copyMarkdown");
  await send(page, {
    type: "reply",
    requestId: request.requestId,
    ok: false,
    message: "The what-if has no run to copy.",
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** `--vscode-*` values of VS Code's default themes (one per theme kind), for the test page. */
export const THEMES: Record<string, Record<string, string>> = {
  dark: {
    foreground: "#cccccc",
    "widget-shadow": "#0000005c",
    "editor-background": "#1f1f1f",
    descriptionForeground: "#9d9d9d",
    focusBorder: "#0078d4",
    "badge-background": "#616161",
    "badge-foreground": "#f8f8f8",
    errorForeground: "#f85149",
    "editorWarning-foreground": "#cca700",
    "inputValidation-errorBackground": "#5a1d1d",
    "inputValidation-errorBorder": "#be1100",
    "input-background": "#313131",
    "input-border": "#3c3c3c",
    "input-foreground": "#cccccc",
    "input-placeholderForeground": "#989898",
    "textLink-foreground": "#4daafc",
    "textBlockQuote-background": "#2b2b2b",
    "panel-border": "#2b2b2b",
    "widget-border": "#313131",
    "editorWidget-background": "#202020",
    "charts-blue": "#3794ff",
    "charts-purple": "#b180d7",
    "charts-green": "#89d185",
    "progressBar-background": "#0078d4",
    "list-hoverBackground": "#2a2d2e",
    "editor-findMatchHighlightBackground": "#623315",
    "editor-findMatchBorder": "#9e6a03",
    disabledForeground: "#6e7681",
    "textCodeBlock-background": "#2b2b2b",
    "textPreformat-foreground": "#d7ba7d",
    "textPreformat-background": "#ffffff1a",
    "button-background": "#0078d4",
    "button-foreground": "#ffffff",
    "button-hoverBackground": "#026ec1",
    "button-secondaryBackground": "#313131",
    "button-secondaryForeground": "#cccccc",
    "button-secondaryHoverBackground": "#3c3c3c",
    "button-border": "#ffffff12",
    "checkbox-background": "#313131",
    "checkbox-border": "#3c3c3c",
    "checkbox-foreground": "#cccccc",
    "dropdown-background": "#313131",
    "dropdown-border": "#3c3c3c",
    "dropdown-foreground": "#cccccc",
    "dropdown-listBackground": "#1f1f1f",
    "list-activeSelectionBackground": "#04395e",
    "list-activeSelectionForeground": "#ffffff",
    "settings-textInputBackground": "#313131",
    "font-family": "sans-serif",
    "font-size": "13px",
    "editor-font-family": "monospace",
  },
  light: {
    "widget-shadow": "#00000029",
    foreground: "#3b3b3b",
    "editor-background": "#ffffff",
    descriptionForeground: "#717171",
    focusBorder: "#005fb8",
    "badge-background": "#cccccc",
    "badge-foreground": "#3b3b3b",
    errorForeground: "#e51400",
    "editorWarning-foreground": "#bf8803",
    "inputValidation-errorBackground": "#f2dede",
    "inputValidation-errorBorder": "#be1100",
    "input-background": "#ffffff",
    "input-border": "#cecece",
    "input-foreground": "#3b3b3b",
    "input-placeholderForeground": "#767676",
    "textLink-foreground": "#005fb8",
    "textBlockQuote-background": "#f8f8f8",
    "panel-border": "#e5e5e5",
    "widget-border": "#e5e5e5",
    "editorWidget-background": "#f8f8f8",
    "charts-blue": "#1a85ff",
    "charts-purple": "#652d90",
    "charts-green": "#388a34",
    "progressBar-background": "#005fb8",
    "list-hoverBackground": "#f2f2f2",
    "editor-findMatchHighlightBackground": "#ea5c0055",
    "editor-findMatchBorder": "#b45600",
    disabledForeground: "#8a8a8a",
    "textCodeBlock-background": "#f0f0f0",
    "textPreformat-foreground": "#a31515",
    "textPreformat-background": "#0000001a",
    "button-background": "#005fb8",
    "button-foreground": "#ffffff",
    "button-hoverBackground": "#0258a8",
    "button-secondaryBackground": "#e5e5e5",
    "button-secondaryForeground": "#3b3b3b",
    "button-secondaryHoverBackground": "#cccccc",
    "button-border": "#0000001a",
    "checkbox-background": "#f8f8f8",
    "checkbox-border": "#cecece",
    "checkbox-foreground": "#3b3b3b",
    "dropdown-background": "#ffffff",
    "dropdown-border": "#cecece",
    "dropdown-foreground": "#3b3b3b",
    "dropdown-listBackground": "#ffffff",
    "list-activeSelectionBackground": "#e8e8e8",
    "list-activeSelectionForeground": "#000000",
    "settings-textInputBackground": "#ffffff",
    "font-family": "sans-serif",
    "font-size": "13px",
    "editor-font-family": "monospace",
  },
  "high-contrast": {
    foreground: "#ffffff",
    "editor-background": "#000000",
    descriptionForeground: "#ffffffb3",
    focusBorder: "#f38518",
    contrastBorder: "#6fc3df",
    "badge-background": "#000000",
    "badge-foreground": "#ffffff",
    errorForeground: "#f48771",
    "editorWarning-foreground": "#ffd370",
    "inputValidation-errorBackground": "#000000",
    "inputValidation-errorBorder": "#f48771",
    "input-background": "#000000",
    "input-border": "#6fc3df",
    "input-foreground": "#ffffff",
    "input-placeholderForeground": "#ffffffb3",
    "textLink-foreground": "#21a6ff",
    "textBlockQuote-background": "#000000",
    "panel-border": "#6fc3df",
    "widget-border": "#6fc3df",
    "editorWidget-background": "#0c141f",
    "charts-blue": "#3794ff",
    "charts-purple": "#b180d7",
    "charts-green": "#89d185",
    "progressBar-background": "#6fc3df",
    "list-hoverBackground": "#000000",
    "editor-findMatchHighlightBackground": "#000000",
    "editor-findMatchBorder": "#f38518",
    "editor-findMatchHighlightBorder": "#f38518",
    disabledForeground: "#a5a5a5",
    "textCodeBlock-background": "#000000",
    "textPreformat-foreground": "#000000",
    "textPreformat-background": "#ffffff",
    "button-background": "#000000",
    "button-foreground": "#ffffff",
    "button-hoverBackground": "#000000",
    "button-secondaryBackground": "#000000",
    "button-secondaryForeground": "#ffffff",
    "button-secondaryHoverBackground": "#000000",
    "button-border": "#6fc3df",
    "checkbox-background": "#000000",
    "checkbox-border": "#6fc3df",
    "checkbox-foreground": "#ffffff",
    "dropdown-background": "#000000",
    "dropdown-border": "#6fc3df",
    "dropdown-foreground": "#ffffff",
    "dropdown-listBackground": "#000000",
    "list-activeSelectionBackground": "#000000",
    "list-activeSelectionForeground": "#ffffff",
    "settings-textInputBackground": "#000000",
    "font-family": "sans-serif",
    "font-size": "13px",
    "editor-font-family": "monospace",
  },
  "high-contrast-light": {
    foreground: "#292929",
    "editor-background": "#ffffff",
    descriptionForeground: "#292929b3",
    focusBorder: "#006bbd",
    contrastBorder: "#0f4a85",
    "badge-background": "#0f4a85",
    "badge-foreground": "#ffffff",
    errorForeground: "#b5200d",
    "editorWarning-foreground": "#895503",
    "inputValidation-errorBackground": "#ffffff",
    "inputValidation-errorBorder": "#b5200d",
    "input-background": "#ffffff",
    "input-border": "#0f4a85",
    "input-foreground": "#292929",
    "input-placeholderForeground": "#292929b3",
    "textLink-foreground": "#0f4a85",
    "textBlockQuote-background": "#f2f2f2",
    "panel-border": "#0f4a85",
    "widget-border": "#0f4a85",
    "editorWidget-background": "#ffffff",
    "charts-blue": "#0f4a85",
    "charts-purple": "#652d90",
    "charts-green": "#374e06",
    "progressBar-background": "#0f4a85",
    "list-hoverBackground": "#ffffff",
    "editor-findMatchHighlightBorder": "#0f4a85",
    "editor-findMatchBorder": "#0f4a85",
    disabledForeground: "#7f7f7f",
    "textCodeBlock-background": "#f2f2f2",
    "textPreformat-foreground": "#ffffff",
    "textPreformat-background": "#09345f",
    "button-background": "#0f4a85",
    "button-foreground": "#ffffff",
    "button-hoverBackground": "#0f4a85",
    "button-secondaryBackground": "#ffffff",
    "button-secondaryForeground": "#292929",
    "button-secondaryHoverBackground": "#ffffff",
    "button-border": "#0f4a85",
    "checkbox-background": "#ffffff",
    "checkbox-border": "#0f4a85",
    "checkbox-foreground": "#292929",
    "dropdown-background": "#ffffff",
    "dropdown-border": "#0f4a85",
    "dropdown-foreground": "#292929",
    "dropdown-listBackground": "#ffffff",
    "list-activeSelectionBackground": "#0f4a851a",
    "list-activeSelectionForeground": "#292929",
    "settings-textInputBackground": "#ffffff",
    "font-family": "sans-serif",
    "font-size": "13px",
    "editor-font-family": "monospace",
  },
};

/** The `body` class VS Code sets for each theme kind. */
const THEME_CLASS: Record<string, string> = {
  dark: "vscode-dark",
  light: "vscode-light",
  "high-contrast": "vscode-high-contrast",
  "high-contrast-light": "vscode-high-contrast vscode-high-contrast-light",
};

/**
 * The styles VS Code puts first in every webview (before the extension's own): a panel style that
 * sets only one of a pair (a background but not the colour) meets these in a real window.
 */
const VSCODE_DEFAULT_STYLES = `
body { background-color: transparent; color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); margin: 0; padding: 0 20px; }
a, a code { color: var(--vscode-textLink-foreground); }
code { font-family: var(--vscode-editor-font-family); color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
`;

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".ttf": "font/ttf",
  ".map": "application/json",
};

export interface OpenOptions {
  readonly theme?: keyof typeof THEMES;
  /** Serve the page without its CSP, to show that text-only rendering (not just the CSP) stops markup. */
  readonly withoutCsp?: boolean;
  readonly state?: unknown;
  readonly width?: number;
  readonly height?: number;
  /** Another page than the trace panel (the Palette Statistics view): its script, style and title. */
  readonly entry?: { readonly script: string; readonly style: string; readonly title: string };
  /** Give the page Playwright's fake clock, so a test can move its timers on (`page.clock`). */
  readonly fakeClock?: boolean;
}

/** What the init script puts on `window` for the test to read. */
export interface PageGlobals {
  __posted: FromWebview[];
  __state: unknown;
  __violations: string[];
  __pwned: number;
  __errors: string[];
}

export async function openPanel(browser: Browser, options: OpenOptions = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1100, height: options.height ?? 800 },
  });
  const theme = THEMES[options.theme ?? "dark"]!;
  const themeCss = `html { ${Object.entries(theme)
    .map(([name, value]) => `--vscode-${name}: ${value};`)
    .join(" ")} }`;
  const entry = options.entry ?? {
    script: "dist/webview.js",
    style: "media/panel.css",
    title: "Selection Trace",
  };
  let html = panelHtml({
    cspSource: ORIGIN,
    script: `${ORIGIN}/${entry.script}`,
    style: `${ORIGIN}/${entry.style}`,
    codicons: `${ORIGIN}/dist/codicons/codicon.css`,
    title: entry.title,
  });
  html = html
    .replace("<head>", `<head>\n<link rel="stylesheet" href="${ORIGIN}/vscode-defaults.css">`)
    .replace("</head>", `<link rel="stylesheet" href="${ORIGIN}/theme.css">\n</head>`)
    .replace("<body>", `<body class="${THEME_CLASS[options.theme ?? "dark"]}">`);
  if (options.withoutCsp)
    html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "");
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/index.html") return route.fulfill({ contentType: "text/html", body: html });
    if (path === "/theme.css") return route.fulfill({ contentType: "text/css", body: themeCss });
    if (path === "/vscode-defaults.css")
      return route.fulfill({ contentType: "text/css", body: VSCODE_DEFAULT_STYLES });
    if (!/^\/(dist|media)\//.test(path)) return route.fulfill({ status: 404, body: "" });
    try {
      return route.fulfill({
        contentType: TYPES[extname(path)] ?? "application/octet-stream",
        body: await readFile(join(ROOT, path)),
      });
    } catch {
      return route.fulfill({ status: 404, body: "" });
    }
  });
  await page.addInitScript((state) => {
    const w = globalThis as unknown as PageGlobals & {
      acquireVsCodeApi(): unknown;
      addEventListener: (
        type: string,
        listener: (event: {
          violatedDirective: string;
          blockedURI: string;
          sourceFile: string;
          lineNumber: number;
        }) => void,
      ) => void;
    };
    w.__posted = [];
    w.__state = state;
    w.__violations = [];
    w.__pwned = 0;
    w.__errors = [];
    w.acquireVsCodeApi = () => ({
      postMessage: (message: FromWebview) =>
        w.__posted.push(JSON.parse(JSON.stringify(message)) as FromWebview),
      getState: () => w.__state,
      setState: (next: unknown) => (w.__state = next),
    });
    w.addEventListener("securitypolicyviolation", (event) =>
      w.__violations.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
      ),
    );
  }, options.state ?? null);
  page.on(
    "pageerror",
    (error) =>
      void page
        .evaluate(
          (text) => (globalThis as unknown as PageGlobals).__errors.push(text),
          String(error),
        )
        .catch(() => undefined),
  );
  if (options.fakeClock) await page.clock.install();
  await page.goto(`${ORIGIN}/index.html`);
  await waitForPosted(page, "ready");
  return page;
}

/** Posts a host message into the page, as VS Code delivers one (either view's protocol). */
export async function send(page: Page, message: ToWebview | ToStatsView): Promise<void> {
  await page.evaluate(
    (m) =>
      (
        globalThis as unknown as { postMessage(message: unknown, target: string): void }
      ).postMessage(m, "*"),
    message,
  );
}

export async function posted(page: Page): Promise<FromWebview[]> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
}

/** Waits for the webview to post a message of this type, and returns the newest one. */
export async function waitForPosted<T extends FromWebview["type"]>(
  page: Page,
  type: T,
  after = 0,
): Promise<Extract<FromWebview, { type: T }>> {
  return (await waitForMessage(page, type, after)) as Extract<FromWebview, { type: T }>;
}

/** The newest message of this type the page posted after its first `after`, once there is one. */
export async function waitForMessage(page: Page, type: string, after: number): Promise<unknown> {
  const handle = await page.waitForFunction(
    ([t, n]) =>
      (globalThis as unknown as PageGlobals).__posted
        .slice(n as number)
        .reverse()
        .find((m) => (m as { type: string }).type === t) ?? false,
    [type, after] as const,
    { timeout: 5000 },
  );
  return handle.jsonValue();
}

/**
 * Milliseconds from posting `show` until the waterfall is in the DOM and a frame has been
 * painted: what a user waits for the first screen.
 */
export async function timeFirstScreen(page: Page, message: ToWebview): Promise<number> {
  return timeUntilPainted(page, message, ".waterfall .stage-row");
}

/** Milliseconds from posting `message` until `selector` matches and a frame has been painted. */
export async function timeUntilPainted(
  page: Page,
  message: ToWebview | ToStatsView,
  selector: string,
): Promise<number> {
  return page.evaluate(
    ([m, sel]) => {
      const w = globalThis as unknown as {
        postMessage(message: unknown, target: string): void;
        requestAnimationFrame(callback: () => void): void;
        document: { querySelector(selector: string): unknown };
      };
      return new Promise<number>((resolve) => {
        const started = performance.now();
        w.postMessage(m, "*");
        const poll = () => {
          if (w.document.querySelector(sel))
            w.requestAnimationFrame(() =>
              w.requestAnimationFrame(() => resolve(performance.now() - started)),
            );
          else setTimeout(poll, 0);
        };
        setTimeout(poll, 0);
      });
    },
    [message, selector] as const,
  );
}
