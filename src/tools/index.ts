// The tools the model can call, and the one entry point that runs them. runTool
// never throws: whatever goes wrong becomes an error result the model can read
// and react to, so a bad call never ends the turn. It is also the one place
// that scrubs secrets from what a tool returns, whichever tool it was.

import { TOOL_DEFINITIONS } from "./definitions.generated";
import { MIN_SCRUBBED_LENGTH, scrub, secretPartAtEnd } from "./secrets";
import { failure, interrupted, isInvalid, notStarted, type CallEffect, type ProposedChange, type Tool, type ToolContext, type ToolOutput } from "./tool";

export type { CallEffect, PendingChange, ProposedChange, Tool, ToolContext, ToolOutput } from "./tool";

let loaded: readonly Tool[] | undefined;

/**
 * bash, read, write, edit. Each defines its input with arktype, which costs
 * ~150 ms of start-up in the compiled binary (ark.ts); they load on first use, so
 * the interactive prompt shows first and they load while the person types
 * (see cli/chat.ts), and -p sends its first request before they load. `require` is the lazy, synchronous form of the import.
 */
export function tools(): readonly Tool[] {
  if (!loaded) {
    const { bash } = require("./bash") as typeof import("./bash");
    const { read } = require("./read") as typeof import("./read");
    const { write } = require("./write") as typeof import("./write");
    const { edit } = require("./edit") as typeof import("./edit");
    loaded = [bash, read, write, edit];
  }
  return loaded;
}

export type ToolDefinition = Pick<Tool, "name" | "description" | "inputSchema">;

/**
 * What providers send to the model for each tool: generated from the tools by
 * the build (definitions.generated.ts), so the first request does not wait
 * for arktype.
 */
export function toolDefinitions(): ToolDefinition[] {
  return TOOL_DEFINITIONS;
}

/** How much of a running tool's latest output is passed on to be watched (the person sees its last few lines). */
export const LIVE_TAIL_CHARS = 4096;

/**
 * Runs one call. `onOutput`, when given, is called as the tool outputs (bash)
 * with the tail of its output so far, the keys already scrubbed from it: a key
 * split across two pieces of output is caught, as the tail is scrubbed whole.
 */
export async function runTool(name: string, rawInputJson: string, context: ToolContext, onOutput?: (tail: string) => void): Promise<ToolOutput> {
  const output = await run(name, rawInputJson, onOutput ? { ...context, onOutput: liveTail(context.secrets, onOutput) } : context);
  const content = scrub(output.content, context.secrets);
  return content === output.content ? output : { ...output, content };
}

async function run(name: string, rawInputJson: string, context: ToolContext): Promise<ToolOutput> {
  const tool = tools().find((t) => t.name === name);
  if (!tool) return failure(`unknown tool ${name}; the tools are ${tools().map((t) => t.name).join(", ")}`);
  const parsed = parseInput(rawInputJson);
  if (parsed instanceof Error) return failure(`${name}: input is not valid JSON (${parsed.message})`);
  const input = tool.validate(parsed);
  if (isInvalid(input)) return failure(input.error);
  if (context.signal.aborted) return notStarted();
  try {
    return await tool.execute(input, context);
  } catch (error) {
    const message = `${name} failed: ${error instanceof Error ? error.message : String(error)}`;
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
  return tools().find((t) => t.name === name)?.summaryField;
}

/** The main argument of a call for its one-line display; "" when it cannot tell. */
export function toolSummary(name: string, rawInputJson: string): string {
  const call = validCall(name, rawInputJson);
  return call ? call.tool.summary(call.input) : "";
}

/** How a call reads in a transcript written out for people; undefined when the tool would refuse it unrun. */
export function shownCall(name: string, rawInputJson: string): { summary: string; body: string; language: string } | undefined {
  const call = validCall(name, rawInputJson);
  return call?.tool.shown(call.input);
}

/** What a call would do (its effect, see CallEffect); undefined when the tool would refuse it unrun (unknown tool, invalid input). */
export function callEffect(name: string, rawInputJson: string, cwd: string): CallEffect | undefined {
  const call = validCall(name, rawInputJson);
  return call?.tool.effect(call.input, cwd);
}

/** The change a `write` call would make, for the person to judge before it runs; undefined when there is none to show. */
export async function proposeCall(name: string, rawInputJson: string, cwd: string): Promise<ProposedChange | undefined> {
  const call = validCall(name, rawInputJson);
  return call?.tool.propose?.(call.input, cwd).catch(() => undefined);
}

function validCall(name: string, rawInputJson: string): { tool: Tool; input: unknown } | undefined {
  const tool = tools().find((t) => t.name === name);
  const parsed = parseInput(rawInputJson);
  if (!tool || parsed instanceof Error) return undefined;
  const input = tool.validate(parsed);
  return isInvalid(input) ? undefined : { tool, input };
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
