// A small element builder: text always goes in as text nodes, never as HTML, so record data cannot inject markup.

type Child = Node | string | number | null | undefined | false;
export type Children = Child | readonly Children[];
type Props = Record<string, string | number | boolean | null | undefined | EventListener | Record<string, string>>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Children[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.className = String(value);
    else if (key === 'dataset' && typeof value === 'object') Object.assign(element.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2).toLowerCase(), value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Element, ...children: Children[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, ...(child as Children[]));
    else parent.append(typeof child === 'number' ? String(child) : (child as Node | string));
  }
}

/** Replaces an element's content. */
export function fill(parent: Element, ...children: Children[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}
