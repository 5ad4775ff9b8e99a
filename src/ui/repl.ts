// The interactive loop: read a line, run a slash command or a turn, repeat.
// Ctrl+C (or Esc) during a turn aborts it, and does not count toward quitting;
// at an empty prompt Ctrl+D quits, and so does Ctrl+C pressed twice within 2 s
// (readLine). Prompts go to the history file every session shares
// (./history.ts); what is typed during a turn shows under the output, below
// the status line (./live-area.ts), and waits for the next prompt; when the
// turn is interrupted, all of it is back in the input box, unsent
// (./type-ahead.ts). A stop signal (cli/stop.ts) aborts a running turn like Ctrl+C and,
// once the turn has kept what it had, ends the loop. /new and /resume end it
// too: its caller (cli/chat.ts) opens that session and runs the loop on it.
// `awl "prompt"` hands the loop a first prompt, sent as if typed. A prompt
// refused before it is written (too large for the model, an effort the model
// does not take) goes back into the input box; one the provider refused after
// it was written (a model it no longer serves) stays in the conversation and
// goes with the next request, as the line under it says: putting it back too
// would send it twice.

import type { ExtensionHost } from "../extensions/host";
import type { Agent } from "../agent/agent";
import type { AgentEvent } from "../agent/events";
import { Catalogues } from "../providers/catalogue";
import { CompactionFailed } from "../agent/compaction";
import { PromptTooLarge } from "../agent/prompt-size";
import { wantsTitle, writeModelTitle } from "../agent/title";
import { UserError } from "../errors";
import type { Colors } from "./render/colors";
import { terminalAsk } from "./session/approval";
import { adviseInRepl, replMessage } from "./advice";
import { commandArguments, runCommand } from "./commands";
import { prepareCommand } from "./model-command";
import { commandHelp } from "../extensions/commands/markdown-commands";
import { runCommandTurn, type CommandTurn } from "../agent/command-turn";
import { commandTable, readyCommand } from "./command-table";
import { writtenRows } from "./session/extension-rows";
import { extensionsReport } from "../extensions/report";
import { appendHistory, loadHistory, mergeHistory } from "./input/history";
import { readLine, watchInterrupt } from "./input/input";
import { meterText, wrapLines } from "./render/format";
import { TurnRenderer } from "./live/render";
import { unfolder } from "./session/folded";
import { safeText } from "./render/safe-text";
import { LiveArea } from "./live/live-area";
import { treeScreen } from "./session/go-back";
import { rewindScreen } from "./session/rewind-screen";
import { isSaidText } from "../session";
import { APPROVAL_MODES } from "../agent/approval-mode";
import { costText, sessionCost } from "../agent/session-cost";
import { listProjectFiles } from "./input/project-files";
import { pickSetting, type PickedSetting } from "./setting-picker";
import { editInEditor } from "./input/external-editor";

type Out = NodeJS.WriteStream;

export interface StopControl {
  /** Aborted when awl is told to stop (a signal): a running turn is aborted with it. */
  signal: AbortSignal;
  /** Runs work a stop must wait for (a turn, a compaction), so what it has is appended before awl exits. */
  hold<T>(work: () => Promise<T>): Promise<T>;
}

const NO_STOP: StopControl = { signal: new AbortController().signal, hold: (work) => work() };

/** Why the REPL ended: quit (or a stop signal), or /new and /resume, which its caller carries out (cli/chat.ts). */
export type ReplEnd = { kind: "quit" } | { kind: "new" } | { kind: "fork" } | { kind: "resume"; id?: string };
const QUIT: ReplEnd = { kind: "quit" };

/**
 * `catalogues` gives /model its list (and Tab its ids), and the newest models
 * of a family to a model the provider does not serve; without it, the
 * built-in table does. `first` (awl "prompt") is sent as the REPL opens.
 */
export async function runRepl(agent: Agent, c: Colors, out: Out = process.stdout, stop: StopControl = NO_STOP, catalogues = new Catalogues(), first?: string, offered?: string, extensions?: ExtensionHost): Promise<ReplEnd> {
  // A title request still out when the loop ends is given up: awl does not wait on it to exit or switch sessions.
  const titles = new AbortController();
  try {
    return await loop(agent, c, out, stop, catalogues, first, offered, titles.signal, extensions);
  } finally {
    titles.abort();
  }
}

async function loop(agent: Agent, c: Colors, out: Out, stop: StopControl, catalogues: Catalogues, first: string | undefined, offered: string | undefined, titles: AbortSignal, extensions: ExtensionHost | undefined): Promise<ReplEnd> {
  const summary = agent.session.context().summary; // never offered as something the person typed
  const sessionPrompts = agent.conversation.messages
    .filter((m) => m.role === "user" && m !== summary)
    .flatMap((m) => m.content.flatMap((b) => (isSaidText(b) ? [b.text] : []))); // the directory note is awl's, not typed
  const history = mergeHistory(loadHistory(agent.cwd), sessionPrompts);
  const prompt = `${c.bold(c.green("›"))} `;
  const models = () => catalogues.of(agent.model.provider).models().map((m) => m.id);
  // Prompts kept as files, and the extensions' commands, typed as commands: found once, as the REPL starts; what was skipped is said then.
  const table = commandTable(agent.cwd, process.env, extensions);
  for (const problem of table.problems) out.write(`${wrapLines(c.dim(safeText(problem)), out.columns)}\n`);
  // SessionStart's hooks run as the session opens, while the person types: the first turn waits for them, and says what they said.
  agent.start(stop.signal).catch(() => {}); // a failure is the first turn's to report
  const { markdown, added } = table;
  const commandRows = [...markdown.map(commandHelp), ...added.map((a): [string, string] => [`/${a.command.name}`, `${a.command.description} (${a.origin})`])];
  const completion = { cwd: agent.cwd, commands: table.names, arguments: commandArguments(models) };
  const unfold = unfolder(() => agent.conversation.messages, (id) => agent.session.childTranscript(id), c);

  /** What Markdown commands said (an untrusted project's allowed-tools ignored): each line once. */
  const said = new Set<string>();
  /** A prompt given back unsent (or left out by --at): the next input box starts with it. */
  let unsent = offered;
  let titleAsked = false;
  for (;;) {
    // A server that failed since the last prompt is named once, above the next one.
    for (const line of agent.mcp?.takeNotices() ?? []) out.write(`${wrapLines(c.yellow(safeText(line)), out.columns)}\n`);
    const input = first !== undefined ? sentFirst(first, prompt, history, out) : await readLine({ prompt, history, completion, hintStyle: c.dim, text: unsent, unfold, ...approvalKeys(agent, c), files: (changed) => listProjectFiles(agent.cwd, changed), editor: (text) => editInEditor(text) });
    first = unsent = undefined;
    if (input.kind === "quit") return QUIT;
    if (input.kind === "rewind") {
      unsent = await goBack(agent, { rewind: true }, c, out);
      continue;
    }
    let text = input.text;
    if (!text.trim()) continue;
    appendHistory(agent.cwd, text);

    const command = table.parse(text); // a line that starts with a path is a prompt
    const own = command && added.find((a) => a.command.name === command.name);
    if (own) {
      await extensions!.runCommand(own, command.argument);
      // What it wrote is written now, and shown as its renderer says: quitting next keeps it (a new session's waits for its file).
      agent.flushExtensions((event) => {
        if (event.type !== "extensionEntries") return;
        for (const entry of event.entries) for (const row of writtenRows(entry, c, out.columns ?? 100, (e) => extensions!.renderEntry(e))) out.write(`${row}\n`);
      });
      continue;
    }
    const file = command && markdown.find((m) => m.name === command.name);
    let commandTurn: CommandTurn | undefined;
    if (file) {
      // A Markdown command is a prompt: what it expands to is sent as if typed, its `!`cmd` parts run first (agent/command-turn.ts).
      try {
        commandTurn = readyCommand(agent, file, command.argument, catalogues);
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        out.write(`${wrapLines(c.red(safeText(`${replMessage(error)}; your command is back in the input box.`)), out.columns)}\n`);
        unsent = input.text;
        continue;
      }
      for (const notice of commandTurn.notices.filter((n) => !said.has(n))) {
        said.add(notice); // each once a session
        out.write(`${wrapLines(c.dim(safeText(notice)), out.columns)}\n`);
      }
    } else if (command) {
      await prepareCommand(command, agent, catalogues);
      const result = runCommand(command, agent, c, catalogues, out.columns, commandRows);
      if (result === "quit") return QUIT;
      if (!("prompt" in result)) {
        if ("open" in result) return result.open === "resume" ? { kind: "resume", id: result.id } : { kind: result.open };
        if ("pick" in result) await pickAndRun(result.pick, agent, c, catalogues, out);
        else if ("compact" in result) await compactNow(agent, result.compact, c, out, stop);
        else if ("tree" in result || "rewind" in result) unsent = await goBack(agent, result, c, out);
        else if ("extensions" in result) out.write(`${wrapLines(extensionsReport(agent.cwd, process.env, extensions, agent.code).map(safeText).join("\n"), out.columns)}\n`);
        else out.write(`${wrapLines(result.output, out.columns)}\n`);
        if (stop.signal.aborted) return QUIT;
        continue;
      }
      text = result.prompt; // /init: sent below, as a Markdown command's prompt is
    }

    // An effort the model cannot take (after /model, say, or a Markdown command's) refuses the prompt before it is written, or a command's `!`cmd` parts run: it goes back into the input box.
    const refusal = agent.effortRefusal(commandTurn?.model);
    if (refusal) {
      out.write(`${wrapLines(c.red(safeText(`${refusal}: change it with /effort or /model; your prompt is back in the input box, not sent.`)), out.columns)}\n`);
      unsent = input.text; // as typed (a Markdown command, not what it expanded to)
      continue;
    }

    const controller = interruptible(stop.signal);
    const live = new LiveArea(out); // under the output: the status line, then what is typed ahead
    const watch = () => watchInterrupt(() => controller.abort(), process.stdin, out, { show: (row) => live.typeAhead(row), prompt, history, noteStyle: c.dim });
    let stopWatching = watch();
    const renderer = new TurnRenderer(out, c, live, Date.now, extensions && ((entry) => extensions.renderEntry(entry)));
    // --approve ask: the question reads keys itself, so Ctrl+C is not watched for meanwhile (ui/session/approval.ts).
    const ask = terminalAsk({
      out,
      draw: live.stream, // what was typed ahead stays on view under the question, and never answers it
      c,
      cwd: agent.cwd,
      interrupt: () => controller.abort(),
      showAbove: (write) => renderer.writeAbove(write), // a subagent that ends while another's question is up
      pauseWatching: () => {
        stopWatching();
        const showStatus = renderer.hideStatus(); // the question shows the call itself
        return () => {
          showStatus();
          if (!controller.signal.aborted) stopWatching = watch();
        };
      },
    });
    try {
      const onEvent = (event: AgentEvent) => {
        renderer.handle(adviseInRepl(event, (remedy) => catalogues.advise(remedy, agent.model.provider)));
      };
      const result = await stop.hold(() => (commandTurn ? runCommandTurn(agent, commandTurn, controller.signal, onEvent, ask) : agent.runTurn(text, controller.signal, onEvent, ask)));
      renderer.finish(result, costText(sessionCost(agent.session.sessionFile)));
      if (result.promptBlocked) unsent = input.text; // back in the input box to change, as it was never sent
      if (result.stopReason === "stop" && !titleAsked && wantsTitle(agent.session)) {
        titleAsked = true; // one request per session, answered or not
        void writeModelTitle(agent.session, agent.model, titles);
      }
    } catch (error) {
      renderer.abandon();
      if (!(error instanceof UserError)) throw error;
      live.stream.write(`${wrapLines(c.red(safeText(replMessage(error))), out.columns)}\n`);
      if (error instanceof PromptTooLarge) unsent = input.text;
    } finally {
      stopWatching();
      live.close(); // what was typed ahead is in the next prompt now
      controller.dispose();
    }
    if (stop.signal.aborted) return QUIT;
  }
}

/**
 * At the idle prompt: the approval mode when it is not the one awl started in
 * (--approve, AWL_APPROVE, else ask), as `auto › `; Shift+Tab cycles ask → auto → read-only.
 */
function approvalKeys(agent: Agent, c: Colors): { label: () => string; onShiftTab: () => void } {
  const approvals = agent.approvals;
  const colour = { ask: c.green, auto: c.yellow, "read-only": c.cyan };
  return {
    label: () => (approvals.mode === approvals.standing ? "" : `${colour[approvals.mode](approvals.mode)} `),
    onShiftTab: () => {
      approvals.mode = APPROVAL_MODES[(APPROVAL_MODES.indexOf(approvals.mode) + 1) % APPROVAL_MODES.length]!;
    },
  };
}

/** /model or /effort with no argument: the picker, then the command with what was chosen (Esc: nothing changes). */
async function pickAndRun(which: PickedSetting, agent: Agent, c: Colors, catalogues: Catalogues, out: Out): Promise<void> {
  const chosen = await pickSetting(which, agent, catalogues);
  if (chosen === undefined) return;
  const command = { name: which, argument: chosen };
  await prepareCommand(command, agent, catalogues);
  const done = runCommand(command, agent, c, catalogues, out.columns);
  if (typeof done === "object" && "output" in done) out.write(`${wrapLines(done.output, out.columns)}\n`);
}

/** /tree, /rewind (and Esc Esc): what they say is printed; a prompt /rewind gives back is returned for the next input box. */
async function goBack(agent: Agent, what: { tree: string } | { rewind: true }, c: Colors, out: Out): Promise<string | undefined> {
  try {
    const done = "tree" in what ? { output: await treeScreen(agent, what.tree, c, out) } : await rewindScreen(agent, c, out);
    out.write(`${wrapLines(done.output, out.columns)}\n`); // between words, as every command's output
    return "prompt" in done ? done.prompt : undefined;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    out.write(`${wrapLines(c.red(safeText(replMessage(error))), out.columns)}\n`);
    return undefined;
  }
}

/** The prompt from the command line, shown as a typed one stays on screen, and added to Up's history. */
function sentFirst(text: string, prompt: string, history: string[], out: Out): { kind: "line"; text: string } {
  out.write(`${prompt}${safeText(text).replaceAll("\n", `\n${" ".repeat(Bun.stringWidth(prompt))}`)}\n`);
  if (history.at(-1) !== text) history.push(text);
  return { kind: "line", text };
}

/** A controller for one turn: Ctrl+C or Esc aborts it (abort()), and so does a stop signal until dispose(). */
function interruptible(stop: AbortSignal): { abort(): void; signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (stop.aborted) abort();
  stop.addEventListener("abort", abort, { once: true });
  return { abort, signal: controller.signal, dispose: () => stop.removeEventListener("abort", abort) };
}

/** `/compact [focus]`: the summary request streams behind the status line; Ctrl+C stops it and nothing is written. */
async function compactNow(agent: Agent, focus: string, c: Colors, out: Out, stop: StopControl): Promise<void> {
  const controller = interruptible(stop.signal);
  const stopWatching = watchInterrupt(() => controller.abort());
  const live = new LiveArea(out);
  const renderer = new TurnRenderer(out, c, live);
  try {
    const done = await stop.hold(() => agent.compact(controller.signal, (event) => renderer.handle(event), focus || undefined));
    renderer.abandon();
    if (done.compacted) out.write(`${c.dim(meterText(agent.meter()))}\n`);
  } catch (error) {
    renderer.abandon();
    if (!(error instanceof UserError)) throw error;
    out.write(`${wrapLines(error instanceof CompactionFailed && error.aborted ? c.yellow("Interrupted: nothing was compacted.") : c.red(safeText(error.message)), out.columns)}\n`);
  } finally {
    stopWatching();
    live.close();
    controller.dispose();
  }
}
