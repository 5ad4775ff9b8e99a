// An extension's entries in a session opened without the extension
// (docs/session-format.md, "An extension's entries"): awl never rewrites
// their lines, whatever their JSON looks like, through resume, compaction, a
// fork and the JSONL export; the model still gets a custom_message's words
// and never a custom entry's data; the transcript shows each as one dim line.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messageToDisk, SessionManager } from "../../src/session";
import { forkSession } from "../../src/session/tree";
import { colorsFor } from "../../src/ui/render/colors";
import { exportText } from "../../src/ui/session/export";
import { renderTranscript } from "../../src/ui/session/transcript";
import { SPEC, useSessionRoot } from "./helpers";

const root = useSessionRoot();
const M = { provider: "anthropic", model: "claude-sonnet-4-20250514" };

// As another awl with the extension wrote them: valid JSON this build's serializer would never write byte for byte (an escaped é, 1.50, keys of its data in the extension's order).
const CUSTOM = String.raw`{"type":"custom","id":"e5e5e5e5","parentId":"c3d4e5f6","timestamp":"2026-04-25T14:00:04.000Z","customType":"counter","data":{"z":1,"a":"caf\u00e9","n":1.50}}`;
const CUSTOM_MESSAGE = String.raw`{"type":"custom_message","id":"f6f6f6f6","parentId":"e5e5e5e5","timestamp":"2026-04-25T14:00:05.000Z","customType":"hook","content":[{"type":"text","text":"Remember: the tests use port 4100 \u2014 not 3000."}],"display":true}`;
const WORDS = "Remember: the tests use port 4100 — not 3000.";

function sessionFile(): string {
  const dir = join(root(), "sessions", "extension");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "2026-04-25T14-00-00-000Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl");
  writeFileSync(file, [SPEC.header, SPEC.system, SPEC.stampedUser, SPEC.assistant, SPEC.stampedToolResults, CUSTOM, CUSTOM_MESSAGE].join("\n") + "\n", { mode: 0o600 });
  return file;
}

/** The user messages' texts the model is sent. */
const sentTexts = (s: SessionManager) => s.context().messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));

test("the model is sent a custom_message's words, marked as the extension's, and nothing of a custom entry", async () => {
  const s = await SessionManager.open(sessionFile());
  try {
    const texts = sentTexts(s);
    const words = texts.find((t) => t.includes(WORDS));
    expect(words).toBeDefined();
    expect(words).toContain("[Added by a hook, not typed by the user.]"); // customType "hook": the hooks' own words
    expect(texts.join("\n")).not.toContain("café");
    expect(s.getLeafId()).toBe("f6f6f6f6");
  } finally {
    s.close();
  }
});

test("resume and compaction append after the extension's lines and leave them byte-identical", async () => {
  const file = sessionFile();
  const before = readFileSync(file);
  const s = await SessionManager.open(file);
  try {
    s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "text", text: "Using 4100." }] }, { ...M, stopReason: "stop" }));
    s.appendCompaction({ n: 1, summary: "Listed files.", firstKeptEntryId: "a1b2c3d4", keptPrompts: [], cutToolResults: [], window: 200_000, tokensBefore: 2000, tokensAfter: 500, ...M });
    expect(sentTexts(s).some((t) => t.includes(WORDS))).toBe(true);
  } finally {
    s.close();
  }
  const after = readFileSync(file);
  expect(after.subarray(0, before.length).equals(before)).toBe(true);
  // Opened again, from the tail the compaction made, the words are still sent.
  const again = await SessionManager.open(file, { readOnly: true });
  try {
    expect(sentTexts(again).some((t) => t.includes(WORDS))).toBe(true);
  } finally {
    again.close();
  }
});

test("a fork and the JSONL export copy the extension's lines as they are", () => {
  const file = sessionFile();
  const fork = forkSession({ parentFile: file, cwd: "/Users/travis/Code/awl", model: (m) => m });
  const forked = readFileSync(fork.file, "utf8").split("\n");
  expect(forked).toContain(CUSTOM);
  expect(forked).toContain(CUSTOM_MESSAGE);
  const exported = exportText(file, "jsonl").split("\n");
  expect(exported).toContain(CUSTOM);
  expect(exported).toContain(CUSTOM_MESSAGE);
});

test("the transcript shows each extension entry as one dim line after the message before it", async () => {
  const s = await SessionManager.open(sessionFile(), { readOnly: true });
  try {
    const lines = renderTranscript(s, colorsFor({ isTTY: false }), 100).split("\n");
    const at = lines.findIndex((l) => l.includes("counter entry"));
    expect(at).toBeGreaterThan(0);
    expect(lines[at]).toBe("· counter entry");
    expect(lines[at + 1]).toBe(`· hook: ${WORDS}`);
    // Dim where colour is on: the same line, styled.
    const colored = renderTranscript(s, colorsFor({ isTTY: true }, { FORCE_COLOR: "1" }), 100);
    expect(colored).toContain("\x1b[2m· counter entry");
  } finally {
    s.close();
  }
});
