// A named import: the bundle takes in the one field, not the whole manifest.
import { version } from "../../package.json";

/** The package's version, bundled in at build time from package.json. */
export const VERSION: string = version;
