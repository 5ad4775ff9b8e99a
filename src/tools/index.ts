// The tools the model can call, and the one entry point that runs them. runTool
// never throws: whatever goes wrong becomes an error result the model can read
// and react to, so a bad call never ends the turn. It is also the one place
// that scrubs secrets from what a tool returns, whichever tool it was.

import { TOOL_DEFINITIONS } from "./definitions.generated";
import { MIN_SCRUBBED_LENGTH, scrub, secretPartAtEnd } from "./secrets";
import { failure, interrupted, isInvalid, notStarted, type CallEffect, type ProposedChange, type Tool, type ToolContext, type ToolOutput } from "./tool";

export type { CallEffect, PendingChange, ProposedChange, Tool, ToolContext, ToolOutput } from "./tool";

let loaded: readonly Tool[] | undefined;
/** Tools added at start by the person's extensions (docs/extensions.md), after the built-in ones. */
let added: readonly Tool[] = [];
/** MCP servers' tools (src/mcp/tools.ts): where they come from, and what it gave when first asked. */
let serverSource: (() => readonly Tool[]) | undefined;
let serverTools: readonly Tool[] | undefined;

/**
 * bash, read, write, edit, then the extensions' tools. Each built-in tool
 * defines its input with arktype, which costs ~150 ms of start-up in the
 * compiled binary (ark.ts); they load on first use, so the interactive prompt
 * shows first and they load while the person types (see cli/chat.ts), and -p
 * sends its first request before they load. `require` is the lazy, synchronous form of the import.
 */
export function tools(): readonly Tool[] {
  if (!loaded) {
    const { bash } = require("./bash") as typeof import("./bash");
    const { read } = require("./read") as typeof import("./read");
    const { write } = require("./write") as typeof import("./write");
    const { edit } = require("./edit") as typeof import("./edit");
    const { task } = require("./task") as typeof import("./task");
    loaded = [bash, read, write, edit, task];
  }
  return added.length ? [...loaded, ...added] : loaded;
}

/** The names of the built-in tools, which no added tool may take. */
export function builtinToolNames(): string[] {
  return TOOL_DEFINITIONS.map((t) => t.name);
}

/** Adds tools after the built-in ones (their names already checked against them); the returned function takes them away again. */
export function addTools(more: readonly Tool[]): () => void {
  added = [...added, ...more];
  return () => {
    added = added.filter((t) => !more.includes(t));
  };
}

/**
 * MCP servers' tools, asked for once, when the model is first told of the
 * tools: from then on the list is the same for the life of the process, so a
 * provider's cached prefix holds.
 */
export function addServerTools(source: () => readonly Tool[]): void {
  serverSource = source;
  serverTools = undefined;
}

/** Every tool a call may name: the servers' only once they are decided (a transcript read before the first request does not decide them). */
function callableTools(): readonly Tool[] {
  return serverTools ? [...tools(), ...serverTools] : tools();
}

export type ToolDefinition = Pick<Tool, "name" | "description" | "inputSchema">;

/**
 * What providers send to the model for each tool: the built-in ones
 * generated from the tools by the build (definitions.generated.ts), so the
 * first request does not wait for arktype; then the extensions' and the servers'.
 */
export function toolDefinitions(): ToolDefinition[] {
  const more = [...added, ...(serverTools ??= serverSource?.() ?? [])];
  return more.length === 0 ? TOOL_DEFINITIONS : [...TOOL_DEFINITIONS, ...more.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))];
}

/** How much of a running tool's latest output is passed on to be watched (the person sees its last few lines). */
export const LIVE_TAIL_CHARS = 4096;

/** A call whose input was parsed and checked: the tool and its typed input. */
export interface ToolCall {
  name: string;
  tool: Tool;
  input: unknown;
}

/** A call the tool refuses unrun (unknown tool, input that is not JSON or not valid), with what the model is told. */
export interface InvalidCall {
  name: string;
  error: string;
}

/**
 * A call as the model sent it (its input as raw JSON), parsed and checked
 * once: the typed value is what approvals, checkpoints, the one-line display
 * and the run itself use, none of them reading the JSON again.
 */
export function checkCall(name: string, rawInputJson: string): ToolCall | InvalidCall {
  const tool = callableTools().find((t) => t.name === name);
  if (!tool) return { name, error: `unknown tool ${name}; the tools are ${callableTools().map((t) => t.name).join(", ")}` };
  const parsed = parseInput(rawInputJson);
  if (parsed instanceof Error) return { name, error: `${name}: input is not valid JSON (${parsed.message})` };
  const input = tool.validate(parsed);
  return isInvalid(input) ? { name, error: input.error } : { name, tool, input };
}

/** Whether calls of this tool run beside the answer's other calls (a `task`: a child agent's work) rather than in turn. */
export function runsBeside(name: string): boolean {
  return tools().find((t) => t.name === name)?.runsBeside === true;
}

export function isValidCall(call: ToolCall | InvalidCall): call is ToolCall {
  return "tool" in call;
}

/** What a checked call does (see CallEffect); undefined for one the tool refuses unrun. */
export function effectOf(call: ToolCall | InvalidCall, cwd: string): CallEffect | undefined {
  return isValidCall(call) ? call.tool.effect(call.input, cwd) : undefined;
}

/** The main argument of a checked call for its one-line display; "" for one the tool refuses unrun. */
export function summaryOf(call: ToolCall | InvalidCall): string {
  return isValidCall(call) ? call.tool.summary(call.input) : "";
}

/** The change a checked `write` call would make, for the person to judge before it runs; undefined when there is none to show. */
export async function proposal(call: ToolCall, cwd: string): Promise<ProposedChange | undefined> {
  return call.tool.propose?.(call.input, cwd).catch(() => undefined);
}

/**
 * Runs one call, given as the model sent it. `onOutput`, when given, is
 * called as the tool outputs (bash) with the tail of its output so far, the
 * keys already scrubbed from it: a key split across two pieces of output is
 * caught, as the tail is scrubbed whole.
 */
export async function runTool(name: string, rawInputJson: string, context: ToolContext, onOutput?: (tail: string) => void): Promise<ToolOutput> {
  return runCall(checkCall(name, rawInputJson), context, onOutput);
}

/** Runs one checked call (runTool's work, for a call already checked); one the tool refuses is its error result. */
export async function runCall(call: ToolCall | InvalidCall, context: ToolContext, onOutput?: (tail: string) => void): Promise<ToolOutput> {
  const output = await run(call, onOutput ? { ...context, onOutput: liveTail(context.secrets, onOutput) } : context);
  const content = scrub(output.content, context.secrets);
  return content === output.content ? output : { ...output, content };
}

async function run(call: ToolCall | InvalidCall, context: ToolContext): Promise<ToolOutput> {
  if (!isValidCall(call)) return failure(call.error);
  if (context.signal.aborted) return notStarted();
  try {
    return await call.tool.execute(call.input, context);
  } catch (error) {
    const message = `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    return context.signal.aborted ? interrupted(message) : failure(message);
  }
}

/**
 * Keeps the end of what a tool outputs and passes it on scrubbed. No part of
 * a key is ever shown: one that straddles the start of the tail is kept whole
 * for the scrub (the longest key's length more is kept), and the start of one
 * still arriving (the tail ends with a key's first MIN_SCRUBBED_LENGTH
 * characters or more, or with any part of a key long enough to be scrubbed in
 * pieces) is held back until the rest says what it is.
 */
function liveTail(secrets: ToolContext["secrets"], onOutput: (tail: string) => void): (chunk: string) => void {
  const keys = Object.values(secrets ?? {}).filter((value) => value.length >= MIN_SCRUBBED_LENGTH);
  const lookback = Math.max(0, ...keys.map((value) => value.length));
  const keep = LIVE_TAIL_CHARS + lookback;
  let raw = "";
  return (chunk) => {
    raw += chunk.length > keep ? chunk.slice(-keep) : chunk;
    if (raw.length > 2 * keep) raw = raw.slice(-keep);
    let clean = scrub(raw.length > keep ? raw.slice(-keep) : raw, secrets);
    clean = clean.slice(0, clean.length - secretPartAtEnd(clean, keys));
    onOutput(clean.length > LIVE_TAIL_CHARS ? clean.slice(-LIVE_TAIL_CHARS) : clean);
  };
}

/** The input field a tool's one-line display shows (command, path), read while the call's input still streams; undefined for an unknown tool. */
export function summaryField(name: string): string | undefined {
  return callableTools().find((t) => t.name === name)?.summaryField;
}

// A call read back from the log (a transcript, an export, calls shown as not
// run): the raw JSON is all there is, checked here for the one display.

/** The main argument of a call for its one-line display; "" when it cannot tell. */
export function toolSummary(name: string, rawInputJson: string): string {
  return summaryOf(checkCall(name, rawInputJson));
}

/** How a call reads in a transcript written out for people; undefined when the tool would refuse it unrun. */
export function shownCall(name: string, rawInputJson: string): { summary: string; body: string; language: string } | undefined {
  const call = checkCall(name, rawInputJson);
  return isValidCall(call) ? call.tool.shown(call.input) : undefined;
}

/** What a call would do (its effect, see CallEffect); undefined when the tool would refuse it unrun (unknown tool, invalid input). */
export function callEffect(name: string, rawInputJson: string, cwd: string): CallEffect | undefined {
  return effectOf(checkCall(name, rawInputJson), cwd);
}

// Some providers send no arguments at all for a call; that is an empty object,
// so the model hears which field is missing rather than that JSON is broken.
function parseInput(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
