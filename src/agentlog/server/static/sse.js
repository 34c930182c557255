// A server-sent event parser for fetch response bodies.
//
// The page reads streams with fetch instead of EventSource because EventSource can only GET
// and cannot send an Authorization header, while a turn starts with a POST and a server with
// keys needs the header. So the parsing EventSource would do is done here.

export class SseParser {
  constructor() {
    this.buffer = "";
    this.reset();
  }

  reset() {
    this.event = "";
    this.data = [];
    // The id is per event, not carried over as EventSource would: the server sets one only
    // on frames that stand for a stored event, and a draft must not look like one.
    this.id = null;
  }

  /** Feed decoded text; returns the events it completed ({event, data, id}). */
  push(text) {
    this.buffer += text;
    // A chunk may end between the "\r" and "\n" of one line break: a trailing "\r" waits
    // for the next chunk, or it would read as a line break plus an empty line (a dispatch).
    const lines = this.buffer.split(/\r\n|\r(?!$)|\n/);
    this.buffer = lines.pop();
    const events = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** The stream ended: whatever is left, as if a blank line followed. */
  finish() {
    const rest = this.buffer.replace(/\r$/, "");
    this.buffer = "";
    const events = rest ? this.push(`${rest}\n\n`) : [];
    const last = this.line("");
    return last ? [...events, last] : events;
  }

  line(line) {
    if (line === "") {
      if (this.data.length === 0) {
        this.reset();
        return null;
      }
      const event = { event: this.event || "message", data: this.data.join("\n"), id: this.id };
      this.reset();
      return event;
    }
    if (line.startsWith(":")) return null; // a comment: the server's keep-alive ping
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.data.push(value);
    else if (name === "event") this.event = value;
    else if (name === "id") this.id = value;
    return null;
  }
}
