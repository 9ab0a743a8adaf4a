/** Appends every item in place: `push(...items)` passes each one as an argument, and past ~120,000 the stack overflows. */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The parts as one buffer of `length` bytes; a single part is returned as it is, not copied. */
export function concatBytes(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
