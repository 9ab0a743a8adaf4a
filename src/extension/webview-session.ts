import * as vscode from "vscode";
import type { Reply, RequestTimeouts } from "../protocol-guards.js";
import { neutralise, notice, unawaited } from "./notify.js";
import { panelHtml } from "./panel/html.js";

/** What a webview's page may do: run its script, and load files only from dist/ and media/. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, "dist"),
      vscode.Uri.joinPath(extensionUri, "media"),
    ],
  };
}

/** A webview's page: its bundle under dist/, its stylesheet under media/, its title. */
export interface WebviewPage {
  readonly script: string;
  readonly style: string;
  readonly title?: string;
}

type Message = { readonly type: string };

/**
 * A page that has not said `ready` this long after it was set, while shown, is set again, at most
 * `PAGE_TRIES` times in all: in VS Code for the Web its script and styles can fail to load (a
 * webview opened while another replaces the service worker that serves their files), and the
 * page then stays blank until it is hidden and shown.
 */
export const READY_WAIT_MS = 8000;
export const PAGE_TRIES = 3;

function requestIdOf(message: object): number | null {
  return "requestId" in message && typeof message.requestId === "number" ? message.requestId : null;
}

/**
 * The host's end of one webview: its page (CSP, nonce, resource roots), the `ready` handshake,
 * every message parsed, exactly one reply to every request, and disposal. `In` is what the page
 * sends; `Out` what the host posts, whose failed replies are the protocol's `Reply`.
 */
export abstract class WebviewSession<In extends Message, Out extends Message>
  implements vscode.Disposable
{
  private ready = false;
  /** Pages set since the last render() that have not said `ready`, and the wait for the last. */
  private tries = 0;
  private readyWait: ReturnType<typeof setTimeout> | undefined;
  /** Requests the page is waiting on; a reply to one not here (a second, or a late one) is dropped. */
  private readonly waiting = new Set<number>();
  protected readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly page: WebviewPage,
    parse: (raw: unknown, log: (line: string) => void) => In | null,
    private readonly timeouts: RequestTimeouts<In>,
    protected readonly log: (line: string) => void,
  ) {
    // A restored panel comes with the options it was saved with: set them again.
    panel.webview.options = webviewOptions(extensionUri);
    this.render();
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const message = parse(raw, log);
        if (message) unawaited(this.answer(message), notice`Answering the page`);
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** What the session does with a message; a request is answered through `post`. */
  protected abstract handle(message: In): Promise<void>;

  /** A fresh page (and nonce); the page then says `ready` and gets the data again. */
  render(): void {
    this.tries = 0;
    this.setPage();
  }

  private setPage(): void {
    this.tries++;
    const webview = this.panel.webview;
    const asset = (...path: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...path)).toString();
    this.ready = false;
    // The old page and its requests are gone with it.
    this.waiting.clear();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      script: asset("dist", this.page.script),
      style: asset("media", this.page.style),
      codicons: asset("dist", "codicons", "codicon.css"),
      ...(this.page.title !== undefined && { title: this.page.title }),
    });
    this.awaitReady();
  }

  /** Sets the page again if it says nothing while shown (a hidden panel has no page to wait on). */
  private awaitReady(): void {
    clearTimeout(this.readyWait);
    this.readyWait = setTimeout(() => {
      if (this.ready) return;
      if (!this.panel.visible) this.awaitReady();
      else if (this.tries < PAGE_TRIES) {
        this.log(
          `palette-inspector: the webview said nothing ${READY_WAIT_MS / 1000} s after it was set; setting it again`,
        );
        this.setPage();
      } else this.log(`palette-inspector: the webview said nothing after ${PAGE_TRIES} tries`);
    }, READY_WAIT_MS);
  }

  /** Every request gets exactly one reply: a handler that throws, times out or forgets still answers. */
  private async answer(message: In): Promise<void> {
    if (message.type === "ready") {
      this.ready = true;
      clearTimeout(this.readyWait);
    }
    const requestId = requestIdOf(message);
    if (requestId === null) {
      await this.handle(message).catch((error: unknown) => this.failed(message, error));
      return;
    }
    this.waiting.add(requestId);
    const limit = this.timeouts[message.type as keyof RequestTimeouts<In>];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timedOut">((resolve) => {
      timer = setTimeout(() => resolve("timedOut"), limit);
    });
    try {
      const outcome = await Promise.race([this.handle(message), timedOut]);
      if (outcome === "timedOut")
        this.fail(requestId, `it took longer than ${Math.round(limit / 1000)} s`);
      else if (this.waiting.has(requestId)) this.fail(requestId, "the host gave no answer");
    } catch (error) {
      this.fail(requestId, this.failed(message, error));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Logs a handler's failure (with its message type) and returns its reason. */
  private failed(message: In, error: unknown): string {
    const reason = error instanceof Error ? error.message : String(error);
    this.log(`palette-inspector: the webview's '${message.type}' request failed: ${reason}`);
    return reason;
  }

  private fail(requestId: number, reason: string): void {
    const reply: Reply = {
      type: "reply",
      requestId,
      ok: false,
      message: `That did not work: ${neutralise(reason, 120)} (details in the Palette Inspector log).`,
    };
    // Reply belongs to every protocol's host-to-page union.
    this.post(reply as unknown as Out);
  }

  /** Posts to the page once it listens (it asks again when it does); one reply per request. */
  protected post(message: Out): void {
    if (!this.ready) return;
    const requestId = requestIdOf(message);
    if (requestId !== null && !this.waiting.delete(requestId)) return;
    this.panel.webview.postMessage(message).then(
      (delivered) => {
        // Not live (hidden, or still being placed): the page asks again when it is.
        if (!delivered)
          this.log(`palette-inspector: the webview was not live for '${message.type}'`);
      },
      (error: unknown) => {
        this.log(`palette-inspector: a message to the webview was not delivered: ${String(error)}`);
      },
    );
  }

  dispose(): void {
    clearTimeout(this.readyWait);
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables.length = 0;
  }
}
