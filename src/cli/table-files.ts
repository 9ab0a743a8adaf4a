/**
 * Table files that stream: rows are written as they come, a Parquet row group or a JSON-lines
 * buffer at a time, so memory stays flat however many traces a log holds.
 */
import { closeSync, writeSync } from "node:fs";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { safeJsonText } from "../core/words.js";
import type { Column, Row } from "../core/traces/tables.js";

export type TableFormat = "parquet" | "jsonl";

export interface TableFile {
  add(row: Row): void;
  /** Writes what is buffered and the file's end; the file is complete only after it. */
  close(): void;
}

/** Rows per Parquet row group: big enough for a warehouse to read well, small enough to hold. */
const ROW_GROUP_ROWS = 64 * 1024;
/** Text per row group, counted in characters: long details end a group before its rows do. */
export const ROW_GROUP_CHARS = 16 * 1024 * 1024;
/** Bytes of JSON lines gathered before one write. */
const JSONL_BUFFER = 1024 * 1024;

/** A table written to `fd`, a new file the caller created; closing the table closes it. */
export function openTableFile(
  fd: number,
  columns: readonly Column[],
  format: TableFormat,
): TableFile {
  return format === "parquet" ? new ParquetTable(fd, columns) : new JsonlTable(fd, columns);
}

class JsonlTable implements TableFile {
  private pending: string[] = [];
  private size = 0;
  /** `{"name":`, `,"name":`, …: a line is joined from them and the values, without an object per row. */
  private readonly keys: readonly string[];

  constructor(
    private readonly fd: number,
    columns: readonly Column[],
  ) {
    this.keys = columns.map((column, c) => `${c === 0 ? "{" : ","}${JSON.stringify(column.name)}:`);
  }

  add(row: Row): void {
    let line = "";
    for (let c = 0; c < row.length; c++) line += this.keys[c]! + JSON.stringify(row[c]);
    line += "}\n";
    this.pending.push(line);
    this.size += line.length;
    if (this.size >= JSONL_BUFFER) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    // Escaped as `--json` output is, so that a line of the file is safe to print in a terminal.
    writeSync(this.fd, safeJsonText(this.pending.join("")));
    this.pending = [];
    this.size = 0;
  }
}

type ParquetSchema = ConstructorParameters<typeof ParquetWriter>[0]["schema"];

function parquetSchema(columns: readonly Column[]): ParquetSchema {
  const schema: ParquetSchema = [{ name: "root", num_children: columns.length }];
  for (const { name, type, nullable } of columns) {
    const repetition_type = nullable ? "OPTIONAL" : "REQUIRED";
    if (type === "strings")
      schema.push(
        { name, repetition_type, converted_type: "LIST", num_children: 1 },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        {
          name: "element",
          type: "BYTE_ARRAY",
          converted_type: "UTF8",
          repetition_type: "REQUIRED",
        },
      );
    else if (type === "string")
      schema.push({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type });
    else
      schema.push({
        name,
        type: type === "boolean" ? "BOOLEAN" : type === "int32" ? "INT32" : "INT64",
        repetition_type,
      });
  }
  return schema;
}

/** The writer answers with a promise only when its byte writer's flush does; ours writes at once. */
function synchronous(result: void | Promise<void>): void {
  if (result !== undefined) throw new Error("the Parquet writer went asynchronous");
}

class ParquetTable implements TableFile {
  private readonly writer: ParquetWriter;
  private readonly data: unknown[][];
  private chars = 0;

  constructor(
    private readonly fd: number,
    private readonly columns: readonly Column[],
  ) {
    const bytes = new ByteWriter();
    // Each row group goes to the file as soon as it is encoded; the writer keeps only its metadata.
    const flush = () => {
      writeSync(fd, new Uint8Array(bytes.buffer, 0, bytes.index));
      bytes.index = 0;
    };
    Object.assign(bytes, { flush, finish: flush });
    this.writer = new ParquetWriter({
      writer: bytes,
      schema: parquetSchema(columns),
      createdBy: "palette-inspector",
    });
    this.data = columns.map(() => []);
  }

  add(row: Row): void {
    for (let c = 0; c < row.length; c++) {
      const value = row[c];
      this.data[c]!.push(value);
      if (typeof value === "string") this.chars += value.length;
      else if (Array.isArray(value)) for (const item of value) this.chars += item.length;
    }
    if (this.data[0]!.length >= ROW_GROUP_ROWS || this.chars >= ROW_GROUP_CHARS) this.flush();
  }

  close(): void {
    this.flush();
    synchronous(this.writer.finish());
    closeSync(this.fd);
  }

  private flush(): void {
    const rows = this.data[0]!.length;
    if (rows === 0) return;
    synchronous(
      this.writer.write({
        columnData: this.columns.map(({ name, type }, c) => ({
          name,
          data:
            type === "int64" ? BigInt64Array.from(this.data[c] as number[], BigInt) : this.data[c]!,
          // Bounds of numbers let a reader skip row groups; those of text cost more than they save.
          statistics: type !== "string" && type !== "strings",
        })),
        rowGroupSize: rows,
      }),
    );
    for (const values of this.data) values.length = 0;
    this.chars = 0;
  }
}
