// A tool is one small file: its name, its input schema, what a call of it
// does (its effect, judged per call), its execute.

import type { SandboxRun } from "./sandbox/bwrap";
import { MIN_SCRUBBED_LENGTH, scrub } from "./secrets";
import type { TaskInput } from "./task";

export interface ToolContext {
  /** The session's working directory; relative paths resolve against it. */
  cwd: string;
  /** Aborted when the person presses Ctrl+C (or awl is told to stop): the tool stops and says so. */
  signal: AbortSignal;
  /**
   * Secret values by the name of the variable they came from (the provider keys
   * awl uses, given by the agent). runCall replaces each in the output with
   * `[redacted NAME]`, so a key a tool prints is never saved or sent; bash
   * never passes these variables to a command.
   */
  secrets?: Readonly<Record<string, string>>;
  /**
   * Output as it arrives, for the person to watch (bash: what the command has
   * printed so far). Raw: runCall (./index.ts) turns it into a scrubbed tail
   * before anything is shown. The result is still the ToolOutput.
   */
  onOutput?(chunk: string): void;
  /**
   * bash: leave what the command started in the background running when it
   * returns (the person approved the command as it stood, or chose auto).
   * Otherwise it is ended with the call. awl ends it when it exits either way.
   */
  keepBackground?: boolean;
  /** bash: run the command inside this sandbox (sandbox/); outside any when absent. */
  sandbox?: SandboxRun;
  /**
   * Called by a tool that changes a file, with the file's bytes as they are
   * and as they will be, just before it changes them (the checkpoint a rewind
   * restores from). If it throws, the file is left as it is and the call fails.
   */
  beforeChange?(change: PendingChange): Promise<void> | void;
  /**
   * Runs a `task` call's child agent and returns its final answer (given by
   * the agent to the calls of a parent; a child has none, so it cannot start
   * children of its own).
   */
  delegate?(task: TaskInput): Promise<ToolOutput>;
}

/** A change a tool is about to make to one file. */
export interface PendingChange {
  /** Absolute. */
  path: string;
  /** null: the file does not exist yet. */
  before: Uint8Array | null;
  /** null: the file will be removed. */
  after: Uint8Array | null;
  /** The file's permission bits, when it exists. */
  mode: number | null;
}

/**
 * What one call does, judged from its input before it runs. Approvals,
 * checkpoints and the transcript go by this, never by a tool's name or its
 * words: `read` only looks; `write` changes the one file at `path`
 * (absolute); `exec` runs `command`, which may do anything (whether it only
 * looks is the approvals' to judge).
 */
export type CallEffect = { kind: "read" } | { kind: "write"; path: string } | { kind: "exec"; command: string; server?: ServerCall };

/**
 * An `exec` call that goes to an MCP server's tool rather than to a shell:
 * `command` only shows it, and the read-only rules never judge it. The
 * server's own hint that the tool only reads is shown to the person, never
 * acted on alone (a server says what it likes of itself).
 */
export interface ServerCall {
  name: string;
  tool: string;
  readOnlyHint: boolean;
}

/** A write call's change as the person is asked about it: the file as the call would leave it, from the file as it is now. */
export interface ProposedChange {
  change: FileChange;
  /** Why the change shown is not the whole file's (the text was not found as given). */
  note?: string;
  /** The call gives the file its whole content (rather than changing a part of it). */
  whole?: boolean;
}

export interface ToolOutput {
  content: string;
  isError: boolean;
  /** Stopped by the abort signal after it started: it may have changed things. */
  interrupted?: boolean;
  /** A `task` call's: what its subagent's requests spent, summed (kept with the result, never sent). */
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number; reasoning?: number };
  /** An MCP server's tool's: the server and tool it reached, by their own names (kept with the result, never sent). */
  mcp?: { server: string; tool: string };
  /**
   * What a call that writes a file did to it, for the person to see as a
   * diff (the keys scrubbed). The model reads `content`; the session keeps the
   * file's two versions through `beforeChange`, not this.
   */
  change?: FileChange;
  /** bash: the command failed and the sandbox's refusal is the likely reason, said in a few words. */
  sandboxRefusal?: string;
}

export interface Tool<Input = unknown> {
  name: string;
  description: string;
  /** JSON schema of the input, as sent to the model. */
  inputSchema: Record<string, unknown>;
  /** Validates the model's parsed input; returns it typed, or a message saying what is wrong. */
  validate(input: unknown): Input | { error: string };
  /** The argument shown on the one line that announces the call (command, path). */
  summary(input: Input): string;
  /** The input field summary() shows: read from the call's input while it still streams, before it can be validated. */
  summaryField: string;
  effect(input: Input, cwd: string): CallEffect;
  /** How a call reads in a transcript written out for people (awl export): a one-line summary, and the body shown under it with its language. */
  shown(input: Input): { summary: string; body: string; language: string };
  /** For a `write` effect: the change the call would make, read now and changed in nothing; undefined when it cannot be shown. */
  propose?(input: Input, cwd: string): Promise<ProposedChange | undefined>;
  execute(input: Input, context: ToolContext): Promise<ToolOutput>;
  /** Its calls run beside the answer's other calls, a few at once, rather than in turn (`task`: each is a child agent's work). */
  runsBeside?: true;
}

/** True for the `{ error }` a validator returns instead of the typed input. */
export function isInvalid(result: unknown): result is { error: string } {
  return typeof result === "object" && result !== null && "error" in result && Object.keys(result).length === 1;
}

export function failure(content: string): ToolOutput {
  return { content, isError: true };
}

/** The result of a call the abort signal stopped before it did anything. */
export function notStarted(): ToolOutput {
  return failure("interrupted before it started: not run");
}

/** The result of a tool the abort signal stopped after it had started. */
export function interrupted(content: string): ToolOutput {
  return { content, isError: true, interrupted: true };
}

/** A file's bytes before and after a tool changed it. */
export interface FileChange {
  /** The tool created the file. */
  created: boolean;
  /** The bytes before; absent for a new file, or for one too large to have been kept (write keeps up to MAX_KEPT_BYTES). */
  before?: Uint8Array;
  after: Uint8Array;
}

/** Above this, write does not read the old file just to show a diff. */
export const MAX_KEPT_BYTES = 4 * 1024 * 1024;

/**
 * The change as the person may see it: runCall scrubs the API keys from
 * `content`, and the bytes shown as a diff need the same, or a key the model
 * wrote into a file would reach the terminal.
 */
export function fileChange(change: FileChange, secrets: ToolContext["secrets"]): FileChange {
  const values = Object.values(secrets ?? {}).filter((value) => value.length >= MIN_SCRUBBED_LENGTH);
  const clean = (bytes: Uint8Array) => {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!values.some((value) => buffer.includes(value))) return bytes;
    return Buffer.from(scrub(buffer.toString("utf8"), secrets));
  };
  return { created: change.created, ...(change.before ? { before: clean(change.before) } : {}), after: clean(change.after) };
}
