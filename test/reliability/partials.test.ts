// SIGKILL at random moments while the test server streams an answer (the
// answer in flight, docs/session-format.md "partial"). The runs are chained on
// a session: each resumes the file the previous kill left and sends a new
// prompt, so every run both proves the previous kill recovered (its request,
// carrying the killed answer, is accepted by the strict server) and is the
// next target. After each kill: the killed answer read from the log is a prefix
// of what awl received, and holds everything awl had received a second before
// the kill (by the times the parent read awl's own report of each piece, which
// are never earlier than awl received it). A timer late on a loaded machine can
// miss that second: the figure is printed, and the test fails only past a
// generous slack.
//
// A run mostly waits for its answer, so several chains run at once; a chain
// starts a new session every KILLS_PER_SESSION kills (after an unkilled run
// that finishes the last killed answer's turn), so no session nears the
// model's window and each resume reads a small file.
//
//   AWL_RELIABILITY_KILLS=3000 bun test test/reliability/partials.test.ts
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { SessionManager } from "../../src/session";
import { e2eFixture } from "../e2e/awl";
import { prng } from "../support/prng";
import { checkChain } from "./lines";

const KILLS = Number(process.env.AWL_RELIABILITY_KILLS ?? 300);
const SEED = 0x3c6ef372;
/** Chains run at once: a run spends its time waiting for the slow answer, not computing. */
const CHAINS = 10;
const KILLS_PER_SESSION = 25;
/** What the test fails past: awl's second, and a loaded machine's lateness on top of it. */
const SLACK_MS = 2_000;
const CHILD = join(import.meta.dir, "answer-child.ts");

const ANSWER = Array.from({ length: 300 }, (_, i) => `word${i + 1}`).join(" ");
/** Every request gets the same long, slow answer: about three seconds, in pieces 30 ms apart. */
const SLOW_ANSWER = {
  blocks: [{ type: "text" as const, text: ANSWER }],
  chunk: 24,
  delayMs: 30,
};
/** The kill comes this long after the request at most: past the answer's end, so some runs finish. */
const LATEST_KILL_MS = 3_200;

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeAll(async () => {
  fx = await e2eFixture();
  fx.server.respond = () => SLOW_ANSWER;
});
afterAll(async () => {
  await fx?.cleanup();
});

/**
 * What the log holds of the answer to `prompt`: the interrupted answer's text
 * when one waits after the leaf; the whole answer when the turn had ended
 * before the kill (a kill timed past the answer's end can land while awl
 * writes its last lines or exits); "" when nothing of it was kept.
 */
async function loggedAnswer(file: string, prompt: string): Promise<string> {
  const session = await SessionManager.open(file, { readOnly: true });
  const text = (content: readonly { type: string; text?: string }[]) =>
    content.map((b) => (b.type === "text" ? b.text : "")).join("");
  try {
    const interrupted = session.interruptedAnswer();
    if (interrupted) return text(interrupted.content);
    const [asked, answered] = session
      .getBranch()
      .filter((e) => e.type === "message")
      .slice(-2)
      .map((e) => e.type === "message" && e.message);
    const promptWas = asked && asked.role === "user" && (typeof asked.content === "string" ? asked.content : text(asked.content));
    return promptWas === prompt && answered && answered.role === "assistant" ? text(answered.content) : "";
  } finally {
    session.close();
  }
}

interface Figures {
  kills: number;
  completed: number;
  /** Kills that landed after the answer had ended, while awl wrote its last lines or exited. */
  afterEnd: number;
  sessions: number;
  entries: number;
  missedSecond: number;
  worstMs: number;
}

/** One run of the child: killed `killAfterMs` after it sends its request (never when undefined, or when the answer ends first). */
async function run(target: string, prompt: string, killAfterMs?: number) {
  const env = { ...fx.env, PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const child = Bun.spawn(["bun", CHILD, target, prompt], {
    cwd: fx.project,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let file = "";
  let requested = false;
  let killedAt = 0;
  let timer: Timer | undefined;
  // What awl reported receiving, and when the parent read it.
  const received: { at: number; text: string }[] = [];
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of child.stdout) {
    const at = performance.now();
    rest += decoder.decode(chunk, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith("open ")) file = line.slice(5);
      else if (line.startsWith("delta "))
        received.push({ at, text: JSON.parse(line.slice(6)) });
      else if (line === "request" && !requested) {
        requested = true;
        if (killAfterMs !== undefined)
          timer = setTimeout(() => {
            killedAt = performance.now();
            child.kill("SIGKILL");
          }, killAfterMs);
      }
    }
  }
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 60_000);
  await child.exited;
  clearTimeout(watchdog);
  clearTimeout(timer);
  const killed = child.signalCode === "SIGKILL" && killedAt > 0;
  if (!killed)
    expect({
      prompt,
      code: child.exitCode,
      stderr: await new Response(child.stderr).text(),
    }).toMatchObject({ code: 0 });
  expect(requested).toBe(true);
  return { file, killed, killedAt, received };
}

/** `kills` kills chained on sessions of at most KILLS_PER_SESSION, each session finished by an unkilled run and checked whole. */
async function chain(c: number, kills: number): Promise<Figures> {
  const rng = prng(SEED + c);
  const figures: Figures = {
    kills: 0,
    completed: 0,
    afterEnd: 0,
    sessions: 0,
    entries: 0,
    missedSecond: 0,
    worstMs: 0,
  };
  let file = "";
  let inSession = 0;
  const endSession = async () => {
    // The last word: a run nobody kills resumes the last killed answer and finishes its turn.
    await run(file, "are we still here?");
    figures.entries += checkChain(
      Buffer.from(await Bun.file(file).arrayBuffer()),
      file,
    );
    figures.sessions++;
    file = "";
    inSession = 0;
  };
  for (let n = 0; figures.kills < kills; n++) {
    const prompt = `chain ${c}, turn ${n}: carry on`;
    const r = await run(file || `new:${fx.project}`, prompt, rng.int(0, LATEST_KILL_MS));
    file = r.file;
    if (!r.killed) {
      figures.completed++;
      continue;
    }
    figures.kills++;
    const all = r.received.map((x) => x.text).join("");
    const logged = await loggedAnswer(file, prompt);
    // A prefix of what awl received, never anything else.
    expect(all.startsWith(logged)).toBe(true);
    expect(ANSWER.startsWith(logged)).toBe(true);
    if (logged === ANSWER) figures.afterEnd++;
    // Everything received a second before the kill; how late the rest was, when it was not.
    const due = r.received
      .filter((x) => x.at <= r.killedAt - 1_000)
      .reduce((sum, x) => sum + x.text.length, 0);
    if (logged.length < due) {
      figures.missedSecond++;
      let upTo = 0;
      const firstMissing = r.received.find(
        (x) => (upTo += x.text.length) > logged.length,
      )!;
      figures.worstMs = Math.max(figures.worstMs, r.killedAt - firstMissing.at);
      expect(r.killedAt - firstMissing.at).toBeLessThan(SLACK_MS);
    }
    if (++inSession === KILLS_PER_SESSION) await endSession();
  }
  if (file) await endSession();
  return figures;
}

test(`${KILLS} kills mid-stream: the log keeps a prefix of the answer with all but its last second, and every resume is accepted`, async () => {
  const share = (c: number) =>
    Math.ceil((KILLS * (c + 1)) / CHAINS) - Math.ceil((KILLS * c) / CHAINS);
  const results = await Promise.all(
    Array.from({ length: CHAINS }, (_, c) => chain(c, share(c))),
  );
  const sum = (k: keyof Figures) => results.reduce((n, r) => n + r[k], 0);
  expect(sum("kills")).toBe(KILLS);
  const rejected = fx.server.requests
    .filter((r) => r.status !== 200)
    .map((r) => `${r.status} ${r.error}`);
  expect(rejected).toEqual([]);
  console.log(
    `partials under SIGKILL: ${sum("kills")} kills in ${CHAINS} chains (${sum("afterEnd")} after the answer had ended), ${sum("completed")} runs finished unkilled, ${fx.server.requests.length} requests all accepted, ` +
      `${sum("sessions")} sessions of ${sum("entries")} entries whole; kills where the log missed text received over 1 s before: ${sum("missedSecond")} ` +
      `(worst: ${Math.round(Math.max(...results.map((r) => r.worstMs)))} ms before the kill)`,
  );
}, 3_600_000);
