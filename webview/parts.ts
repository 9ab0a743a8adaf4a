/**
 * The small pieces every panel template uses. lit puts every value in as text or as a property,
 * never as markup, so a name from a log cannot become an element.
 */
import { html, noChange, type TemplateResult } from "lit";
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

/**
 * Sets an element's width as a style property. lit's `styleMap` writes a `style` attribute on
 * first render, which the page's CSP (no inline style) blocks; a property is allowed.
 */
class WidthDirective extends Directive {
  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error("widthPercent() belongs on an element");
  }

  render(_percent: number | null): typeof noChange {
    return noChange;
  }

  override update(part: ElementPart, [percent]: [number | null]): typeof noChange {
    (part.element as HTMLElement).style.width = percent === null ? "" : `${percent}%`;
    return noChange;
  }
}

export const widthPercent = directive(WidthDirective);
