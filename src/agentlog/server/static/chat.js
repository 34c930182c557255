// The conversation: what a person reads, built from the router's messages.
//
// Drafts are replaced, never appended: each turn has at most one draft element, its text is
// overwritten by every draft, and it is removed when the answer (or any other stored event of
// the turn, or the turn's end) supersedes it. The answer is its own element, so the text is
// on screen exactly once.

import { brief, clock, h, shortId } from "./dom.js";

const CHIP_KINDS = new Set(["tool_call", "tool_result"]);

export class ChatView {
  /**
   * @param {HTMLElement} root the chat log
   * @param {{onAnswer: Function}} actions onAnswer(requestId, body, card) answers a request
   */
  constructor(root, { onAnswer }) {
    this.root = root;
    this.onAnswer = onAnswer;
    this.busy = false; // waiting for the server (setBusy); clearing the chat leaves it
    this.reset();
  }

  /** Empty the chat for another session. */
  clear() {
    this.root.replaceChildren();
    this.reset();
  }

  reset() {
    this.drafts = new Map(); // invocation id -> draft element
    this.cards = new Map(); // request id -> approval card
    this.chips = null; // the row tool chips are being added to
  }

  get empty() {
    return this.root.childElementCount === 0;
  }

  /** Show one routed message; `time` is the stored event's timestamp, if any. */
  show(message, time) {
    if (!CHIP_KINDS.has(message.kind) && message.kind !== "draft") this.chips = null;
    switch (message.kind) {
      case "draft":
        return this.draft(message);
      case "user_message":
        return this.add(this.bubble(message, "user", time));
      case "answer":
        this.supersede(message.invocation_id);
        return this.add(this.bubble(message, "agent", time));
      case "tool_call":
      case "tool_result":
        return this.chip(message);
      case "handoff":
        return this.add(this.divider(message, "handoff", `↪ ${message.text}`));
      case "needs_approval":
        return this.add(this.approvalCard(message));
      case "approval_answer": {
        const outcome = message.data.confirmed === false ? "declined" : "approved";
        return this.resolve(message.data.request_id, message.text, outcome);
      }
      case "compaction":
        return this.add(this.compaction(message));
      case "error":
        this.supersede(message.invocation_id);
        return this.add(this.errorBubble(message));
      case "turn_end":
        return this.supersede(message.invocation_id);
      default:
        return undefined; // a kind this page does not know yet: the timeline still lists it
    }
  }

  /** Remove the turn's draft: a stored event or the turn's end has taken its place. */
  supersede(invocationId) {
    const draft = this.drafts.get(invocationId);
    if (draft) {
      draft.remove();
      this.drafts.delete(invocationId);
    }
  }

  add(el) {
    this.following(() => {
      // A live draft stays last: stored messages of other turns go above it.
      const draft = [...this.drafts.values()].find((d) => d.parentNode === this.root);
      if (draft && !el.classList.contains("draft")) this.root.insertBefore(el, draft);
      else this.root.append(el);
    });
    return el;
  }

  /** Change the chat, keeping the newest message in view unless the reader scrolled up. */
  following(change) {
    const atBottom = this.root.scrollHeight - this.root.scrollTop - this.root.clientHeight < 80;
    change();
    if (atBottom) this.root.scrollTop = this.root.scrollHeight;
  }

  draft(message) {
    let el = this.drafts.get(message.invocation_id);
    if (!el) {
      // Hidden from assistive technology: the live region announces the answer once it is
      // final instead of every partial text; the status line says the assistant is writing.
      el = h(
        "div",
        {
          class: "msg agent draft",
          "aria-hidden": "true",
          "data-invocation": message.invocation_id,
        },
        h("div", { class: "meta" }, h("span", { class: "author" }, message.author), " · writing…"),
        h("p", { class: "text" }),
      );
      this.drafts.set(message.invocation_id, el);
      this.add(el);
    }
    this.following(() => {
      el.querySelector(".text").textContent = message.text;
    });
  }

  meta(message, time) {
    return h(
      "div",
      { class: "meta" },
      h("span", { class: "author" }, message.author === "user" ? "You" : message.author),
      time ? ` · ${clock(time)}` : "",
      " · ",
      eventLink(message.id),
    );
  }

  bubble(message, who, time) {
    return h(
      "article",
      { class: `msg ${who}`, "data-event-id": message.id },
      this.meta(message, time),
      h("p", { class: "text" }, message.text),
    );
  }

  errorBubble(message) {
    // The router already chose a sentence for a person; the raw code never reaches the page.
    const stored = message.id !== message.invocation_id;
    return h(
      "div",
      { class: "msg error", role: "alert", "data-event-id": stored ? message.id : null },
      h(
        "div",
        { class: "meta" },
        "Something went wrong",
        stored ? [" · ", eventLink(message.id)] : [],
      ),
      h("p", { class: "text" }, message.text),
    );
  }

  chip(message) {
    if (!this.chips) this.chips = this.add(h("div", { class: "chips" }));
    const call = message.kind === "tool_call";
    const failed = !call && message.data.result && "error" in message.data.result;
    const label = call ? message.text : resultText(message);
    const chip = h(
      "a",
      {
        class: `chip ${call ? "call" : "result"}${failed ? " failed" : ""}`,
        href: `#${message.id}`,
        "data-event-id": message.id,
        title: `${message.text}\n(${message.author}, event ${message.id})`,
      },
      h("span", { class: "chip-icon", "aria-hidden": "true" }, call ? "⚙" : failed ? "✕" : "✓"),
      h("span", { class: "visually-hidden" }, call ? "Tool call: " : "Tool result: "),
      h("span", { class: "chip-text" }, label),
    );
    this.chips.append(chip);
  }

  divider(message, kind, text) {
    return h(
      "div",
      { class: `divider ${kind}`, "data-event-id": message.id },
      h("span", {}, text, " · ", eventLink(message.id)),
    );
  }

  compaction(message) {
    const covered = (message.data.event_ids || []).length;
    return h(
      "details",
      { class: "divider compaction", "data-event-id": message.id },
      h(
        "summary",
        {},
        `Earlier conversation compacted (${covered} event${covered === 1 ? "" : "s"})`,
      ),
      h("p", { class: "text" }, message.text || "(no summary text)"),
      h(
        "p",
        { class: "small" },
        "The model now reads this summary in their place; the log keeps them. ",
        eventLink(message.id),
      ),
    );
  }

  approvalCard(message) {
    const data = message.data;
    const requestId = data.request_id;
    const credential = Boolean(data.credential);
    const titleId = `ask-${requestId}`;
    const card = h(
      "section",
      {
        class: `msg approval${credential ? " credential" : ""}`,
        "data-event-id": message.id,
        "data-request-id": requestId,
        "aria-labelledby": titleId,
      },
      h(
        "h3",
        { id: titleId },
        h("span", { class: "ask-icon", "aria-hidden": "true" }, credential ? "*" : "?"),
        credential ? "A tool needs a credential" : "Needs your approval",
      ),
      h("p", { class: "text" }, message.text || "A tool asks to go ahead."),
      credential ? null : payloadList(data.payload),
      h("div", { class: "actions" }),
      h("p", { class: "outcome", role: "status" }),
      h("div", { class: "meta" }, `${message.author} · `, eventLink(message.id)),
    );
    const actions = card.querySelector(".actions");
    if (credential) actions.append(this.credentialForm(requestId, data.auth_type, card));
    else {
      const answer = (confirmed) => () =>
        this.onAnswer(requestId, { kind: "confirmation", confirmed }, card);
      // A card shown while the page waits for the server (the request arrives mid-turn) is
      // born disabled like the others: the page takes no answer until the turn is over.
      const busy = this.busy;
      actions.append(
        h(
          "button",
          { type: "button", class: "approve primary", disabled: busy, onclick: answer(true) },
          "Approve",
        ),
        h(
          "button",
          { type: "button", class: "decline", disabled: busy, onclick: answer(false) },
          "Decline",
        ),
      );
    }
    this.cards.set(requestId, card);
    return card;
  }

  credentialForm(requestId, authType, card) {
    const inputId = `cred-${requestId}`;
    // The tool gets {api_key: …} for an API key and {token: …} for any other scheme.
    const field = authType === "api_key" ? "api_key" : "token";
    const form = h(
      "form",
      { class: "credential-form" },
      h("label", { for: inputId }, `Credential (${authType || "secret"})`),
      h("input", { id: inputId, type: "password", autocomplete: "off", required: true }),
      h("button", { type: "submit", class: "primary", disabled: this.busy }, "Send credential"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = form.querySelector("input").value;
      this.onAnswer(requestId, { kind: "credential", credential: { [field]: value } }, card);
    });
    return form;
  }

  /** A request was answered (here, in another tab, or before a reload) or closed;
   * `outcome` is "approved", "declined" or "closed". */
  resolve(requestId, text, outcome) {
    const card = this.cards.get(requestId);
    if (!card) return;
    card.querySelector(".actions").replaceChildren();
    card.classList.add("answered", outcome);
    card.querySelector(".outcome").textContent = text;
  }

  /** Requests still waiting: cards with buttons are only for those the server lists. */
  reconcile(pending) {
    const waiting = new Set(pending.map((p) => p.request_id));
    for (const [requestId, card] of this.cards) {
      if (!waiting.has(requestId) && !card.classList.contains("answered")) {
        this.resolve(requestId, "No longer waiting for an answer.", "closed");
      }
    }
    for (const p of pending) {
      if (this.cards.has(p.request_id)) continue;
      this.add(
        this.approvalCard({
          kind: "needs_approval",
          id: p.event_id,
          invocation_id: p.invocation_id,
          author: "agent",
          text: p.hint,
          data: {
            request_id: p.request_id,
            payload: p.payload,
            credential: p.kind === "credential",
          },
        }),
      );
    }
  }

  /** Waiting for the server: the buttons of open requests are off meanwhile, also those of
   * cards shown before it answers. */
  setBusy(busy) {
    this.busy = busy;
    this.root.setAttribute("aria-busy", String(busy));
    for (const button of this.root.querySelectorAll(".approval .actions button")) {
      button.disabled = busy;
    }
  }
}

/** A link to the event in the timeline. */
export function eventLink(eventId) {
  return h(
    "a",
    { class: "evlink", href: `#${eventId}`, "data-event-id": eventId, title: `Event ${eventId}` },
    shortId(eventId),
  );
}

function resultText(message) {
  const result = message.data.result;
  if (result && typeof result === "object" && "error" in result) {
    return `${message.data.name}: ${brief(result.error, 90)}`;
  }
  return message.text;
}

function payloadList(payload) {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return null;
  return h(
    "dl",
    { class: "payload" },
    Object.entries(payload).map(([key, value]) => [h("dt", {}, key), h("dd", {}, brief(value))]),
  );
}
