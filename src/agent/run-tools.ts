// The tool calls of one answer, run in order: each waits for the approval mode
// (asking the person when it says to), and a command that may change files
// runs between two listings of the working tree so a rewind can restore them.
// Apart from the turn loop (agent.ts) because it needs none of the
// conversation: only who approves, where tools run, and the checkpoints.

import { toolUses, type ContentBlock, type Message } from "../conversation";
import { providerSecrets } from "../providers/registry";
import { checkCall, effectOf, isValidCall, runCall, summaryOf } from "../tools";
import { Approvals, declined, NOBODY_TO_ASK, type ApprovalAnswer, type Ask } from "./approval";
import type { Checkpoints } from "./checkpoints";
import { INTERRUPTED_NOT_RUN, interruptedAfterStart, type AgentEvent } from "./events";

/** What running a call needs of the agent. */
export interface ToolRun {
  approvals: Approvals;
  cwd: string;
  env: Record<string, string | undefined>;
  checkpoints: Checkpoints;
  /** Asked before approvals about every call its tool would run (extensions' handlers): the words of a refusal, or undefined to go on. */
  beforeCall?: BeforeCall;
}

/** The seam before a tool call: never throws; a handler that fails refuses the call (the caller's to make so). */
export type BeforeCall = (call: { name: string; input: unknown }, signal: AbortSignal) => Promise<string | undefined>;

/**
 * Runs the calls in order, each once the approval mode lets it (asking the
 * person when it says to); one an abort stops says so with its output so
 * far; after an abort the rest are answered as not run. A refusal is the
 * call's error result, with the person's reason.
 */
export async function runTools(message: Message, o: ToolRun, signal: AbortSignal, onEvent: (event: AgentEvent) => void, ask: Ask | undefined): Promise<ContentBlock[]> {
  const results: ContentBlock[] = [];
  for (const call of toolUses(message)) {
    if (signal.aborted) {
      results.push({ type: "toolResult", toolUseId: call.id, content: INTERRUPTED_NOT_RUN, isError: true });
      continue;
    }
    // Parsed and checked once: the approvals, the display, the checkpoints and the run share the typed call.
    const checked = checkCall(call.name, call.input);
    // A handler's refusal comes before the approval mode: nobody is asked about a call that will not run.
    let refusal = isValidCall(checked) && o.beforeCall ? await o.beforeCall({ name: checked.name, input: checked.input }, signal) : undefined;
    const decision = refusal === undefined ? await o.approvals.decide(checked, o.cwd, signal) : ({ action: "refuse", content: refusal } as const);
    let toRun = checked;
    // What a command leaves in the background outlives the call only if the person approved this very command (or chose auto).
    const keepBackground = decision.action === "ask" || o.approvals.mode === "auto";
    if (decision.action === "refuse") refusal = decision.content;
    else if (decision.action === "run") toRun = decision.call;
    else {
      const answer: ApprovalAnswer = ask ? await ask(decision.request, signal) : { kind: "no" };
      if (answer.kind === "interrupted" || signal.aborted) refusal = INTERRUPTED_NOT_RUN;
      else if (answer.kind === "no") refusal = ask ? declined(answer.reason) : NOBODY_TO_ASK;
      else if (answer.kind === "always") o.approvals.allowAlways(decision.request);
    }
    const summary = summaryOf(checked);
    if (refusal !== undefined) {
      onEvent({ type: "toolStart", id: call.id, name: call.name, summary });
      onEvent({ type: "toolEnd", id: call.id, name: call.name, output: { content: refusal, isError: true } });
      results.push({ type: "toolResult", toolUseId: call.id, content: refusal, isError: true });
      continue;
    }
    onEvent({ type: "toolStart", id: call.id, name: call.name, summary });
    const onOutput = (tail: string) => onEvent({ type: "toolOutput", id: call.id, name: call.name, tail });
    // Judged as the model sent it: a read-only command's guarded form (git-guard.ts) no longer reads as read-only.
    const effect = effectOf(checked, o.cwd);
    const context = { cwd: o.cwd, signal, secrets: providerSecrets(o.env), keepBackground, beforeChange: o.checkpoints.beforeChange };
    const run = () => runCall(toRun, context, onOutput);
    // A command that may change files runs between two listings of the working tree (checkpoints.ts).
    const output = effect && !Approvals.readOnly(effect) && effect.kind === "exec" ? await o.checkpoints.around(run, (text) => onEvent({ type: "notice", text }), signal) : await run();
    onEvent({ type: "toolEnd", id: call.id, name: call.name, output, ...(effect ? { effect: effect.kind } : {}) });
    // Stopped after it started (Ctrl+C, Esc, a signal): the model must not take it for a call that never ran.
    const content = output.interrupted ? interruptedAfterStart(output.content) : output.content;
    results.push({ type: "toolResult", toolUseId: call.id, content, ...(output.isError || output.interrupted ? { isError: true } : {}) });
  }
  return results;
}
