// The HTTP API, as the page uses it: JSON requests, turns streamed as server-sent events, and a
// session followed live across its turns; each stream resumes with Last-Event-ID when the
// connection drops.

import { SseParser } from "./sse.js";

const KEY_STORAGE = "agentlog.apiKey";
const MAX_RECONNECTS = 8;

/** The API key typed into the page, kept in localStorage (never sent anywhere else). */
export const apiKey = {
  get() {
    try {
      return localStorage.getItem(KEY_STORAGE) || "";
    } catch {
      return ""; // storage disabled: the page still works on a local server
    }
  },
  set(value) {
    try {
      if (value) localStorage.setItem(KEY_STORAGE, value);
      else localStorage.removeItem(KEY_STORAGE);
    } catch {
      // Storage disabled: nothing to keep.
    }
  },
};

/** A response other than 2xx; `detail` is the server's sentence. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

/** The connection kept dropping before the turn's end arrived. */
export class ConnectionLost extends Error {}

function headers(extra = {}) {
  const out = { ...extra };
  const key = apiKey.get();
  if (key) out.Authorization = `Bearer ${key}`;
  return out;
}

async function failure(response) {
  let detail = response.statusText || `HTTP ${response.status}`;
  try {
    const body = await response.json();
    if (typeof body.detail === "string") detail = body.detail;
    else if (Array.isArray(body.detail)) {
      // A 422 lists each field that was refused and why.
      detail = body.detail
        .map((d) => `${(d.loc || []).slice(1).join(".") || "request"}: ${d.msg}`)
        .join("; ");
    }
  } catch {
    // Not JSON: keep the status text.
  }
  return new ApiError(response.status, detail);
}

export function sessionPath(sessionId, rest = "") {
  return `/sessions/${encodeURIComponent(sessionId)}${rest}`;
}

/** A JSON request; resolves to the parsed body (null for 204), throws ApiError. */
export async function request(method, path, body) {
  const init = { method, headers: headers({ Accept: "application/json" }), cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await failure(response);
  if (response.status === 204) return null;
  return response.json();
}

async function openStream(method, path, body, lastEventId, signal) {
  const extra = { Accept: "text/event-stream" };
  // Every request says which stored event the page holds last: the server first sends what
  // was stored after it (a compaction stored after the previous turn's end, or the rest of a
  // turn after a dropped connection), each event exactly once.
  if (lastEventId) extra["Last-Event-ID"] = lastEventId;
  const init = { method, headers: headers(extra), cache: "no-store", signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await failure(response);
  return response;
}

/**
 * Read one stream, calling onFrame per frame. By default it stops at the turn's `end` and
 * returns true; with `untilClosed` it reads on until the server closes the stream (false).
 */
async function readFrames(response, onFrame, { untilClosed = false, signal } = {}) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      for (const sse of done ? parser.finish() : parser.push(value)) {
        if (signal?.aborted) return false; // a chunk read before the abort is not applied
        let data;
        try {
          data = JSON.parse(sse.data);
        } catch {
          continue; // not one of ours
        }
        onFrame({ kind: sse.event, id: sse.id, data });
        if (sse.event === "end" && !untilClosed) return true;
      }
      if (done) return false;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stream a turn to its end. `method`, `path` and `body` start it (POST a message or an
 * answer, or GET the session's stream); if the connection drops before the `end` frame, the
 * page reattaches to GET /sessions/{id}/stream with Last-Event-ID until the end arrives.
 *
 * `lastEventId()` is asked before each request, so a reconnect resumes after the newest
 * stored event the page has shown. `onOpen` runs once the first request was accepted.
 */
export async function streamTurn({
  sessionId,
  method,
  path,
  body,
  lastEventId,
  onFrame,
  onOpen,
  onRetry,
}) {
  let response = await openStream(method, path, body, lastEventId());
  onOpen?.();
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (response && (await readFrames(response, onFrame))) return;
    } catch {
      // The connection broke mid-stream: resume below.
    }
    if (attempt > MAX_RECONNECTS) throw new ConnectionLost("the connection keeps dropping");
    onRetry?.(attempt);
    await sleep(Math.min(250 * 2 ** attempt, 4000));
    try {
      response = await openStream(
        "GET",
        sessionPath(sessionId, "/stream"),
        undefined,
        lastEventId(),
      );
    } catch (err) {
      // A refusal (the session is gone, the key was revoked) will not get better by retrying.
      if (err instanceof ApiError && err.status < 500) throw err;
      response = null;
    }
  }
}

/**
 * Follow a session live until `signal` aborts: GET /sessions/{id}/stream?follow=true sends the
 * stored events after Last-Event-ID and the running turn, then an `end` (the page is caught
 * up), then every later turn as it runs, whichever tab or client started it (a turn another
 * server process runs arrives as stored events, without drafts).
 *
 * When the connection drops or the server closes the stream, it reconnects with the newest
 * `lastEventId()`. Resolves once aborted; throws ApiError when the server refuses (the
 * session is gone) and ConnectionLost after MAX_RECONNECTS failures in a row.
 */
export async function followSession({ sessionId, lastEventId, onFrame, onRetry, signal }) {
  const path = `${sessionPath(sessionId, "/stream")}?follow=true`;
  let opened = false;
  let failures = 0;
  for (;;) {
    try {
      const response = await openStream("GET", path, undefined, lastEventId(), signal);
      opened = true;
      failures = 0;
      await readFrames(response, onFrame, { untilClosed: true, signal });
    } catch (err) {
      if (signal.aborted) return;
      // A first request that fails says so at once, as a turn's does; a refusal later (the
      // session was deleted, the key revoked) will not get better by retrying either.
      if (!opened || (err instanceof ApiError && err.status < 500)) throw err;
    }
    if (signal.aborted) return;
    failures += 1;
    if (failures > MAX_RECONNECTS) throw new ConnectionLost("the connection keeps dropping");
    onRetry?.(failures);
    await sleep(Math.min(250 * 2 ** failures, 4000));
  }
}
