/** The API VS Code gives a webview's page, once. */
interface VsCodeApi<Out, State> {
  postMessage(message: Out): void;
  getState(): unknown;
  setState(state: State): void;
}

import type { RequestTimeouts } from "../src/protocol-guards.js";

declare function acquireVsCodeApi<Out, State>(): VsCodeApi<Out, State>;

type Numbered = { requestId: number };
/** A request as the caller writes it; the channel numbers it. */
type Unnumbered<T> = T extends unknown ? Omit<T, "requestId"> : never;

/** The page gives the host this much longer than the host gives itself, so the host's error comes first. */
const GRACE_MS = 2000;

/** A page that has heard nothing says `ready` again this often, this many times in all. */
export const READY_RETRY_MS = 2000;
export const READY_TRIES = 8;

/** A request the host did not answer in time. */
export class RequestTimedOut extends Error {
  constructor(type: string, ms: number) {
    super(`The extension did not answer (${type}) within ${Math.round(ms / 1000)} s.`);
    this.name = "RequestTimedOut";
  }
}

/**
 * A webview's end of a typed protocol: validated receipt, posts, and requests answered by id.
 * `In` is what the host sends, `Out` what the page sends; messages with a `requestId` pair up.
 * With `timeouts`, a request the host leaves unanswered rejects with `RequestTimedOut`.
 */
export class Channel<In extends object, Out extends object, State> {
  private readonly api = acquireVsCodeApi<Out, State>();
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Extract<In, Numbered>) => void>();
  private readyTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    parse: (data: unknown) => In | null,
    onMessage: (message: Exclude<In, Numbered>) => void,
    private readonly timeouts?: RequestTimeouts<Out>,
  ) {
    window.addEventListener("message", (event: MessageEvent<unknown>) => {
      const message = parse(event.data);
      if (message === null) return;
      clearTimeout(this.readyTimer);
      if ("requestId" in message && typeof message.requestId === "number") {
        const resolve = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        if (resolve) resolve(message as Extract<In, Numbered>);
        else
          console.warn(
            `palette-inspector: ignored a reply to no pending request (${message.requestId})`,
          );
      } else onMessage(message as Exclude<In, Numbered>);
    });
  }

  post(message: Exclude<Out, Numbered>): void {
    this.api.postMessage(message);
  }

  /**
   * Says the page is ready, and again until the host first answers: a `ready` or an answer lost
   * while VS Code was still placing a new panel (it delivers only to a live page) would otherwise
   * leave the page blank until it is hidden and shown again.
   */
  ready(message: Exclude<Out, Numbered>): void {
    let tries = 0;
    const say = () => {
      this.api.postMessage(message);
      if (++tries < READY_TRIES) this.readyTimer = setTimeout(say, READY_RETRY_MS);
    };
    say();
  }

  request(message: Unnumbered<Extract<Out, Numbered>>): Promise<Extract<In, Numbered>> {
    const requestId = this.nextId++;
    const type = (message as unknown as { type: string }).type;
    const limit = this.timeouts?.[type as keyof RequestTimeouts<Out>];
    return new Promise((resolve, reject) => {
      const timer =
        limit === undefined
          ? undefined
          : setTimeout(() => {
              this.pending.delete(requestId);
              reject(new RequestTimedOut(type, limit));
            }, limit + GRACE_MS);
      this.pending.set(requestId, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      // The compiler cannot see that an Omit spread plus requestId rebuilds the request type.
      this.api.postMessage({ ...message, requestId } as unknown as Out);
    });
  }

  get state(): unknown {
    return this.api.getState();
  }

  set state(state: State) {
    this.api.setState(state);
  }
}
