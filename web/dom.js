// Tiny DOM helpers: every text goes in as a text node (never as HTML), so names typed by players are safe.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'text') el.textContent = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h('button', {class: 'x', onclick: f}, 'label', ...). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Make the parent's children these nodes, in this order (null ones left out), without moving any that is already
 * there: a node taken out of the document, even to be put back at once, ends the click being pressed on it. */
export function place(parent, nodes) {
  const wanted = nodes.filter((node) => node !== null && node !== undefined && node !== false);
  const keep = new Set(wanted);
  wanted.forEach((node, i) => {
    const current = parent.childNodes[i];
    if (current === node) return;
    if (node.parentNode === parent) { // already there, further on: what stands before it goes
      while (parent.childNodes[i] !== node) parent.childNodes[i].remove();
    } else if (current && !keep.has(current)) {
      current.replaceWith(node);
    } else {
      parent.insertBefore(node, current || null);
    }
  });
  while (parent.childNodes.length > wanted.length) parent.lastChild.remove();
}

/** A random idempotency key (works outside secure contexts, unlike crypto.randomUUID). */
export function randomKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
