// Small DOM helpers shared by the views.
//
// Everything a model, a tool or a customer wrote goes into the page as text (textContent or
// setAttribute), never as HTML, so no message can inject markup or script.

/**
 * Create an element: h("a", {href: "#x", class: "cite"}, "text", otherNode).
 * Attributes set to null, undefined or false are left out; "on<event>" adds a listener.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = value;
    else if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** The last characters of an event id: enough to tell events apart at a glance. */
export function shortId(id) {
  return id && id.length > 10 ? `…${id.slice(-6)}` : id || "";
}

/** A timestamp (seconds since the epoch) as a local time of day. */
export function clock(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleTimeString([], {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** A JSON value as one short line (objects compact, strings bare). */
export function brief(value, limit = 160) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** Whether the reader asked for less motion (scrolling then jumps instead of gliding). */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
