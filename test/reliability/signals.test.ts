// Stopped by a signal at random moments (issue 11, the bar of items 5 and 8):
// SIGHUP, SIGTERM, SIGINT and SIGQUIT, each sent at seeded random moments of
// a real turn (start-up, the prompt, the first response streaming, a tool
// running, the answer streaming), to the compiled binary, in the REPL (in
// tmux) and under -p. Half the REPL's SIGHUPs are a real hangup: the tmux
// server is killed, the terminal disappears, and the kernel sends SIGHUP.
//
// Every run continues the same session (`--resume`), so each one also proves
// the previous stop left a log the strict test server accepts. After each:
// - the exit status is 128 + the signal's number;
// - 0 entries lost: the file is what it was plus whole appended lines;
// - a partial answer is kept: killed while the answer streamed (past its
//   first words), the log ends in that answer, cut short, stopReason error;
// - tool results are appended: killed while a tool ran, the log ends in its
//   result, "interrupted after it started", with its output so far;
// - 0 tool processes left: the tool's processes carry a marker in their
//   command line, and none is alive once awl has exited;
// - the terminal (REPL, unless it was closed) is not in raw mode and not in
//   bracketed paste (test/e2e/terminal-probe.ts);
// - the stop took at most the 3 s awl allows itself to keep what it has.
//
//   AWL_SIGNAL_KILLS=100 bun test test/reliability/signals.test.ts   (default 10 per signal and mode)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, e2eFixture, sessionFiles } from "../e2e/awl";
import { hasTmux, ProbedTerminal } from "../e2e/terminal-probe";
import { startTestServer, type Reply, type TestServer } from "../support/server";
import { checkChain } from "./lines";
import { processesWith, sleeperRunning } from "../support/processes";
import { prng } from "../support/prng";

const KILLS = Number(process.env.AWL_SIGNAL_KILLS ?? 10);
const SEED = 0x3c6ef372;
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 } as const;
type Sig = keyof typeof SIGNALS;
type Mode = "repl" | "print";
type Phase = "start-up" | "prompt" | "first response" | "tool run" | "answer";

/** The answer streams for about two seconds: long enough to be cut anywhere. */
const ANSWER = Array.from({ length: 240 }, (_, i) => `w${i}`).join(" ");
/** A kill this long after the answer's request arrived finds words already streamed. */
const ANSWER_SHOWN_MS = 300;
/** awl waits up to 3 s for what it keeps; its own exit and the look at /proc come on top. */
const STOP_BOUND_MS = 4500;




/** Running (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

async function until(check: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await Bun.sleep(5);
  }
  return true;
}

interface Tally {
  runs: number;
  bySignal: Record<string, number>;
  byPhase: Record<string, number>;
  exitRight: number;
  beforeHandlers: number;
  hangups: number;
  partialsExpected: number;
  partialsKept: number;
  toolsExpected: number;
  toolsRecorded: number;
  toolProcessesLeft: number;
  entriesLost: number;
  danglingCalls: number;
  terminalsChecked: number;
  terminalsRestored: number;
  slowestStopMs: number;
  rejected: string[];
  problems: string[];
}

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeAll(async () => {
  fx = await e2eFixture();
});
afterAll(async () => {
  await fx?.cleanup();
});

/** One mode's runs, one after another, on one session in its own project folder with its own strict server. */
async function lane(mode: Mode, tally: Tally): Promise<void> {
  const rng = prng(SEED + (mode === "repl" ? 1 : 2));
  const server: TestServer = await startTestServer();
  const project = join(fx.root, `project-${mode}`);
  mkdirSync(project, { recursive: true });
  const env = { ...fx.env, ANTHROPIC_BASE_URL: server.anthropicUrl, ANTHROPIC_API_KEY: server.anthropicKey };

  // Per run: the marker its tool carries, and when its requests arrived.
  let marker = "";
  let arrivals: number[] = [];
  server.respond = (request): Reply => {
    arrivals.push(Date.now());
    const last = request.body?.messages?.at(-1)?.content;
    const afterTools = Array.isArray(last) && last.length > 0 && last.every((b: { type: string }) => b.type === "tool_result");
    if (afterTools) return { blocks: [{ type: "text", text: ANSWER }], chunk: 4, delayMs: 8 };
    const command = `echo started ${marker}; (exec -a sleeper-${marker} sleep 1.2); echo finished`;
    return { blocks: [{ type: "text", text: "Running it." }, { type: "toolUse", name: "bash", input: { command } }], chunk: 8, delayMs: 5 };
  };

  const signals = Object.keys(SIGNALS) as Sig[];
  const plan = signals.flatMap((sig) => Array.from({ length: KILLS }, () => sig));
  // Shuffled (seeded), so a signal's runs see every state the session passes through.
  for (let i = plan.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [plan[i], plan[j]] = [plan[j]!, plan[i]!];
  }
  const phases: Phase[] = mode === "repl" ? ["start-up", "prompt", "first response", "tool run", "answer"] : ["start-up", "first response", "tool run", "answer"];
  let hangupTurn = 0;
  let before = Buffer.alloc(0);
  // What the run in progress started, cleaned up should a check throw halfway through it.
  const current: { term?: ProbedTerminal; child?: ReturnType<typeof Bun.spawn> } = {};

  try {
    for (const [n, sig] of plan.entries()) {
      marker = `sigmark-${mode}-${n}-${rng.int(0, 1e9).toString(36)}`;
      arrivals = [];
      const phase = rng.pick(phases);
      const delay = rng.int(0, phase === "start-up" ? 250 : phase === "tool run" ? 250 : phase === "answer" ? 700 : 150);
      const hangup = mode === "repl" && sig === "SIGHUP" && hangupTurn++ % 2 === 1;
      const prompt = `Run ${n}: carry on.`;
      const where = `${mode} run ${n} (${sig}${hangup ? " by hangup" : ""}, ${phase} +${delay} ms)`;

      let pid = 0;
      let term: ProbedTerminal | undefined;
      let child: ReturnType<typeof Bun.spawn> | undefined;
      if (mode === "repl") {
        term = current.term = new ProbedTerminal();
        term.start([AWL, "--resume"], { cwd: project, env });
        pid = await term.waitForChild();
      } else {
        child = current.child = Bun.spawn([AWL, "-p", prompt, "--resume"], { cwd: project, env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
        pid = child.pid;
      }

      // Wait for the chosen moment (a run that finishes first is simply stopped at the end).
      let toolRunning = false;
      if (phase !== "start-up") {
        if (term) {
          await term.waitFor(/\/help for commands/);
          if (phase !== "prompt") {
            term.type(prompt);
            term.keys("Enter");
          }
        }
        if (phase === "first response") await until(() => arrivals.length >= 1, 15_000);
        if (phase === "tool run") await until(() => sleeperRunning(marker), 15_000);
        if (phase === "answer") await until(() => arrivals.length >= 2, 15_000);
      }
      await Bun.sleep(delay);
      toolRunning = sleeperRunning(marker);
      const answerArrived = arrivals[1];
      const killedAt = Date.now();
      if (hangup) term!.close();
      else process.kill(pid, sig);

      // How it ended.
      let exit: number | undefined;
      if (child) {
        exit = await child.exited;
        if (child.signalCode === sig) {
          // Killed before awl's handlers were installed (the runtime was still starting): the default action.
          if (phase === "start-up") tally.beforeHandlers++;
          else tally.problems.push(`${where}: died of ${sig} without handling it`);
          exit = 128 + SIGNALS[sig];
        }
      } else {
        if (!(await until(() => !alive(pid), 15_000))) tally.problems.push(`${where}: still running 15 s after the signal`);
      }
      const stopMs = Date.now() - killedAt;
      tally.slowestStopMs = Math.max(tally.slowestStopMs, stopMs);
      if (stopMs > STOP_BOUND_MS) tally.problems.push(`${where}: took ${stopMs} ms to stop`);
      if (term && !hangup) {
        const after = await term.aftermath();
        exit = after.exit;
        tally.terminalsChecked++;
        if (!after.raw && !after.bracketedPaste) tally.terminalsRestored++;
        else tally.problems.push(`${where}: terminal left ${JSON.stringify(after)}`);
      }
      term?.close();
      if (hangup) tally.hangups++;
      else if (exit === 128 + SIGNALS[sig]) tally.exitRight++;
      else tally.problems.push(`${where}: exit ${exit}, expected ${128 + SIGNALS[sig]}`);

      // No tool process outlives awl.
      const left = processesWith(marker);
      tally.toolProcessesLeft += left.length;
      if (left.length) {
        tally.problems.push(`${where}: ${left.length} tool process(es) left`);
        for (const p of left) process.kill(p, "SIGKILL");
      }

      // The log: what was there is still there, whole lines were appended, and the stop kept what it had.
      const [file] = sessionFiles(fx.sessions).filter((f) => readFileSync(f, "utf8").includes(`"cwd":${JSON.stringify(project)}`));
      if (file) {
        const content = readFileSync(file);
        if (!content.subarray(0, before.length).equals(before)) {
          tally.entriesLost++;
          tally.problems.push(`${where}: the log lost or changed what it held before`);
        }
        try {
          checkChain(content, file);
        } catch (error) {
          tally.entriesLost++;
          tally.problems.push(`${where}: ${(error as Error).message}`);
        }
        before = Buffer.from(content);
        const entries = content.toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
        const last = entries.at(-1)?.message;
        if (last?.role === "assistant" && last.stopReason === "toolUse") {
          tally.danglingCalls++;
          tally.problems.push(`${where}: the log ends in tool calls without their results`);
        }
        if (toolRunning) {
          tally.toolsExpected++;
          const result = last?.role === "user" ? last.content.find((b: { type: string }) => b.type === "toolResult") : undefined;
          if (result?.content.startsWith("Interrupted after it started") && result.content.includes(`started ${marker}`)) tally.toolsRecorded++;
          else tally.problems.push(`${where}: the running tool's result is not recorded as interrupted: ${JSON.stringify(last).slice(0, 300)}`);
        }
        if (answerArrived !== undefined && killedAt - answerArrived >= ANSWER_SHOWN_MS) {
          tally.partialsExpected++;
          const text = last?.role === "assistant" ? last.content.find((b: { type: string }) => b.type === "text")?.text : undefined;
          if (last?.stopReason === "error" && text && ANSWER.startsWith(text)) tally.partialsKept++;
          else tally.problems.push(`${where}: the partial answer was not kept: ${JSON.stringify(last).slice(0, 300)}`);
        }
      }
      tally.runs++;
      tally.bySignal[sig] = (tally.bySignal[sig] ?? 0) + 1;
      tally.byPhase[phase] = (tally.byPhase[phase] ?? 0) + 1;
    }
  } finally {
    current.term?.close();
    if (current.child?.exitCode === null) current.child.kill("SIGKILL");
    for (const pid of processesWith(`sigmark-${mode}-`)) process.kill(pid, "SIGKILL");
  }
  tally.rejected.push(...server.requests.filter((r) => r.status !== 200).map((r) => `${mode}: ${r.status} ${r.error}`));
  await server.stop();
}

const newTally = (): Tally => ({
  runs: 0, bySignal: {}, byPhase: {}, exitRight: 0, beforeHandlers: 0, hangups: 0, partialsExpected: 0, partialsKept: 0, toolsExpected: 0,
  toolsRecorded: 0, toolProcessesLeft: 0, entriesLost: 0, danglingCalls: 0, terminalsChecked: 0, terminalsRestored: 0, slowestStopMs: 0, rejected: [], problems: [],
});

test.skipIf(!hasTmux)(`awl stopped by SIGHUP, SIGTERM, SIGINT and SIGQUIT at ${KILLS} random moments each, in the REPL and under -p, keeps what it has`, async () => {
  const repl = newTally();
  const print = newTally();
  // The lanes run side by side: each is mostly waiting (on awl's start-up, a stream, tmux).
  await Promise.all([lane("repl", repl), lane("print", print)]);
  for (const [mode, t] of [["REPL", repl], ["-p", print]] as const) {
    console.log(
      `${mode}: ${t.runs} stops ${JSON.stringify(t.bySignal)}, by phase ${JSON.stringify(t.byPhase)}; exit 128+n ${t.exitRight}` +
        `${t.hangups ? ` (+${t.hangups} real hangups)` : ""}${t.beforeHandlers ? ` (${t.beforeHandlers} before awl's handlers were in place)` : ""}; ` +
        `partial answers kept ${t.partialsKept} of ${t.partialsExpected}; running tools recorded as interrupted ${t.toolsRecorded} of ${t.toolsExpected}; ` +
        `entries lost ${t.entriesLost}; dangling tool calls ${t.danglingCalls}; tool processes left ${t.toolProcessesLeft}; ` +
        `${t.terminalsChecked ? `terminals restored ${t.terminalsRestored} of ${t.terminalsChecked}; ` : ""}slowest stop ${t.slowestStopMs} ms; rejected requests ${t.rejected.length}`,
    );
  }
  const problems = [...repl.problems, ...print.problems];
  expect(problems).toEqual([]);
  expect([...repl.rejected, ...print.rejected]).toEqual([]);
  for (const t of [repl, print]) {
    expect(t.runs).toBe(4 * KILLS);
    expect(t.entriesLost + t.toolProcessesLeft + t.danglingCalls).toBe(0);
    expect(t.partialsKept).toBe(t.partialsExpected);
    expect(t.toolsRecorded).toBe(t.toolsExpected);
    expect(t.terminalsRestored).toBe(t.terminalsChecked);
  }
}, 600_000);
