/**
 * The small pieces every template of both webviews uses. lit puts every value in as text or as a property,
 * never as markup, so a name from a log cannot become an element.
 */
import { html, noChange, render, type TemplateResult } from "lit";
import { Directive, directive, PartType, type ElementPart, type PartInfo } from "lit/directive.js";

/** A codicon; decorative, since every icon stands next to text that says the same. */
export function icon(name: string): TemplateResult {
  return html`<span class="codicon codicon-${name}" aria-hidden="true"></span>`;
}

/** A tool or stage name: isolated, so bidi controls inside it cannot reorder the text around it. */
export function nameText(name: string, className = "name"): TemplateResult {
  return html`<bdi class=${className}>${name}</bdi>`;
}

/** A tool's name as a link that asks "Where did it go?" (the model's tools, the matrix's rows). */
export function toolLink(tool: string, select: (tool: string) => void): TemplateResult {
  return html`<button type="button" class="link" data-tool=${tool} aria-label="Where did ${tool} go?" @click=${() => select(tool)}>${nameText(tool)}</button>`;
}

/** A codicon as a node, for the few parts built outside lit's templates (the matrix's scroll cue). */
export function iconNode(name: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  render(icon(name), fragment);
  return fragment;
}

/**
 * Inline styles set through the CSSOM (a value of "" removes its property), which the page's CSP
 * allows: lit's `styleMap` writes a `style` attribute on first render, which `style-src` without
 * 'unsafe-inline' blocks.
 */
class CssomStyle extends Directive {
  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error("cssomStyle() belongs on an element");
  }

  render(_styles: Readonly<Record<string, string>>): typeof noChange {
    return noChange;
  }

  override update(
    part: ElementPart,
    [styles]: [Readonly<Record<string, string>>],
  ): typeof noChange {
    const style = (part.element as HTMLElement).style;
    for (const [name, value] of Object.entries(styles)) style.setProperty(name, value);
    return noChange;
  }
}

export const cssomStyle = directive(CssomStyle);
