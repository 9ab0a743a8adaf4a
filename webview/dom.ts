/** Attributes and listeners for `el`; text goes in only as text, never as markup. */
export interface Props {
  readonly class?: string;
  readonly text?: string;
  readonly title?: string;
  readonly label?: string;
  readonly role?: string;
  readonly attrs?: Readonly<Record<string, string>>;
  readonly on?: {
    readonly [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void;
  };
}

export type Child = Node | string | null | false | undefined;

/** Builds an element; strings become text nodes, so untrusted names can never become markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props,
  children?: readonly Child[],
): HTMLElementTagNameMap[K];
export function el(tag: string, props?: Props, children?: readonly Child[]): HTMLElement;
export function el(tag: string, props: Props = {}, children: readonly Child[] = []): HTMLElement {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.title !== undefined) node.title = props.title;
  if (props.label !== undefined) node.setAttribute("aria-label", props.label);
  if (props.role !== undefined) node.setAttribute("role", props.role);
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  for (const [type, listener] of Object.entries(props.on ?? {}))
    node.addEventListener(type, listener as EventListener);
  append(node, children);
  return node;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === false || child === undefined) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** One formatter: `toLocaleString` builds a new one per call, which a 2,000-tool render feels. */
const NUMBER = new Intl.NumberFormat("en-US");

export function count(n: number): string {
  return NUMBER.format(n);
}
