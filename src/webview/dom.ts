// Small DOM helpers shared by the panel's pieces.
import type { Codicon } from './codicons.ts';

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
}

/** A codicon glyph; decorative, so the button around it carries the name. */
export function codicon(name: Codicon): HTMLSpanElement {
  const span = element('span', { className: `codicon codicon-${name}` });
  span.setAttribute('aria-hidden', 'true');
  return span;
}

/** A button that shows only an icon: its name is its label and its tooltip. */
export function iconButton(name: Codicon, label: string, onClick: () => void, className = ''): HTMLButtonElement {
  const button = element('button', { className: `icon-button ${className}`.trim(), title: label, type: 'button' });
  button.setAttribute('aria-label', label);
  button.append(codicon(name));
  button.addEventListener('click', onClick);
  return button;
}

/** An element of the panel's page (panelHtml.ts) by its id. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
