// The counter extension as docs/extensions.md teaches it, through the compiled
// binary, driven by seeded random steps: tool calls (two in one answer, or
// one), rewinds of the conversation to an earlier answer, forks at one, kill -9
// of awl while a turn runs, and a resume for every step after the first. Each
// time a call reports the count, it is the fold of the file's active path (read
// here from every line, nothing of awl's state helper) plus what it added.
// 20 steps in CI; AWL_LONG_TEST=1 makes it 100. test/extensions/state.test.ts
// drives the state helper itself through many more moves, in process.
import { expect, test } from "bun:test";
import { readSessionTree, readWholeLog } from "../../src/session/tree";
import { DOCS_COUNTER } from "../support/counter-extension";
import { prng } from "../support/prng";
import { AWL, sessionFiles, useE2eFixture } from "./awl";

const fx = useE2eFixture();

/** The fold of the path to the file's leaf, from every line of it. */
function foldOfFile(file: string): number {
  const path = readWholeLog(file).pathTo(readSessionTree(file, { text: false }).leafId);
  return path.reduce((n, e) => (e.type === "custom" && e.customType === "counter" ? n + (e.data as { add: number }).add : n), 0);
}

/** The ids of the path's answers that end a turn (text), where a rewind or a fork may go. */
function answersOnPath(file: string): string[] {
  const path = readWholeLog(file).pathTo(readSessionTree(file, { text: false }).leafId);
  return path.filter((e) => e.type === "message" && e.message.role === "assistant" && e.message.stopReason === "stop").map((e) => e.id);
}

const bumps = (...adds: number[]) => ({ blocks: adds.map((add) => ({ type: "toolUse" as const, name: "bump", input: { add } })) });
const done = { blocks: [{ type: "text" as const, text: "Done." }] };

test("random tool calls, rewinds, forks, resumes and kill -9: every count the counter reports is the fold of the path", async () => {
  const env = fx.installExtensions({ "counter.ts": DOCS_COUNTER });
  const random = prng(6); // its first 20 steps hold every kind: 9 calls, 6 rewinds, 2 forks, 3 kills
  const steps = process.env.AWL_LONG_TEST ? 100 : 20;

  // The first turn makes the session.
  fx.server.reply(bumps(1), done);
  expect((await fx.run(["-p", "start"], { env })).code).toBe(0);
  let file = sessionFiles(fx.sessions)[0]!;
  const idOf = (f: string) => readSessionTree(f, { text: false }).header.id;

  for (let step = 0; step < steps; step++) {
    const op = random.int(0, 9);
    const where = { step, op };
    if (op <= 4) {
      // One or two calls in one answer; each sees the fold of the path, and the one before it.
      const adds = random.int(0, 1) ? [random.int(1, 9), random.int(1, 9)] : [random.int(1, 9)];
      const base = foldOfFile(file);
      fx.server.reply(bumps(...adds), done);
      expect({ ...where, code: (await fx.run(["-p", `step ${step}`, "--resume", idOf(file)], { env })).code }).toEqual({ ...where, code: 0 });
      const sent = JSON.stringify(fx.server.requests.at(-1)!.body.messages);
      adds.reduce((total, add) => {
        expect({ ...where, said: sent.includes(`count is ${total + add}`) }).toEqual({ ...where, said: true });
        return total + add;
      }, base);
      expect({ ...where, fold: foldOfFile(file) }).toEqual({ ...where, fold: base + adds.reduce((a, b) => a + b, 0) });
    } else if (op <= 6) {
      const rewind = await fx.run(["rewind", idOf(file), "--to", random.pick(answersOnPath(file)), "--conversation", "--yes"], { env });
      expect({ ...where, code: rewind.code, stderr: rewind.stderr }).toEqual({ ...where, code: 0, stderr: "" });
    } else if (op === 7) {
      // A fork at an earlier answer: the copy goes on from there, and the counter with it.
      const before = new Set(sessionFiles(fx.sessions));
      fx.server.reply(bumps(1), done);
      const fork = await fx.run(["-p", `fork ${step}`, "--resume", idOf(file), "--fork", "--at", random.pick(answersOnPath(file))], { env });
      expect({ ...where, code: fork.code }).toEqual({ ...where, code: 0 });
      file = sessionFiles(fx.sessions).find((f) => !before.has(f))!;
      const sent = JSON.stringify(fx.server.requests.at(-1)!.body.messages);
      expect({ ...where, said: sent.includes(`count is ${foldOfFile(file)}`) }).toEqual({ ...where, said: true });
    } else {
      // kill -9 as request 1 (nothing of the turn's calls written) or request 2 (their results and entries written) goes out.
      const at = random.int(1, 2);
      fx.server.reply(...(at === 1 ? [{ ...bumps(5), delayMs: 5000 }] : [bumps(5), { ...done, delayMs: 5000 }]));
      const seen = fx.server.requests.length;
      const child = Bun.spawn([AWL, "-p", `killed ${step}`, "--resume", idOf(file)], { cwd: fx.project, env: { ...fx.env, ...env }, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
      fx.server.onRequest = () => {
        if (fx.server.requests.length - seen === at) child.kill("SIGKILL");
      };
      await child.exited;
      fx.server.onRequest = undefined;
    }
  }
}, 240_000);
