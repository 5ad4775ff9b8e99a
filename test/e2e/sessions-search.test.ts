// awl sessions search: titles, labels, prompts and answers, case-insensitive,
// newest first, each match with its entry id and the text around it; never
// thinking, signatures, tool calls or their output, nor JSON escapes.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd } from "../../src/session/log/paths";
import { useE2eFixture } from "./awl";

const fx = useE2eFixture();
const DAY = 86_400_000;

function write(cwd: string, id: string, daysAgo: number, lines: object[]): void {
  const when = new Date(Date.now() - daysAgo * DAY).toISOString();
  const dir = join(fx.sessions, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const head = { type: "session", version: 1, id, timestamp: when, cwd, provider: "anthropic", model: "claude-sonnet-4-5" };
  const stamped = lines.map((l) => ({ ...l, timestamp: when }));
  writeFileSync(join(dir, `${when.replace(/[:.]/g, "-")}_${id}.jsonl`), [head, ...stamped].map((l) => JSON.stringify(l)).join("\n") + "\n", { mode: 0o600 });
}
const user = (id: string, parentId: string | null, content: object[]) => ({ type: "message", id, parentId, provider: "anthropic", model: "m", message: { role: "user", content } });
const assistant = (id: string, parentId: string, content: object[]) => ({ type: "message", id, parentId, message: { role: "assistant", content, provider: "anthropic", model: "m", stopReason: "stop" } });

test("finds the text where people wrote or read it, newest first, and nowhere else", async () => {
  write(fx.project, "019a0000-0000-7000-8000-000000000001", 5, [
    user("p1", null, [{ type: "text", text: "Why does the Quokka parser drop offsets?" }]),
    assistant("a1", "p1", [{ type: "thinking", thinking: "quokka in thinking", signature: "quokka-signature" }, { type: "text", text: "It cuts at 19.\nline two" }]),
  ]);
  write(fx.project, "019b0000-0000-7000-8000-000000000002", 1, [
    user("p1", null, [{ type: "text", text: "unrelated" }]),
    assistant("a1", "p1", [{ type: "toolUse", id: "t1", name: "bash", input: '{"command":"echo quokka"}' }]),
    user("r1", "a1", [{ type: "toolResult", toolUseId: "t1", content: "quokka from a tool" }]),
    assistant("a2", "r1", [{ type: "text", text: 'the answer says "QUOKKA" loudly' }]),
    { type: "session_info", id: "t2", parentId: "a2", title: "Quokka hunt", source: "user" },
  ]);
  write(join(fx.root, "other"), "019c0000-0000-7000-8000-000000000003", 0, [user("p1", null, [{ type: "text", text: "a quokka elsewhere" }])]);

  const run = await fx.run(["sessions", "search", "quokka"]);
  expect(run.code).toBe(0);
  const lines = run.stdout.trimEnd().split("\n");
  expect(lines).toEqual([
    expect.stringMatching(/^019b0000  \d{4}-\d\d-\d\d \d\d:\d\d  Quokka hunt$/),
    '  a2  the answer says "QUOKKA" loudly',
    "  t2  Quokka hunt",
    expect.stringMatching(/^019a0000  .*  Why does the Quokka parser drop offsets\?$/),
    "  p1  Why does the Quokka parser drop offsets?",
  ]);

  const json = (await fx.run(["sessions", "search", "QUOKKA", "--all", "--json"])).stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  expect(json.map((h) => [h.session.slice(0, 4), h.entry])).toEqual([["019c", "p1"], ["019b", "a2"], ["019b", "t2"], ["019a", "p1"]]);
  expect(json[1]).toMatchObject({ title: "Quokka hunt", line: 'the answer says "QUOKKA" loudly' });

  // JSON escapes are not text: the \n of "19.\nline" holds no "nline"; a quote is searched as written.
  const none = await fx.run(["sessions", "search", "nline"]);
  expect(none.stdout).toContain("No session of this directory holds 'nline'");
  expect(none.code).toBe(1); // nothing found, as grep says it
  const noneJson = await fx.run(["sessions", "search", "nline", "--json"]);
  expect([noneJson.code, noneJson.stdout]).toEqual([1, ""]);
  expect((await fx.run(["sessions", "search", '"QUOKKA"'])).stdout).toContain('  a2  the answer says "QUOKKA" loudly');
  expect((await fx.run(["sessions", "search", "line two"])).stdout).toContain("  a1  It cuts at 19. line two");
  expect((await fx.run(["sessions", "search"])).code).toBe(2);
});
