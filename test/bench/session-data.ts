// Realistic session files for the benchmarks (session.bench.ts, scale.bench.ts):
// code-ish text sliced at random offsets. One block in
// seven carries a non-ASCII character (prose dashes, test-output ticks), which
// makes JavaScriptCore hold that string in UTF-16, twice the bytes.

import { closeSync, openSync, writeSync } from "node:fs";
import { idFromFileName, messageToDisk, serializeEntry, serializeHeader, type DiskMessage } from "../../src/session";

const CORPUS = (() => {
  const words = ["const", "return", "function", "await", "import", "export", "if", "else", "for", "of", "=>", "{", "}", "(", ")", "session", "entry", "message", "path", "file", "0x1f", "null"];
  let s = "";
  let seed = 7;
  while (s.length < 1 << 20) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    s += words[seed % words.length] + (seed % 11 === 0 ? "\n  " : " ");
  }
  return s;
})();
export const text = (n: number) => {
  const at = Math.floor(Math.random() * (CORPUS.length - n));
  const ascii = CORPUS.slice(at, at + n);
  return Math.random() < 1 / 7 ? `${ascii} — ✓` : ascii;
};
export const between = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo));

/** One agent turn's messages: prompt, then tool rounds, then an answer. */
export function* turn(): Generator<DiskMessage> {
  yield messageToDisk({ role: "user", content: [{ type: "text", text: text(between(50, 600)) }] });
  const rounds = between(1, 6);
  for (let r = 0; r < rounds; r++) {
    const id = `toolu_${Math.random().toString(36).slice(2, 14)}`;
    yield messageToDisk(
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: text(between(300, 3000)), signature: "Eq" + Math.random().toString(36).repeat(12) },
          { type: "text", text: text(between(20, 300)) },
          { type: "toolUse", id, name: "edit", input: JSON.stringify({ path: "src/x.ts", old: text(between(50, 800)), new: text(between(50, 800)) }) },
        ],
      },
      { provider: "anthropic", model: "claude-sonnet-5-5", stopReason: "toolUse", usage: { input: between(1000, 90000), output: between(50, 2000) } },
    );
    yield messageToDisk({ role: "user", content: [{ type: "toolResult", toolUseId: id, content: text(between(1500, 12000)) }] });
  }
  yield messageToDisk({ role: "assistant", content: [{ type: "text", text: text(between(100, 1500)) }] }, { provider: "anthropic", model: "claude-sonnet-5-5", stopReason: "stop" });
}

/** Writes a session file of at least `bytes` (and `minEntries`) the way the writer would, whole turns only; returns its entry count. */
export function writeSession(path: string, cwd: string, bytes: number, minEntries = 0): number {
  const fd = openSync(path, "w", 0o600);
  const now = Date.now();
  const header = { type: "session" as const, version: 1, id: idFromFileName(path) ?? Bun.randomUUIDv7(), timestamp: new Date(now).toISOString(), cwd, provider: "anthropic", model: "claude-sonnet-5-5" };
  writeSync(fd, `${serializeHeader(header)}\n`);
  let size = 0;
  let parentId: string | null = null;
  let n = 0;
  const lines: string[] = [];
  const flush = () => {
    writeSync(fd, lines.join(""));
    lines.length = 0;
  };
  lines.push(`${serializeEntry({ type: "message", id: "00000000", parentId, timestamp: header.timestamp, message: messageToDisk({ role: "system", content: [{ type: "text", text: text(4000) }] }) })}\n`);
  parentId = "00000000";
  const push = (line: string) => {
    lines.push(line);
    size += line.length;
  };
  const at = () => new Date(now + n * 1000).toISOString();
  // As awl writes them: user messages stamped with the model and effort, thinking
  // answers with the prefix they were made under, a title after the first prompt.
  while (size < bytes || n < minEntries) {
    for (const message of turn()) {
      const id = (++n).toString(16).padStart(8, "0");
      const stamp = message.role === "user" ? { provider: "anthropic", model: "claude-sonnet-5-5", effort: "high" } : {};
      const prefix = message.content.some((b) => b.type === "thinking") ? { prefixHash: "5e1f0c2a9b3d" } : {};
      push(`${serializeEntry({ type: "message", id, parentId, timestamp: at(), ...stamp, ...prefix, message })}\n`);
      parentId = id;
      if (n === 1) push(`${serializeEntry({ type: "session_info", id: "7171e000", parentId, timestamp: at(), title: "a bench session", source: "auto" })}\n`);
    }
    if (lines.length > 200) flush();
  }
  flush();
  closeSync(fd);
  return n + 2; // the system message and the title too
}
