/** The API VS Code gives a webview's page, once. */
interface VsCodeApi<Out, State> {
  postMessage(message: Out): void;
  getState(): unknown;
  setState(state: State): void;
}

declare function acquireVsCodeApi<Out, State>(): VsCodeApi<Out, State>;

type Numbered = { requestId: number };
/** A request as the caller writes it; the channel numbers it. */
type Unnumbered<T> = T extends unknown ? Omit<T, "requestId"> : never;

/**
 * A webview's end of a typed protocol: validated receipt, posts, and requests answered by id.
 * `In` is what the host sends, `Out` what the page sends; messages with a `requestId` pair up.
 */
export class Channel<In extends object, Out extends object, State> {
  private readonly api = acquireVsCodeApi<Out, State>();
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Extract<In, Numbered>) => void>();

  constructor(
    parse: (data: unknown) => In | null,
    onMessage: (message: Exclude<In, Numbered>) => void,
  ) {
    window.addEventListener("message", (event: MessageEvent<unknown>) => {
      const message = parse(event.data);
      if (message === null) return;
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

  request(message: Unnumbered<Extract<Out, Numbered>>): Promise<Extract<In, Numbered>> {
    const requestId = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, resolve);
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
