// The tree reads message lines by their head (src/session/tree/heads.ts): what it
// reads must be what a full parse of the same line says.
import { describe, expect, test } from "bun:test";
import { parseLine, serializeEntry, type DiskMessage, type MessageEntry } from "../../src/session";
import { slimEntry } from "../../src/session/log/entry-index";
import { FIRST_LINE_CHARS, messageHead } from "../../src/session/tree/heads";
import { prng } from "../support/prng";

const random = prng(7);
const PIECES = ["plain words ", "\n", "\"quoted\"", "\\", "\\n", "é", "🌍", "\u2028", "\t", "}", "{\"type\":\"text\",\"text\":\"", "x".repeat(300)];
const someText = () => Array.from({ length: random.int(0, 12) }, () => random.pick(PIECES)).join("");

function message(): DiskMessage {
  const role = random.pick(["system", "user", "assistant"] as const);
  const content: DiskMessage["content"] = [];
  if (role === "user" && random() < 0.4) content.push({ type: "toolResult", toolUseId: "t1", content: someText() });
  if (random() < 0.8) content.push({ type: "text", text: someText() });
  if (role === "assistant" && random() < 0.5) content.push({ type: "toolUse", id: "t2", name: "bash", input: JSON.stringify({ command: someText() }) });
  return { role, content };
}

describe("message heads", () => {
  test("agree with a full parse on 2,000 lines awl writes: id, parent, time, stamp, effort, prefix hash, role, prompt, tool calls, first line", () => {
    for (let i = 0; i < 2000; i++) {
      const m = message();
      const stamp = m.role === "user" && random() < 0.7 ? { provider: "anthropic", model: "claude-sonnet-4-5", ...(random() < 0.5 ? { effort: "high" } : {}) } : {};
      const made = m.role === "assistant" && random() < 0.5 ? { prefixHash: "5e1f0c2a9b3d" } : {};
      // An id with an escape (no id awl makes has one) is left to the full parse, as the tree does.
      const escaped = i % 5 === 0;
      const entry: MessageEntry = { type: "message", id: escaped ? `i${i}"\\` : `i${i}`, parentId: random() < 0.1 ? null : `p${i}`, timestamp: "2026-01-01T00:00:00.000Z", ...stamp, ...made, message: m };
      const line = serializeEntry(entry);
      if (escaped) {
        expect(messageHead(Buffer.from(line))).toBeUndefined();
        continue;
      }
      const head = messageHead(Buffer.from(line))!;
      const parsed = parseLine(line)!;
      if (parsed.kind !== "entry") throw new Error("not an entry");
      const { effort, prefixHash, ...kept } = slimEntry(parsed.entry) as MessageEntry; // the tree has no use for these two
      expect(head.entry).toEqual(kept);
      expect(head.toolCalls).toBe(m.role === "assistant" && m.content.some((b) => b.type === "toolUse"));
      // Without text (a fork, a target): the same entry, prompt and tool calls; only a prompt's words are read.
      const bare = messageHead(Buffer.from(line), false)!;
      expect(bare.entry).toEqual(head.entry);
      expect([bare.prompt, bare.toolCalls]).toEqual([head.prompt, head.toolCalls]);
      expect(bare.text).toBe(head.prompt ? head.text : "");
      // What stands for the entry: its first text, else its tool call (name and input), else its tool result.
      const block = m.content.find((b) => b.type === "text") ?? m.content.find((b) => b.type === "toolUse") ?? m.content.find((b) => b.type === "toolResult");
      const said = block?.type === "text" ? block.text : block?.type === "toolUse" ? `${block.name} ${block.input}` : block?.type === "toolResult" ? block.content : undefined;
      if (said !== undefined) {
        const first = said.trimStart().split("\n", 1)[0]!.slice(0, FIRST_LINE_CHARS);
        expect(first.startsWith(head.text.replace(/\uFFFD$/, ""))).toBe(true);
        expect(head.text.length).toBeGreaterThanOrEqual(Math.min(first.length, 60));
      }
    }
  });

  test("a line in another key order, or of another kind, is left to the full parse", () => {
    expect(messageHead(Buffer.from('{"id":"a","type":"message","parentId":null,"timestamp":"t","message":{"role":"user","content":[]}}'))).toBeUndefined();
    // A head that is not all ASCII (here a model's name) is read whole too, so nothing is decoded wrongly.
    expect(messageHead(Buffer.from('{"type":"message","id":"a","parentId":null,"timestamp":"t","provider":"p","model":"modèle","message":{"role":"user","content":[]}}'))).toBeUndefined();
    expect(messageHead(Buffer.from('{"type":"leaf","id":"a","parentId":null,"timestamp":"t","targetId":"b"}'))).toBeUndefined();
  });
});
