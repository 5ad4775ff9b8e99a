// The person's (and, once trusted, the project's) hooks, run at the session's
// events and read as Claude Code reads them (docs/hooks.md):
//   exit 0       goes on; stdout that is a JSON object is read for
//                `continue`, `decision`, `reason`, `systemMessage` and
//                `hookSpecificOutput` (`permissionDecision`, its reason,
//                `updatedInput`, `additionalContext`); other stdout is context
//                for UserPromptSubmit and SessionStart, and ignored elsewhere;
//   exit 2       blocks: its stderr is why (to the model, or to the person
//                for a prompt);
//   other exits, timeouts: the action goes on, with a notice.
// Every hook matching an event runs, at once, as Claude Code runs them; the
// same command twice runs once. What they say is merged: any block wins,
// then deny > ask > allow. A project's hook may only tighten: its allow
// (`permissionDecision: "allow"`, `decision: "approve"`) is not heard, since
// what is allowed without a question is the person's to say.

import { providerSecrets } from "../../providers/registry";
import { scrub } from "../../tools/secrets";
import { loadSettings, settingsFiles, type SettingsFile } from "../settings";
import type { CodeScope } from "../trust";
import type { HookEvent } from "./events";
import { matches } from "./matcher";
import { runCommand, type CommandRun, DEFAULT_HOOK_TIMEOUT_S } from "./run-command";
import type { CommandHook } from "./settings-schema";
import { isObject } from "../../json";

export type Input = Record<string, unknown>;

/** What the hooks of one event said, merged. */
export interface HookOutcome {
  /** The action must not happen (exit 2, `decision: "block"`, a deny, `continue: false`): why, as the hooks said it. */
  block?: string;
  /** A hook's permission decision short of deny. */
  permission?: "allow" | "ask";
  /** The tool input a PreToolUse hook asked for instead, in Claude Code's fields. */
  updatedInput?: Input;
  /** Text a hook adds for the model. */
  context: string[];
  /** One line each for the person: a hook that failed, timed out, or had something to say. */
  notices: string[];
}

/** Where the session is, as the hooks' stdin and environment give it. */
export interface HookSession {
  sessionId: string;
  transcriptPath: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whose hooks run: the person's (unless --no-extensions), the project's (once trusted). */
  scope: CodeScope;
  /** The subagent whose hooks these are (its name), when they are not the session's own: every hook's stdin names it as `agent_name`. */
  agent?: string;
}

/** Events whose plain stdout is context for the model (for the others it is only for a transcript view). */
const STDOUT_IS_CONTEXT: readonly HookEvent[] = ["UserPromptSubmit", "SessionStart"];

export class Hooks {
  /** One line per settings file (or part of one) that was skipped; said once by whoever shows the session. */
  readonly problems: string[];
  readonly #byEvent: Map<HookEvent, Configured[]>;

  /** `same`: hooks already read (a subagent's are its parent's: the settings files are read once). */
  constructor(
    private readonly session: HookSession,
    same?: Hooks,
  ) {
    if (same) {
      this.problems = same.problems;
      this.#byEvent = same.#byEvent;
      return;
    }
    const loaded = loadSettings(settingsFiles(session.cwd, session.env, session.scope));
    this.problems = loaded.problems;
    this.#byEvent = new Map();
    for (const source of loaded.sources) {
      for (const [event, groups] of Object.entries(source.hooks) as [HookEvent, NonNullable<(typeof source.hooks)[HookEvent]>][]) {
        const list = this.#byEvent.get(event) ?? [];
        for (const group of groups) for (const hook of group.hooks) list.push({ matcher: group.matcher, hook, scope: source.scope });
        this.#byEvent.set(event, list);
      }
    }
  }

  /** The same hooks, run for a subagent: `agent` is named in what each is given. */
  forAgent(agent: string): Hooks {
    return new Hooks({ ...this.session, agent }, this);
  }

  /** Whether any hook is configured for `event` (so the caller can skip building its input). */
  has(event: HookEvent): boolean {
    return this.#byEvent.has(event);
  }

  /**
   * Runs the hooks of `event` whose matcher selects `target` (a tool's
   * Claude Code name, how a session started; none for events without
   * matchers), with `fields` added to the common stdin fields.
   */
  async run(event: HookEvent, fields: Input, target: string | undefined, signal: AbortSignal): Promise<HookOutcome> {
    const outcome: HookOutcome = { context: [], notices: [] };
    const chosen = (this.#byEvent.get(event) ?? []).filter((h) => target === undefined || matches(h.matcher, target));
    const unique = [...new Map(chosen.map((h) => [h.hook.command, h])).values()];
    if (unique.length === 0) return outcome;
    const stdin = JSON.stringify({
      session_id: this.session.sessionId,
      transcript_path: this.session.transcriptPath,
      cwd: this.session.cwd,
      hook_event_name: event,
      ...(this.session.agent ? { agent_name: this.session.agent } : {}),
      ...fields,
    });
    const secrets = providerSecrets(this.session.env);
    const keys = Object.keys(secrets);
    const runs = await Promise.all(
      unique.map(async ({ hook, scope }) => {
        const run = await runCommand(hook.command, stdin, { cwd: this.session.cwd, env: this.session.env, keys, projectDir: this.session.cwd, timeoutS: hook.timeout, signal });
        // A key a hook found elsewhere and printed reaches neither the model, the log nor the terminal.
        return { hook, scope, run: { ...run, stdout: scrub(run.stdout, secrets), stderr: scrub(run.stderr, secrets) } };
      }),
    );
    for (const { hook, scope, run } of runs) read(event, hook, scope, run, outcome);
    return outcome;
  }
}

/** A hook as configured: under its matcher, from the person's file or the project's. */
interface Configured {
  matcher?: string;
  hook: CommandHook;
  scope: SettingsFile["scope"];
}

/** Folds one hook's run into the event's outcome. */
function read(event: HookEvent, hook: CommandHook, scope: SettingsFile["scope"], run: CommandRun, outcome: HookOutcome): void {
  const name = `${event} hook \`${oneLine(hook.command)}\``;
  if (run.stopped === "timeout") {
    outcome.notices.push(`${name} took longer than ${hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S} s and was killed; going on without it`);
    return;
  }
  if (run.stopped === "abort") return;
  if (run.code === 2) {
    block(outcome, run.stderr.trim() || `${name} blocked this (exit code 2)`);
    return;
  }
  if (run.code !== 0) {
    const said = run.stderr.trim();
    outcome.notices.push(`${name} failed (${run.code === null ? "killed by a signal" : `exit code ${run.code}`})${said ? `: ${oneLine(said)}` : ""}; going on`);
    return;
  }
  const json = jsonObject(run.stdout);
  if (!json) {
    if (STDOUT_IS_CONTEXT.includes(event) && run.stdout.trim() !== "") outcome.context.push(run.stdout.trim());
    return;
  }
  if (typeof json.systemMessage === "string") outcome.notices.push(json.systemMessage);
  const reason = typeof json.reason === "string" ? json.reason : undefined;
  if (json.continue === false) block(outcome, typeof json.stopReason === "string" ? json.stopReason : (reason ?? `${name} stopped this`));
  // "approve" and "block" are PreToolUse's older words for allow and deny.
  if (json.decision === "block") block(outcome, reason ?? `${name} blocked this`);
  if (json.decision === "approve" && scope === "person") allow(outcome, "allow");
  const specific = typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput !== null ? (json.hookSpecificOutput as Input) : {};
  const permissionReason = typeof specific.permissionDecisionReason === "string" ? specific.permissionDecisionReason : reason;
  if (specific.permissionDecision === "deny") block(outcome, permissionReason ?? `${name} denied this`);
  if ((specific.permissionDecision === "allow" && scope === "person") || specific.permissionDecision === "ask") allow(outcome, specific.permissionDecision);
  if (isObject(specific.updatedInput)) outcome.updatedInput = specific.updatedInput as Input;
  if (typeof specific.additionalContext === "string" && specific.additionalContext.trim() !== "") outcome.context.push(specific.additionalContext);
}

function block(outcome: HookOutcome, why: string): void {
  outcome.block = outcome.block === undefined ? why : `${outcome.block}\n${why}`;
}

/** ask beats allow: a question is never skipped because another hook allowed the call. */
function allow(outcome: HookOutcome, permission: "allow" | "ask"): void {
  if (outcome.permission !== "ask") outcome.permission = permission;
}

function jsonObject(stdout: string): Input | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? (value as Input) : undefined;
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  const line = text.split("\n")[0]!;
  return line.length > 80 || text.includes("\n") ? `${line.slice(0, 80)}…` : line;
}
