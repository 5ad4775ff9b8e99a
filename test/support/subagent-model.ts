// A model for the test server that plays both a parent and its subagents
// (docs/subagents.md), by what each request holds: a request whose system
// prompt is a subagent's follows the script in its task (a JSON object: the
// calls to make, one per request, then the answer); any other is the
// parent's, answered from `parent` by how many answers its messages hold.
import type { RecordedRequest, Reply } from "./server";

/** What a subagent is told to do: its prompt, as the parent's task call gives it. */
export interface ChildScript {
  calls: [name: string, input: unknown][];
  answer: string;
  /** Answers with its words alone, as a child that read twenty files returns one paragraph (by default it quotes its last result, for tests that check what it saw). */
  brief?: boolean;
  /** Milliseconds between the events of each reply (a child still mid-answer when a test acts). */
  delayMs?: number;
}

/** A task call's input whose prompt is a child's script. */
export function taskCall(description: string, script: ChildScript, agent?: string) {
  return { type: "toolUse" as const, name: "task", input: { description, prompt: JSON.stringify(script), ...(agent ? { agent } : {}) } };
}

export const isChildRequest = (request: RecordedRequest) => systemText(request).includes("You are a subagent");

export function systemText(request: RecordedRequest): string {
  const system = request.body?.system;
  return typeof system === "string" ? system : Array.isArray(system) ? system.map((b: { text?: string }) => b.text ?? "").join("\n") : "";
}

/** A child's task: the first user text that holds its script (a compacted child's context opens with its summary, in the same message). */
function firstPrompt(request: RecordedRequest): string {
  const texts: string[] = request.body.messages
    .filter((m: { role: string }) => m.role === "user")
    .flatMap((m: { content: string | { text?: string }[] }) => (typeof m.content === "string" ? [m.content] : m.content.flatMap((b) => (b.text === undefined ? [] : [b.text]))));
  return texts.find((t) => t.startsWith("{")) ?? texts[0] ?? "";
}

const toolResults = (request: RecordedRequest) =>
  request.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : [])).filter((b: { type?: string }) => b.type === "tool_result");

/** A child's request: its script, and how many of its calls have results (the step it is at); undefined for the parent's. */
export function childStep(request: RecordedRequest): { script: ChildScript; done: number } | undefined {
  if (!isChildRequest(request)) return undefined;
  return { script: JSON.parse(firstPrompt(request)) as ChildScript, done: toolResults(request).length };
}

export function subagentModel(parent: Reply[]): (request: RecordedRequest) => Reply {
  return (request) => {
    const child = childStep(request);
    if (!child) {
      const answers = request.body.messages.filter((m: { role: string }) => m.role === "assistant").length;
      return parent[Math.min(answers, parent.length - 1)]!;
    }
    const { script } = child;
    const done = toolResults(request);
    const delay = script.delayMs ? { delayMs: script.delayMs, chunk: 1 } : {};
    const next = script.calls[done.length];
    if (next) return { blocks: [{ type: "toolUse", name: next[0], input: next[1] }], ...delay };
    const last = done.at(-1);
    const said = last && !script.brief ? ` (last result: ${typeof last.content === "string" ? last.content : JSON.stringify(last.content)})` : "";
    return { blocks: [{ type: "text", text: `${script.answer}${said}` }], ...delay };
  };
}
