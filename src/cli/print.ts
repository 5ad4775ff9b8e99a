// `awl -p "prompt"`: one prompt run to completion, tools included (a prompt
// that names a Markdown command runs it: print-command.ts). The final
// answer goes to stdout (or, with --json, the log as it is written:
// print-json.ts), tool activity and problems to stderr. It persists exactly as
// the interactive mode does. Exit codes: 0 when the turn ended as the model
// chose (an answer cut at the output limit too), 1 a failure (an API error, a
// refusal, a stream cut short, a prompt too large), 2 usage, 4 --max-turns
// or --max-cost reached, 128 + N a signal.

import { Agent } from "../agent/agent";
import { Approvals } from "../agent/approval";
import type { AgentEvent } from "../agent/events";
import { EXIT_FAILURE, EXIT_MAX_TURNS, EXIT_OK, UsageError, UserError } from "../errors";
import type { ResultLine } from "../session/log";
import type { SessionManager } from "../session";
import { readStdin, stdinKind } from "./stdin";
import { tools } from "../tools";
import { colorsFor } from "../ui/render/colors";
import { compactedLine, oneLine, retryText } from "../ui/render/format";
import { loadContextFiles } from "../agent/context-files";
import { contextNotice } from "../ui/session/instructions";
import { safeText } from "../ui/render/safe-text";
import { onCommandLine, remedyWatcher, resendAdvice, savedPromptAdvice, withCommandLineAdvice } from "./advice";
import { approvalMode, type Args } from "./args";
import { sandboxFor } from "./sandbox";
import { startModel } from "./start-model";
import { loadExtensions } from "../extensions/load";
import { codeScope } from "./project-trust";
import { listMcp } from "./mcp-start";
import { printWaitMs } from "../mcp";
import { loadPermissions } from "../agent/permission-settings";
import { dollars } from "../agent/session-cost";
import { priceOf } from "../providers/prices";
import { shortSessionId } from "../ui/session/session-id";
import type { Usage } from "../providers/provider";
import { guardOutput, hold, stopExitCode, stoppedBy, stopSignal } from "./stop";
import { printCommand } from "./print-command";
import { afterInput, runCommandTurn } from "../agent/command-turn";
import { readyCommand } from "../ui/command-table";

/** How a -p run ended: the exit code, and what the result line of --json says. */
export interface PrintOutcome {
  exitCode: number;
  status: ResultLine["status"];
  usage: Usage;
  stopReason?: ResultLine["stopReason"];
  /** The error's words, as stderr has them (after "awl: "). */
  error?: string;
}

/** What the two forms of -p do differently: the plain one prints the answer; --json streams the log. */
export interface PrintOutput {
  /** The session, once open (before anything is appended to it). */
  opened?(session: SessionManager): void;
  answer?(text: string): Promise<void>;
}

/** `awl -p`: the answer on stdout. */
export async function print(args: Args, cwd: string): Promise<number> {
  const outcome = await runPrint(args, cwd, {
    // On a terminal the answer is shown made safe (src/ui/render/safe-text.ts); to a pipe or a file, exactly as the model wrote it.
    answer: async (text) => {
      const answer = process.stdout.isTTY ? safeText(text) : text;
      if (answer) await written(answer.endsWith("\n") ? answer : `${answer}\n`);
    },
  });
  return outcome.exitCode;
}

/**
 * One prompt run to completion. A failure before the turn (usage, no key, an
 * unknown id) throws; one of the turn is said on stderr and returned.
 */
export async function runPrint(args: Args, cwd: string, output: PrintOutput): Promise<PrintOutcome> {
  const mode = approvalMode(args); // auto unless told otherwise; ask is a usage error: nobody can answer
  const sandbox = sandboxFor(args);
  guardOutput();
  const err = process.stderr;
  const c = colorsFor(err);
  const prompt = await promptOf(args, (line) => err.write(`${c.yellow(line)}\n`));
  // Before the model is chosen: the provider keys leave process.env before the first extension is imported.
  const code = await codeScope(args, cwd, false, (line) => err.write(`${c.yellow(line)}\n`));
  const say = (line: string) => err.write(`${c.yellow(`awl: ${safeText(line)}`)}\n`);
  const extensions = await loadExtensions(say, cwd, code);
  // A command -p does not run is refused before a session opens or a request goes.
  const command = prompt && !prompt.fromStdin ? printCommand(prompt.text, cwd, extensions, say) : undefined;

  const wait = printWaitMs();
  const servers = listMcp(args, cwd);
  const { opened, model, effort, catalogues, gone } = await startModel(args, cwd);
  const { session, resumed, notices } = opened;
  output.opened?.(session);
  extensions?.bind(session);
  if (servers && wait > 0) void servers.start();
  try {
    for (const notice of notices) err.write(`${c.yellow(safeText(notice))}\n`);
    // Never a command outside the sandbox without having said so.
    const sandboxNotice = (await sandbox.ready()).startNotice();
    if (sandboxNotice) err.write(`${c.yellow(safeText(sandboxNotice))}\n`);
    if (session.readOnly) throw new UserError(session.readOnlyReason ?? "this session cannot be continued by this version of awl");
    if (gone) throw new UserError(withCommandLineAdvice(gone.fact, gone.remedy));
    // Project instructions of a new session: only a problem with them is said (stderr stays quiet otherwise).
    const contextFiles = resumed ? undefined : loadContextFiles({ cwd });
    const notice = contextFiles && contextNotice(contextFiles, cwd);
    if (notice) err.write(`${c.yellow(notice)}\n`);
    const permissions = loadPermissions(cwd, process.env, code);
    for (const problem of permissions.problems) err.write(`${c.yellow(`awl: ${safeText(problem)}`)}\n`);
    const approvals = new Approvals(mode, process.env, permissions.rules);
    const agent = onCommandLine(() => new Agent({ session, cwd, model, effort, contextFiles, approvals, sandbox, modelInfo: catalogues.modelInfo, code, ...(extensions ? { seam: extensions.seam() } : {}) }));
    // A Markdown command's turn: its model named and listed before its `!`cmd` parts run (the effort and the price below are that model's).
    const commandTurn = command && { ...readyCommand(agent, command.file, command.argument, catalogues), ...(prompt?.input === undefined ? {} : { input: prompt.input }) };
    for (const notice of commandTurn?.notices ?? []) err.write(`${c.dim(safeText(notice))}\n`);
    const turnModel = commandTurn?.model ?? agent.model;
    // What is wrong with a command's own model is said as the command's.
    const whose = commandTurn?.model ? `/${commandTurn.name}: ` : "";
    // A budget awl cannot keep is the person's mistake too: said before anything is sent.
    if (args.maxCost !== undefined && !priceOf(turnModel.provider, turnModel.model)) {
      const choose = whose ? "" : "choose a model awl has a price for with --model, or ";
      throw new UsageError(`${whose}--max-cost needs the model's price, and awl knows none for ${turnModel.provider}/${turnModel.model}: ${choose}leave --max-cost out (see awl --help)`);
    }
    // An effort the model cannot take is the person's mistake, said before any request.
    const refusal = agent.effortRefusal(turnModel);
    if (refusal) throw new UsageError(`${whose}${refusal} (see awl --help)`);
    if (prompt === undefined && !agent.waitsForModel()) {
      throw new UsageError(`-p needs a prompt: this session does not wait for the model (a bare -p --resume sends what waits: a prompt the provider refused, or a run --max-turns stopped) (see awl --help)`);
    }
    const failure = remedyWatcher();
    if (servers) {
      // The servers get AWL_MCP_WAIT to answer before the one request; those that fail are named as they do.
      const sayFailures = () => {
        for (const line of servers.takeNotices()) err.write(`${c.yellow(`awl: ${safeText(line)}`)}\n`);
      };
      servers.onChange(sayFailures);
      await servers.waitForAll(wait);
      sayFailures();
    }

    // A stop signal aborts the turn and waits for it (cli/stop.ts): its partial
    // answer or tool results are appended, then awl exits 128 + the signal's number.
    let warm = false;
    return await hold(async () => {
      const onEvent = (event: AgentEvent) => {
        if (servers && wait === 0 && event.type !== "requestStart") void servers.start(); // the request is out and answered: now the servers may load what they need
        // A tool call is arriving: load the tools (arktype) while the rest of it streams, not before the first request.
        if (!warm && event.type === "blockStart" && event.block.type === "toolUse") {
          warm = true;
          setTimeout(() => tools(), 0);
        }
        failure.watch(event);
        reportActivity(event, err, c);
      };
      const limits = { maxTurns: args.maxTurns, maxCost: args.maxCost };
      // Nobody to ask: a command's `!`cmd` that would need a question is refused, with why, as the model's calls are.
      const result = commandTurn
        ? await onCommandLine(() => runCommandTurn(agent, commandTurn, stopSignal, onEvent, undefined, limits))
        : await agent.runTurn(prompt && (prompt.input === undefined ? prompt.text : { text: afterInput(prompt.input, prompt.text), typed: prompt.text }), stopSignal, onEvent, undefined, limits);
      err.write(lineStart(err)); // a retry line the answer came after
      await output.answer?.(result.finalText);
      // SessionEnd's hooks, once the answer is out (not after a stop signal: awl leaves at once then).
      if (!stopSignal.aborted) for (const notice of await agent.end("other", stopSignal)) err.write(`${c.dim(safeText(notice))}\n`);
      const usage = result.usage;
      if (result.aborted) {
        if (stoppedBy() !== "SIGPIPE") err.write(`${c.yellow("Interrupted.")}\n`);
        return { exitCode: stopExitCode() ?? EXIT_FAILURE, status: "interrupted", usage };
      }
      if (result.maxCostReached) {
        const { spent, worstCase } = result.maxCostReached;
        err.write(`${c.yellow(`awl: stopped before a request that could cost up to ${dollars(worstCase)}, which would pass --max-cost ${dollars(args.maxCost!)}; spent ${dollars(spent)}; awl -p --resume ${session.sessionId} continues`)}\n`);
        return { exitCode: EXIT_MAX_TURNS, status: "max_cost", usage, stopReason: result.stopReason };
      }
      if (result.maxTurnsReached) {
        err.write(`${c.yellow(`awl: stopped after ${args.maxTurns} model request${args.maxTurns === 1 ? "" : "s"} (--max-turns); awl -p --resume ${session.sessionId} continues`)}\n`);
        return { exitCode: EXIT_MAX_TURNS, status: "max_turns", usage, stopReason: result.stopReason };
      }
      // Learnt from the API's refusal (a model awl's table does not know thinks always): the usage error a known model's is,
      // but the prompt went out with the request that taught it, so it is in the log and waits to be sent.
      if (result.effortRefused) throw new UsageError(`${result.errorMessage}; ${savedPromptAdvice(shortSessionId(cwd, session), "--effort <level>")}`);
      if (result.stopReason === "error") {
        const fact = result.errorMessage ?? "the request failed";
        const remedy = catalogues.advise(failure.remedy, agent.model.provider);
        const error = safeText(remedy?.kind === "model" ? `${fact}: ${resendAdvice(remedy, shortSessionId(cwd, session))}` : withCommandLineAdvice(fact, remedy));
        err.write(`${c.red(`awl: ${error}`)}\n`);
        return { exitCode: EXIT_FAILURE, status: "error", usage, stopReason: result.stopReason, error };
      }
      // An answer cut at the output limit is still the turn's end: said, and exit 0 (the result line says "length").
      if (result.stopReason === "length") err.write(`${c.yellow("awl: the answer was cut off at the output token limit")}\n`);
      return { exitCode: EXIT_OK, status: "ok", usage, stopReason: result.stopReason };
    });
  } finally {
    session.close();
    await servers?.close();
  }
}

/** What -p sends: `text`, after `input` when there is one (agent/command-turn.ts `afterInput`). */
interface PrintPrompt {
  text: string;
  /** What standard input held, sent before the prompt (never read for a command, its `@path`s never attached). */
  input?: string;
  /** The prompt itself came from standard input (`-p -`): a prompt, whatever it starts with. */
  fromStdin?: true;
}

/**
 * What -p sends: its prompt, after stdin when stdin is a pipe, a file or a
 * socket that speaks within 3 s (`git diff | awl -p "review this"`, a Node
 * script's child), separated by a blank line; stdin alone
 * for `-p -`; nothing for a bare -p (the turn goes on from tool results).
 */
async function promptOf(args: Args, say: (line: string) => void): Promise<PrintPrompt | undefined> {
  if (args.prompt === "") return undefined;
  if (args.prompt === "-") {
    const text = (await readStdin(() => say("awl: waiting for the prompt on standard input (-p - reads it to its end)"))) ?? "";
    if (!text.trim()) throw new UsageError("the prompt is empty (see awl --help)");
    return { text, fromStdin: true };
  }
  const text = args.prompt ?? "";
  if (!text.trim()) throw new UsageError("the prompt is empty (see awl --help)");
  const kind = args.noStdin ? undefined : stdinKind();
  if (!kind) return { text };
  const input = await readStdin(() => say("awl: waiting for standard input to end: -p sends it before the prompt (--no-stdin leaves it alone)"), { socket: kind === "socket" });
  if (input === undefined) say("awl: standard input is a socket that sent nothing in 3 s: not read (--no-stdin skips the wait)");
  return input ? { text, input } : { text };
}

/**
 * Writes to stdout and waits until it is written: awl may exit right after,
 * which would drop what a slow pipe has not taken yet. A failed write is
 * handled by cli/stop.ts (a closed pipe quietly, anything else in one line).
 */
function written(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}

type Err = { write(s: string): unknown; isTTY?: boolean };

/**
 * Tool activity and retries on stderr, one line each; what a model, a tool or
 * an API sent is made safe to show. On a terminal the retries are one line
 * that each try rewrites, and the next line written takes its place.
 */
export function reportActivity(event: AgentEvent, err: Err, c: ReturnType<typeof colorsFor>): void {
  const start = lineStart(err);
  if (event.type === "toolStart") err.write(`${start}${c.cyan("●")} ${oneLine(event.name, 60)} ${oneLine(event.summary, 100)}\n`);
  else if (event.type === "toolEnd" && event.output.isError) err.write(`${start}${c.red(`  ⎿ ${oneLine(event.output.content, 100)}`)}\n`);
  else if (event.type === "retry") {
    // An answer that starts again is said on a line of its own: its first part is not in the answer awl writes.
    const again = event.restart ? " · the answer starts again" : "";
    err.write(`${start}${c.yellow(retryText(event, safeText(event.reason)) + again)}${err.isTTY && !again ? "" : "\n"}`);
  }
  else if (event.type === "compacted") err.write(`${start}${c.dim(compactedLine(event))}\n`);
  else if (event.type === "notice") err.write(`${start}${c.dim(safeText(event.text))}\n`);
}

/** On a terminal: back to the start of the row and clear it (a retry line may be there). */
function lineStart(err: Err): string {
  return err.isTTY ? "\r\x1b[2K" : "";
}
