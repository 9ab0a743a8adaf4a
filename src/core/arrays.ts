/** Appends every item in place: `push(...items)` passes each one as an argument, and past ~120,000 the stack overflows. */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
