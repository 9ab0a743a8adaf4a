/**
 * What a worker thread posts to the thread that reads it (scan-pool.ts, follow-thread.ts): items in
 * batches, in order, never more than WINDOW batches ahead of what the reader has taken in. Batches
 * it may not send yet wait here, up to AHEAD_BYTES while the reader is busy with another file, up
 * to HANDED_ON_BYTES once it is taking this work in, before the work waits too.
 */
import type { WorkerItem } from "./scan-pool.js";

/** Items per batch: a message small enough to take in at once without holding the host's loop. */
const BATCH = 256;
/** A batch is sent at least this often while the work goes on, so traces show as they are found. */
const FLUSH_MS = 50;
/** Batches sent and not yet taken in before the rest wait here. */
const WINDOW = 4;
/** Bytes of items waiting to be sent past which the work waits: what a worker may hold unread. */
const AHEAD_BYTES = 16 * 1024 * 1024;
/**
 * The same once the reader takes this work's items in as they come: more would only wait here
 * for a reader that is slower than the work (and, held that long, be garbage of the old space).
 */
const HANDED_ON_BYTES = 256 * 1024;
/**
 * What may wait to be sent when the work ends and still go at once with its end: a message small
 * enough to take in without holding the reader's loop.
 */
const REST_BYTES = 1024 * 1024;

export class Outbox {
  private items: WorkerItem[] = [];
  private itemBytes = 0;
  /** Batches made and not yet sent: a line may hold thousands of traces, found at once. */
  private readonly batches: { readonly items: WorkerItem[]; readonly bytes: number }[] = [];
  private waiting = 0;
  private sentAt = performance.now();
  /** Batches sent and not yet taken in by the reading thread. */
  private unread = 0;
  private resume: (() => void) | null = null;
  private ahead = AHEAD_BYTES;

  constructor(private readonly post: (items: WorkerItem[]) => void) {}

  /** An item, counted as `bytes` against AHEAD_BYTES. */
  add(item: WorkerItem, bytes: number): void {
    this.items.push(item);
    this.itemBytes += bytes;
    if (this.items.length >= BATCH) this.flush();
  }

  /** Closes the batch being filled and sends what the window allows. */
  flush(): void {
    if (this.items.length > 0) {
      this.batches.push({ items: this.items, bytes: this.itemBytes });
      this.waiting += this.itemBytes;
    }
    this.items = [];
    this.itemBytes = 0;
    this.sentAt = performance.now();
    this.send();
  }

  /** The reader has taken `count` batches in: more may go. */
  taken(count: number): void {
    this.unread -= count;
    this.send();
    const wake = this.resume;
    this.resume = null;
    wake?.();
  }

  /** The reader now takes this work's items in as they come (HANDED_ON_BYTES). */
  handedOn(): void {
    this.ahead = HANDED_ON_BYTES;
  }

  /**
   * Between two steps of the work: a batch held past FLUSH_MS goes; while the bytes allowed to
   * wait are waiting, a promise that settles when the reader takes a batch in.
   */
  between(): Promise<void> | undefined {
    if (performance.now() - this.sentAt > FLUSH_MS) this.flush();
    return this.waiting >= this.ahead ? this.takenIn() : undefined;
  }

  /**
   * Once the work has ended: the items not yet sent, to go with its end message. A batch waits
   * here only while the reader has WINDOW in hand, so a credit is sure to come.
   */
  async rest(): Promise<WorkerItem[]> {
    this.flush();
    while (this.batches.length > 0 && this.waiting > REST_BYTES) await this.takenIn();
    this.waiting = 0;
    return this.batches.splice(0).flatMap((batch) => batch.items);
  }

  private send(): void {
    while (this.batches.length > 0 && this.unread < WINDOW) {
      const batch = this.batches.shift()!;
      this.waiting -= batch.bytes;
      this.post(batch.items);
      this.unread++;
    }
  }

  private takenIn(): Promise<void> {
    return new Promise<void>((done) => (this.resume = done));
  }
}
