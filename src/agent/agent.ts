// The turn loop of the data flow in docs/architecture.md. Every message is
// appended to the session log BEFORE it joins the in-memory conversation, so
// memory never runs ahead of what is on disk. Before each request the context
// is measured against the model's window and compacted when it would not fit;
// an overflow the API reports is compacted too (twice at most), then the
// request is sent again.

import { Conversation, keptAnything, messageText, textMessage, toolUses, type ContentBlock, type Message, type ToolResultBlock } from "../conversation";
import { addUsage, cwdNote, diskMessageToInternal, extensionMessage, INTERRUPTED_BY_USER, messageToDisk, preloadSchemas, toldDirectory, type ModelRef, type SessionManager } from "../session";
import { jsonByteLength } from "../json";
import { createProvider } from "../providers";
import { applyStreamEvent, finalizeMessage } from "../providers/assemble";
import type { ModelInfo } from "../providers/model-info";
import { builtinModel } from "../providers/builtin-models";
import { contextWindowFromEnv } from "../providers/models";
import type { ContextOverflow, Provider, ProviderName, StreamEvent, Usage } from "../providers/provider";
import { EFFORTS, learnThinking, lessonOf, type Effort } from "../providers/thinking-forms";
import { ANSWER_SHARE, type TurnPlan } from "../providers/thinking-plan";
import { toolDefinitions, tools, type ToolDefinition } from "../tools";
import { Checkpoints } from "./checkpoints";
import { Hooks } from "../extensions/hooks/hooks";
import { atStop } from "../extensions/hooks/turn-hooks";
import { SessionHooks } from "./session-hooks";
import { PartialWriter } from "./partials";
import { runTools, type ToolRun } from "./run-tools";
import { loadAgents, withAgents, type AgentDefinition } from "./subagents/definitions";
import { AtMost, OneAtATime } from "./subagents/one-at-a-time";
import { DEFAULT_SUBAGENTS, positive, runChild, type ChildParent } from "./subagents/run-child";
import type { AgentSeam, CallHandlers } from "../extensions/seam";
import type { CodeScope } from "../extensions/trust";
import type { McpServers } from "../mcp";
import { compact, CompactionFailed, type Compaction } from "./compaction";
import { reserve, summaryAllowance, windowOf } from "./window";
import { INTERRUPTED_NOT_RUN, RESULT_NOT_RECORDED, type AgentEvent, type ContextMeter, type TurnResult } from "./events";
import type { ContextFiles } from "./context-files";
import type { Sandbox } from "../tools/sandbox";
import { Approvals, type Ask } from "./approval";
import { checkPromptSize } from "./prompt-size";
import { systemPrompt } from "./system-prompt";
import { prefixHash, replayable } from "./thinking-replay";
import { ThinkingSettings } from "./thinking-settings";
import { overBudget, sessionCost } from "./session-cost";
import { attach, attachable, type CarryingPrompt } from "./attachments";

export interface AgentOptions {
  session: SessionManager;
  /** The MCP servers of this process (their tools reach the model through the tools' registry); /mcp shows them. */
  mcp?: McpServers;
  /** The project instructions the CLI read (and showed) as a new session starts; read at the first turn when absent. */
  contextFiles?: ContextFiles;
  cwd: string;
  model: ModelRef;
  /** How hard the model thinks (--effort); absent: nothing is asked, the model's default applies. */
  effort?: Effort;
  /** The answer's share of max_tokens, beside any thinking budget. */
  maxTokens?: number;
  env?: Record<string, string | undefined>;
  /** When tools may act (--approve); auto, everything runs, when absent. */
  approvals?: Approvals;
  /** Where bash commands run (--sandbox); outside any sandbox when absent. */
  sandbox?: Sandbox;
  /** What the provider's catalogue (merged over the built-in table) says of a model (window, output limit, thinking forms); the built-in table's row when absent. */
  modelInfo?: (provider: ProviderName, model: string) => ModelInfo | undefined;
  /** Where extensions meet the turn (docs/extensions.md); none when absent. */
  seam?: AgentSeam;
  /** Whose hooks run: the person's and, once trusted, the project's; the person's only when absent. */
  code?: CodeScope;
  /** A `task` call's child agent (docs/subagents.md): its name, the tools it is offered, what its instructions add. */
  child?: ChildRole;
  /** The hooks that run: a child's are its parent's, read once (Hooks.forAgent); else read from the settings files. */
  hooks?: Hooks;
  /** Shared by a parent with its children: one change to the files at a time, one question to the person at a time. */
  changes?: OneAtATime;
  questions?: OneAtATime;
}

/** What makes an agent a child: its name (for questions and hooks), the tools it is offered, its added instructions. */
export interface ChildRole {
  name: string;
  offered: (tool: string) => boolean;
  instructions: string;
  /** The parent's extensions' handlers around a call: a child's calls are put to them as the parent's are. */
  calls?: CallHandlers;
}


/** A request the API found too long is compacted and sent again this many times; the next overflow ends the turn. */
const MAX_OVERFLOW_COMPACTIONS = 2;
/** The least an answer is left when max_tokens is lowered to fit beside the turn: room to say anything at all. */
const MIN_ANSWER_TOKENS = 1024;
/** What to do when this turn alone no longer fits the window, whatever was compacted. */
const TURN_TOO_LONG = "this turn alone fills the model's context window, even compacted: start a new session and ask for the work in smaller steps, or use a model with a larger window";

/**
 * The turn's plan with max_tokens lowered to what the window leaves beside the
 * prompt the API counted (never below the thinking budget and an answer's
 * least), when the overflow stated both and that is less than asked; else
 * undefined: a smaller answer would not fit either.
 */
function smallerAnswer(plan: TurnPlan, overflow: ContextOverflow): TurnPlan | undefined {
  if (overflow.limit === undefined || overflow.input === undefined) return undefined;
  const room = overflow.limit - overflow.input;
  return room >= plan.budget + MIN_ANSWER_TOKENS && room < plan.maxTokens ? { ...plan, maxTokens: room } : undefined;
}

/** `maxTurns`: the answers this turn may get (--max-turns); the turn ends before the request after the last one's tool results. `maxCost`: dollars this turn may spend (--max-cost); it ends before a request whose worst case would pass them. */
export interface TurnLimits {
  maxTurns?: number;
  maxCost?: number;
  /** The session's spend `maxCost` counts from (a child's: its parent turn's, so children and parent share one budget); default what it had spent when the turn began. */
  spentBefore?: number;
}

type End = Extract<StreamEvent, { type: "end" }>;
type Response = { message: Message; end: End };

export class Agent {
  readonly session: SessionManager;
  readonly cwd: string;
  /** The approval mode in force and what "always" has allowed; /approve changes the mode. */
  readonly approvals: Approvals;
  /** Where bash commands run: fixed for the process by the person's flags, environment and settings. */
  readonly sandbox: Sandbox | undefined;
  readonly #thinking: ThinkingSettings;
  #conversation: Conversation;
  #model: ModelRef;
  #provider: Provider;
  #maxTokens: number;
  #env: Record<string, string | undefined>;
  /** A window an overflow error stated, for the model it was stated for (beats the table and AWL_CONTEXT_WINDOW). */
  #corrected: (ModelRef & { window: number }) | undefined;
  #toolBytes: number | undefined;
  #toolList: ToolDefinition[] | undefined;
  #contextFiles: ContextFiles | undefined;
  readonly #modelInfo: (provider: ProviderName, model: string) => ModelInfo | undefined;
  /** What a rewind restores files from: the versions tools and commands changed. */
  readonly #checkpoints: Checkpoints;
  readonly #seam: AgentSeam | undefined;
  /** The person's hooks (and a trusted project's), read as the agent starts. */
  readonly #hooks: Hooks;
  /** Whose code runs here: a session opened after this one (/new, /resume) keeps it. */
  readonly code: CodeScope;
  /** SessionStart, UserPromptSubmit and SessionEnd: a parent's alone (a child's task is no prompt of the person's). */
  readonly #sessionHooks: SessionHooks | undefined;
  /** The MCP servers of this run, for /mcp. */
  readonly mcp?: McpServers;
  readonly #child: ChildRole | undefined;
  /** The agent definitions `task` can start (docs/subagents.md); what in their files was not used is said with the settings' problems. */
  readonly #agents: readonly AgentDefinition[];
  readonly #changes: OneAtATime;
  readonly #questions: OneAtATime;

  constructor(options: AgentOptions) {
    this.session = options.session;
    this.cwd = options.cwd;
    this.#maxTokens = options.maxTokens ?? ANSWER_SHARE;
    this.#env = options.env ?? process.env;
    this.mcp = options.mcp;
    this.approvals = options.approvals ?? new Approvals("auto", this.#env);
    this.sandbox = options.sandbox;
    contextWindowFromEnv(this.#env); // a bad AWL_CONTEXT_WINDOW is said now, not at the first request
    this.#conversation = options.session.rebuildConversation();
    this.#contextFiles = options.contextFiles;
    this.#modelInfo = options.modelInfo ?? ((provider, model) => builtinModel(provider, model));
    this.#thinking = new ThinkingSettings(options.effort, (provider, model) => this.#modelInfo(provider, model));
    this.#model = options.model;
    this.#provider = createProvider(options.model.provider, this.#env);
    this.#checkpoints = new Checkpoints(options.session, options.cwd, this.#env);
    this.#seam = options.seam;
    this.code = options.code ?? { person: true, project: false };
    this.#child = options.child;
    const defined = options.child ? { agents: [], notices: [] } : loadAgents(options.cwd, this.#env);
    this.#agents = defined.agents;
    this.#changes = options.changes ?? new OneAtATime();
    this.#questions = options.questions ?? new OneAtATime();
    this.#hooks = options.hooks ?? new Hooks({ sessionId: options.session.sessionId, transcriptPath: options.session.sessionFile, cwd: options.cwd, env: this.#env, scope: this.code });
    this.#sessionHooks = options.child ? undefined : new SessionHooks(this.#hooks, defined.notices, { sessionId: options.session.sessionId, cwd: options.cwd }, options.seam);
  }

  /** Runs the handlers of session_start and the SessionStart hooks, once (see session-hooks.ts); resolves to what the first turn says. */
  start(signal: AbortSignal): Promise<string[]> {
    return this.#sessionHooks?.start(this.#conversation.messages.length === 0, signal) ?? Promise.resolve([]);
  }

  /** Runs the SessionEnd hooks as the session is left; returns their notices. */
  end(reason: "prompt_input_exit" | "clear" | "other", signal: AbortSignal): Promise<string[]> {
    return this.#sessionHooks?.end(reason, signal) ?? Promise.resolve([]);
  }

  /** The project instructions read for this new session, until its first turn writes them into the system prompt. */
  get pendingContextFiles(): ContextFiles | undefined {
    return this.#conversation.messages.length === 0 ? this.#contextFiles : undefined;
  }

  /** What the model is sent: rebuilt from the log after a compaction. */
  get conversation(): Conversation {
    return this.#conversation;
  }

  /**
   * Loads what the first turn needs and start-up skipped: the tools and the
   * session schemas, both arktype (~150 ms, see ark.ts). The REPL calls it once its
   * prompt shows, so the cost falls while the person types.
   */
  warmUp(): void {
    tools();
    preloadSchemas();
  }

  get model(): ModelRef {
    return this.#model;
  }

  /** The effort in force: undefined when none was chosen (the model's default applies). */
  get effort(): Effort | undefined {
    return this.#thinking.effort;
  }

  /** Sets the effort from the next turn on; a level the model cannot take is refused (UserError), and the effort stays. */
  setEffort(effort: Effort | undefined): void {
    this.#thinking.set(this.#model, effort);
  }

  /** Why the effort in force cannot go to `model` (the one in force; a Markdown command's, for its turn), in one line; undefined when it can. */
  effortRefusal(model: ModelRef = this.#model): string | undefined {
    return this.#thinking.refusal(model);
  }

  /** The effort levels `model` (the one in force by default) takes: what the /effort and /model pickers offer. */
  effortsTaken(model: ModelRef = this.#model): Effort[] {
    return EFFORTS.filter((level) => this.#thinking.refusal(model, level) === undefined);
  }

  /** Switches provider/model from the next request on; throws UserError if unusable (no key). */
  setModel(model: ModelRef): void {
    this.#provider = createProvider(model.provider, this.#env);
    this.#model = model;
  }

  /** What the catalogue, else the built-in table, says of the active model (its window, output limit, thinking forms). */
  get activeModelInfo(): ModelInfo | undefined {
    return this.#modelInfo(this.#model.provider, this.#model.model);
  }

  /**
   * The active model's context window in tokens: one an overflow error stated
   * in this process, else AWL_CONTEXT_WINDOW, else the catalogue's
   * max_input_tokens, else the window the latest compaction was sized for
   * (when made with this model: it keeps a window an error stated in an
   * earlier run), else the model table's.
   */
  window(): number {
    const { provider, model } = this.#model;
    if (this.#corrected?.provider === provider && this.#corrected.model === model) return this.#corrected.window;
    return windowOf(this.#model, this.session.compaction(), this.#env, this.activeModelInfo);
  }

  /** The next request's size in tokens: what the API counted last, plus bytes/4 of what was added since. */
  contextTokens(): number {
    const size = this.session.contextSize();
    return size.tokens + Math.ceil((size.bytesSince + (size.anchored ? 0 : this.#toolDefinitionBytes())) / 4);
  }

  meter(): ContextMeter {
    return { tokens: this.contextTokens(), window: this.window() };
  }

  /** After the session's leaf moved (/tree, /rewind): the conversation is the new path's, rebuilt from the log. */
  reloadConversation(): void {
    this.#conversation = this.session.rebuildConversation();
  }

  /**
   * The session moved (a rewind of the conversation, a /tree move, or this
   * agent's session was opened by /fork or /resume): the conversation is the
   * new path's, then the handlers of after_move are told where it is, when an
   * extension's state (the fold of that path) already follows it.
   */
  async moved(kind: "rewind" | "tree" | "fork" | "resume", signal: AbortSignal): Promise<void> {
    // A session /fork or /resume opened was read as this agent was made: only a move within it is read again.
    if (kind === "rewind" || kind === "tree") this.reloadConversation();
    await this.#seam?.afterMove({ kind, leafId: this.session.getLeafId() }, signal);
  }

  /** `/compact [focus]`: summarizes every turn before the latest one, kept only when that makes the context smaller. */
  async compact(signal: AbortSignal, onEvent: (event: AgentEvent) => void, focus?: string): Promise<Compaction> {
    onEvent({ type: "compacting", reason: "manual" });
    return this.#compact({ plan: this.#plan(), signal, onEvent, focus, onlySmaller: true });
  }

  /**
   * One prompt, run until the model stops asking for tools, or until aborted.
   * `ask` asks the person about a call the approval mode does not let run by
   * itself; without it, such a call is refused. A prompt larger than the
   * window can ever take throws PromptTooLarge, with nothing sent or logged.
   * Without a prompt, the turn goes on from tool results that wait for the
   * model (see waitsForModel: a turn --max-turns stopped).
   */
  async runTurn(prompt: string | CarryingPrompt | undefined, signal: AbortSignal, onEvent: (event: AgentEvent) => void, ask?: Ask, limits: TurnLimits = {}): Promise<TurnResult> {
    try {
      return await this.#turn(prompt, signal, onEvent, ask, limits);
    } catch (error) {
      // A turn that throws (a prompt larger than the window, a compaction that failed) has ended too: turn_end's handlers are told.
      await this.#seam?.turnEnd({ stopReason: "error" }, signal);
      throw error;
    }
  }

  async #turn(given: string | CarryingPrompt | undefined, signal: AbortSignal, onEvent: (event: AgentEvent) => void, ask: Ask | undefined, limits: TurnLimits): Promise<TurnResult> {
    const usage: Usage = { input: 0, output: 0 };
    // However the turn ends: the handlers of turn_end are told, then what extensions wrote is written.
    const result = async (r: Omit<TurnResult, "usage" | "context">): Promise<TurnResult> => {
      await this.#seam?.turnEnd({ stopReason: r.stopReason }, signal);
      this.flushExtensions(onEvent);
      return { ...r, usage, context: this.meter(), ...(this.effort ? { effort: this.effort } : {}) };
    };
    // An effort the model cannot take is said before anything is sent or written.
    const refused = (refusal: string): Promise<TurnResult> => {
      onEvent({ type: "end", stopReason: "error", errorMessage: refusal });
      return result({ stopReason: "error", aborted: false, errorMessage: refusal, finalText: "", effortRefused: true });
    };
    const refusal = this.effortRefusal();
    if (refusal) return refused(refusal);
    // The turn's thinking and max_tokens: the same on every request of it, tool loop included.
    let plan = this.#plan();
    // A new session's file is made with the prompt: its header's project is asked of git first, where Esc can stop it.
    await this.session.learnProject(this.#env, signal);
    if (given !== undefined) {
      const prompt = typeof given === "string" ? given : given.text;
      const say = (text: string) => onEvent({ type: "notice", text });
      // The prompt as the extensions' handlers and the hooks left it: changed, or refused.
      const hooked = this.#sessionHooks ? await this.#sessionHooks.beforePrompt(prompt, this.#conversation.messages.length === 0, signal, say) : { prompt, context: [] };
      if ("blocked" in hooked) {
        // As Claude Code: the prompt is neither sent nor kept, and the refusal's words are the person's to read.
        onEvent({ type: "end", stopReason: "error", errorMessage: hooked.blocked });
        return result({ stopReason: "error", aborted: false, errorMessage: hooked.blocked, finalText: "", promptBlocked: true });
      }
      // Each `@path` the person typed goes with the prompt as the file's content, read now (attachments.ts).
      const attached = await attach(attachable(given, hooked.prompt), this.cwd, signal);
      for (const text of attached.notices) onEvent({ type: "notice", text });
      this.#appendPrompt(hooked.prompt, plan, attached.blocks, hooked.context);
    } else if (!this.waitsForModel()) throw new Error("no prompt, and no tool results wait for the model");

    let lessons = 0;
    let answers = 0;
    let stopHookActive = false;
    const spentBefore = limits.maxCost === undefined ? 0 : (limits.spentBefore ?? sessionCost(this.session.sessionFile).cost ?? 0);
    try {
      let overflows = 0;
      for (;;) {
        this.flushExtensions(onEvent);
        // Checked before anything is sent: what is saved stays, and a prompt-less run continues it.
        const overBudgetBy = limits.maxCost === undefined ? undefined : overBudget(limits.maxCost, spentBefore, this.session.sessionFile, this.#model, this.contextTokens(), plan.maxTokens);
        if (overBudgetBy) return result({ stopReason: "error", aborted: false, finalText: "", maxCostReached: overBudgetBy });
        if (overflows === 0) await this.#fit(plan, signal, onEvent, usage);
        await this.#seam?.beforeRequest({ ...this.#model, messages: this.#conversation.messages.filter((m) => m.role !== "system").length }, signal);
        const { message, end } = await this.#request(plan, signal, onEvent);
        addUsage(usage, end.usage);
        if (end.overflow && overflows < MAX_OVERFLOW_COMPACTIONS && (await this.#afterOverflow(plan, end.overflow, ++overflows, signal, onEvent, usage))) {
          // The window the API stated may hold less than the turn's max_tokens: the one change a turn's plan takes.
          plan = this.#plan();
          continue;
        }
        // Compaction could do no more: the turn alone fills the window, and only a smaller answer still fits beside it.
        const smaller = end.overflow && !signal.aborted ? smallerAnswer(plan, end.overflow) : undefined;
        if (smaller) {
          plan = smaller;
          continue;
        }
        if (end.overflow) end.errorMessage = `${end.errorMessage ?? "The conversation is too long for the model"}: ${TURN_TOO_LONG}`;
        // A refusal that says how the model takes thinking is learnt, and the request sent again once.
        const lesson = end.stopReason === "error" && !end.aborted && lessons === 0 ? lessonOf(end.errorMessage) : undefined;
        if (lesson) {
          lessons++;
          learnThinking(this.#model.provider, this.#model.model, lesson);
          // What was learnt may rule out the effort itself (off, on a model that thinks always): refused as a known model's is.
          const learntRefusal = this.effortRefusal();
          if (learntRefusal) return refused(learntRefusal);
          plan = this.#plan();
          continue;
        }
        overflows = 0;
        this.#finish(message, end, onEvent);
        const errorMessage = end.aborted ? INTERRUPTED_BY_USER : end.errorMessage;
        const calls = toolUses(message);
        if (end.stopReason !== "toolUse" || end.aborted || calls.length === 0) {
          const stop = end.stopReason === "stop" && !end.aborted ? await atStop(this.#hooks, stopHookActive, signal, this.#child ? "SubagentStop" : "Stop") : { notices: [] };
          for (const text of stop.notices) onEvent({ type: "notice", text });
          if (stop.goOn !== undefined) {
            stopHookActive = true;
            this.#appendHookWords([`A Stop hook sent you back to work: ${stop.goOn}`]);
            continue;
          }
          return result({ stopReason: end.stopReason, aborted: end.aborted ?? false, errorMessage, finalText: messageText(message) });
        }
        const afterCalls: string[] = [];
        const hookWords = (words: string) => afterCalls.push(words);
        // A changed input is a custom entry before the call runs (never sent: the result tells the model): "hook" for a PreToolUse hook's, "extension" naming the extensions whose handlers changed it.
        const changedInput = (toolUseId: string, input: Record<string, unknown>, extensions?: string[]) =>
          void this.session.appendCustom(
            extensions ? { customType: "extension", data: { event: "before_tool_call", extensions, toolUseId, updatedInput: input } } : { customType: "hook", data: { event: "PreToolUse", toolUseId, updatedInput: input } },
          );
        const results = await runTools(message, this.#toolRun(ask, { hookWords, changedInput }, limits.maxCost === undefined ? undefined : { maxCost: limits.maxCost, spentBefore }), signal, onEvent, ask && ((request, s) => this.#questions.run(() => ask(request, s))));
        this.#append({ role: "user", content: results });
        this.#appendHookWords(afterCalls);
        if (signal.aborted) return result({ stopReason: "error", aborted: true, errorMessage: INTERRUPTED_BY_USER, finalText: "" });
        // The limit stops the turn before its next request: the results are saved, and a prompt-less run continues it.
        if (++answers === limits.maxTurns) return result({ stopReason: "toolUse", aborted: false, finalText: messageText(message), maxTurnsReached: true });
      }
    } catch (error) {
      if (!(error instanceof CompactionFailed)) throw error;
      if (!error.aborted) onEvent({ type: "end", stopReason: "error", errorMessage: error.message });
      return result({ stopReason: "error", aborted: error.aborted, errorMessage: error.aborted ? INTERRUPTED_BY_USER : error.message, finalText: "" });
    }
  }

  /**
   * The `!`cmd`` parts of a Markdown command (command-turn.ts), run before its
   * prompt is written, each as the model's bash call would be: the approval
   * mode and its questions, the extensions' handlers, the hooks, the sandbox,
   * the checkpoints, the tool's caps and timeout. A refusal is its result, as
   * a call's is. None of it enters the conversation: the prompt quotes it.
   */
  async runCommands(commands: readonly string[], signal: AbortSignal, onEvent: (event: AgentEvent) => void, ask?: Ask): Promise<ToolResultBlock[]> {
    if (commands.length === 0) return [];
    await this.session.learnProject(this.#env, signal); // a command that changes files is checkpointed into the session's file
    const calls: ContentBlock[] = commands.map((command, i) => ({ type: "toolUse", id: `command_${Date.now().toString(36)}_${i}`, name: "bash", input: JSON.stringify({ command }) }));
    const results = await runTools({ role: "assistant", content: calls }, this.#toolRun(ask, {}, undefined), signal, onEvent, ask && ((request, s) => this.#questions.run(() => ask(request, s))));
    return results.filter((block) => block.type === "toolResult");
  }

  /** What running this answer's calls needs: a parent's `task` calls start children that share its approvals, its one change at a time and its questions. */
  #toolRun(ask: Ask | undefined, hooked: Pick<ToolRun, "hookWords" | "changedInput">, budget: ChildParent["budget"]): ToolRun {
    // A child's calls meet the parent's extensions' handlers, as the parent's own do.
    const calls: CallHandlers | undefined = this.#seam ? { beforeCall: this.#seam.beforeCall, afterCall: this.#seam.afterCall } : this.#child?.calls;
    const shared = { approvals: this.approvals, sandbox: this.sandbox, cwd: this.cwd, env: this.#env, checkpoints: this.#checkpoints, hooks: this.#hooks, changes: this.#changes, ...hooked, ...calls };
    if (this.#child) return { ...shared, offered: this.#child.offered };
    const parent: ChildParent = {
      session: this.session, cwd: this.cwd, model: this.#model, effort: this.effort, env: this.#env, approvals: this.approvals, modelInfo: this.#modelInfo,
      contextFiles: this.#contextFiles, agents: this.#agents, changes: this.#changes, questions: this.#questions, ask, sandbox: this.sandbox, code: this.code, hooks: this.#hooks, budget,
      ...(calls ? { calls } : {}),
    };
    return { ...shared, subagents: new AtMost(positive(this.#env.AWL_SUBAGENTS) ?? DEFAULT_SUBAGENTS), delegate: (callId, task, signal, onEvent) => runChild(parent, callId, task, signal, onEvent) };
  }

  /** The tools the model is told of, the same on every request (the cached prefix holds): a child's are those it is offered; a parent's `task` lists the agents it can start. */
  #tools(): ToolDefinition[] {
    return (this.#toolList ??= this.#toolsOffered(toolDefinitions()));
  }

  #toolsOffered(all: ToolDefinition[]): ToolDefinition[] {
    if (this.#child) return all.filter((t) => this.#child!.offered(t.name));
    return this.#agents.length ? all.map((t) => (t.name === "task" ? { ...t, description: withAgents(t.description, this.#agents) } : t)) : all;
  }

  /** What extensions wrote is part of the log, and so of what the model is sent; whoever shows the turn is given it. Also between turns: what an extension's command wrote. */
  flushExtensions(onEvent: (event: AgentEvent) => void): void {
    const written = this.#seam?.flush() ?? [];
    if (written.length === 0) return;
    this.#conversation = this.session.rebuildConversation();
    onEvent({ type: "extensionEntries", entries: written });
  }

  /**
   * True when the branch ends in something the model has not answered yet: tool
   * results (a turn --max-turns stopped), or a prompt whose answer failed with
   * nothing kept (a model the provider no longer serves). A prompt-less
   * runTurn sends it, so the prompt is not written twice.
   */
  waitsForModel(): boolean {
    const last = this.#conversation.messages.findLast((m) => m.role !== "assistant" || keptAnything(m.content)); // an empty failed answer is never sent
    return last?.role === "user" && last.content.length > 0;
  }

  /**
   * The answer a killed awl was streaming (its partials after the leaf), as
   * the interrupted assistant message it stands for: written only now that
   * the conversation goes on, before the prompt, so opening a session alone
   * appends nothing.
   */
  #appendInterruptedAnswer(): void {
    const answer = this.session.interruptedAnswer();
    if (!answer) return;
    const { role, content, ...meta } = answer;
    this.#append(diskMessageToInternal({ role, content }), meta);
  }

  /** The system message of a new session (or a killed answer), then the prompt, each checked against the window before it is written. */
  #appendPrompt(prompt: string, plan: TurnPlan, attached: ContentBlock[], hookContext: string[]): void {
    const system = this.#conversation.messages.length === 0 ? this.#systemPrompt() : undefined;
    const message = this.#promptMessage(prompt, attached);
    const window = this.window();
    checkPromptSize(Math.ceil(jsonByteLength(message) / 4), {
      model: this.#model.model,
      window,
      fixed: Math.ceil((Buffer.byteLength(system ?? this.#conversation.systemPrompt ?? "") + this.#toolDefinitionBytes()) / 4),
      reserve: reserve(window, plan.maxTokens),
    });
    if (system !== undefined) this.#append(textMessage("system", system));
    this.#appendInterruptedAnswer();
    this.#append(message);
    this.#appendHookWords(hookContext);
  }

  /** What hooks say to the model (context, a Stop hook's reason, PostToolUse's words): a custom_message ("hook") on the path, sent with the next request. */
  #appendHookWords(words: string[]): void {
    if (words.length === 0) return;
    const entry = this.session.appendCustomMessage({ customType: "hook", content: words.join("\n\n"), display: true });
    this.#conversation.push(extensionMessage(entry));
  }

  /** A new conversation's system prompt; a child's adds its instructions. */
  #systemPrompt(): string {
    const prompt = systemPrompt({ cwd: this.cwd, tools: this.#tools(), context: this.#contextFiles, env: this.#env });
    return this.#child ? `${prompt}\n\n${this.#child.instructions}` : prompt;
  }

  /**
   * Before a request: compacts when the context, the answer's reserve and the
   * summary request's own allowance would pass the window (so that the summary
   * can still be asked with the conversation as it is, read from the cache).
   */
  async #fit(plan: TurnPlan, signal: AbortSignal, onEvent: (event: AgentEvent) => void, usage: Usage): Promise<void> {
    const window = this.window();
    if (this.contextTokens() + reserve(window, plan.maxTokens) + summaryAllowance(window, plan) <= window) return;
    onEvent({ type: "compacting", reason: "auto" });
    const done = await this.#compact({ plan, signal, onEvent });
    if (done.compacted) addUsage(usage, done.usage);
    // Nothing to make smaller: the request goes as it is, and an overflow is handled when it comes.
  }

  /**
   * The API said the prompt is too long: learn the window it stated (or, when
   * it stated none, aim for half of what was sent), compact (the second time
   * cutting the kept turn's tool results), and say whether to send again.
   */
  async #afterOverflow(plan: TurnPlan, overflow: ContextOverflow, count: number, signal: AbortSignal, onEvent: (event: AgentEvent) => void, usage: Usage): Promise<boolean> {
    const window = overflow.limit ?? Math.min(this.window(), Math.max(1024, Math.floor(this.contextTokens() / 2)));
    this.#corrected = { ...this.#model, window };
    onEvent({ type: "compacting", reason: "overflow" });
    const done = await this.#compact({ plan, signal, onEvent, cut: count >= 2 });
    if (done.compacted) addUsage(usage, done.usage);
    return done.compacted;
  }

  async #compact({ plan, ...o }: { plan: TurnPlan; signal: AbortSignal; onEvent: (event: AgentEvent) => void; cut?: boolean; focus?: string; onlySmaller?: boolean }): Promise<Compaction> {
    // The extensions' handlers may refuse it (said as any compaction that does not happen is); PreCompact hooks are told, as Claude Code tells them, whether the person asked for it; what they say is shown, nothing stops it.
    const trigger = o.onlySmaller ? "manual" : "auto";
    const refused = await this.#seam?.beforeCompaction({ trigger }, o.signal);
    if (refused !== undefined) {
      o.onEvent({ type: "compactSkipped", reason: refused });
      return { compacted: false, reason: refused };
    }
    if (this.#hooks.has("PreCompact")) {
      const said = await this.#hooks.run("PreCompact", { trigger, custom_instructions: o.focus ?? "" }, trigger, o.signal);
      for (const text of said.notices) o.onEvent({ type: "notice", text });
    }
    const window = this.window();
    const tokensBefore = this.contextTokens();
    const done = await compact({
      session: this.session,
      provider: this.#provider,
      model: this.#model,
      window,
      reserve: reserve(window, plan.maxTokens),
      tokensBefore,
      toolBytes: this.#toolDefinitionBytes(),
      maxTokens: plan.maxTokens - plan.budget,
      // The summary asked of the conversation as the model is sent it: same system, tools, messages and thinking.
      fork: { ...this.#requestParts(), thinking: plan.thinking, budget: plan.budget },
      ...o,
    });
    if (!done.compacted) {
      o.onEvent({ type: "compactSkipped", reason: done.reason });
      return done;
    }
    // Memory is rebuilt from the log, by the same function a resume uses.
    this.#conversation = this.session.rebuildConversation();
    const { n, tokensAfter } = done.entry;
    o.onEvent({ type: "compacted", n, tokensBefore, tokensAfter, window });
    return done;
  }

  /**
   * The user's message: answers to tool calls left dangling, a note when the
   * working directory is not the one the model was last told of (once per
   * change), then the prompt. Calls of a response that ended in an error were
   * never started; those of one that asked for tools may have run before awl
   * was stopped. `attached`: the files the prompt attached, after its text.
   */
  #promptMessage(prompt: string, attached: ContentBlock[]): Message {
    const branch = this.session.getBranch();
    const last = branch.findLast((e) => e.type === "message" && e.message.role === "assistant");
    const started = last?.type === "message" && last.message.stopReason === "toolUse";
    const interrupted: ContentBlock[] = this.#conversation.danglingToolUses().map((use) => ({
      type: "toolResult",
      toolUseId: use.id,
      content: started ? RESULT_NOT_RECORDED : INTERRUPTED_NOT_RUN,
      isError: true,
    }));
    const moved: ContentBlock[] = toldDirectory(this.session.header.cwd, branch) === this.cwd ? [] : [{ type: "text", text: cwdNote(this.cwd, this.session.header.cwd) }];
    return { role: "user", content: [...interrupted, ...moved, { type: "text", text: prompt }, ...attached] };
  }

  /** One request, streamed to `onEvent`. Nothing is appended here; an overflow's `end` is held back, since compaction may handle it. */
  async #request(plan: TurnPlan, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<Response> {
    const model = this.#model;
    onEvent({ type: "requestStart", provider: model.provider, model: model.model });
    const message: Message = { role: "assistant", content: [], model: model.model };
    let end: End = { type: "end", stopReason: "error", errorMessage: "The response ended without a stop reason." };
    const stream = this.#provider.stream({ model: model.model, ...this.#requestParts(), maxTokens: plan.maxTokens, thinking: plan.thinking, sessionId: this.session.sessionId, signal });
    // What arrives is on disk within a second, so a kill loses at most that much of the answer.
    const partials = new PartialWriter(this.session);
    try {
      for await (const event of stream) {
        partials.event(event);
        if (event.type === "end") end = event;
        else applyStreamEvent(message, event);
        if (event.type !== "end" || !event.overflow) onEvent(event);
      }
    } finally {
      partials.stop();
    }
    finalizeMessage(message, { dropIncompleteToolUses: end.stopReason === "error" });
    return { message, end };
  }

  /**
   * What every request of the conversation carries: its system prompt, tools
   * and messages, the thinking of each left out where a model that binds
   * thinking to its prefix would refuse it.
   */
  #requestParts(): { system: string; tools: ToolDefinition[]; conversation: Conversation } {
    const system = this.#conversation.systemPrompt ?? "";
    const tools = this.#tools();
    const messages = this.#conversation.messages.filter((m) => m.role !== "system");
    const binds = this.#thinking.forms(this.#model).binds;
    return { system, tools, conversation: new Conversation(binds ? replayable(messages, prefixHash(system, tools)) : messages) };
  }

  /** The response as the log keeps it (an overflow that ended the turn is shown now), with the prefix its thinking was made under. */
  #finish(message: Message, end: End, onEvent: (event: AgentEvent) => void): void {
    if (end.overflow) onEvent(end);
    const errorMessage = end.aborted ? INTERRUPTED_BY_USER : end.errorMessage;
    if (message.content.some((b) => b.type === "thinking")) message.prefixHash = prefixHash(this.#conversation.systemPrompt ?? "", this.#tools());
    this.#append(message, {
      provider: this.#model.provider,
      model: this.#model.model,
      api: this.#provider.api,
      stopReason: end.stopReason,
      ...(end.aborted ? { interrupted: true as const } : {}),
      ...(end.usage ? { usage: end.usage } : {}),
      ...(end.stopReason === "error" && errorMessage ? { errorMessage } : {}),
    });
  }

  /** Durable first, then in memory. User messages carry the active model's stamp and the effort in force. */
  #append(message: Message, meta?: Parameters<typeof messageToDisk>[1]): void {
    const stamp = message.role === "user" ? { ...this.#model, effort: this.effort } : undefined;
    this.session.appendMessage(messageToDisk(message, meta), stamp, message.prefixHash);
    this.#conversation.push(message);
  }

  /** The thinking and max_tokens of a turn starting now (see providers/thinking-plan.ts). */
  #plan(): TurnPlan {
    return this.#thinking.plan(this.#model, this.window(), this.#maxTokens);
  }

  #toolDefinitionBytes(): number {
    return (this.#toolBytes ??= jsonByteLength(this.#tools()));
  }
}
