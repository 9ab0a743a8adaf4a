import {
  parseToWebview,
  type FromWebview,
  type PanelState,
  type ToWebview,
} from "../src/protocol.js";

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: PanelState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Reply = Extract<ToWebview, { requestId: number }>;
type Request = Extract<FromWebview, { requestId: number }>;
/** A request as the caller writes it; the channel numbers it. */
type Unnumbered<T> = T extends unknown ? Omit<T, "requestId"> : never;

/** The webview's end of the protocol: validated receipt, posts, and requests answered by id. */
export class HostChannel {
  private readonly api = acquireVsCodeApi();
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Reply) => void>();

  constructor(private readonly onMessage: (message: Exclude<ToWebview, Reply>) => void) {
    window.addEventListener("message", (event: MessageEvent<unknown>) => {
      const message = parseToWebview(event.data);
      if (message === null) return;
      if ("requestId" in message) {
        const resolve = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        if (resolve) resolve(message);
        else
          console.warn(
            `palette-inspector: ignored a reply to no pending request (${message.requestId})`,
          );
      } else this.onMessage(message);
    });
  }

  post(message: Exclude<FromWebview, Request>): void {
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

  set state(state: PanelState) {
    this.api.setState(state);
  }
}
