// The picker's preview reads a session's last prompts and answers from the end
// of its file: tool calls, results and titles are passed over, a torn last
// line is skipped, and an answer of megabytes does not stop it.
import { expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { textMessage } from "../../src/conversation";
import { messageToDisk, SessionManager } from "../../src/session";
import { lastSaid } from "../../src/session/store/last-turns";
import { useSessionRoot } from "./helpers";

useSessionRoot();
const M = { provider: "anthropic", model: "m" };

test("the last prompts and answers, oldest first, without tool traffic or titles; a torn tail is skipped", () => {
  const s = SessionManager.init({ cwd: "/proj", ...M });
  s.appendMessage(messageToDisk(textMessage("system", "sys")));
  s.appendMessage(messageToDisk(textMessage("user", "first question")), M);
  s.appendMessage(messageToDisk(textMessage("assistant", "first answer")));
  s.appendMessage(messageToDisk(textMessage("user", "second question")), M);
  s.appendMessage({ role: "assistant", content: [{ type: "toolUse", id: "t1", name: "bash", input: "{}" }] });
  s.appendMessage({ role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: "tool output" }] }, M);
  s.appendMessage(messageToDisk(textMessage("assistant", "x".repeat(3_000_000))));
  s.setTitle("named", "user");
  s.close();
  appendFileSync(s.sessionFile, '{"type":"message","id":"torn');

  expect(lastSaid(s.sessionFile, 3)).toEqual([
    { role: "assistant", text: "first answer" },
    { role: "user", text: "second question" },
    { role: "assistant", text: "x".repeat(3_000_000) },
  ]);
  expect(lastSaid(s.sessionFile, 10).map((t) => t.text.slice(0, 15))).toEqual(["first question", "first answer", "second question", "xxxxxxxxxxxxxxx"]);
  expect(lastSaid("/no/such/file", 3)).toEqual([]);
});

test("an answer a kill cut off is previewed from its partials; partials a message followed are passed over", () => {
  const s = SessionManager.init({ cwd: "/proj", ...M });
  s.appendMessage(messageToDisk(textMessage("user", "first question")), M);
  s.appendPartial({ attempt: 1, block: 0, text: "first ans" });
  s.appendMessage(messageToDisk(textMessage("assistant", "first answer")));
  s.appendMessage(messageToDisk(textMessage("user", "second question")), M);
  s.appendPartial({ attempt: 1, block: 0, text: "an older try" });
  s.appendPartial({ attempt: 2, block: 0, text: "second " });
  s.appendPartial({ attempt: 2, block: 0, text: "answer so far" });
  s.close();
  expect(lastSaid(s.sessionFile, 3)).toEqual([
    { role: "assistant", text: "first answer" },
    { role: "user", text: "second question" },
    { role: "assistant", text: "second answer so far" },
  ]);
});
