// kill -9 of `awl -p` while its subagents work (docs/subagents.md): their
// entries are in the parent's log as they happened, so `awl -p --resume`
// finds the task calls unanswered and tells the model that each may or may
// not have finished; nothing is run again, and the strict test server
// accepts the request. One case kills while two children are mid-answer;
// then kills at random moments of the same turn (a fixed seed).
//
//   AWL_SUBAGENT_KILLS=100 bun test test/reliability/subagents-kill.test.ts
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "../e2e/awl";
import { SessionManager } from "../../src/session";
import { colorsFor } from "../../src/ui/render/colors";
import { renderTranscript } from "../../src/ui/session/transcript";
import { prng } from "../support/prng";
import { isChildRequest, subagentModel, taskCall } from "../support/subagent-model";

const KILLS = Number(process.env.AWL_SUBAGENT_KILLS ?? 20);
const SEED = 0x3c6ef372;
const NOT_RECORDED = "awl stopped before this tool call's result was recorded: it may or may not have run.";
const ANSWER = Array.from({ length: 60 }, (_, i) => `step ${i + 1}`).join(", ");

const fx = useE2eFixture();

/** The parent asks for two children; each runs one command that leaves a mark (so a second run would show), then answers slowly. */
function script(round: number, delayMs: number) {
  return subagentModel([
    {
      blocks: [1, 2].map((n) => taskCall(`child ${n}`, { calls: [["bash", { command: `echo ran >> mark-${round}-${n}.txt` }]], answer: ANSWER, delayMs })),
    },
    { blocks: [{ type: "text", text: "carried on" }] },
  ]);
}

const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

/** Starts `awl -p`, waits for `ready` (polled), then kills it with SIGKILL. */
async function killWhen(env: Record<string, string>, ready: () => boolean): Promise<void> {
  const child = Bun.spawn([AWL, "-p", "go"], { cwd: fx.project, env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  while (!ready() && child.exitCode === null) await Bun.sleep(5);
  child.kill("SIGKILL");
  await child.exited;
}

/** Resumes the one session under `sessions` and checks what a kill must leave: the calls answered honestly, nothing re-run, the request accepted. */
async function resumeAndCheck(sessions: string, round: number): Promise<"before the calls" | "while children worked" | "after the results"> {
  const [file] = sessionFiles(sessions);
  expect(file).toBeDefined();
  // Killed before the parent's answer was written: the turn starts again from the prompt, which is no re-run.
  const called = lines(file!).some((l) => l.type === "message" && l.message.role === "assistant" && l.message.content.some((b: { type: string }) => b.type === "toolUse"));
  const before = fx.server.requests.length;
  const resumed = await fx.run(["-p", "--resume", "--", "go on"], { env: { AWL_SESSION_DIR: sessions } });
  expect([round, resumed.code]).toEqual([round, 0]);
  const after = fx.server.requests.slice(before);
  expect(after.every((r) => (r.status ?? 200) === 200)).toBe(true);
  if (!called) return "before the calls";
  expect([round, resumed.stderr]).toEqual([round, ""]); // no call of the resumed turn ran
  // Nothing is re-run: no child asks the model again, and each command ran at most once.
  expect(after.filter(isChildRequest)).toEqual([]);
  for (const n of [1, 2]) {
    const mark = join(fx.project, `mark-${round}-${n}.txt`);
    expect(existsSync(mark) ? readFileSync(mark, "utf8") : "").toMatch(/^(ran\n)?$/);
  }
  // Each task call has one result: the child's answer, or the words for a result that was never recorded.
  const results = after.at(-1)!.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : [])).filter((b: { type?: string }) => b.type === "tool_result");
  expect(results).toHaveLength(2);
  const texts = results.map((r: { content: unknown }) => (typeof r.content === "string" ? r.content : JSON.stringify(r.content)));
  for (const text of texts) expect([round, text.includes(NOT_RECORDED) || text.includes(ANSWER)]).toEqual([round, true]);
  return texts.some((text: string) => text.includes(NOT_RECORDED)) ? "while children worked" : "after the results";
}

test("kill -9 while two children are mid-answer: resume tells the model they may or may not have finished, and runs nothing again", async () => {
  fx.server.respond = script(0, 15);
  const sessions = join(fx.root, "sessions-0");
  const env = { ...fx.env, AWL_SESSION_DIR: sessions };
  // Both children have streamed part of their answers: a partial of each is in the parent's file.
  await killWhen(env, () => {
    const [file] = sessionFiles(sessions);
    if (!file) return false;
    const text = readFileSync(file, "utf8");
    const partials = text.split("\n").filter((l) => l.includes('"entry":{"type":"partial"')).map((l) => { try { return JSON.parse(l).task as string; } catch { return ""; } });
    return new Set(partials.filter(Boolean)).size === 2;
  });
  const [file] = sessionFiles(sessions);
  const wrapped = lines(file!).filter((l) => l.type === "child");
  expect(new Set(wrapped.filter((l) => l.entry.type === "partial").map((l) => l.task)).size).toBe(2);
  // Opened again, each child shows under its call, interrupted, with what it had said.
  const session = await SessionManager.open(file!, { readOnly: true });
  try {
    const shown = renderTranscript(session, colorsFor({ isTTY: false }), 120);
    expect(shown.match(/⎿ subagent interrupted after 1 tool call/g)).toHaveLength(2);
    for (const task of new Set(wrapped.map((l) => l.task))) {
      const said = session.childTranscript(task).at(-1)!;
      expect(said).toMatchObject({ role: "assistant", interrupted: true, content: [{ type: "text", text: expect.stringMatching(/^step 1/) }] });
    }
  } finally {
    session.close();
  }
  await resumeAndCheck(sessions, 0);
  const results = fx.server.requests.at(-1)!.body.messages.at(-1).content.filter((b: { type: string }) => b.type === "tool_result");
  expect(results.map((r: { content: unknown }) => JSON.stringify(r.content))).toEqual([expect.stringContaining(NOT_RECORDED), expect.stringContaining(NOT_RECORDED)]);
}, 60_000);

test(`kill -9 at ${KILLS} random moments of a turn with two children: each resumes correctly`, async () => {
  const random = prng(SEED);
  const when = new Map<string, number>();
  for (let round = 1; round <= KILLS; round++) {
    fx.server.respond = script(round, 1);
    const sessions = join(fx.root, `sessions-${round}`);
    const env = { ...fx.env, AWL_SESSION_DIR: sessions };
    const start = fx.server.requests.length;
    // From the parent's first request to past the children's answers.
    const wait = random.int(0, 500);
    let firstAt: number | undefined;
    await killWhen(env, () => {
      if (firstAt === undefined && fx.server.requests.length > start) firstAt = performance.now();
      return firstAt !== undefined && performance.now() - firstAt >= wait;
    });
    if (sessionFiles(sessions).length === 0) continue; // killed before the first line: nothing to resume
    const at = await resumeAndCheck(sessions, round);
    when.set(at, (when.get(at) ?? 0) + 1);
  }
  // Where the kills fell (printed, not asserted: it depends on the machine's speed).
  console.log(`subagent kills: ${[...when].map(([at, n]) => `${n} ${at}`).join(", ")}`);
}, 600_000);
