/** Hostile OTLP bodies built byte by byte, for the receiver's bounds and their measurement. */

function varint(value: number): Buffer {
  const bytes: number[] = [];
  for (; value > 0x7f; value = Math.floor(value / 128)) bytes.push((value & 0x7f) | 0x80);
  bytes.push(value);
  return Buffer.from(bytes);
}

/** A length-delimited field `field` holding `body`. */
function field(field: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(field << 3) | 2]), varint(body.length), body]);
}

/** An ExportTraceServiceRequest of one resource, one scope and `count` empty spans (2 bytes each). */
export function emptySpansProto(count: number): Buffer {
  const spans = Buffer.alloc(count * 2);
  for (let i = 0; i < spans.length; i += 2) spans[i] = (2 << 3) | 2;
  return field(1, field(2, spans));
}
