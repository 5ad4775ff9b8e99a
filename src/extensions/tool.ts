// An extension's tool as awl runs every tool (tools/tool.ts): its input an
// object, its effect as it declares it (none, or one that fails or makes no
// sense: `exec`, so the approval mode asks about it or refuses it, and it runs
// between two listings of the working tree as a command does, so a rewind
// covers what it changes), and what its execute returns, or throws, as a
// result the model reads.
import type { CallEffect, Tool, ToolOutput } from "../tools";
import type { ExtensionTool } from "./api";
import { isObject } from "../json";

type Input = Record<string, unknown>;

/** `failed` names a call that threw (once per distinct failure): the model reads it as the call's error, the person is told too. */
export function extensionTool(t: ExtensionTool, origin: string, failed: (line: string) => void): Tool<Input> {
  // Words no approval reads as a command that only looks: what the call runs is the extension's code.
  const exec = (input: Input): CallEffect => ({ kind: "exec", command: `awl-extension-tool ${t.name} ${JSON.stringify(input)}` });
  return {
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
    validate: (input) => (isObject(input) ? (input as Input) : { error: `${t.name}: its input must be a JSON object` }),
    summary: (input) => JSON.stringify(input),
    summaryField: "",
    effect: (input) => declared(t, input) ?? exec(input),
    shown: (input) => ({ summary: `${t.name} (from ${origin})`, body: JSON.stringify(input, null, 2), language: "json" }),
    execute: async (input, context): Promise<ToolOutput> => {
      try {
        const result = await t.execute(input, { cwd: context.cwd, signal: context.signal });
        if (typeof result === "string") return { content: result, isError: false };
        if (typeof result?.content !== "string") throw new Error("it returned no text (a string, or { content })");
        return { content: result.content, isError: result.isError === true };
      } catch (error) {
        failed(`${origin}: tool ${t.name} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
        throw error;
      }
    },
  };
}

/**
 * The effect the tool declares for a call, when it declares one awl can act
 * on: `read`, or `exec` with its own words. A `write` is taken as `exec`: the
 * tool writes its files itself, so only the listings around it see them.
 */
function declared(t: ExtensionTool, input: Input): CallEffect | undefined {
  try {
    const effect = t.effect?.(input);
    if (effect?.kind === "read") return { kind: "read" };
    if (effect?.kind === "exec" && typeof effect.command === "string") return { kind: "exec", command: effect.command };
  } catch {
    // A declaration that throws declares nothing: the call is exec.
  }
  return undefined;
}
