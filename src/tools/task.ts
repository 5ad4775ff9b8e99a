// Hands a piece of work to a child agent (docs/subagents.md): a fresh context
// with the same tools but this one, whose final answer is the result. The
// call itself only reads: each of the child's own calls is judged on its own.
// The child runs in the agent (agent/subagents/), reached through the
// context's `delegate`: a tool knows no conversation.

import { type } from "../ark";
import { toolInput } from "./input";
import { headOf, MAX_BYTES } from "./output-cap";
import { failure, type Tool, type ToolOutput } from "./tool";

const Input = type({ "+": "reject", description: "string > 0", prompt: "string > 0", "agent?": "string > 0" });
export type TaskInput = typeof Input.infer;

const input = toolInput("task", Input, {
  description: "A few words saying what the task is (shown to the user).",
  prompt: "The whole task for the subagent: it sees nothing of this conversation, so say everything it needs to know and what its answer should hold.",
  agent: "The name of one of the agents listed in this tool's description; the general-purpose subagent when absent.",
});

export const task: Tool<TaskInput> = {
  name: "task",
  description: [
    "Hand a self-contained piece of work to a subagent that starts with a fresh context and the same tools (but this one), and get back its final answer.",
    "Use it for work whose steps you do not need to see (searching many files, a separate change), so your own context stays small.",
    "Several task calls in one answer run at the same time. The subagent cannot ask you anything: give it the whole task in the prompt.",
  ].join("\n"),
  ...input,
  summary: (i) => i.description,
  summaryField: "description",
  effect: () => ({ kind: "read" }),
  runsBeside: true,
  shown: (i) => ({ summary: i.description, body: i.prompt, language: "" }),
  execute: async (i, context) => (context.delegate ? bounded(await context.delegate(i)) : failure("task: subagents cannot start subagents of their own")),
};

/** The child's answer cut as tool output is (its first MAX_LINES lines or MAX_BYTES), with a note when it was. */
function bounded(output: ToolOutput): ToolOutput {
  const head = headOf(output.content);
  return head ? { ...output, content: `${head.join("\n")}\n[the subagent's answer was cut to its first ${head.length} lines or ${MAX_BYTES / 1024} KB]` } : output;
}
