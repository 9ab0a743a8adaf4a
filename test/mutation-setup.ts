// Loaded only by vitest.mutation.config.mts: Stryker needs to know that a property failed, not its
// smallest counterexample, and shrinking one can take longer than the whole run.
import fc from "fast-check";

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true });
