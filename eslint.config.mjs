// Lint: the layer boundaries the compiler cannot see, plus typescript-eslint's recommended rules.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const nodeBuiltins = { group: ["node:*"], message: "this layer may not touch Node APIs" };
const noVscode = { name: "vscode", message: "this layer runs outside VS Code" };

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "out/",
      ".e2e/",
      "reports/",
      "test-results/",
      "node_modules/",
      "test/otel-libs/node_modules/",
      ".stryker-tmp/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      // Escaping control characters is what several modules are for.
      "no-control-regex": "off",
    },
  },
  {
    // A promise nobody awaits loses its rejection: await it, or attach a handler that reports.
    files: ["src/**/*.ts", "webview/**/*.ts", "test/**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: { "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }] },
  },
  {
    // Browser and e2e tests hand functions to the page, which run there.
    files: ["test/browser/**", "test/e2e/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // VS Code renders `[label](command:…)` in notifications and progress titles as a link that runs
    // a command: the extension speaks there only through notify.ts, which neutralises file text.
    files: ["src/**/*.ts", "webview/**/*.ts"],
    ignores: ["src/extension/notify.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["showInformationMessage", "showWarningMessage", "showErrorMessage", "withProgress"].map(
          (property) => ({
            property,
            message: "notifications and progress go only through src/extension/notify.ts",
          }),
        ),
      ],
    },
  },
  {
    // The engine is pure: no VS Code, no Node, nothing from the layers that use it.
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            nodeBuiltins,
            { regex: "^\\.\\./\\.\\./\\.\\.", message: "src/core imports only from src/core" },
            {
              group: [
                "**/extension/**",
                "**/cli/**",
                "**/node/**",
                "**/webview/**",
                "**/*protocol.js",
                "**/protocol-guards.js",
              ],
              message: "src/core imports only from src/core",
            },
          ],
        },
      ],
    },
  },
  {
    // The webview runs in a browser sandbox.
    files: ["webview/**/*.ts"],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            nodeBuiltins,
            {
              group: ["**/extension/**", "**/cli/**", "**/node/**"],
              message: "the webview imports only the protocol and src/core",
            },
          ],
        },
      ],
    },
  },
  {
    // The assistant tools answer for the CLI's MCP server and the extension alike: files only through their port.
    files: ["src/tools/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            nodeBuiltins,
            {
              group: [
                "**/extension/**",
                "**/cli/**",
                "**/webview/**",
                "**/*protocol.js",
                "**/protocol-guards.js",
              ],
              message: "src/tools imports only src/core and src/node",
            },
          ],
        },
      ],
    },
  },
  {
    // The CLI runs in a terminal, without VS Code.
    files: ["src/cli/**/*.ts", "src/node/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            {
              group: ["**/extension/**", "**/webview/**"],
              message: "the CLI does not import the extension",
            },
          ],
        },
      ],
    },
  },
);
