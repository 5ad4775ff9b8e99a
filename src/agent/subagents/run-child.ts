// One `task` call's child agent (docs/subagents.md): an Agent of its own over
// an in-memory session whose entries go into the parent's log, wrapped, as
// they happen. It starts with a fresh context (the system prompt, the
// project's instructions, the task), is offered the parent's tools but
// `task` (or what its definition names), and its final answer is the call's
// result. Its questions are the parent's, labelled with its name; its calls
// are put to the extensions' handlers before and after a call, as the parent's are;
// a failure of it is its call's error result, never the parent's end.

import type { Sandbox } from "../../tools/sandbox";
import type { CodeScope } from "../../extensions/trust";
import type { CallHandlers } from "../../extensions/seam";
import type { Hooks } from "../../extensions/hooks/hooks";
import { SessionManager, type ModelRef } from "../../session";
import type { ModelInfo } from "../../providers/model-info";
import type { ProviderName } from "../../providers/provider";
import type { Effort } from "../../providers/thinking-forms";
import { failure, interrupted, type ToolOutput } from "../../tools/tool";
import type { TaskInput } from "../../tools/task";
import { Agent } from "../agent";
import type { Approvals, Ask } from "../approval";
import type { ContextFiles } from "../context-files";
import type { AgentEvent, TurnResult } from "../events";
import type { AgentDefinition } from "./definitions";
import { aliasedModel, isModelAlias } from "../named-model";
import type { OneAtATime } from "./one-at-a-time";

/** A child's request cap when AWL_SUBAGENT_REQUESTS does not set one. */
export const DEFAULT_CHILD_REQUESTS = 50;
/** How many children of one answer run at once when AWL_SUBAGENTS does not set it. */
export const DEFAULT_SUBAGENTS = 4;

/** What a child takes from its parent. */
export interface ChildParent {
  session: SessionManager;
  cwd: string;
  model: ModelRef;
  effort: Effort | undefined;
  env: Record<string, string | undefined>;
  approvals: Approvals;
  modelInfo: (provider: ProviderName, model: string) => ModelInfo | undefined;
  contextFiles: ContextFiles | undefined;
  agents: readonly AgentDefinition[];
  /** One change to the files at a time, across the parent and its children. */
  changes: OneAtATime;
  /** One question to the person at a time. */
  questions: OneAtATime;
  ask: Ask | undefined;
  /** Where the parent's bash commands run: the child's run there too. */
  sandbox: Sandbox | undefined;
  /** Whose hooks run: the parent's. */
  code: CodeScope;
  /** The parent's hooks, read once: the child's run them, naming it. */
  hooks: Hooks;
  /** The parent turn's --max-cost and the session's spend it counts from: a child stops before a request that would pass it, as the parent does. */
  budget: { maxCost: number; spentBefore: number } | undefined;
  /** The extensions' handlers the parent's calls are put to: the child's are put to them too. */
  calls?: CallHandlers;
}

/** The words a child's instructions start with: its answer is all its parent will read. */
const CHILD_NOTE = "You are a subagent: another agent handed you the task below. Do it with your tools, then answer with what it asked for; your final answer is all it will see.";

export async function runChild(parent: ChildParent, callId: string, task: TaskInput, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<ToolOutput> {
  const definition = task.agent === undefined ? undefined : parent.agents.find((a) => a.name === task.agent);
  if (task.agent !== undefined && !definition) return failure(`task: no agent is named ${task.agent}; the agents are ${parent.agents.map((a) => a.name).join(", ") || "(none defined)"}`);
  const name = definition?.name ?? "subagent";
  const tools = definition?.tools;
  const child = new Agent({
    session: SessionManager.child(parent.session, callId),
    cwd: parent.cwd,
    model: childModel(parent.model, definition?.model),
    effort: definition?.effort ?? parent.effort,
    env: parent.env,
    approvals: parent.approvals,
    ...(parent.sandbox ? { sandbox: parent.sandbox } : {}),
    code: parent.code,
    hooks: parent.hooks.forAgent(name),
    modelInfo: parent.modelInfo,
    ...(parent.contextFiles ? { contextFiles: parent.contextFiles } : {}),
    child: {
      name,
      offered: (tool) => (tools ? tools.includes(tool) : tool !== "task"),
      instructions: [CHILD_NOTE, definition?.instructions].filter(Boolean).join("\n\n"),
      ...(parent.calls ? { calls: parent.calls } : {}),
    },
    changes: parent.changes,
    questions: parent.questions,
  });
  const ask: Ask | undefined = parent.ask && ((request, s) => parent.ask!({ ...request, agent: `${name}: ${task.description}` }, s));
  const cap = positive(parent.env.AWL_SUBAGENT_REQUESTS) ?? DEFAULT_CHILD_REQUESTS;
  let result: TurnResult;
  try {
    result = await child.runTurn(task.prompt, signal, (event) => onEvent({ type: "subagent", id: callId, name, event }), ask, { maxTurns: cap, ...parent.budget });
  } catch (error) {
    // Whatever breaks a child is its call's result; the parent goes on.
    return failure(`the subagent failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...answerOf(result, cap), usage: result.usage };
}

/** The call's result from how the child's turn ended: its answer, or why it has none, with what it had said. */
function answerOf(result: TurnResult, cap: number): ToolOutput {
  const said = result.finalText;
  if (result.aborted) return interrupted(`The subagent was stopped.${said ? ` What it had said:\n${said}` : ""}`);
  if (result.maxCostReached) return failure(`The subagent stopped before a request that could pass the run's --max-cost ($${result.maxCostReached.spent.toFixed(2)} spent, up to $${result.maxCostReached.worstCase.toFixed(2)} more).${said ? ` What it had said:\n${said}` : ""}`);
  if (result.maxTurnsReached) return failure(`The subagent stopped at its cap of ${cap} requests before it finished.${said ? ` What it had said:\n${said}` : ""}`);
  if (result.stopReason === "error") return failure(`The subagent failed: ${result.errorMessage ?? "its request failed"}${said ? `\nWhat it had said:\n${said}` : ""}`);
  return { content: said || "(the subagent gave no answer)", isError: false };
}

/** The child's model: the parent's, an id on the parent's provider, or the newest of a family the built-in table lists. */
function childModel(parent: ModelRef, wanted: string | undefined): ModelRef {
  if (!wanted) return parent;
  if (!isModelAlias(wanted)) return { provider: parent.provider, model: wanted };
  const id = aliasedModel(parent.provider, wanted);
  return id ? { provider: parent.provider, model: id } : parent;
}

/** A positive integer from a setting, or undefined. */
export function positive(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : undefined;
}
