import packageJson from "../../package.json";

/** The package's version, bundled in at build time from package.json. */
export const VERSION: string = packageJson.version;
