// SIGKILL at random moments while the test server streams an answer (the
// answer in flight, docs/session-format.md "partial"). The runs are chained on
// one session: each resumes the file the previous kill left and sends a new
// prompt, so every run both proves the previous kill recovered (its request,
// carrying the killed answer, is accepted by the strict server) and is the
// next target. After each kill: the killed answer read from the log is a prefix
// of what awl received, and holds everything awl had received a second before
// the kill (by the times the parent read awl's own report of each piece, which
// are never earlier than awl received it). A timer late on a loaded machine can
// miss that second: the figure is printed, and the test fails only past a
// generous slack.
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
/** What the test fails past: awl's second, and a loaded machine's lateness on top of it. */
const SLACK_MS = 2_000;
const CHILD = join(import.meta.dir, "answer-child.ts");

const ANSWER = Array.from({ length: 300 }, (_, i) => `word${i + 1}`).join(" ");

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeAll(async () => {
  fx = await e2eFixture();
});
afterAll(async () => {
  await fx?.cleanup();
});

/** The killed answer the log holds: its latest attempt's text after the leaf ("" when none). */
async function killedAnswer(file: string): Promise<string> {
  const session = await SessionManager.open(file, { readOnly: true });
  try {
    const answer = session.interruptedAnswer();
    return answer ? answer.content.map((b) => (b.type === "text" ? b.text : "")).join("") : "";
  } finally {
    session.close();
  }
}

test(`${KILLS} kills mid-stream: the log keeps a prefix of the answer with all but its last second, and every resume is accepted`, async () => {
  const rng = prng(SEED);
  const env = { ...fx.env, PATH: process.env.PATH ?? "/usr/bin:/bin" };
  let requestAt = 0;
  let onRequest: (() => void) | undefined;
  fx.server.onRequest = () => {
    // Every request gets the same long, slow answer: about three seconds.
    if (fx.server.pending() === 0) fx.server.reply({ blocks: [{ type: "text", text: ANSWER }], chunk: 8, delayMs: 10 });
    requestAt = performance.now();
    onRequest?.();
  };
  let file = "";
  let kills = 0;
  let completed = 0;
  let missedSecond = 0;
  let worstMs = 0;
  for (let n = 0; kills < KILLS; n++) {
    const child = Bun.spawn(["bun", CHILD, file || `new:${fx.project}`, `turn ${n}: carry on`], { cwd: fx.project, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const delay = rng.int(0, 3_200);
    let killedAt = 0;
    let timer: Timer | undefined;
    onRequest = () => {
      timer = setTimeout(() => {
        killedAt = performance.now();
        child.kill("SIGKILL");
      }, delay);
    };
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
        else if (line.startsWith("delta ")) received.push({ at, text: JSON.parse(line.slice(6)) });
      }
    }
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 60_000);
    await child.exited;
    clearTimeout(watchdog);
    clearTimeout(timer);
    onRequest = undefined;
    if (child.signalCode !== "SIGKILL" || killedAt === 0) {
      expect({ run: n, code: child.exitCode, stderr: await new Response(child.stderr).text() }).toMatchObject({ code: 0 });
      completed++;
      continue;
    }
    kills++;
    const all = received.map((r) => r.text).join("");
    const logged = await killedAnswer(file);
    // A prefix of what awl received, never anything else.
    expect(all.startsWith(logged)).toBe(true);
    expect(ANSWER.startsWith(logged)).toBe(true);
    // Everything received a second before the kill; how late the rest was, when it was not.
    const due = received.filter((r) => r.at <= killedAt - 1_000).reduce((n, r) => n + r.text.length, 0);
    if (logged.length < due) {
      missedSecond++;
      const firstMissing = received.find((r, i) => received.slice(0, i + 1).reduce((n, x) => n + x.text.length, 0) > logged.length)!;
      worstMs = Math.max(worstMs, killedAt - firstMissing.at);
      expect(killedAt - firstMissing.at).toBeLessThan(SLACK_MS);
    }
    expect(requestAt).toBeGreaterThan(0);
  }
  // The last word: a run nobody kills resumes the last killed answer and finishes its turn.
  const last = Bun.spawn(["bun", CHILD, file, "are we still here?"], { cwd: fx.project, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  expect(await last.exited).toBe(0);
  const rejected = fx.server.requests.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.error}`);
  expect(rejected).toEqual([]);
  const entries = checkChain(Buffer.from(await Bun.file(file).arrayBuffer()), file);
  console.log(
    `partials under SIGKILL: ${kills} kills, ${completed} runs finished unkilled, ${fx.server.requests.length} requests all accepted, ${entries} entries; ` +
      `kills where the log missed text received over 1 s before: ${missedSecond} (worst: ${Math.round(worstMs)} ms before the kill)`,
  );
}, 3_600_000);
