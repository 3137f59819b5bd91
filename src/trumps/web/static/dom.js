// Small DOM and storage helpers shared by every module.
//
// Server text (names, chat, error messages) only ever reaches the page as text nodes or
// textContent: el() turns string children into text nodes and never parses markup.

export const $ = (id) => document.getElementById(id);

/** Make an element. props: class, text, testid, on<event>, booleans as properties, the rest
 *  as attributes. Children are nodes or strings (strings become text nodes). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || (value === false && key.startsWith("aria-"))) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "testid") node.dataset.testid = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (typeof value === "boolean") node[key] = value;
    else if (key === "style") setStyle(node, String(value));
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** Set "prop: value; …" through the CSSOM: the page's Content-Security-Policy refuses style
 *  attributes (style-src 'self'), not styles set from its own script. */
function setStyle(node, text) {
  for (const part of text.split(";")) {
    const at = part.indexOf(":");
    if (at > 0) node.style.setProperty(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
}

/** Replace a node's children, skipping null/false (replaceChildren would print "null"). */
export function put(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** A <bdi> around text that may run the other way (names, card labels in Persian text). */
export const bdi = (text, cls) => el("bdi", { class: cls }, text);

/** Nodes for a translated template: "{name} played {card}" with nodes (or strings) for the
 *  placeholders; the template itself is already translated by t(). */
export function fill(template, parts) {
  const out = [];
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    out.push(template.slice(last, m.index));
    out.push(m[1] in parts ? parts[m[1]] : m[0]);
    last = m.index + m[0].length;
  }
  out.push(template.slice(last));
  return out.filter((x) => x !== "");
}

/** A <select> with [value, label] options. */
export function select(props, options, value) {
  const node = el("select", props, options.map(([v, label]) => el("option", { value: v }, label)));
  if (value !== undefined && value !== null) node.value = String(value);
  return node;
}

export function load(key) {
  try { return localStorage.getItem(`trumps.${key}`); } catch { return null; }
}

export function save(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(`trumps.${key}`);
    else localStorage.setItem(`trumps.${key}`, String(value));
  } catch { /* storage disabled: the setting just is not remembered */ }
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
