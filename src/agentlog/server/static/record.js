// The checked handoff record (GET/POST /sessions/{id}/summary): the goal and four lists, each
// item citing the events it rests on. Citations link to the timeline (#<event id>). Every item,
// and the goal, shows the label the validator gave it from what its cited events hold: what a
// tool or a deterministic decision backs ("verified"), what only an agent said ("agent says"),
// what only the customer asserted ("customer says", marked so a reader does not take it as
// established).

import { clock, h, shortId } from "./dom.js";

const SECTIONS = [
  ["facts", "Facts"],
  ["decisions", "Decisions"],
  ["commitments", "Commitments"],
  ["open_questions", "Open questions"],
];

/** Render a StoredSummary into `root`; `version` is the session's current event count. */
export function renderRecord(root, summary, version) {
  root.replaceChildren(...recordNodes(summary, version));
}

function recordNodes(summary, version) {
  if (summary.status === "error") {
    return [
      h(
        "p",
        { class: "record-status failed" },
        `The summariser failed: ${summary.error || "unknown error"}`,
      ),
    ];
  }
  if (summary.status !== "ok" || !summary.record) {
    const problems = (summary.problems || []).flat();
    return [
      h(
        "p",
        { class: "record-status failed" },
        "No checked record: the summary failed its checks.",
      ),
      problems.length
        ? h(
            "ul",
            { class: "problems" },
            problems.map((p) => h("li", {}, problemText(p))),
          )
        : null,
    ];
  }
  const record = summary.record;
  const newer = version - summary.session_version;
  const nodes = [
    h(
      "p",
      { class: "record-status ok" },
      h("span", { class: "check", "aria-hidden": "true" }, "✓"),
      ` Checked · ${summary.summarizer || "summary"} · covers ${summary.session_version} events · ${clock(summary.created_at)}`,
    ),
  ];
  if (newer > 0) {
    nodes.push(
      h(
        "p",
        { class: "record-stale" },
        `${newer} newer event${newer === 1 ? " is" : "s are"} not in it yet: summarise again to include them.`,
      ),
    );
  }
  const goalLabel = record.goal ? LABELS[record.goal_provenance] : null;
  nodes.push(
    h("h3", {}, "Goal"),
    h(
      "p",
      { class: `goal${goalLabel ? ` ${goalLabel.item}` : ""}` },
      goalLabel ? badge(goalLabel) : null,
      record.goal || "(none)",
    ),
  );
  for (const [key, title] of SECTIONS) {
    const items = record[key] || [];
    if (!items.length) continue;
    nodes.push(
      h("h3", {}, title, h("span", { class: "count" }, ` ${items.length}`)),
      h("ul", { class: `items items-${key}` }, items.map(itemNode)),
    );
  }
  if (SECTIONS.every(([key]) => !(record[key] || []).length)) {
    nodes.push(h("p", { class: "muted" }, "Nothing recorded beyond the goal."));
  }
  return nodes;
}

// Each label: the item's class, the badge's class and text, and what the badge explains.
const LABELS = {
  verified: {
    item: "verified",
    badge: "verified-badge",
    text: "verified",
    title: "A tool call, a tool result or a deterministic decision it cites holds this.",
  },
  agent_statement: {
    item: "stated",
    badge: "stated-badge",
    text: "agent says",
    title: "Only an agent said this: no tool result or decision it cites backs it.",
  },
  user_claim: {
    item: "claim",
    badge: "claim-badge",
    text: "customer says",
    title: "Only the customer said this: no tool result or agent event confirms it.",
  },
};

function badge(label) {
  return h("span", { class: `badge ${label.badge}`, title: label.title }, label.text);
}

function itemNode(item) {
  const label = LABELS[item.provenance];
  return h(
    "li",
    { class: `item${label ? ` ${label.item}` : ""}` },
    label ? badge(label) : null,
    h("span", { class: "item-text" }, item.text),
    h(
      "span",
      { class: "cites" },
      h("span", { class: "visually-hidden" }, "Cited events: "),
      (item.sources || []).map((id) =>
        h(
          "a",
          {
            class: "cite",
            href: `#${id}`,
            "data-event-id": id,
            "aria-label": `Event ${id}`,
            title: `Show event ${id} in the timeline`,
          },
          shortId(id),
        ),
      ),
    ),
  );
}

function problemText(problem) {
  if (typeof problem === "string") return problem;
  const where = problem.path ? `${problem.path}: ` : "";
  return `${where}${problem.detail || problem.kind || JSON.stringify(problem)}`;
}
