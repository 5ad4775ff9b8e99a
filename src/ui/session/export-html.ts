// An export as one self-contained HTML file: its style inline, no script and
// nothing fetched from anywhere, so it opens offline and cannot call home.
// Every text is escaped; thinking and long results fold (<details>).
import type { Document, Part } from "./export-parts";
import { REDACTED_NOTE } from "./export-md";

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.5rem}.meta,.note{color:#555;font-size:.9rem}.note{border-left:3px solid #ccc;padding-left:.75rem}
.turn{margin:1.5rem 0 .5rem;border-top:1px solid #ddd;padding-top:1rem}.who{font-weight:600;margin:.75rem 0 .25rem}
.text{white-space:pre-wrap;overflow-wrap:anywhere}pre{background:#f5f5f7;padding:.6rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.error pre{background:#fff0f0}.del{color:#b00}.add{color:#070}summary{cursor:pointer;color:#555}
@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}pre{background:#1e1e1e}.error pre{background:#301818}.meta,.note,summary{color:#aaa}}`;

export function toHtml(doc: Document): string {
  const body = doc.parts.map(partHtml).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escape(doc.title)}</title><style>${STYLE}</style></head>
<body><h1>${escape(doc.title)}</h1>
<p class="meta">awl session <code>${escape(doc.id)}</code> in <code>${escape(doc.cwd)}</code>, started ${escape(doc.created)}.</p>
<p class="note">${escape(REDACTED_NOTE)}</p>
${body}
</body></html>
`;
}

function partHtml(part: Part): string {
  switch (part.kind) {
    case "prompt":
      return `<div class="turn"><div class="who">You · ${escape(part.time)}</div><div class="text">${escape(part.text)}</div></div>`;
    case "answer":
      return `<div class="who">awl${part.model ? ` · ${escape(part.model)}` : ""}</div><div class="text">${escape(part.text)}</div>`;
    case "thinking":
      return `<details><summary>Thinking</summary><div class="text">${escape(part.text)}</div></details>`;
    case "call":
      return `<div class="who">${escape(part.name)}${part.summary ? ` <code>${escape(part.summary)}</code>` : ""}</div>${part.body ? `<pre>${part.language === "diff" ? diffHtml(part.body) : escape(part.body)}</pre>` : ""}`;
    case "result": {
      const label = part.isError ? "Result (error)" : "Result";
      const pre = `<pre>${escape(part.text)}</pre>`;
      const inner = part.text.split("\n").length > 20 ? `<details><summary>${label}</summary>${pre}</details>` : `<div class="who">${label}</div>${pre}`;
      return `<div class="${part.isError ? "error" : "result"}">${inner}</div>`;
    }
    case "interrupted":
      return `<div class="who">Interrupted.</div>`;
    case "subagent":
      return `<details class="subagent"><summary>What the subagent did</summary>${part.parts.map(partHtml).join("\n")}</details>`;
    case "summary":
      return `<details><summary>Summary of the earlier conversation (compaction ${part.n})</summary><div class="text">${escape(part.text)}</div></details>`;
  }
}

function diffHtml(body: string): string {
  return body
    .split("\n")
    .map((line) => `<span class="${line.startsWith("-") ? "del" : "add"}">${escape(line)}</span>`)
    .join("\n");
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
