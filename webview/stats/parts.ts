/** Small lit templates the statistics view's parts share. */
import { html, noChange, type ElementPart, type TemplateResult } from "lit";
import { Directive, directive, PartType, type PartInfo } from "lit/directive.js";

export function icon(name: string): TemplateResult {
  return html`<span class="codicon codicon-${name}" aria-hidden="true"></span>`;
}

/** A tool or stage name: isolated, so bidi controls inside it cannot reorder the text around it. */
export function nameText(name: string, className = "name"): TemplateResult {
  return html`<bdi class=${className}>${name}</bdi>`;
}

/**
 * Inline styles set through the CSSOM, which the page's CSP allows (lit's `styleMap` writes a
 * `style` attribute on first render, which `style-src` without 'unsafe-inline' blocks).
 */
class CssomStyle extends Directive {
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error("cssomStyle goes on an element");
  }
  render(_styles: Readonly<Record<string, string>>): typeof noChange {
    return noChange;
  }
  override update(part: ElementPart, [styles]: [Readonly<Record<string, string>>]) {
    const style = (part.element as HTMLElement).style;
    for (const [name, value] of Object.entries(styles)) style.setProperty(name, value);
    return noChange;
  }
}

export const cssomStyle = directive(CssomStyle);
