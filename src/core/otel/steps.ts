/** Work done in steps (a generator yielding between them), here run through without a pause. */
export function allSteps<T>(steps: Generator<void, T>): T {
  for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
}
