// What the model is told of the servers' tools, decided once, when the tools
// are first sent (the tools array then never changes in the process, so a
// provider's cached prefix holds): when every server has answered and their
// tools fit a few dozen definitions, each is an ordinary tool,
// mcp__<server>__<tool> (names.ts); otherwise two fixed tools, mcp_find
// (tools by words) and mcp_call (one by its server and name), with one line
// per server in mcp_find's description. Tools that arrive later are reached
// through those two.

import type { Tool, ToolContext, ToolOutput } from "../tools";
import type { CallEffect } from "../tools/tool";
import { byteLength, headOf, MAX_BYTES, MAX_LINES } from "../tools/output-cap";
import type { ServerTool } from "./connect";
import { toolNames } from "./names";
import type { McpServers, ServerStatus } from "./servers";
import { isObject } from "../json";

/** At most this many server tools are sent as ordinary tools; more, and the model finds them by words. */
export const MAX_ORDINARY = 40;
/** A server tool's description sent with it, at most (some run to pages). */
const MAX_DESCRIPTION = 1024;
/** What mcp_find lists at most for one search. */
const MAX_FOUND = 10;

type Args = Record<string, unknown>;
interface McpInput {
  server: string;
  tool: string;
  arguments: Args;
}

/** The tools the model is given for these servers, decided now (see the top of this file). */
export function toolsFor(servers: McpServers): Tool[] {
  const listed = servers.running.flatMap((s) => s.tools.map((t) => ({ server: s, tool: t })));
  // One not ready yet (or failed: /mcp may bring it back later) would have tools the ordinary ones could not reach.
  if (!servers.running.every((s) => s.state === "ready") || listed.length > MAX_ORDINARY) return [findTool(servers), callTool(servers)];
  const names = toolNames(listed.map(({ server, tool }) => ({ server: server.name, tool: tool.name })));
  return listed.map(({ server, tool }, i) => ordinaryTool(servers, server, tool, names[i]!));
}

function ordinaryTool(servers: McpServers, server: ServerStatus, tool: ServerTool, name: string): Tool<McpInput> {
  return {
    ...shape(servers),
    name,
    description: `${cut(tool.description ?? tool.name, MAX_DESCRIPTION)}\n(Tool "${tool.name}" of the MCP server "${server.name}".)`,
    inputSchema: tool.inputSchema,
    validate: (input) => (isObject(input) ? { server: server.name, tool: tool.name, arguments: input } : { error: `${tool.name}: the input must be a JSON object` }),
    summaryField: "",
  };
}

function callTool(servers: McpServers): Tool<McpInput> {
  return {
    ...shape(servers),
    name: "mcp_call",
    description: "Calls a tool of an MCP server by its server and tool name (as mcp_find lists them) with its arguments.",
    inputSchema: {
      type: "object",
      properties: {
        server: { type: "string", description: "The server's name." },
        tool: { type: "string", description: "The tool's name on that server." },
        arguments: { type: "object", description: "The tool's input, as its schema says." },
      },
      required: ["server", "tool"],
    },
    validate(input) {
      if (!isObject(input) || typeof input.server !== "string" || typeof input.tool !== "string") return { error: "mcp_call: give server and tool as strings, and arguments as an object" };
      const args = input.arguments ?? {};
      if (!isObject(args)) return { error: "mcp_call: arguments must be a JSON object" };
      return { server: input.server, tool: input.tool, arguments: args };
    },
    summaryField: "tool",
  };
}

function findTool(servers: McpServers): Tool<{ words: string }> {
  const lines = servers.running.map((s) => `- ${s.name}${s.state === "ready" ? `: ${s.tools.length} tools` : ""}`);
  return {
    name: "mcp_find",
    description: [
      "Finds tools of the MCP servers by words (in their names and descriptions) and gives each one's server, name, description and input schema; call one with mcp_call. An empty search lists them all (the first few).",
      "Servers:",
      ...lines,
    ].join("\n"),
    inputSchema: { type: "object", properties: { words: { type: "string", description: "Words to look for; empty for all." } }, required: ["words"] },
    validate: (input) => (isObject(input) && typeof input.words === "string" ? { words: input.words } : { error: "mcp_find: give words as a string" }),
    summary: (input) => input.words,
    summaryField: "words",
    effect: () => ({ kind: "read" }),
    shown: (input) => ({ summary: `mcp_find ${input.words}`, body: "", language: "" }),
    async execute(input) {
      const words = input.words.toLowerCase().split(/\s+/).filter(Boolean);
      const all = servers.running.flatMap((s) => s.tools.map((t) => ({ s, t, text: `${s.name} ${t.name} ${t.description ?? ""}`.toLowerCase() })));
      const scored = all.map((x) => ({ ...x, score: words.filter((w) => x.text.includes(w)).length })).filter((x) => words.length === 0 || x.score > 0);
      scored.sort((a, b) => b.score - a.score);
      const waiting = servers.running.filter((s) => s.state !== "ready").map((s) => `${s.name} (${s.state}${s.reason ? `: ${s.reason}` : ""})`);
      const found = scored.slice(0, MAX_FOUND).map(({ s, t }) => JSON.stringify({ server: s.name, tool: t.name, description: cut(t.description ?? "", MAX_DESCRIPTION), inputSchema: t.inputSchema }));
      const more = scored.length > MAX_FOUND ? [`(${scored.length - MAX_FOUND} more: use more words)`] : [];
      const not = waiting.length > 0 ? [`Not available: ${waiting.join(", ")}`] : [];
      return { content: [...(found.length > 0 ? found : ["No tool matches."]), ...more, ...not].join("\n"), isError: false };
    },
  };
}

/** What an ordinary tool and mcp_call share: how a call shows, what it does, and running it. */
function shape(servers: McpServers): Pick<Tool<McpInput>, "summary" | "effect" | "shown" | "execute"> {
  return {
    summary: (input) => `${input.server} ${input.tool} ${cut(JSON.stringify(input.arguments), 60)}`,
    effect: (input): CallEffect => {
      const readOnlyHint = find(servers, input)?.tool.annotations?.readOnlyHint === true;
      return { kind: "exec", command: `${input.server} ${input.tool} ${JSON.stringify(input.arguments)}`, server: { name: input.server, tool: input.tool, readOnlyHint } };
    },
    shown: (input) => ({ summary: `${input.server} ${input.tool}`, body: JSON.stringify(input.arguments, null, 2), language: "json" }),
    execute: (input, context) => call(servers, input, context),
  };
}

function find(servers: McpServers, input: McpInput): { server: ServerStatus; tool: ServerTool } | undefined {
  const server = servers.running.find((s) => s.name === input.server);
  const tool = server?.tools.find((t) => t.name === input.tool);
  return server && tool ? { server, tool } : undefined;
}

async function call(servers: McpServers, input: McpInput, context: ToolContext): Promise<ToolOutput> {
  await servers.settledServer(input.server, servers.timeoutMs); // still connecting: its answer is near, or its timeout says why not
  const found = find(servers, input);
  if (!found) {
    const server = servers.servers.find((s) => s.name === input.server);
    const why = !server ? `no MCP server is named ${input.server}` : server.state !== "ready" ? `the MCP server ${input.server} is ${server.state}${server.reason ? ` (${server.reason})` : ""}` : `the MCP server ${input.server} has no tool ${input.tool}`;
    return { content: why, isError: true };
  }
  // The server's progress is the call's live output (the status line shows its last line); Esc aborts the signal, and the SDK tells the server.
  const onprogress = ({ progress, total, message }: { progress: number; total?: number; message?: string }) =>
    context.onOutput?.(`${[message, total ? `${progress}/${total}` : String(progress)].filter(Boolean).join(" ")}\n`);
  const result = await found.server.client!.callTool({ name: input.tool, arguments: input.arguments }, undefined, { signal: context.signal, timeout: servers.timeoutMs, resetTimeoutOnProgress: true, onprogress });
  // The names as the server knows them go on the result: the model's name for the tool may have been cut.
  return { content: capped(resultText(result)), isError: result.isError === true, mcp: { server: found.server.name, tool: found.tool.name } };
}

interface Block {
  type: string;
  text?: string;
  mimeType?: string;
  resource?: { uri: string; text?: string; mimeType?: string };
  uri?: string;
  name?: string;
}

/** A call's result as text for the model: text as it is, other content described. */
export function resultText(result: { content?: unknown; structuredContent?: unknown; toolResult?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const parts = blocks.map((b) => {
    if (b.type === "text") return b.text ?? "";
    if (b.type === "image" || b.type === "audio") return `[${b.type}: ${b.mimeType ?? "unknown type"}, not shown]`;
    if (b.type === "resource") return b.resource?.text ?? `[resource ${b.resource?.uri ?? ""}]`;
    if (b.type === "resource_link") return `[resource link ${b.uri ?? ""}${b.name ? ` (${b.name})` : ""}]`;
    return `[${b.type}]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  return parts.join("\n") || "(no output)";
}

/** The tool-output cap every tool keeps to (its head: a server's answer starts with what matters). */
function capped(text: string): string {
  const head = headOf(text);
  return head ? `${head.join("\n")}\n[cut: the result was ${byteLength(text)} bytes; its first ${head.length} lines, within ${MAX_LINES} lines and ${MAX_BYTES / 1024} KB, are shown]` : text;
}


function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
