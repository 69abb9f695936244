// Parses Mermaid from standard input with the real mermaid package (run by tests/test_graph.py).
import { JSDOM } from "jsdom";
const dom = new JSDOM("<!doctype html><html><body></body></html>");
globalThis.window = dom.window; globalThis.document = dom.window.document;
globalThis.DOMPurify = undefined;
const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false });
let src = ""; for await (const c of process.stdin) src += c;
try { const r = await mermaid.parse(src); console.log("ok", JSON.stringify(r)); } catch (e) { console.log("error", e.message); process.exit(1); }
