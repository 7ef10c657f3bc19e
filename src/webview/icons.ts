// The chat's own line icons, drawn with currentColor so they follow the theme (the CSP allows no image loads).
const SVG = 'http://www.w3.org/2000/svg';

export type IconName = 'declined' | 'length' | 'content_filter' | 'lock';

const PATHS: Record<IconName, string[]> = {
  declined: ['M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13z', 'M3.4 12.6l9.2-9.2'],
  length: ['M2 8h7', 'M11 5.5v5', 'M13.5 5.5v5'],
  content_filter: ['M2 3h12l-4.5 5.5V13l-3 1.5V8.5z'],
  lock: ['M4.5 7V5a3.5 3.5 0 0 1 7 0v2', 'M3.5 7h9v7h-9z'],
};

/** A small decorative icon: the text beside it carries the meaning. */
export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('icon');
  for (const d of PATHS[name]) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}
