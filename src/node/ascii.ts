import { isAscii } from "node:buffer";

/** Bytes that are all ASCII as a string, checked and copied natively (several times faster than UTF-8 decoding); null when one is not ASCII. */
export function asciiText(bytes: Uint8Array): string | null {
  if (!isAscii(bytes)) return null;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}
