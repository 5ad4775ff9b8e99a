// The tool calls of one answer, run in order: each waits for the approval mode
// (asking the person when it says to), and a command that may change files
// runs between two listings of the working tree so a rewind can restore them.
// Apart from the turn loop (agent.ts) because it needs none of the
// conversation: only who approves, where tools run, and the checkpoints.

import { toolUses, type ContentBlock, type Message } from "../conversation";
import type { HookOutcome, Hooks } from "../extensions/hooks/hooks";
import type { BeforeCall } from "../extensions/seam";
import { afterToolCall, beforeToolCall } from "../extensions/hooks/tool-hooks";
import { claudeToolName } from "../extensions/hooks/tool-names";
import { providerSecrets } from "../providers/registry";
import { checkCall, effectOf, isValidCall, runCall, summaryOf, type InvalidCall, type ToolCall } from "../tools";
import { Approvals, declined, NOBODY_TO_ASK, type ApprovalAnswer, type Ask, type Decision } from "./approval";
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
  /** The person's (and a trusted project's) hooks: PreToolUse before the approval mode is asked (after the extensions' handlers), PostToolUse after a call completes. */
  hooks?: Hooks;
}

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
    // Parsed and checked once: the handlers, the hooks, the approvals, the display, the checkpoints and the run share the typed call (a hook may change it: checked again).
    const first = checkCall(call.name, call.input);
    // An extension's refusal comes first: no hook runs and nobody is asked about a call that will not run.
    let refusal = isValidCall(first) && o.beforeCall ? await o.beforeCall({ name: first.name, input: first.input }, signal) : undefined;
    const before = refusal === undefined ? await beforeToolCall(o.hooks, first, call.id, o.cwd, signal) : undefined;
    for (const text of before?.outcome.notices ?? []) onEvent({ type: "notice", text });
    const checked = before?.call ?? first;
    const decision: Decision = before ? await hookedDecision(before.outcome, checked, o, signal) : { action: "refuse", content: refusal! };
    let toRun = checked;
    // What a command leaves in the background outlives the call only if the person approved this very command (or chose auto).
    const keepBackground = decision.action === "ask" || o.approvals.mode === "auto";
    if (decision.action === "refuse") refusal = decision.content;
    else if (decision.action === "run") toRun = decision.call;
    else {
      // Notification hooks hear that awl waits for the person (Claude Code's words); the question does not wait for them.
      if (ask && o.hooks?.has("Notification")) void o.hooks.run("Notification", { message: `awl needs your permission to use ${claudeToolName(call.name)}` }, undefined, signal).catch(() => {});
      const answer: ApprovalAnswer = ask ? await ask(decision.request, signal) : { kind: "no" };
      if (answer.kind === "interrupted" || signal.aborted) refusal = INTERRUPTED_NOT_RUN;
      else if (answer.kind === "no") refusal = ask ? declined(answer.reason) : NOBODY_TO_ASK;
      else if (answer.kind === "always") o.approvals.allowAlways(decision.request);
      else if (answer.kind === "save") onEvent({ type: "notice", text: o.approvals.saveAlways(decision.request) });
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
    const after = await afterToolCall(o.hooks, toRun, call.id, output, o.cwd, signal);
    for (const text of after.notices) onEvent({ type: "notice", text });
    // Stopped after it started (Ctrl+C, Esc, a signal): the model must not take it for a call that never ran.
    // SEAM (extensions' entry kinds): a PostToolUse hook's words belong in a custom_message entry after the result; until then they follow its content.
    const content = [before?.changed, output.interrupted ? interruptedAfterStart(output.content) : output.content, after.addition].filter((part) => part !== undefined).join("\n");
    results.push({ type: "toolResult", toolUseId: call.id, content, ...(output.isError || output.interrupted ? { isError: true } : {}) });
  }
  return results;
}

/**
 * The approval mode's decision, as the PreToolUse hooks bend it: a block
 * (exit 2, deny) refuses the call with the hooks' words for the model; an
 * allow skips the question, never a refusal (read-only mode stays read-only);
 * an ask puts to the person a call that would have run unasked.
 */
async function hookedDecision(hooks: HookOutcome, call: ToolCall | InvalidCall, o: ToolRun, signal: AbortSignal): Promise<Decision> {
  if (hooks.block !== undefined) return { action: "refuse", content: `Blocked by a PreToolUse hook: ${hooks.block}` };
  const decision = await o.approvals.decide(call, o.cwd, signal);
  if (decision.action === "ask" && hooks.permission === "allow") return { action: "run", call };
  const effect = effectOf(call, o.cwd);
  if (decision.action === "run" && hooks.permission === "ask" && effect && effect.kind !== "read") return { action: "ask", request: { tool: call.name, effect, note: "a PreToolUse hook asks for it to be put to you" } };
  return decision;
}
