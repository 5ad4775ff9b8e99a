// The configured servers of one awl process and their state. Listed from
// their files before the session opens; checked and connected in the
// background once started (start()): nothing waits for them (the REPL's
// prompt is drawn first; `-p` waits at most AWL_MCP_WAIT before its first
// request, waitForAll). One that fails, exits or has not answered in
// AWL_MCP_TIMEOUT is named once, with the reason (takeNotices), and awl goes
// on; /mcp shows the state of each, reconnects one, signs in and out.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ServerConfig } from "./config";
import { configFiles, readConfigs, type RawServer } from "./config-files";
import { connect, type ServerTool } from "./connect";
import { NOT_TRUSTED, projectServersAllowed } from "./project-trust";
import { endAll } from "./reaper";

export type ServerState = "connecting" | "ready" | "failed" | "not started";

export interface ServerStatus {
  name: string;
  /** A sign-in /mcp login started: the page to open while it waits, or why it failed. */
  signIn?: { url?: string; error?: string };
  raw: RawServer;
  /** Checked when the servers start (start()). */
  config?: ServerConfig;
  state: ServerState;
  /** Why it failed or was not started. */
  reason?: string;
  tools: ServerTool[];
  client?: Client;
}

const DEFAULT_TIMEOUT_S = 30;
const DEFAULT_WAIT_S = 5;
/** How long a sign-in waits for the browser. */
export const SIGN_IN_WAIT_MS = 5 * 60_000;

/** Seconds from a variable: a number ≥ 0, else the default. */
function seconds(value: string | undefined, fallback: number): number {
  const n = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

export class McpServers {
  readonly servers: ServerStatus[];
  #notices: string[] = [];
  /** Aborted by close(): connections still being made are given up. */
  #leaving = new AbortController();
  #started = false;
  #listeners = new Set<() => void>();
  readonly timeoutMs: number;

  /** Lists the servers from their files (no check yet, nothing started: start() does both, once the prompt is drawn). */
  constructor(
    raws: RawServer[],
    readonly cwd: string,
    readonly env: Record<string, string | undefined> = process.env,
  ) {
    this.timeoutMs = seconds(env.AWL_MCP_TIMEOUT, DEFAULT_TIMEOUT_S) * 1000;
    // Asked only when the project names servers: the answer may cost a hash of its .awl/.
    const allowed = projectServersAllowed(cwd, raws);
    this.servers = raws.map((raw) => {
      const status: ServerStatus = { name: raw.name, raw, state: "connecting", tools: [] };
      if (raw.origin === "project" && !allowed) Object.assign(status, { state: "not started", reason: NOT_TRUSTED });
      return status;
    });
  }

  /** Checks each server's entry and connects it, in the background; one whose entry is wrong is named. */
  async start(): Promise<void> {
    if (this.#started || this.#leaving.signal.aborted) return;
    this.#started = true;
    const { checkServer } = await import("./config"); // arktype: loaded now, not before the prompt
    for (const server of this.servers) {
      if (this.#leaving.signal.aborted) return;
      if (server.state !== "connecting") continue;
      server.config = checkServer(server.raw, this.env);
      if (server.config.error) {
        Object.assign(server, { state: "failed", reason: server.config.error });
        this.#notice(server);
        this.#changed();
      } else void this.#connect(server);
    }
  }

  /** The servers that may run (everything but those not started). */
  get running(): ServerStatus[] {
    return this.servers.filter((s) => s.state !== "not started");
  }

  /** Whether every server that may run has answered or failed. */
  get settled(): boolean {
    return this.servers.every((s) => s.state !== "connecting");
  }

  /** Failures not yet said, each said once. */
  takeNotices(): string[] {
    return this.#notices.splice(0);
  }

  /** Called whenever a server's state changes. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when every server has settled, or after `ms`, whichever is first. */
  waitForAll(ms: number): Promise<void> {
    return this.#waitUntil(() => this.settled, ms);
  }

  /** The server named, once it is no longer connecting (or after `ms`): a call to one still connecting waits for it. */
  async settledServer(name: string, ms: number): Promise<ServerStatus | undefined> {
    const server = this.servers.find((s) => s.name === name);
    if (server) await this.#waitUntil(() => server.state !== "connecting", ms);
    return server;
  }

  async #waitUntil(condition: () => boolean, ms: number): Promise<void> {
    if (condition() || ms <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const off = this.onChange(() => condition() && done());
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }

  /** Connects the server again (/mcp NAME), in the background: its old connection, if any, is closed. */
  reconnect(name: string): ServerStatus | undefined {
    const server = this.servers.find((s) => s.name === name);
    if (!server || !server.config?.entry) return server; // not started (a project's), or its entry is wrong: said as it is
    const old = server.client;
    Object.assign(server, { state: "connecting", reason: undefined, tools: [], client: undefined });
    this.#changed();
    void old?.close().catch(() => {});
    void this.#connect(server);
    return server;
  }

  /**
   * /mcp login NAME: starts the browser sign-in and resolves once its page
   * is known (server.signIn); the server connects again when it is done, and
   * says so once. Only an HTTP server signs in.
   */
  async login(name: string): Promise<ServerStatus | undefined> {
    const server = this.servers.find((s) => s.name === name);
    const entry = server?.config?.entry;
    if (!server || !entry) return server;
    if (entry.type !== "http") {
      server.signIn = { error: "it runs a command: only an HTTP server signs in" };
      return server;
    }
    const { login } = await import("./login");
    const { openBrowser } = await import("./browser");
    await new Promise<void>((shown) => {
      const open = (url: URL) => {
        server.signIn = { url: url.href };
        openBrowser(url.href, this.env);
        shown();
      };
      login(name, entry, { open, timeoutMs: SIGN_IN_WAIT_MS }).then(
        () => {
          server.signIn = undefined;
          this.#notices.push(`MCP server ${name}: signed in`);
          this.reconnect(name);
          shown(); // already signed in: no page was needed
        },
        (error: Error) => {
          server.signIn = { error: error.message.split("\n")[0] };
          shown();
        },
      );
    });
    return server;
  }

  /** /mcp logout NAME: forgets the server's tokens and connects it again (it asks for a sign-in then). */
  async logout(name: string): Promise<ServerStatus | undefined> {
    const server = this.servers.find((s) => s.name === name);
    if (!server?.config?.entry) return server;
    const { forget } = await import("./oauth");
    forget(name, this.env);
    this.reconnect(name);
    return server;
  }

  /** Ends every server (their process groups too: reaper.ts); their ending is no failure to name. */
  async close(): Promise<void> {
    this.#leaving.abort();
    await Promise.all(this.servers.map((s) => s.client?.close().catch(() => {})));
    endAll(); // those still connecting have no client yet
  }

  async #connect(server: ServerStatus): Promise<void> {
    const entry = server.config!.entry!;
    try {
      const connected = await connect(server.name, entry, {
        cwd: this.cwd,
        env: this.env,
        timeoutMs: this.timeoutMs,
        signal: this.#leaving.signal,
        onClose: (reason) => {
          if (this.#leaving.signal.aborted || server.client !== connected.client) return; // awl is leaving, or an old connection /mcp replaced
          Object.assign(server, { state: "failed", reason, client: undefined });
          this.#notice(server);
          this.#changed();
        },
      });
      if (this.#leaving.signal.aborted) return void connected.client.close().catch(() => {}); // awl left as it answered
      Object.assign(server, { state: "ready", tools: connected.tools, client: connected.client });
    } catch (error) {
      if (this.#leaving.signal.aborted) return;
      Object.assign(server, { state: "failed", reason: (error as Error).message });
      this.#notice(server);
    }
    this.#changed();
  }

  #notice(server: ServerStatus): void {
    this.#notices.push(`MCP server ${server.name}: ${server.reason}`);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The servers configured for `cwd`, listed but not started; undefined when none is configured (and nothing of MCP has loaded). */
export function configuredServers(cwd: string, extraConfig: string | undefined, env: Record<string, string | undefined> = process.env): McpServers | undefined {
  const files = configFiles(cwd, extraConfig, env);
  if (files.length === 0) return undefined;
  const raws = readConfigs(files);
  return raws.length === 0 ? undefined : new McpServers(raws, cwd, env);
}

/** AWL_MCP_WAIT in milliseconds: how long `-p` waits for servers before its first request. */
export function printWaitMs(env: Record<string, string | undefined> = process.env): number {
  return seconds(env.AWL_MCP_WAIT, DEFAULT_WAIT_S) * 1000;
}
