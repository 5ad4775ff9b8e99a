// The tools the model can call, and the one entry point that runs them. runTool
// never throws: whatever goes wrong becomes an error result the model can read
// and react to, so a bad call never ends the turn. It is also the one place
// that scrubs secrets from what a tool returns, whichever tool it was.

import { scrub } from "./secrets";
import { failure, interrupted, isInvalid, notStarted, type Tool, type ToolContext, type ToolOutput } from "./tool";

export { providerSecrets } from "./secrets";
export type { Tool, ToolContext, ToolOutput } from "./tool";

let loaded: readonly Tool[] | undefined;

/**
 * bash, read, write, edit. Each defines its input with arktype, which costs
 * ~150 ms of start-up in the compiled binary (ark.ts); they load on first use, so
 * the interactive prompt shows first and they load while the person types
 * (see cli/chat.ts). `require` is the lazy, synchronous form of the import.
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

/** What providers send to the model for each tool. */
export function toolDefinitions(): { name: string; description: string; inputSchema: Record<string, unknown> }[] {
  return tools().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}

export async function runTool(name: string, rawInputJson: string, context: ToolContext): Promise<ToolOutput> {
  const output = await run(name, rawInputJson, context);
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

/** The main argument of a call for its one-line display; "" when it cannot tell. */
export function toolSummary(name: string, rawInputJson: string): string {
  const tool = tools().find((t) => t.name === name);
  const parsed = parseInput(rawInputJson);
  if (!tool || parsed instanceof Error) return "";
  const input = tool.validate(parsed);
  return isInvalid(input) ? "" : tool.summary(input);
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
