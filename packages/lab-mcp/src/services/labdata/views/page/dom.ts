// Building the page: elements made one by one, every text given as a text node. Names and notes come
// from other people; a name such as `<img src=x onerror=...>` shows as those characters and never
// becomes markup (nothing here writes innerHTML).

type Child = Node | string | number | false | null | undefined;
type Attributes = Record<string, string | number | undefined>;

const SVG_NS = "http://www.w3.org/2000/svg";

function fill<E extends Element>(element: E, attributes: Attributes, children: Child[]): E {
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    element.append(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  return fill(document.createElement(tag), attributes, children);
}

/** An SVG element with attributes and children (strings become text nodes). */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  return fill(document.createElementNS(SVG_NS, tag), attributes, children);
}

/** "1,234": a count or coordinate as people read it. */
export function grouped(value: number): string {
  return value.toLocaleString("en-US");
}

/**
 * Shows `text` in the page's hover line when the pointer or the keyboard is on `element`, and as the
 * element's tooltip: coordinates, quantities and values on hover.
 */
export function hoverText(element: SVGElement | HTMLElement, text: string, line: HTMLElement): void {
  if (element instanceof SVGElement) element.prepend(s("title", {}, text));
  else element.title = text;
  element.setAttribute("tabindex", "0");
  element.setAttribute("aria-label", text);
  const show = () => {
    line.textContent = text;
  };
  element.addEventListener("pointerenter", show);
  element.addEventListener("focus", show);
}
