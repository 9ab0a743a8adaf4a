import {
  parseToStatsView,
  type FromStatsView,
  type StatsPanelState,
  type ToStatsView,
} from "../../src/stats-protocol.js";

interface VsCodeApi {
  postMessage(message: FromStatsView): void;
  getState(): unknown;
  setState(state: StatsPanelState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Reply = Extract<ToStatsView, { requestId: number }>;
type Request = Extract<FromStatsView, { requestId: number }>;
type Unnumbered<T> = T extends unknown ? Omit<T, "requestId"> : never;

/** The statistics view's end of its protocol: validated receipt, posts, and requests answered by id. */
export class StatsChannel {
  private readonly api = acquireVsCodeApi();
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Reply) => void>();

  constructor(onMessage: (message: Exclude<ToStatsView, Reply>) => void) {
    window.addEventListener("message", (event: MessageEvent<unknown>) => {
      const message = parseToStatsView(event.data);
      if (message === null) return;
      if ("requestId" in message) {
        const resolve = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        resolve?.(message);
      } else onMessage(message);
    });
  }

  post(message: Exclude<FromStatsView, Request>): void {
    this.api.postMessage(message);
  }

  request(message: Unnumbered<Request>): Promise<Reply> {
    const requestId = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, resolve);
      this.api.postMessage({ ...message, requestId } as Request);
    });
  }

  get state(): unknown {
    return this.api.getState();
  }

  set state(state: StatsPanelState) {
    this.api.setState(state);
  }
}
