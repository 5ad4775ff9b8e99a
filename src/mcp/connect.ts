// One server, connected: the SDK's client over stdio (stdio.ts) or streamable
// HTTP, initialized, its tools listed. The SDK is imported here, and only
// here (and by login.ts), when a configured server starts: awl with no
// server never loads it.

import { isAbsolute, join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { mkdirPrivate } from "../private-file";
import { FileAuthProvider, refreshFetch, signedIn } from "./oauth";
import type { HttpEntry, StdioEntry } from "./config";
import { serverEnvironment } from "./server-env";
import { StdioTransport } from "./stdio";
import { mcpDataDir, serverFileName } from "./names";

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
  const dir = mcpDataDir(env);
  mkdirPrivate(dir);
  return join(dir, `${serverFileName(name)}.log`);
}

export interface ConnectOptions {
  cwd: string;
  /** awl's environment: a stdio server's base is taken from it, and where its log goes. */
  env: Record<string, string | undefined>;
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
  const { cwd, env, timeoutMs, signal, onClose } = options;
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  if (signal.aborted) throw new Error("awl is leaving");
  const transport = await transportFor(name, entry, cwd, env);
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
    const unauthorized = (await isUnauthorized(error)) || (error as { code?: unknown }).code === 401;
    const reason = unauthorized ? `HTTP 401 (unauthorized): check the token in its headers, or, for a server that signs in with OAuth, sign in: awl mcp login ${name} (in the REPL, /mcp login ${name})` : oneLine(error);
    throw new Error(line && !reason.includes(line) ? `${reason} (${line})` : reason);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", leave);
  }
}

async function transportFor(name: string, entry: StdioEntry | HttpEntry, cwd: string, env: Record<string, string | undefined>): Promise<Transport> {
  if (entry.type === "http") return httpTransport(name, entry);
  const dir = entry.cwd ? (isAbsolute(entry.cwd) ? entry.cwd : join(cwd, entry.cwd)) : cwd;
  return new StdioTransport({ command: entry.command, args: entry.args ?? [], env: serverEnvironment(entry.env, env), cwd: dir, log: serverLog(name, env) });
}

/**
 * A streamable HTTP transport with its headers, and the tokens of a sign-in
 * when there is one (`login`: `awl mcp login` signing in; see oauth.ts).
 */
export async function httpTransport(name: string, entry: HttpEntry, login?: { redirectUrl: string; open(url: URL): void }): Promise<StreamableHTTPClientTransport> {
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  // Signed in before: the stored tokens, refreshed as they expire (the redirect is not used without a sign-in).
  const authProvider = login ? new FileAuthProvider(name, login.redirectUrl, login.open) : signedIn(name) ? new FileAuthProvider(name, "http://127.0.0.1/callback") : undefined;
  return new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers ?? {} }, ...(authProvider ? { authProvider, fetch: refreshFetch(name) } : {}) });
}

/** The SDK's "sign in first" (by its class: the build renames classes, so not by its name). */
export async function isUnauthorized(error: unknown): Promise<boolean> {
  const { UnauthorizedError } = await import("@modelcontextprotocol/sdk/client/auth.js");
  return error instanceof UnauthorizedError;
}

/** An error's message on one line; an HTTP failure with its status (the SDK's StreamableHTTPError keeps it as `code`). */
function oneLine(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim() || "failed";
  const status = (error as { code?: unknown }).code;
  return typeof status === "number" && status >= 100 && status < 600 ? `HTTP ${status}: ${message}` : message;
}
