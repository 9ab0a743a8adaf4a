/**
 * Table files that stream: rows are written as they come, a Parquet row group or a JSON-lines
 * buffer at a time, so memory stays flat however many traces a log holds.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { safeJson } from "../core/render/table.js";
import type { Column, Row } from "../core/traces/tables.js";

export type TableFormat = "parquet" | "jsonl";

export interface TableFile {
  add(row: Row): void;
  /** Writes what is buffered and the file's end; the file is complete only after it. */
  close(): void;
}

/** Rows per Parquet row group: big enough for a warehouse to read well, small enough to hold. */
const ROW_GROUP_ROWS = 64 * 1024;
/** Bytes of JSON lines gathered before one write. */
const JSONL_BUFFER = 1024 * 1024;

export function openTableFile(path: string, columns: readonly Column[], format: TableFormat) {
  return format === "parquet" ? new ParquetTable(path, columns) : new JsonlTable(path);
}

class JsonlTable implements TableFile {
  private readonly fd: number;
  private pending: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.fd = openSync(path, "w");
  }

  add(row: Row): void {
    // Escaped as `--json` output is: a line of the file is safe to print in a terminal.
    const line = safeJson(row) + "\n";
    this.pending.push(line);
    this.size += line.length;
    if (this.size >= JSONL_BUFFER) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    writeSync(this.fd, this.pending.join(""));
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

class ParquetTable implements TableFile {
  private readonly fd: number;
  private readonly writer: ParquetWriter;
  private readonly data: unknown[][];

  constructor(
    path: string,
    private readonly columns: readonly Column[],
  ) {
    const fd = (this.fd = openSync(path, "w"));
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
    this.columns.forEach((column, c) => {
      const value = row[column.name] ?? null;
      this.data[c]!.push(
        column.type === "int64" && value !== null ? BigInt(value as number) : value,
      );
    });
    if (this.data[0]!.length >= ROW_GROUP_ROWS) this.flush();
  }

  close(): void {
    this.flush();
    void this.writer.finish();
    closeSync(this.fd);
  }

  private flush(): void {
    const rows = this.data[0]!.length;
    if (rows === 0) return;
    void this.writer.write({
      columnData: this.columns.map((column, c) => ({ name: column.name, data: this.data[c]! })),
      rowGroupSize: rows,
    });
    for (const values of this.data) values.length = 0;
  }
}
