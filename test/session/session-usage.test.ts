// A session's running totals (the cost shown after every turn and checked
// before every request) read the file whole once, then only what was
// appended: after each append, and after a crash-recovery trim, they equal
// what `awl sessions stats` adds up from the whole file.
import { expect, test } from "bun:test";
import { appendFileSync, truncateSync, statSync } from "node:fs";
import { messageToDisk, SessionManager } from "../../src/session";
import { SessionUsage, usageTotals } from "../../src/session/store";
import { useSessionRoot } from "./helpers";

useSessionRoot();

const SONNET = { provider: "anthropic", model: "claude-sonnet-4-5" };
const GPT = { provider: "openai", model: "gpt-5" };
const answer = (n: number, model: { provider: string; model: string }) =>
  messageToDisk({ role: "assistant", content: [{ type: "text", text: `answer ${n}` }] }, { ...model, stopReason: "stop", usage: { input: 100 * n, output: 10 * n, cacheRead: 1000 * n } });

test("after every append, and after the file was cut back, the running totals equal the whole file's", () => {
  const s = SessionManager.init({ cwd: "/proj", ...SONNET });
  s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "go" }] }), SONNET);
  const running = new SessionUsage(s.sessionFile);
  const whole = () => usageTotals([s.sessionFile], 0).models;
  expect(running.models()).toEqual(whole());
  for (let n = 1; n <= 4; n++) {
    const model = n % 2 ? SONNET : GPT;
    s.appendMessage(answer(n, model), model);
    expect(running.models()).toEqual(whole());
  }
  expect(running.models().map((m) => m.requests)).toEqual([2, 2]);
  // A line being written when awl died: not counted until whole; a trim back: read again from the top.
  const size = statSync(s.sessionFile).size;
  appendFileSync(s.sessionFile, '{"type":"message","id":"torn');
  expect(running.models()).toEqual(whole());
  truncateSync(s.sessionFile, size);
  expect(running.models()).toEqual(whole());
  s.close();
});
