import type { CatalogReader } from "../core/fixture/load.js";
import { confinedCatalogPath, fixtureBoundary } from "../node/confine.js";
import { readCatalogAt } from "../node/fixture-files.js";

export { displayPath, findFixtures } from "../node/fixture-files.js";

/** Reads a catalogue a fixture names, refusing anything outside the fixture's repository. */
export const readCatalogFile: CatalogReader = async (ref, fixtureFile) =>
  readCatalogAt(
    ref,
    confinedCatalogPath(ref, fixtureFile, fixtureBoundary(fixtureFile, undefined)),
  );
