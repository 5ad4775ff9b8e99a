// A stdio server as a transport for the SDK's client: JSON-RPC messages, one
// per line, on the server's stdin and stdout. awl spawns it itself (not the
// SDK's transport) for three things the SDK's does not do: a process group of
// its own that awl ends with it (reaper.ts), the environment awl chooses
// (server-env.ts), and stderr kept out of the terminal: appended to the
// server's log file, its last line kept to say why it failed.

import { closeSync, openSync, writeSync } from "node:fs";
import type { Subprocess } from "bun";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { killGroup } from "../tools/bash-processes";
import { reaped, reapOnExit } from "./reaper";

export interface StdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Where the server's stderr is appended. */
  log: string;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The last line the server wrote to stderr, for the line that says why it failed. */
  lastStderrLine = "";
  #proc: Subprocess<"pipe", "pipe", "pipe"> | undefined;
  #closed = false;
  /** The log file, open from the server's first line of stderr to its last. */
  #log: number | undefined;

  constructor(readonly options: StdioOptions) {}

  async start(): Promise<void> {
    const { command, args, env, cwd } = this.options;
    // Bun.spawn throws at once for a command that is not there: the reason named as the person would say it.
    const path = Bun.which(command, { PATH: env.PATH ?? "", cwd });
    if (!path) throw new Error(`command not found: ${command}`);
    const proc = Bun.spawn([path, ...args], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe", detached: true });
    this.#proc = proc;
    reapOnExit(proc.pid);
    void this.#readLines(proc.stdout, (line) => this.#message(line));
    // The log is closed once the server's stderr has ended (its last lines may come after it exited).
    void this.#readLines(proc.stderr, (line) => this.#stderr(line)).then(() => {
      if (this.#log !== undefined) closeSync(this.#log);
      this.#log = undefined;
    });
    void proc.exited.then(() => this.#ended());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#proc?.stdin;
    if (!stdin || this.#closed) throw new Error("the server is not running");
    stdin.write(`${JSON.stringify(message)}\n`);
    await stdin.flush();
  }

  async close(): Promise<void> {
    if (this.#proc) killGroup(this.#proc.pid);
    this.#ended();
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#proc) {
      killGroup(this.#proc.pid); // what the server left running goes with it
      reaped(this.#proc.pid);
    }
    this.onclose?.();
  }

  #message(line: string): void {
    if (line.trim() === "") return;
    try {
      this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(new Error(`the server wrote a line that is not JSON-RPC: ${(error as Error).message}`));
    }
  }

  #stderr(line: string): void {
    if (line.trim() !== "") this.lastStderrLine = line.trim();
    try {
      // Opened once, at the first line: a chatty server costs a write per line, not an open and a close as well.
      this.#log ??= openSync(this.options.log, "a", 0o600);
      writeSync(this.#log, `${line}\n`);
    } catch {
      // The log is for the person's curiosity; a full disk must not stop the server.
    }
  }

  async #readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of stream) {
        pending += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = pending.indexOf("\n")) !== -1) {
          onLine(pending.slice(0, end).replace(/\r$/, ""));
          pending = pending.slice(end + 1);
        }
      }
    } catch {
      // The pipe broke: the process is ending, and exited says so.
    }
    if (pending !== "") onLine(pending);
  }
}
