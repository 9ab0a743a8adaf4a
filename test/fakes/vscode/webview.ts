/** Webview panels: what the host set and posted, and the page's messages played to it. */
import { EventEmitter, Uri } from "./core.js";

/** A webview: what the host set and posted, and `receive` to play the page posting to the host. */
export class FakeWebview {
  html = "";
  options: unknown = {};
  readonly cspSource = "https://webview.fake";
  readonly posted: unknown[] = [];
  /** Every html the host set, so tests can see a fresh nonce per render. */
  readonly htmls: string[] = [];
  private readonly received = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.received.event;
  asWebviewUri(uri: Uri): Uri {
    return Uri.parse(`https://webview.fake${uri.path}`);
  }
  async postMessage(message: unknown): Promise<boolean> {
    this.posted.push(JSON.parse(JSON.stringify(message)));
    return true;
  }
  receive(message: unknown): void {
    this.received.fire(message);
  }
}

export class FakeWebviewPanel {
  readonly webview = new FakeWebview();
  disposed = false;
  /** Shown in its editor group; a test hides it to play a panel in a background tab. */
  visible = true;
  revealed = 0;
  /** The column and focus asked for on each reveal. */
  readonly reveals: { viewColumn: unknown; preserveFocus: boolean | undefined }[] = [];
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  constructor(
    readonly viewType: string,
    public title: string,
    readonly createOptions: unknown,
    /** Where it was opened: a column, or `{ viewColumn, preserveFocus }`. */
    readonly showOptions?: unknown,
  ) {
    let html = "";
    Object.defineProperty(this.webview, "html", {
      get: () => html,
      set: (value: string) => {
        html = value;
        this.webview.htmls.push(value);
      },
    });
  }
  reveal(viewColumn?: unknown, preserveFocus?: boolean): void {
    this.revealed++;
    this.reveals.push({ viewColumn, preserveFocus });
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeEmitter.fire();
  }
}

/** Panels the host created and serializers it registered. */
export const webviewFake = {
  panels: [] as FakeWebviewPanel[],
  serializers: new Map<
    string,
    { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> }
  >(),
  create(
    viewType: string,
    title: string,
    options: unknown,
    showOptions?: unknown,
  ): FakeWebviewPanel {
    const panel = new FakeWebviewPanel(viewType, title, options, showOptions);
    this.panels.push(panel);
    return panel;
  },
  reset(): void {
    this.panels.length = 0;
    this.serializers.clear();
  },
};
