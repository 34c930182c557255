// The session's state view (app:, user: and session keys), folded from stored deltas by the
// server; the page only shows what GET /sessions/{id}/state returns.

import { h } from "./dom.js";

const SCOPES = [
  ["app:", "app"],
  ["user:", "user"],
];

export function renderState(root, state) {
  const keys = Object.keys(state || {}).sort();
  if (!keys.length) {
    root.replaceChildren(h("p", { class: "muted" }, "Empty: nothing stored yet."));
    return;
  }
  root.replaceChildren(
    h(
      "dl",
      { class: "state-list" },
      keys.map((key) => {
        const [prefix, scope] = SCOPES.find(([p]) => key.startsWith(p)) || ["", "session"];
        return h(
          "div",
          { class: "state-row" },
          h(
            "dt",
            {},
            h("span", { class: `scope scope-${scope}`, title: `${scope} scope` }, scope),
            key.slice(prefix.length),
          ),
          h("dd", {}, valueNode(state[key])),
        );
      }),
    ),
  );
}

function valueNode(value) {
  if (value !== null && typeof value === "object") {
    return h("pre", {}, JSON.stringify(value, null, 2));
  }
  return h("code", {}, JSON.stringify(value));
}
