// The timeline: every stored event in log order, each element with id=<event id>, so digest
// links (#<event id>) and the handoff record's citations land on it.

import { brief, clock, h, reducedMotion } from "./dom.js";

const LABELS = {
  user_message: "message",
  answer: "answer",
  tool_call: "tool call",
  tool_result: "tool result",
  handoff: "handoff",
  needs_approval: "asks approval",
  approval_answer: "approval",
  compaction: "compaction",
  error: "error",
};

export class Timeline {
  constructor(root) {
    this.root = root;
    this.clear();
  }

  clear() {
    this.root.replaceChildren();
    this.compacted = new Set(); // ids a compaction covers, marked as they arrive
  }

  has(eventId) {
    return document.getElementById(eventId)?.parentNode === this.root;
  }

  /** Add a stored event with its routed messages. */
  add(event, messages) {
    const kinds = messages.map((m) => m.kind);
    const main = kinds[0] || (event.content?.role === "user" ? "user_message" : "event");
    const delta = Object.keys(event.actions?.state_delta || {});
    const li = h(
      "li",
      { id: event.id, class: `tl-item kind-${main}`, tabindex: "-1" },
      h(
        "div",
        { class: "tl-head" },
        h("time", {}, clock(event.timestamp)),
        h("span", { class: "tl-author" }, event.author),
        tags(messages).map(([text, kind]) => h("span", { class: `tag tag-${kind}` }, text)),
      ),
      h("p", { class: "tl-text" }, describe(event, messages)),
      delta.length ? h("p", { class: "tl-delta" }, `state: ${delta.join(", ")}`) : null,
      h("code", { class: "tl-id" }, event.id),
    );
    this.root.append(li);
    const compaction = messages.find((m) => m.kind === "compaction");
    if (compaction) this.markCompacted(compaction.data.event_ids || [], event.id);
    if (this.compacted.has(event.id)) this.tagCompacted(li);
    return li;
  }

  /** Events a compaction stands in for: still in the log, no longer read by the model. */
  markCompacted(eventIds, compactionId) {
    for (const id of eventIds) {
      this.compacted.add(id);
      const li = document.getElementById(id);
      if (li && li.parentNode === this.root) this.tagCompacted(li, compactionId);
    }
  }

  tagCompacted(li, compactionId) {
    if (li.classList.contains("compacted")) return;
    li.classList.add("compacted");
    li.querySelector(".tl-head").append(
      h(
        "a",
        {
          class: "tag tag-compacted",
          href: compactionId ? `#${compactionId}` : null,
          "data-event-id": compactionId || null,
          title: "A compaction summarises this event for the model",
        },
        "compacted",
      ),
    );
  }

  /** Scroll to an event, move focus to it and highlight it; false if it is not shown. */
  focus(eventId) {
    const li = document.getElementById(eventId);
    if (!li || li.parentNode !== this.root) return false;
    for (const old of this.root.querySelectorAll(".highlight")) old.classList.remove("highlight");
    li.scrollIntoView({ block: "center", behavior: reducedMotion() ? "auto" : "smooth" });
    li.focus({ preventScroll: true });
    // Removing and re-adding restarts the flash when the same citation is followed twice.
    void li.offsetWidth;
    li.classList.add("highlight");
    return true;
  }
}

/** One tag per kind of message, [label, kind], in order. */
function tags(messages) {
  const out = new Map();
  for (const message of messages) {
    const text = label(message);
    if (!out.has(text)) out.set(text, message.kind);
  }
  return [...out];
}

function label(message) {
  if (message.data?.credential) {
    if (message.kind === "needs_approval") return "asks credential";
    if (message.kind === "approval_answer") return "credential";
  }
  return LABELS[message.kind] || message.kind;
}

function describe(event, messages) {
  const texts = messages.map((m) => m.text).filter(Boolean);
  if (texts.length) return brief(texts.join(" · "), 240);
  const parts = event.content?.parts || [];
  const text = parts.map((p) => p.text || "").join("");
  if (text) return brief(text, 240);
  if (Object.keys(event.actions?.state_delta || {}).length) return "state change";
  return "(no content)";
}
