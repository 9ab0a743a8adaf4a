/** Appends every item in place: `push(...items)` passes each one as an argument, and past ~120,000 the stack overflows. */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** Probes past which the keys must be crafted to collide: the Set's hashing takes over. */
const MAX_PROBES = 64;

/**
 * Whether no string repeats. A Set built only to be counted costs several times more on large
 * lists (its table grows and is copied as it fills); this table is sized once, in a typed array.
 */
export function allDistinct(items: readonly string[]): boolean {
  let size = 16;
  while (size < items.length * 2) size *= 2;
  const mask = size - 1;
  // Each slot holds 1 + the index of the item it holds; 0 is empty.
  const slots = new Int32Array(size);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    let at = hashOf(item) & mask;
    for (let probes = 0; slots[at] !== 0; probes++) {
      if (items[slots[at]! - 1] === item) return false;
      if (probes === MAX_PROBES) return new Set(items).size === items.length;
      at = (at + 1) & mask;
    }
    slots[at] = i + 1;
  }
  return true;
}

/**
 * FNV-1a over UTF-16 units, then mixed so the low bits the table uses depend on every unit.
 * Exported so that a test can craft names that collide.
 */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
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
