// The tool calls of one answer, run in order: each waits for the approval mode
// (asking the person when it says to), and a command that may change files
// runs between two listings of the working tree so a rewind can restore them.
// Apart from the turn loop (agent.ts) because it needs none of the
// conversation: only who approves, where tools run, and the checkpoints.
//
// Where a command runs (docs/sandbox.md): judged read-only and run without
// asking, in the sandbox with nothing writable and no network; approved by
// the person, or run by auto, with the writable roots. One the sandbox likely
// refused is offered, in ask, one step more: the writable roots, then outside.

import { toolUses, type ContentBlock, type Message, type ToolUseBlock } from "../conversation";
import type { HookOutcome, Hooks } from "../extensions/hooks/hooks";
import type { AgentSeam, BeforeCall, CallVerdict } from "../extensions/seam";
import { afterToolCall, beforeToolCall, changedCall } from "../extensions/hooks/tool-hooks";
import { claudeToolName } from "../extensions/hooks/tool-names";
import { providerSecrets } from "../providers/registry";
import { checkCall, effectOf, isValidCall, runCall, runsBeside, summaryOf, type InvalidCall, type ToolCall, type ToolOutput } from "../tools";
import type { Sandbox, SandboxRun } from "../tools/sandbox";
import type { TaskInput } from "../tools/task";
import type { AtMost, OneAtATime } from "./subagents/one-at-a-time";
import { Approvals, declined, NOBODY_TO_ASK, type ApprovalAnswer, type ApprovalRequest, type Ask, type Decision } from "./approval";
import { repositoryRoot } from "./context-files";
import type { Checkpoints } from "./checkpoints";
import { INTERRUPTED_NOT_RUN, interruptedAfterStart, type AgentEvent } from "./events";

/** What running a call needs of the agent. */
export interface ToolRun {
  approvals: Approvals;
  /** Where commands run; outside any sandbox when absent. */
  sandbox?: Sandbox;
  cwd: string;
  env: Record<string, string | undefined>;
  checkpoints: Checkpoints;
  /** Asked before approvals about every call its tool would run (extensions' handlers): a refusal, a changed input, or undefined to go on. */
  beforeCall?: BeforeCall;
  /** Asked after a call ran (extensions' handlers): the result's content changed, or undefined. */
  afterCall?: AgentSeam["afterCall"];
  /** The person's (and a trusted project's) hooks: PreToolUse before the approval mode is asked (after the extensions' handlers), PostToolUse after a call completes. */
  hooks?: Hooks;
  /** Takes what PostToolUse hooks say to the model, to record after the results (as a custom_message); without it, their words follow the call's result. */
  hookWords?: (words: string) => void;
  /** Records, before the call runs, the input a PreToolUse hook (or, `extensions`, those extensions' handlers) gave it: the log then says what ran even if awl is killed during the call. */
  changedInput?: (toolUseId: string, input: Record<string, unknown>, extensions?: string[]) => void;
  /** Runs a `task` call's child agent and returns its answer (docs/subagents.md); a child has none, so it starts no children. */
  delegate?: (callId: string, task: TaskInput, signal: AbortSignal, onEvent: (event: AgentEvent) => void) => Promise<ToolOutput>;
  /** Whether this agent is offered a tool (a child may be offered fewer); a call of another is refused unrun. All, when absent. */
  offered?: (name: string) => boolean;
  /** Calls that may change files run one at a time across the agent and its children (shared with them). */
  changes?: OneAtATime;
  /** How many calls that run beside the others (`task`) run at once. */
  subagents?: AtMost;
}

/** What the model reads when a call needed a question and nobody can answer: with why it was asked, when there is a reason. */
function nobodyToAsk(request: ApprovalRequest): string {
  return request.note ? `${NOBODY_TO_ASK} It needs the approval because ${request.note}.` : NOBODY_TO_ASK;
}

/**
 * Runs the calls in order, each once the approval mode lets it (asking the
 * person when it says to); one an abort stops says so with its output so
 * far; after an abort the rest are answered as not run. A refusal is the
 * call's error result, with the person's reason.
 */
export async function runTools(message: Message, o: ToolRun, signal: AbortSignal, onEvent: (event: AgentEvent) => void, ask: Ask | undefined): Promise<ContentBlock[]> {
  const calls = toolUses(message);
  // A call whose tool runs beside the others (a `task`: a child agent's work) starts now, up to the limit; the others run in order.
  const beside = calls.map((call) => (o.subagents && runsBeside(call.name) ? o.subagents.run(() => runOneCall(call, o, signal, onEvent, ask)) : undefined));
  const results: ContentBlock[] = [];
  for (const [i, call] of calls.entries()) results.push(await (beside[i] ?? runOneCall(call, o, signal, onEvent, ask)));
  return results;
}

/** One call, from its approval to its result. */
async function runOneCall(call: ToolUseBlock, o: ToolRun, signal: AbortSignal, onEvent: (event: AgentEvent) => void, ask: Ask | undefined): Promise<ContentBlock> {
  if (signal.aborted) return { type: "toolResult", toolUseId: call.id, content: INTERRUPTED_NOT_RUN, isError: true };
  // Parsed and checked once: the handlers, the hooks, the approvals, the display, the checkpoints and the run share the typed call (a hook may change it: checked again).
  // A tool this agent is not offered (a child's may be fewer) is refused as the model would see an unknown one.
  const first = o.offered && !o.offered(call.name) ? { name: call.name, error: `unknown tool ${call.name}: it is not one of your tools` } : checkCall(call.name, call.input);
  // The extensions' handlers come first: a refused call reaches no hook and nobody is asked about it; one they changed is checked again, and the hooks see it changed.
  const extended = isValidCall(first) && o.beforeCall ? extensionVerdict(first, await o.beforeCall({ name: first.name, input: first.input }, signal)) : { call: first };
  let refusal = extended.refusal;
  const before = refusal === undefined ? await beforeToolCall(o.hooks, extended.call, call.id, o.cwd, signal) : undefined;
  for (const text of before?.outcome.notices ?? []) onEvent({ type: "notice", text });
  const checked = before?.call ?? extended.call;
  let decision: Decision = before ? await hookedDecision(before.outcome, checked, o, signal) : { action: "refuse", content: refusal! };
  // Judged as the model sent it: a read-only command's guarded form (git-guard.ts) no longer reads as read-only.
  const effect = effectOf(checked, o.cwd);
  const unasked = decision.action === "run" && effect !== undefined && Approvals.readOnly(effect);
  // The sandbox's root, found (a walk up the folders) only when there is a sandbox.
  const root = o.sandbox ? repositoryRoot(o.cwd) : o.cwd;
  // Writable roots of $HOME or / would be nearly everything: the person is asked instead, and told why.
  const whole = unasked ? undefined : o.sandbox?.wholeRoot(root);
  if (whole && effect?.kind === "exec" && decision.action !== "refuse") {
    const note = `the project folder ${root} is ${whole}, which the sandbox would make writable to this command`;
    // The same request object: what "always" would allow is keyed by it.
    if (decision.action === "ask") decision.request.note ??= note;
    else decision = { action: "ask", request: { tool: call.name, effect, note } };
  }
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
    else if (answer.kind === "no") refusal = ask ? declined(answer.reason) : nobodyToAsk(decision.request);
    else if (answer.kind === "always") o.approvals.allowAlways(decision.request);
    else if (answer.kind === "save") onEvent({ type: "notice", text: o.approvals.saveAlways(decision.request) });
  }
  const summary = summaryOf(checked);
  if (refusal !== undefined) {
    onEvent({ type: "toolStart", id: call.id, name: call.name, summary });
    onEvent({ type: "toolEnd", id: call.id, name: call.name, output: { content: refusal, isError: true } });
    return { type: "toolResult", toolUseId: call.id, content: refusal, isError: true };
  }
  if (extended.changed) o.changedInput?.(call.id, extended.changed.input, extended.changed.by);
  if (before?.changed) o.changedInput?.(call.id, before.changed.input);
  onEvent({ type: "toolStart", id: call.id, name: call.name, summary });
  const onOutput = (tail: string) => onEvent({ type: "toolOutput", id: call.id, name: call.name, tail });
  const secrets = providerSecrets(o.env);
  const notice = (text: string) => onEvent({ type: "notice", text });
  const delegate = o.delegate && ((task: TaskInput) => o.delegate!(call.id, task, signal, onEvent));
  const runIn = (sandbox: SandboxRun | undefined, keep: boolean, changes: boolean): Promise<ToolOutput> => {
    const run = () => runCall(toRun, { cwd: o.cwd, signal, secrets, keepBackground: keep, beforeChange: o.checkpoints.beforeChange, ...(sandbox ? { sandbox } : {}), ...(delegate ? { delegate } : {}) }, onOutput);
    // A command that may change files runs between two listings of the working tree (checkpoints.ts).
    const checkpointed = changes && effect?.kind === "exec" ? () => o.checkpoints.around(run, notice, signal) : run;
    // One change at a time across the agent and its children, so each checkpoint holds only its own call's changes.
    return changes && o.changes ? o.changes.run(checkpointed) : checkpointed();
  };
  let sandbox = o.sandbox?.runFor(unasked, root);
  let output = await runIn(sandbox, keepBackground, effect !== undefined && !Approvals.readOnly(effect));
  // The sandbox likely refused it: in ask, the person may let it run once more with one step more.
  if (output.sandboxRefusal && sandbox && ask && o.approvals.mode === "ask" && effect?.kind === "exec" && !signal.aborted) {
    const next = sandbox.level === "no-write" && o.sandbox?.mode !== "read-only" ? o.sandbox?.runFor(false, root) : undefined;
    const request: ApprovalRequest = { tool: call.name, effect, note: `it failed in the sandbox (${output.sandboxRefusal}): yes runs it again ${next ? "with the project folder writable" : "outside the sandbox"}` };
    const answer = await ask(request, signal);
    if (answer.kind === "yes" || answer.kind === "always") {
      sandbox = next;
      toRun = checked;
      output = await runIn(sandbox, true, true);
    }
  }
  // What the extensions' handlers make of the result is what is shown, written and read by the model (and by the PostToolUse hooks).
  const content = isValidCall(toRun) && o.afterCall ? await o.afterCall({ name: toRun.name, input: toRun.input, content: output.content, isError: output.isError }, signal) : undefined;
  if (content !== undefined) output = { ...output, content };
  onEvent({ type: "toolEnd", id: call.id, name: call.name, output, ...(effect ? { effect: effect.kind } : {}) });
  const after = await afterToolCall(o.hooks, toRun, call.id, output, o.cwd, signal);
  for (const text of after.notices) onEvent({ type: "notice", text });
  let addition = after.addition;
  if (addition !== undefined && o.hookWords) {
    o.hookWords(addition);
    addition = undefined;
  }
  // Stopped after it started (Ctrl+C, Esc, a signal): the model must not take it for a call that never ran.
  const result = [extended.changed?.words, before?.changed?.words, output.interrupted ? interruptedAfterStart(output.content) : output.content, addition].filter((part) => part !== undefined).join("\n");
  return { type: "toolResult", toolUseId: call.id, content: result, ...(output.isError || output.interrupted ? { isError: true } : {}), ...(output.usage ? { usage: output.usage } : {}), ...(output.mcp ? { mcp: output.mcp } : {}) };
}

/**
 * The call as the extensions' handlers left it: refused (their words, or
 * why the input they gave is not one its tool takes), changed (checked
 * again by its tool, with the words its result tells the model), or as it was.
 */
function extensionVerdict(call: ToolCall, verdict: CallVerdict): { call: ToolCall | InvalidCall; refusal?: string; changed?: { input: Record<string, unknown>; by: string[]; words: string } } {
  if (verdict === undefined) return { call };
  if ("refuse" in verdict) return { call, refusal: verdict.refuse };
  const who = verdict.by.map((origin) => `the ${origin} extension`).join(" and ");
  const changed = changedCall(call.name, verdict.input, who.charAt(0).toUpperCase() + who.slice(1));
  if (!isValidCall(changed.call)) return { call, refusal: `refused: ${who} changed this call's input to one ${call.name} does not take (${changed.call.error}), so the call was not run` };
  return { call: changed.call, changed: { ...changed.changed!, by: verdict.by } };
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
