// One server, connected: the SDK's client over stdio (stdio.ts) or streamable
// HTTP, initialized, its tools listed. The SDK is imported here, and only
// here, when a configured server starts: awl with no server never loads it.

import { mkdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { HttpEntry, StdioEntry } from "./config";
import { serverEnvironment } from "./server-env";
import { StdioTransport } from "./stdio";

declare const AWL_VERSION: string;

/** A tool as the server lists it. */
export interface ServerTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; title?: string };
}

export interface Connected {
  client: Client;
  tools: ServerTool[];
  /** The last line the server wrote to stderr (stdio), for saying why it ended. */
  lastStderrLine(): string;
}

/** Where each stdio server's stderr is appended: $XDG_DATA_HOME/awl/mcp/<name>.log. */
export function serverLog(name: string, env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  const dir = join(xdg ?? join(env.HOME ?? "", ".local", "share"), "awl", "mcp");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${name.replace(/[^A-Za-z0-9_.-]/g, "_")}.log`);
}

export interface ConnectOptions {
  cwd: string;
  timeoutMs: number;
  /** Aborted when awl leaves: a connection still being made is given up, its process ended. */
  signal: AbortSignal;
  /** The connection ended after it was made (the server exited), with the reason. */
  onClose(reason: string): void;
}

/**
 * Connects and lists the tools; throws an Error whose message is the reason
 * in one line (command not found, the HTTP status, the server's last stderr
 * line) when it cannot, or when the time limit passes first.
 */
export async function connect(name: string, entry: StdioEntry | HttpEntry, options: ConnectOptions): Promise<Connected> {
  const { cwd, timeoutMs, signal, onClose } = options;
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  if (signal.aborted) throw new Error("awl is leaving");
  const transport = await transportFor(name, entry, cwd);
  const stderr = () => (transport instanceof StdioTransport ? transport.lastStderrLine : "");
  const client = new Client({ name: "awl", version: typeof AWL_VERSION === "string" ? AWL_VERSION : "dev" }, { capabilities: {} });
  let ready = false;
  // What ends the wait before the server has answered: its exit, the time limit, awl leaving.
  let stop: (error: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {});
  client.onclose = () => {
    const reason = stderr() ? `exited: ${stderr()}` : "exited";
    if (ready) onClose(reason);
    else if (transport instanceof StdioTransport) stop(new Error(reason)); // an HTTP failure's own error says more (its status)
  };
  const timer = setTimeout(() => stop(new Error(`did not answer in ${Math.round(timeoutMs / 100) / 10} s`)), timeoutMs);
  const leave = () => stop(new Error("awl is leaving"));
  signal.addEventListener("abort", leave, { once: true });
  try {
    const tools = await Promise.race([
      (async () => {
        await client.connect(transport, { timeout: timeoutMs });
        return client.getServerCapabilities()?.tools ? (await client.listTools(undefined, { timeout: timeoutMs })).tools : [];
      })(),
      stopped,
    ]);
    ready = true;
    return { client, tools: tools as ServerTool[], lastStderrLine: stderr };
  } catch (error) {
    await transport.close().catch(() => {});
    const line = stderr();
    const reason = oneLine(error);
    throw new Error(line && !reason.includes(line) ? `${reason} (${line})` : reason);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", leave);
  }
}

async function transportFor(name: string, entry: StdioEntry | HttpEntry, cwd: string): Promise<Transport> {
  if (entry.type === "http") {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers ?? {} } });
  }
  const dir = entry.cwd ? (isAbsolute(entry.cwd) ? entry.cwd : join(cwd, entry.cwd)) : cwd;
  return new StdioTransport({ command: entry.command, args: entry.args ?? [], env: serverEnvironment(entry.env), cwd: dir, log: serverLog(name) });
}

/** An error's message on one line; an HTTP failure with its status (the SDK's StreamableHTTPError keeps it as `code`). */
function oneLine(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim() || "failed";
  const status = (error as { code?: unknown }).code;
  return typeof status === "number" && status >= 100 && status < 600 ? `HTTP ${status}: ${message}` : message;
}
