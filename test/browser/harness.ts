/** The smallest test registry: the runner imports every *.test.ts, then runs what they registered. */
import type { Browser } from "playwright-core";

export interface BrowserTest {
  readonly name: string;
  readonly run: (browser: Browser) => Promise<void>;
}

export const registered: BrowserTest[] = [];

export function test(name: string, run: (browser: Browser) => Promise<void>): void {
  registered.push({ name, run });
}
