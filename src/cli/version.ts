/** package.json's version, put in by the build (esbuild.mjs `define`; vitest.config.ts for the tests). */
declare const PALETTE_INSPECTOR_VERSION: string | undefined;

/** The version this CLI was built as. */
export function cliVersion(): string {
  // A bundle made without the define (a test's own build) has none to give.
  return typeof PALETTE_INSPECTOR_VERSION === "string" ? PALETTE_INSPECTOR_VERSION : "unknown";
}
