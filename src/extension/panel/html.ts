/** Where the webview's own files are, as webview URIs (`webview.asWebviewUri`). */
export interface PanelAssets {
  /** `webview.cspSource`: the origin the webview may load its files from. */
  readonly cspSource: string;
  readonly script: string;
  readonly style: string;
  readonly codicons: string;
  /** The page's title and label (default "Selection Trace"). */
  readonly title?: string;
}

/** A fresh nonce for each render: the only script the page runs is the one carrying it. */
export function newNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  // The toolkit probes :focus-visible with one <style> carrying the nonce it reads from `csp-nonce`.
  return [
    `default-src 'none'`,
    `img-src ${cspSource}`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
}

/** The panel's page: a root the script fills; no data here (it comes by message after `ready`). */
export function panelHtml(assets: PanelAssets, nonce: string = newNonce()): string {
  const attr = (value: string) =>
    value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(assets.cspSource, nonce))}">
<meta property="csp-nonce" content="${attr(nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(assets.codicons)}">
<link rel="stylesheet" href="${attr(assets.style)}">
<title>${attr(assets.title ?? "Selection Trace")}</title>
</head>
<body>
<main id="root" aria-label="${attr(assets.title ?? "Selection Trace")}"></main>
<script nonce="${attr(nonce)}" src="${attr(assets.script)}"></script>
</body>
</html>
`;
}
