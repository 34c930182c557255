// Renders a stored summary with the page's record.js under a minimal DOM and prints the tree
// as JSON: {tag, class, title, children} with text nodes as strings. Usage:
//   node render_record.mjs <static dir> <summary.json>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

class Node {}
class Element extends Node {
  constructor(tag) {
    super();
    this.tag = tag;
    this.className = "";
    this.attributes = {};
    this.children = [];
  }
  setAttribute(name, value) {
    this.attributes[name] = value;
  }
  addEventListener() {}
  append(...nodes) {
    this.children.push(...nodes);
  }
  replaceChildren(...nodes) {
    this.children = nodes;
  }
  toJSON() {
    return {
      tag: this.tag,
      class: this.className,
      title: this.attributes.title ?? null,
      children: this.children,
    };
  }
}
globalThis.Node = Node;
globalThis.document = { createElement: (tag) => new Element(tag) };

const [staticDir, summaryPath] = process.argv.slice(2);
const { renderRecord } = await import(pathToFileURL(join(staticDir, "record.js")).href);
const summary = JSON.parse(readFileSync(summaryPath, "utf8"));
const root = new Element("div");
renderRecord(root, summary, summary.session_version);
process.stdout.write(JSON.stringify(root));
