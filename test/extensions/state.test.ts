// An extension's state is the fold of the active path's custom entries of its
// type (docs/extensions.md): right after every append, a rewind-like move of
// the leaf, a resume from the tail that starts after some of those entries,
// and a fork, with nothing done by the extension.
import { expect, test } from "bun:test";
import { messageToDisk, SessionManager } from "../../src/session";
import { forkSession, readSessionTree, readWholeLog } from "../../src/session/tree";
import { FoldedState, type Fold } from "../../src/extensions/state";
import { useSessionRoot } from "../session/helpers";
import { prng } from "../support/prng";

useSessionRoot();

const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
const counter: Fold<number> = { customType: "counter", initial: () => 0, apply: (n, data) => n + (data as { add: number }).add };

function turn(s: SessionManager, words: string): { prompt: string; answer: string } {
  const prompt = s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: words }] }), M);
  const answer = s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "text", text: `done: ${words}` }] }, { ...M, stopReason: "stop" }));
  return { prompt, answer };
}

test("the state follows the leaf: each append, and a move back and forth, with other types and kinds left out", () => {
  const s = SessionManager.init({ cwd: "/proj", ...M });
  const state = new FoldedState(s, counter);
  expect(state.get()).toBe(0);
  const first = turn(s, "one");
  s.appendCustom({ customType: "counter", data: { add: 1 } });
  s.appendCustom({ customType: "other", data: { add: 100 } });
  expect(state.get()).toBe(1);
  const second = turn(s, "two");
  s.appendCustom({ customType: "counter", data: { add: 2 } });
  expect(state.get()).toBe(3);
  s.moveLeaf(first.answer); // before the custom entry of the first turn
  expect(state.get()).toBe(0);
  s.appendCustom({ customType: "counter", data: { add: 10 } });
  expect(state.get()).toBe(10);
  s.moveLeaf(second.answer); // the first path again, without its last entry
  expect(state.get()).toBe(1);
  s.close();
});

test("after a resume from the tail, entries before the tail still count; a fork carries the same state", async () => {
  const s = SessionManager.init({ cwd: "/proj", ...M });
  turn(s, "one");
  s.appendCustom({ customType: "counter", data: { add: 1 } });
  const second = turn(s, "two");
  s.appendCustom({ customType: "counter", data: { add: 2 } });
  s.appendCompaction({ n: 1, summary: "Turn one.", firstKeptEntryId: second.prompt, keptPrompts: [], cutToolResults: [], window: 200_000, tokensBefore: 1000, tokensAfter: 300, ...M });
  turn(s, "three");
  s.appendCustom({ customType: "counter", data: { add: 4 } });
  s.close();

  const resumed = await SessionManager.open(s.sessionFile);
  try {
    expect(resumed.readFrom).toBeGreaterThan(0); // the entry of the first turn was not read
    const state = new FoldedState(resumed, counter);
    expect(state.get()).toBe(7);
    resumed.appendCustom({ customType: "counter", data: { add: 8 } });
    expect(state.get()).toBe(15);
    resumed.moveLeaf(second.answer);
    expect(state.get()).toBe(1);
  } finally {
    resumed.close();
  }

  const fork = forkSession({ parentFile: s.sessionFile, cwd: "/proj", model: (m) => m });
  const forked = await SessionManager.open(fork.file, { readOnly: true });
  try {
    expect(new FoldedState(forked, counter).get()).toBe(1);
  } finally {
    forked.close();
  }
});

/** The fold of the path to the leaf as the whole file says it: every line read, parents followed, nothing of the state helper's. */
function foldOfFile(file: string): number {
  const log = readWholeLog(file);
  return log.pathTo(readSessionTree(file, { text: false }).leafId).reduce((n, e) => (e.type === "custom" && e.customType === "counter" ? counter.apply(n, e.data) : n), 0);
}

test("random sequences of appends, moves, compactions, resumes and forks: the state is the fold of the file's path every time", async () => {
  const rounds = process.env.AWL_LONG_TEST ? 100 : 20;
  for (let seed = 1; seed <= rounds; seed++) {
    const random = prng(seed);
    let s = SessionManager.init({ cwd: "/proj", ...M });
    let state = new FoldedState(s, counter);
    const answers: string[] = [];
    const prompts: string[] = [];
    for (let step = 0; step < 30; step++) {
      const op = random.int(0, 9);
      if (op <= 3 || answers.length === 0) {
        const t = turn(s, `turn ${step}`);
        prompts.push(t.prompt);
        answers.push(t.answer);
      } else if (op <= 6) s.appendCustom({ customType: "counter", data: { add: random.int(1, 9) } });
      else if (op === 7) s.moveLeaf(random.pick(answers));
      else if (op === 8) {
        // A compaction that keeps from a prompt on the path, then a resume from the tail it makes.
        const onPath = s.getBranch().filter((e) => prompts.includes(e.id));
        if (onPath.length) s.appendCompaction({ n: 1, summary: "So far.", firstKeptEntryId: random.pick(onPath).id, keptPrompts: [], cutToolResults: [], window: 200_000, tokensBefore: 1000, tokensAfter: 300, ...M });
        s.close();
        s = await SessionManager.open(s.sessionFile);
        state = new FoldedState(s, counter);
      } else {
        const fork = forkSession({ parentFile: s.sessionFile, cwd: "/proj", model: (m) => m });
        const forked = await SessionManager.open(fork.file, { readOnly: true });
        expect({ seed, step, forked: new FoldedState(forked, counter).get() }).toEqual({ seed, step, forked: foldOfFile(fork.file) });
        forked.close();
      }
      if (s.onDisk) expect({ seed, step, state: state.get() }).toEqual({ seed, step, state: foldOfFile(s.sessionFile) });
    }
    s.close();
  }
});
