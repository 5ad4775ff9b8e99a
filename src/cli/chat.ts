// `awl`, `awl "prompt"` and `awl --resume [id]` (`-c`): the interactive session, and the sessions
// /new and /resume open after it without leaving the REPL. This file owns
// their life: it opens a session, shows what it holds (the transcript of a
// resumed one, the banner), runs the REPL on it, and when the REPL ends with
// /new or /resume, opens the next one first and only then closes this one
// (its lock released), so a session that cannot be opened (locked by another
// awl, damaged) leaves the person where they were.
//
// What carries over to the next session: the model in use, for a new session
// (a resumed one continues with its own model, as --resume does, unless its
// provider cannot be used here: then with the one in use, and it says so);
// the effort (a resumed one keeps its own, as --resume does); the approvals: the mode (a setting of this process, as --approve
// is, shown again on the banner) and what "always" allowed, since the question
// said "until awl exits" when the person chose it (/session lists it). The
// prompt history is reloaded: this directory's prompts from every session,
// the next one's own among them, so Up still reaches what was typed before.

import { Agent } from "../agent/agent";
import type { RenderEntry } from "../ui/session/extension-rows";
import type { AgentSeam } from "../extensions/seam";
import { Approvals } from "../agent/approval";
import { loadContextFiles, type ContextFiles } from "../agent/context-files";
import { UsageError, UserError } from "../errors";
import { AdvisedError } from "../providers";
import { listSessions, type ModelRef } from "../session";
import { movedSessions, printedId } from "../session/store";
import { colorsFor, type Colors } from "../ui/render/colors";
import { replAdvice, replMessage } from "../ui/advice";
import { contextFilesLine, contextNotice } from "../ui/session/instructions";
import { runRepl, type ReplEnd } from "../ui/repl";
import { holdKeys } from "../ui/input/input-modes";
import { joinParts, oneLine, wrapLines } from "../ui/render/format";
import { messagesInFile } from "../ui/session/message-count";
import { safeText } from "../ui/render/safe-text";
import { sessionIdLength, shortSessionId } from "../ui/session/session-id";
import { renderTranscript } from "../ui/session/transcript";
import { onCommandLine } from "./advice";
import { approvalMode, type Args } from "./args";
import { sandboxFor } from "./sandbox";
import { atTerminal, openSession, pathForId, type OpenedSession } from "./open-session";
import { keptEffort, startModel } from "./start-model";
import { loadExtensions } from "../extensions/load";
import { codeScope } from "./project-trust";
import { loadPermissions } from "../agent/permission-settings";
import type { Catalogues } from "../providers/catalogue";
import { pickFast, plainLine } from "./sessions";
import { guardOutput, hold, stopSignal } from "./stop";
import { listMcp } from "./mcp-start";

declare const AWL_VERSION: string;

type Out = NodeJS.WriteStream;

interface Screen {
  cwd: string;
  c: Colors;
  out: Out;
  /** The loaded extensions' renderers of their entries, for a resumed transcript. */
  renderEntry?: RenderEntry;
}

export async function chat(args: Args, cwd: string): Promise<number> {
  const mode = approvalMode(args);
  const sandbox = sandboxFor(args);
  guardOutput();
  const screen: Screen = { cwd, c: colorsFor(process.stdout), out: process.stdout };
  const { c, out } = screen;
  // Before anything of the project's runs: the question, at a terminal, when it has code the person has not trusted.
  const code = await codeScope(args, cwd, Boolean(process.stdin.isTTY && process.stdout.isTTY), (line) => say(out, line));
  // Before the model is chosen: the provider keys leave process.env before the first extension is imported.
  const extensions = await loadExtensions((line) => say(out, c.yellow(`awl: ${safeText(line)}`)), cwd, code);
  const seam = extensions?.seam();
  if (extensions) screen.renderEntry = (entry) => extensions.renderEntry(entry);
  const mcp = listMcp(args, cwd);
  const { opened, model, effort, catalogues, isDefault, gone } = await startModel(args, cwd);
  let session = opened.session;
  extensions?.bind(session);
  try {
    for (const notice of opened.notices) say(out, c.yellow(safeText(notice)));
    const sandboxNotice = (await sandbox.ready()).startNotice();
    if (sandboxNotice) say(out, c.yellow(safeText(sandboxNotice)));
    // A new session's project instructions: read now, so the banner lists exactly what its system prompt will hold.
    const contextFiles = opened.resumed ? undefined : loadContextFiles({ cwd });
    const permissions = loadPermissions(cwd, process.env, code);
    for (const problem of permissions.problems) say(out, c.yellow(`awl: ${safeText(problem)}`));
    const approvals = new Approvals(mode, process.env, permissions.rules);
    const modelInfo = catalogues.modelInfo;
    let agent = onCommandLine(() => new Agent({ session, cwd, model, effort, contextFiles, approvals, sandbox, modelInfo, code, mcp, ...(seam ? { seam } : {}) })); // rebuilds the conversation, once
    // An effort the model cannot take is a mistake on the command line: said before the REPL starts (/effort says it after).
    const refusal = agent.effortRefusal();
    if (refusal) throw new UsageError(`${refusal} (see awl --help)`);
    // From the first line shown, what the person types waits for the input box as typed (see holdKeys).
    holdKeys(process.stdin);
    if (opened.resumed) showTranscript(agent, screen, catalogues);
    if (session.readOnly) throw new UserError(session.readOnlyReason ?? "this session cannot be continued by this version of awl");
    showBanner(agent, opened.resumed, contextFiles, screen, isDefault);
    // Said, not acted on: awl never switches models by itself.
    if (gone) say(out, c.red(safeText(`${gone.fact}: ${replAdvice(gone.remedy)}`)));

    const warmUp = setTimeout(() => agent.warmUp(), 1); // fires once the prompt is drawn
    if (mcp) setTimeout(() => void mcp.start(), 1); // so do the servers: the prompt never waits for them
    let first = args.send; // awl "prompt": sent as the REPL opens
    let offered = opened.offered; // the prompt --at left out: in the first input box
    for (;;) {
      const end = await runRepl(agent, c, out, { signal: stopSignal, hold }, catalogues, first, offered, extensions);
      first = offered = undefined;
      if (end.kind === "quit" || stopSignal.aborted) break;
      const next = await nextSession(agent, end, screen, catalogues, seam);
      if (!next) continue;
      agent = next;
      session = next.session;
      extensions?.bind(session);
      // Bound first, so an extension's state is the new session's path when its handlers hear of the move.
      if (end.kind === "fork" || end.kind === "resume") await agent.moved(end.kind, stopSignal);
    }
    clearTimeout(warmUp);
    // SessionEnd's hooks hear that the person left (not a stop signal: awl leaves at once then).
    if (!stopSignal.aborted) for (const notice of await agent.end("prompt_input_exit", stopSignal)) say(out, c.dim(safeText(notice)));
    // After a stop signal nothing more is drawn (cli/stop.ts); awl exits once the session is closed.
    if (session.messageCount() > 0 && !stopSignal.aborted) {
      say(out, c.dim(`Resume this session with: awl --resume ${shortSessionId(cwd, session)}`));
    }
    return 0;
  } finally {
    session.close();
    await mcp?.close();
  }
}

/**
 * /new or /resume: the next session's agent, open and shown, with the current
 * one closed; or undefined when the person stays (Esc in the picker, or the
 * session could not be opened: said in red).
 */
async function nextSession(current: Agent, end: Exclude<ReplEnd, { kind: "quit" }>, screen: Screen, catalogues: Catalogues, seam: AgentSeam | undefined): Promise<Agent | undefined> {
  const { cwd, c, out } = screen;
  const stay = (why: string) => {
    say(out, c.red(safeText(why)));
    return undefined;
  };
  let opened: OpenedSession;
  if (end.kind === "new") {
    opened = await openSession(cwd, undefined, () => current.model);
  } else if (end.kind === "fork") {
    if (current.session.messageCount() === 0) return stay("Nothing to fork yet: this session has no messages.");
    try {
      opened = await openSession(cwd, current.session.sessionId, () => current.model, { fork: { model: () => current.model } });
    } catch (error) {
      if (error instanceof UserError) return stay(error.message);
      throw error;
    }
  } else {
    const id = end.id ?? (await pick(current, screen));
    if (id === undefined) return undefined;
    try {
      const path = await pathForId(cwd, id, { listedBy: "/resume", pick: atTerminal() });
      if (path === current.session.sessionFile) {
        say(out, c.dim(`${shortSessionId(cwd, current.session)} is the session open here.`));
        return undefined;
      }
      opened = await openSession(cwd, { path }, () => current.model);
    } catch (error) {
      if (error instanceof UserError) return stay(error.message);
      throw error;
    }
    if (opened.session.readOnly) {
      opened.session.close();
      return stay(opened.session.readOnlyReason ?? "that session cannot be continued by this version of awl");
    }
  }

  let next: { agent: Agent; notice?: string };
  const contextFiles = opened.resumed ? undefined : loadContextFiles({ cwd });
  try {
    next = nextAgent(current, opened, contextFiles, catalogues, seam);
  } catch (error) {
    opened.session.close();
    if (error instanceof UserError) return stay(replMessage(error));
    throw error;
  }

  // The next one is open: now this one is left (SessionEnd: "clear" for /new, as Claude Code's /clear), then closed, its lock released.
  for (const notice of await current.end(end.kind === "new" ? "clear" : "other", stopSignal)) say(out, c.dim(safeText(notice)));
  const left = current.session;
  if (left.messageCount() > 0) {
    const id = shortSessionId(cwd, left, [next.agent.session.sessionId]); // still unique once the next one is written
    const messages = messagesInFile(left.sessionFile, cwd); // as the picker counts them
    say(out, c.dim(`Left session ${id} (${messages} message${messages === 1 ? "" : "s"}, saved): /resume ${id} returns to it.`));
  }
  left.close();

  out.write("\n");
  for (const notice of opened.notices) say(out, c.yellow(safeText(notice)));
  if (next.notice) say(out, c.yellow(safeText(next.notice)));
  if (opened.resumed) showTranscript(next.agent, screen, catalogues);
  showBanner(next.agent, opened.resumed, contextFiles, screen, false);
  return next.agent;
}

/**
 * The agent for the next session: the model in use for a new one; a resumed
 * one's own, unless its provider cannot be used here (no key), when it
 * continues with the model in use and says so.
 */
function nextAgent(current: Agent, opened: OpenedSession, contextFiles: ContextFiles | undefined, catalogues: Catalogues, seam: AgentSeam | undefined): { agent: Agent; notice?: string } {
  // A resumed session keeps its own effort, as it keeps its model.
  const effort = (opened.resumed && keptEffort(opened.session)) || current.effort;
  const make = (model: ModelRef) =>
    new Agent({
      session: opened.session,
      cwd: current.cwd,
      model,
      effort,
      contextFiles,
      approvals: current.approvals,
      mcp: current.mcp,
      ...(current.sandbox ? { sandbox: current.sandbox } : {}),
      modelInfo: catalogues.modelInfo,
      code: current.code,
      ...(seam ? { seam } : {}),
    });
  if (!opened.resumed) return { agent: make(current.model) };
  const own = opened.session.activeModel();
  try {
    return { agent: make(own) };
  } catch (error) {
    if (!(error instanceof AdvisedError) || error.remedy.kind !== "key") throw error;
    const name = (m: ModelRef) => `${m.provider}/${m.model}`;
    const notice = `This session last used ${name(own)}, but ${error.fact} (awl reads it when it starts): it continues with ${name(current.model)}.`;
    return { agent: make(current.model), notice };
  }
}

/** The picker of `awl sessions`, for /resume: the chosen id, or undefined (Esc, or nothing to pick). */
async function pick(current: Agent, { cwd, c, out }: Screen): Promise<string | undefined> {
  const here = current.session.sessionId;
  if (process.stdin.isTTY && process.stdout.isTTY) {
    const picked = await pickFast(cwd, { current: here, escape: "goes back" });
    if (picked.none) say(out, c.dim("No other session in this directory to resume."));
    return picked.id;
  }
  const list = await listSessions(cwd, process.env, movedSessions(cwd));
  if (!list.some((s) => s.id !== here && !s.damaged)) {
    say(out, c.dim("No other session in this directory to resume."));
    return undefined;
  }
  const length = sessionIdLength(cwd, [...list.map((s) => s.id), here]);
  const listed = new Set(list.map((s) => s.id));
  out.write(`${list.map((s) => plainLine(s, length, cwd, listed)).join("\n")}\n${c.dim("/resume <id> continues one of them.")}\n`);
  return undefined;
}

function showTranscript(agent: Agent, { c, out, renderEntry }: Screen, catalogues: Catalogues): void {
  const transcript = renderTranscript(agent.session, c, out.columns ?? 100, {}, process.env, catalogues.modelInfo, renderEntry);
  if (transcript) out.write(`${transcript}\n\n`);
}

/**
 * `awl 0.1.0 · new session · <provider>/<model> (default) · approve: ask · /help for commands`,
 * and a new session's instructions. "(default)": nothing named the model, so
 * it is the provider's default (the newest of its default family it lists).
 */
function showBanner(agent: Agent, resumed: boolean, contextFiles: ContextFiles | undefined, { cwd, c, out }: Screen, isDefault: boolean): void {
  const version = typeof AWL_VERSION === "string" ? AWL_VERSION : "dev";
  const title = agent.session.title()?.title;
  const fork = agent.session.header.forkedFrom;
  const lineage = fork ? ` (fork of ${safeText(printedId(cwd, fork.session))} at ${safeText(fork.entry)})` : "";
  const what = resumed ? `resumed ${shortSessionId(cwd, agent.session)}${title ? ` "${oneLine(title, 40)}"` : ""}${lineage}` : "new session";
  const model = safeText(`${agent.model.provider}/${agent.model.model}${isDefault ? " (default)" : ""}`);
  const effort = agent.effort ? [`effort: ${agent.effort}`] : [];
  say(out, c.dim(joinParts([`awl ${version}`, what, model, ...effort, `approve: ${agent.approvals.mode}`, `sandbox: ${safeText(agent.sandbox?.describe() ?? "off")}`, "/help for commands"], out.columns ?? 100)));
  if (!contextFiles) return;
  const files = contextFilesLine(contextFiles.files, cwd);
  if (files) say(out, c.dim(files));
  const notice = contextNotice(contextFiles, cwd);
  if (notice) say(out, c.yellow(notice));
}

/** A line of awl's own (a notice, what leaving a session says), wrapped between words at the terminal's width. */
function say(out: Out, line: string): void {
  out.write(`${wrapLines(line, out.columns)}\n`);
}
