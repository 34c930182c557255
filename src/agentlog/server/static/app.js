// The page's entry point: one open session, its chat, timeline, state and handoff record.
//
// Every stored event reaches the page through a stream, and each one is applied once: its id
// is remembered, the newest id is sent as Last-Event-ID on the next request, and an id seen
// before is skipped. Two kinds of stream carry them: the open session's follow stream (GET
// .../stream?follow=true, open as long as the session is, so a turn started in another tab
// shows up here as it runs) and this tab's own turns (a message's or an answer's POST).

import {
  ApiError,
  ConnectionLost,
  apiKey,
  followSession,
  request,
  sessionPath,
  streamTurn,
} from "./api.js";
import { ChatView } from "./chat.js";
import { h } from "./dom.js";
import { renderRecord } from "./record.js";
import { renderState } from "./state.js";
import { Timeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);

const ui = {
  chat: $("chat"),
  composer: $("composer"),
  text: $("composer-text"),
  send: $("send"),
  newSession: $("new-session"),
  select: $("session-select"),
  openForm: $("open-form"),
  openId: $("open-id"),
  settings: $("settings"),
  keyForm: $("key-form"),
  key: $("api-key"),
  forgetKey: $("forget-key"),
  notice: $("notice"),
  sessionLabel: $("session-label"),
  status: $("turn-status"),
  record: $("record"),
  summarise: $("summarise"),
  showSummary: $("show-summary"),
  state: $("state"),
  stateMeta: $("state-meta"),
  timeline: $("timeline"),
  sync: $("sync"),
};

const chat = new ChatView(ui.chat, { onAnswer: answer });
const timeline = new Timeline(ui.timeline);

let session = blankSession(null);
let summariesOffered = true; // false once the server says it keeps none
let watching = null; // the AbortController of the open session's follow stream

function blankSession(id) {
  return {
    id,
    lastEventId: null, // the newest stored event shown: sent as Last-Event-ID
    seen: new Set(), // ids of the stored events shown
    ownTurns: new Set(), // invocation ids of the turns this tab streams itself
    version: 0, // stored events, as the server last said
    busy: false,
  };
}

// --- frames ----------------------------------------------------------------------------------

/**
 * Apply one frame from a stream: `source` is "turn" for this tab's own turn streams and
 * "follow" for the session's follow stream. Returns whether anything was applied.
 */
function handleFrame({ kind, data }, source) {
  const event = data.event;
  const invocation = event?.invocation_id || data.messages[0]?.invocation_id || "";
  if (source === "turn") {
    if (invocation) session.ownTurns.add(invocation);
  } else if (kind !== "event" && session.ownTurns.has(invocation)) {
    // This tab streams that turn itself and shows its drafts, errors and end from there: a
    // late copy from the follow stream would bring back a draft the answer has replaced.
    return false;
  }
  if (kind === "event" && event) {
    // Both streams carry this tab's turns, and a page that resumed after a dropped
    // connection may be sent an event again: each is applied once, whichever stream is first.
    if (session.seen.has(event.id)) {
      // The turn stream's own drafts came before it, so its copy still replaces them.
      if (source === "turn") chat.supersede(event.invocation_id);
      return false;
    }
    session.seen.add(event.id);
    session.lastEventId = event.id;
    ui.chat.querySelector(".empty")?.remove();
    timeline.add(event, data.messages);
    // A stored event of the turn supersedes its draft even when it routes to no answer
    // (partial text that ended in a tool call, say).
    chat.supersede(event.invocation_id);
  }
  for (const message of data.messages) {
    chat.show(message, event?.timestamp);
    if (message.kind === "draft") setStatus(`${message.author} is writing…`);
  }
  return true;
}

// --- sessions --------------------------------------------------------------------------------

async function openSession(id) {
  if (!id || session.busy) return;
  unwatch();
  session = blankSession(id);
  chat.clear();
  timeline.clear();
  ui.record.replaceChildren(h("p", { class: "muted" }, "No summary shown yet."));
  ui.state.replaceChildren(h("p", { class: "muted" }, "Loading…"));
  ui.stateMeta.textContent = "";
  ui.sessionLabel.replaceChildren("Session ", h("code", { title: id }, id));
  const url = new URL(location.href);
  url.searchParams.set("session", id);
  history.replaceState(null, "", url);
  ui.select.value = [...ui.select.options].some((o) => o.value === id) ? id : "";
  setBusy(true, "Loading the session…");
  try {
    // No Last-Event-ID: every stored event, then the running turn if there is one.
    await watch(id);
    await loadDetails();
    if (chat.empty) {
      ui.chat.append(
        h(
          "div",
          { class: "empty" },
          h("p", {}, "A new session: write the first message below."),
          ...agentHint(),
        ),
      );
    }
  } catch (err) {
    fail(err);
    if (err instanceof ApiError && err.status === 404) closeSession();
    return;
  } finally {
    setBusy(false);
  }
  // A session with no events has no summary yet: asking would only log a 404.
  if (session.id !== id) return;
  if (!summariesOffered) noSummaries();
  else if (session.version > 0) showSummary({ quiet: true });
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash) follow(hash);
}

function closeSession() {
  unwatch();
  session = blankSession(null);
  ui.sessionLabel.textContent = "No session open";
  ui.state.replaceChildren(h("p", { class: "muted" }, "No session open."));
  ui.stateMeta.textContent = "";
  const url = new URL(location.href);
  url.searchParams.delete("session");
  history.replaceState(null, "", url);
  setBusy(false);
  // It is closed because it is gone (deleted here, in another tab or by another client): the
  // list should stop offering it.
  refreshSessions();
}

/**
 * Follow the session live until another one is opened: the stored events after the newest
 * shown and the running turn, then every turn as it runs, started in this tab or any other.
 * Resolves once caught up (the stream's first `end`); a later failure is reported here.
 */
function watch(id) {
  unwatch();
  const controller = new AbortController();
  watching = controller;
  const current = () => watching === controller;
  let caughtUp = false;
  return new Promise((resolve, reject) => {
    followSession({
      sessionId: id,
      lastEventId: () => session.lastEventId,
      signal: controller.signal,
      onFrame: (frame) => {
        if (!current()) return;
        const applied = handleFrame(frame, "follow");
        if (frame.kind !== "end") return;
        if (!caughtUp) {
          caughtUp = true;
          resolve();
        } else if (!session.busy) {
          setStatus(""); // nothing is writing, and a reconnection is over
          // A turn of another tab or client ended, or what another server stored arrived.
          if (applied) refreshDetails();
        }
      },
      onRetry: (n) => {
        if (current() && !session.busy) {
          setStatus(`The connection dropped; reconnecting (attempt ${n})…`);
        }
      },
    }).then(resolve, (err) => {
      if (!caughtUp) {
        reject(err);
        return;
      }
      if (!current()) return;
      watching = null;
      if (err instanceof ApiError && err.status === 404) {
        // It was open and followed, so it existed: someone deleted it.
        closeSession();
        notice("This session was deleted, in another tab or by another client.");
      } else {
        fail(err);
      }
    });
  });
}

/** Close the follow stream, if one is open. */
function unwatch() {
  watching?.abort();
  watching = null;
}

let refreshing = null;
let refreshAgain = false;

/** Reload the details after another tab's turn, one reload at a time. */
function refreshDetails() {
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      await loadDetails();
      await refreshSessions();
    } while (refreshAgain);
  })()
    .catch(fail)
    .finally(() => {
      refreshing = null;
    });
}

/** State, event count and unanswered requests, as stored. */
async function loadDetails() {
  const open = session;
  if (!open.id) return;
  const detail = await request("GET", sessionPath(open.id));
  if (open !== session) return; // another session was opened meanwhile
  session.version = detail.version;
  renderState(ui.state, detail.state);
  const waiting = detail.pending.length;
  ui.stateMeta.textContent = `${detail.version} events${waiting ? ` · ${waiting} waiting` : ""}`;
  // After a reload or in a second tab the log alone cannot tell whether a request is still
  // open (it may have been abandoned); the server's list of pending requests can.
  chat.reconcile(detail.pending);
}

// --- the served agent -----------------------------------------------------------------------

let agent = null; // what GET /web/agent said: name, description, tools, agents

/** The served agent's hint, as nodes: who answers, and what it can do. */
function agentHint() {
  if (!agent) return [];
  const intro = h("p", {}, "This server runs ", h("strong", {}, agent.name));
  if (agent.description) intro.append(`: ${agent.description}`);
  const abilities = [
    ...agent.tools.map((t) => [h("code", {}, t.name), t.description ? ` — ${t.description}` : ""]),
    ...agent.agents.map((a) => [
      "hands over to ",
      h("code", {}, a.name),
      a.description ? ` — ${a.description}` : "",
    ]),
  ];
  if (!abilities.length) return [intro];
  return [intro, h("ul", { class: "abilities" }, ...abilities.map((parts) => h("li", {}, ...parts)))];
}

async function loadAgent() {
  try {
    agent = await request("GET", "/web/agent");
    if (!agent.summaries) summariesOffered = false;
  } catch {
    agent = null; // no key yet, or an older server: the page works without the hint
  }
  const hint = $("agent-hint");
  if (hint) {
    hint.replaceChildren(...agentHint());
    hint.hidden = !agent;
  }
}

async function newSession() {
  try {
    const created = await request("POST", "/sessions", {});
    await refreshSessions();
    await openSession(created.id);
    ui.text.focus();
  } catch (err) {
    fail(err);
  }
}

async function refreshSessions() {
  try {
    const { sessions } = await request("GET", "/sessions");
    const options = sessions
      .slice()
      .reverse()
      .map((s) => {
        const name = s.id.length > 14 ? `${s.id.slice(0, 12)}…` : s.id;
        return h(
          "option",
          { value: s.id },
          `${name} · ${s.version} events · ${when(s.last_update_time)}`,
        );
      });
    ui.select.replaceChildren(
      h("option", { value: "" }, sessions.length ? "Your sessions…" : "No sessions yet"),
      ...options,
    );
    ui.select.value = session.id && sessions.some((s) => s.id === session.id) ? session.id : "";
  } catch (err) {
    fail(err);
  }
}

/** A time of today, or a date. */
function when(seconds) {
  const date = new Date(seconds * 1000);
  const today = date.toDateString() === new Date().toDateString();
  return today
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString([], { dateStyle: "medium" });
}

// --- turns -----------------------------------------------------------------------------------

/** Stream a turn (a message or an answer) to its end; returns the error, if any. */
async function runTurn(path, body, onOpen) {
  setBusy(true, "The assistant is working…");
  try {
    await streamTurn({
      sessionId: session.id,
      method: "POST",
      path,
      body,
      lastEventId: () => session.lastEventId,
      onFrame: (frame) => handleFrame(frame, "turn"),
      onOpen,
      onRetry: (n) => setStatus(`The connection dropped; resuming (attempt ${n})…`),
    });
    await loadDetails();
    await refreshSessions();
    return null;
  } catch (err) {
    fail(err);
    return err;
  } finally {
    setBusy(false);
  }
}

async function send(event) {
  event.preventDefault();
  const text = ui.text.value.trim();
  if (!text || !session.id || session.busy) return;
  // The text leaves the box only once the server has taken it; the chat shows it when the
  // stored event comes back, so there is no optimistic copy to reconcile.
  await runTurn(sessionPath(session.id, "/messages"), { text }, () => {
    ui.text.value = "";
  });
  ui.text.focus();
}

async function answer(requestId, body, card) {
  if (session.busy || !session.id) return;
  card.querySelector(".outcome").textContent = "Sending your answer…";
  const path = sessionPath(session.id, `/approvals/${encodeURIComponent(requestId)}`);
  const err = await runTurn(path, body);
  if (err instanceof ApiError && err.status === 409) {
    card.querySelector(".outcome").textContent = err.detail;
    await sync(); // answered elsewhere: fetch what happened
  } else if (err) {
    card.querySelector(".outcome").textContent = "Not sent; try again.";
  }
  ui.text.focus();
}

/** Reopen the follow stream: it first sends whatever was stored since the newest event shown
 * (after the connection kept dropping, say), then follows on. */
async function sync() {
  if (!session.id || session.busy) return;
  setBusy(true, "Syncing…");
  try {
    await watch(session.id);
    await loadDetails();
  } catch (err) {
    fail(err);
    if (err instanceof ApiError && err.status === 404) closeSession();
  } finally {
    setBusy(false);
  }
}

// --- handoff record --------------------------------------------------------------------------

async function summarise() {
  if (!session.id) return;
  ui.record.replaceChildren(h("p", { class: "muted" }, "Summarising and checking…"));
  try {
    const summary = await request("POST", sessionPath(session.id, "/summary"));
    renderRecord(ui.record, summary, session.version);
  } catch (err) {
    recordUnavailable(err, "Summarise");
  }
}

async function showSummary({ quiet = false } = {}) {
  if (!session.id) return;
  try {
    const summary = await request("GET", sessionPath(session.id, "/summary"));
    renderRecord(ui.record, summary, session.version);
  } catch (err) {
    recordUnavailable(err, quiet ? "open" : "show");
  }
}

function recordUnavailable(err, action) {
  if (!(err instanceof ApiError) || err.status !== 404) {
    ui.record.replaceChildren();
    fail(err);
    return;
  }
  if (err.detail === "Not Found") {
    // FastAPI's own 404: the route is missing, the server was started without summaries.
    noSummaries();
    return;
  }
  const text =
    action === "Summarise"
      ? err.detail // e.g. the server keeps summaries but takes none on request
      : "No summary of this session yet: press Summarise to take one.";
  ui.record.replaceChildren(h("p", { class: "muted" }, text));
}

function noSummaries() {
  summariesOffered = false;
  ui.record.replaceChildren(h("p", { class: "muted" }, "This server keeps no summaries."));
  setBusy(session.busy, ui.status.textContent);
}

/** Scroll the timeline to an event and highlight it (citations, chips, #<id> links). */
function follow(eventId) {
  if (!eventId) return;
  if (timeline.focus(eventId)) {
    history.replaceState(null, "", `#${encodeURIComponent(eventId)}`);
  } else if (session.id && !document.getElementById(eventId)) {
    // (An id of the page itself, such as the skip link's target, is not an event.)
    notice(`Event ${eventId} is not in this session's timeline.`, "info");
  }
}

// --- page chrome -----------------------------------------------------------------------------

function setBusy(busy, status = "") {
  session.busy = busy;
  const open = Boolean(session.id);
  ui.text.disabled = !open;
  ui.send.disabled = busy || !open;
  ui.sync.disabled = busy || !open;
  ui.summarise.disabled = !open || !summariesOffered;
  ui.showSummary.disabled = !open || !summariesOffered;
  ui.newSession.disabled = busy;
  chat.setBusy(busy);
  setStatus(status);
}

function setStatus(text) {
  ui.status.textContent = text;
  ui.status.classList.toggle("active", Boolean(text));
}

let noticeTimer = 0;

function notice(text, kind = "error") {
  clearTimeout(noticeTimer);
  ui.notice.className = `notice ${kind}`;
  ui.notice.replaceChildren(
    h("span", {}, text),
    h(
      "button",
      { type: "button", class: "dismiss", "aria-label": "Dismiss", onclick: hideNotice },
      "×",
    ),
  );
  ui.notice.hidden = false;
  if (kind === "info") noticeTimer = setTimeout(hideNotice, 6000);
}

function hideNotice() {
  ui.notice.hidden = true;
}

function fail(err) {
  if (err instanceof ApiError) {
    if (err.status === 401) {
      notice("This server needs an API key: enter yours under “API key”.");
      ui.settings.open = true;
      ui.key.focus();
    } else notice(err.detail);
  } else if (err instanceof ConnectionLost) {
    notice("The connection to the server keeps dropping. Press Sync to try again.");
  } else {
    notice("Could not reach the server. Check that it is running, then try again.");
    console.error(err);
  }
}

function wire() {
  ui.composer.addEventListener("submit", send);
  ui.text.addEventListener("keydown", (event) => {
    // Enter sends, Shift+Enter starts a new line (and an IME composition is left alone).
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.composer.requestSubmit();
    }
  });
  ui.newSession.addEventListener("click", newSession);
  ui.select.addEventListener("change", () => {
    if (session.busy)
      ui.select.value = session.id || ""; // not while this tab's turn runs or a session loads
    else openSession(ui.select.value);
  });
  ui.openForm.addEventListener("submit", (event) => {
    event.preventDefault();
    openSession(ui.openId.value.trim());
    ui.openId.value = "";
  });
  ui.key.value = apiKey.get();
  ui.keyForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    apiKey.set(ui.key.value.trim());
    hideNotice();
    ui.settings.open = false;
    notice("API key saved in this browser.", "info");
    await loadAgent();
    await refreshSessions();
    if (session.id) await openSession(session.id);
  });
  ui.forgetKey.addEventListener("click", () => {
    apiKey.set("");
    ui.key.value = "";
    notice("API key forgotten.", "info");
  });
  ui.summarise.addEventListener("click", summarise);
  ui.showSummary.addEventListener("click", () => showSummary());
  ui.sync.addEventListener("click", sync);
  // Citations, chips and event links all carry data-event-id: they move within the page.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-event-id]");
    if (!link) return;
    event.preventDefault();
    follow(link.dataset.eventId);
  });
  window.addEventListener("hashchange", () => follow(decodeURIComponent(location.hash.slice(1))));
}

wire();
setBusy(false);
loadAgent();
refreshSessions().then(() => {
  const id = new URL(location.href).searchParams.get("session");
  if (id) openSession(id);
});
