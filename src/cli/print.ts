// `awl -p "prompt"`: one prompt run to completion, tools included. The final
// answer goes to stdout, tool activity and problems to stderr. It persists
// exactly as the interactive mode does.

import { Agent } from "../agent/agent";
import { Approvals } from "../agent/approval";
import type { AgentEvent } from "../agent/events";
import { UsageError, UserError } from "../errors";
import { colorsFor } from "../ui/render/colors";
import { compactedLine, oneLine, retryText } from "../ui/render/format";
import { loadContextFiles } from "../agent/context-files";
import { contextNotice } from "../ui/session/instructions";
import { safeText } from "../ui/render/safe-text";
import { onCommandLine, remedyWatcher, withCommandLineAdvice } from "./advice";
import { approvalMode, chosenEffort, type Args } from "./args";
import { startModel } from "./start-model";
import type { ProviderName } from "../providers/provider";
import { guardOutput, hold, stopSignal } from "./stop";

export async function print(args: Args, cwd: string): Promise<number> {
  const mode = approvalMode(args); // auto unless told otherwise; ask is a usage error: nobody can answer
  const effort = chosenEffort(args);
  const prompt = args.prompt === "-" ? await Bun.stdin.text() : (args.prompt ?? "");
  if (!prompt.trim()) throw new UsageError("the prompt is empty (see awl --help)");

  guardOutput();
  const err = process.stderr;
  const c = colorsFor(err);
  const { opened, model, catalogues, gone } = await startModel(args, cwd);
  const { session, resumed, notices } = opened;
  try {
    for (const notice of notices) err.write(`${c.yellow(safeText(notice))}\n`);
    if (session.readOnly) throw new UserError(session.readOnlyReason ?? "this session cannot be continued by this version of awl");
    if (gone) throw new UserError(withCommandLineAdvice(gone.fact, gone.remedy));
    // Project instructions of a new session: only a problem with them is said (stderr stays quiet otherwise).
    const contextFiles = resumed ? undefined : loadContextFiles({ cwd });
    const notice = contextFiles && contextNotice(contextFiles, cwd);
    if (notice) err.write(`${c.yellow(notice)}\n`);
    const agent = onCommandLine(() => new Agent({ session, cwd, model, effort, contextFiles, approvals: new Approvals(mode), modelInfo: catalogues.modelInfo }));
    // An effort the model cannot take is the person's mistake, said before any request.
    const refusal = agent.effortRefusal();
    if (refusal) throw new UsageError(`${refusal} (see awl --help)`);
    const failure = remedyWatcher();

    // A stop signal aborts the turn and waits for it (cli/stop.ts): its partial
    // answer or tool results are appended, then awl exits 128 + the signal's number.
    return await hold(async () => {
      const result = await agent.runTurn(prompt, stopSignal, (event) => {
        failure.watch(event);
        reportActivity(event, err, c);
      });
      // On a terminal the answer is shown made safe (src/ui/render/safe-text.ts); to a pipe or a file, exactly as the model wrote it.
      err.write(lineStart(err)); // a retry line the answer came after
      const answer = process.stdout.isTTY ? safeText(result.finalText) : result.finalText;
      if (answer) await written(answer.endsWith("\n") ? answer : `${answer}\n`);
      if (result.aborted) {
        err.write(`${c.yellow("Interrupted.")}\n`);
        return 1;
      }
      if (result.stopReason === "error") {
        err.write(`${c.red(`awl: ${safeText(withCommandLineAdvice(result.errorMessage ?? "the request failed", catalogues.advise(failure.remedy, agent.model.provider as ProviderName)))}`)}\n`);
        return 1;
      }
      if (result.stopReason === "length") {
        err.write(`${c.yellow("awl: the answer was cut off at the output token limit")}\n`);
        return 1;
      }
      return 0;
    });
  } finally {
    session.close();
  }
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
  else if (event.type === "retry") err.write(`${start}${c.yellow(retryText(event, safeText(event.reason)))}${err.isTTY ? "" : "\n"}`);
  else if (event.type === "compacted") err.write(`${start}${c.dim(compactedLine(event))}\n`);
  else if (event.type === "notice") err.write(`${start}${c.dim(safeText(event.text))}\n`);
}

/** On a terminal: back to the start of the row and clear it (a retry line may be there). */
function lineStart(err: Err): string {
  return err.isTTY ? "\r\x1b[2K" : "";
}
