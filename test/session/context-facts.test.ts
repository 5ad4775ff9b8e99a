// What the log tells at each entry (src/session/tree/context-facts.ts), on real
// session files: the entries the context holds, and a meter that is the live
// session's own count wherever the two can be compared.
import { expect, test } from "bun:test";
import { textMessage } from "../../src/conversation";
import { contextAt, heldEntries, messageToDisk, SessionManager, usageOf, type CompactionFields } from "../../src/session";
import { useSessionRoot } from "./helpers";

useSessionRoot();
const M = { provider: "anthropic", model: "claude-sonnet-4-5" };

function turn(s: SessionManager, t: number): string {
  const prompt = s.appendMessage(messageToDisk(textMessage("user", `prompt ${t}`)), M);
  s.appendMessage(messageToDisk(textMessage("assistant", `answer ${t}`), { ...M, stopReason: "stop", usage: { input: 200 + t, output: 20, cacheRead: 1000 } }));
  return prompt;
}

const compaction = (firstKeptEntryId: string): CompactionFields => ({
  n: 1,
  summary: "Goal.",
  firstKeptEntryId,
  keptPrompts: [],
  cutToolResults: [],
  window: 100_000,
  tokensBefore: 9000,
  tokensAfter: 700,
  ...M,
  usage: { input: 5000, output: 300 },
});

test("the meter after the last entry is the live session's: the last response's tokens, then the bytes added since", () => {
  const s = SessionManager.init({ cwd: "/work/facts", ...M });
  s.appendMessage(messageToDisk(textMessage("system", "You are awl.")));
  turn(s, 0);
  s.appendMessage(messageToDisk(textMessage("user", "and then?")), { provider: "openai", model: "gpt-4o" });
  const held = heldEntries(s.getBranch(), s.context());
  expect(held.map((e) => e.type === "message" && e.message.role)).toEqual(["user", "assistant", "user"]); // the system prompt is not one of them
  const last = contextAt(held, held.length - 1);
  expect(last.size).toEqual(s.contextSize());
  expect(last.size).toMatchObject({ tokens: 1220, anchored: true });
  expect(last.model).toEqual({ provider: "openai", model: "gpt-4o" }); // who was asked last
  expect(contextAt(held, 1).size).toEqual({ tokens: 1220, bytesSince: 0, anchored: true });
  s.close();
});

test("after a compaction: the held entries begin at its first kept prompt, it anchors the meter, and its summary request counts as usage", () => {
  const s = SessionManager.init({ cwd: "/work/facts", ...M });
  s.appendMessage(messageToDisk(textMessage("system", "You are awl.")));
  const prompts = [0, 1, 2].map((t) => turn(s, t));
  const entry = s.appendCompaction(compaction(prompts[2]!));
  s.appendCompaction(compaction("no-such-entry")); // passed over: it keeps from no earlier prompt
  const held = heldEntries(s.getBranch(), s.context());
  expect(held.map((e) => e.id)).toEqual([prompts[2]!, held[1]!.id, entry.id]);
  const after = contextAt(held, 2);
  expect(after).toEqual({ size: { tokens: 700, bytesSince: 0, anchored: true }, model: M, compaction: entry });
  expect(after.size).toEqual(s.contextSize());
  expect(usageOf(held)).toEqual({ input: 5202, output: 320, cacheRead: 1000 });
  s.close();
});
