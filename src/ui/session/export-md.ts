// An export as Markdown: readable as it is and rendered well by any viewer;
// thinking and long results fold (<details>), code fences are longer than any
// run of backticks inside them, so no text can close them early.
import type { Document, Part } from "./export-parts";

export const REDACTED_NOTE =
  "Redacted for sharing: provider API keys and text shaped like common keys (sk-…, sk-ant-…, ghp_…, AKIA…, private key blocks) are replaced by [redacted …], and paths under the home directory are written ~/….";

export function toMarkdown(doc: Document): string {
  const out = [`# ${oneLine(doc.title)}`, "", `awl session \`${doc.id}\` in \`${doc.cwd}\`, started ${doc.created}.`, "", `> ${REDACTED_NOTE}`, ""];
  for (const part of doc.parts) out.push(...partLines(part), "");
  return `${out.join("\n").trimEnd()}\n`;
}

function partLines(part: Part): string[] {
  switch (part.kind) {
    case "prompt":
      return ["---", "", `## You · ${part.time}`, "", part.text];
    case "answer":
      return [`## awl${part.model ? ` · ${part.model}` : ""}`, "", part.text];
    case "thinking":
      return ["<details><summary>Thinking</summary>", "", part.text, "", "</details>"];
    case "call":
      return [`**${part.name}**${part.summary ? ` \`${oneLine(part.summary)}\`` : ""}`, ...(part.body ? ["", ...fenced(part.body, part.language)] : [])];
    case "result": {
      const label = part.isError ? "Result (error)" : "Result";
      const body = fenced(part.text, "");
      return part.text.split("\n").length > 20 ? [`<details><summary>${label}</summary>`, "", ...body, "", "</details>"] : [`${label}:`, "", ...body];
    }
    case "interrupted":
      return ["*Interrupted.*"];
    case "subagent":
      return ["<details><summary>What the subagent did</summary>", "", ...part.parts.flatMap((p) => [...partLines(p), ""]), "</details>"];
    case "summary":
      return [`<details><summary>Summary of the earlier conversation (compaction ${part.n})</summary>`, "", part.text, "", "</details>"];
  }
}

function fenced(text: string, language: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, text, fence];
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").replaceAll("`", "'").trim();
