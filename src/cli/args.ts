// The command line (awl --help), parsed by hand: `--resume` takes an OPTIONAL
// value, which node:util parseArgs cannot express. The first word that is not
// an option is a command (`awl sessions`) when it names one, else the prompt
// to send (`awl "fix the test"`, as the other coding agents take it); after
// `--` every word is the prompt's (`awl -- sessions` sends the word).

import { APPROVAL_MODES, isApprovalMode, type ApprovalMode } from "../agent/approval-mode";
import { UsageError } from "../errors";
import { isSandboxMode, SANDBOX_MODES, type SandboxMode } from "../tools/sandbox/mode";
import { isProviderName, namesInWords } from "../providers/registry";
import { EFFORTS, isEffort, type Effort } from "../providers/thinking-forms";
import { checkSessionsArgs, SESSION_ACTIONS, type SessionAction } from "./args-sessions";

export interface Args {
  command: "chat" | "print" | "sessions" | "tree" | "rewind" | "models" | "export" | "extensions" | "mcp" | "help" | "version";
  /** -p text, or "-" for stdin; "" for a bare -p (`awl -p --resume ID` continues a turn --max-turns stopped). */
  prompt?: string;
  /** `awl "prompt"`: the REPL opens and sends it first. */
  send?: string;
  /** true: the most recent session here (also -c, --continue); a string: a whole id, an id prefix or words of a title. */
  resume?: true | string;
  provider?: string;
  model?: string;
  /** --effort, or --thinking (high). */
  effort?: Effort;
  /** --approve: when tools may act. */
  approve?: ApprovalMode;
  /** --sandbox: where bash commands run. */
  sandbox?: SandboxMode;
  /** --sandbox-network off: no command gets the network. */
  sandboxNetworkOff?: boolean;
  plain: boolean;
  json: boolean;
  /** --no-stdin: -p never reads standard input. */
  noStdin: boolean;
  /** --no-extensions: start without the person's extensions (docs/extensions.md). */
  noExtensions: boolean;
  /** --trust: run the project's hooks, extensions and MCP servers this time without asking (docs/extensions.md). */
  trust: boolean;
  /** --max-turns: the model requests -p may make. */
  maxTurns?: number;
  /** --max-cost: the US dollars -p may spend. */
  maxCost?: number;
  /** `awl sessions <action>`: rm, restore, prune, trash, purge, du, stats; none lists. */
  action?: SessionAction;
  /** The words after the action (ids), or after `export` (the id). */
  targets: string[];
  /** --older-than 90d (prune, purge), as given: checked by the command. */
  olderThan?: string;
  /** --since 30d (stats), as given. */
  since?: string;
  /** prune, purge, awl rewind: say what would happen, do nothing. */
  dryRun: boolean;
  /** Every project's sessions, not only this directory's. */
  all: boolean;
  /** awl export: --md (default), --html or --jsonl. */
  format?: "md" | "html" | "jsonl";
  /** awl export -o FILE. */
  output?: string;
  /** --at ENTRY (with --resume): go on from an earlier entry. */
  at?: string;
  /** --fork (with --resume): continue in a copy of the session. */
  fork: boolean;
  /** `awl sessions tree ID`, `awl rewind [ID]`: the session named. */
  session?: string;
  /** awl rewind --to ENTRY. */
  to?: string;
  /** awl rewind: --yes. */
  yes: boolean;
  /** awl rewind --files or --conversation: only that half goes back (both by default). */
  only?: "files" | "conversation";
  /** awl rewind --force: overwrite files changed since awl last changed them. */
  force: boolean;
  /** awl rewind --undo: undo the latest rewind (or move); again, redo it. */
  undo: boolean;
  /** --mcp-config FILE: MCP servers for this run, over the person's and the project's. */
  mcpConfig?: string;
}

const HINT = "(see awl --help)";

/** Words that are commands when they come first: any other first word starts the prompt. */
const COMMANDS = ["sessions", "models", "export", "rewind", "extensions", "mcp"] as const;

export function parseArgs(argv: string[]): Args {
  const args: Args = { command: "chat", plain: false, json: false, noStdin: false, noExtensions: false, trust: false, targets: [], dryRun: false, all: false, fork: false, yes: false, force: false, undo: false };
  let sessions = false;
  let tree = false;
  let rewind = false;
  let models = false;
  let exporting = false;
  let extensions = false;
  let help = false;
  let version = false;
  let continued = false;
  const words: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    // `awl mcp add fs npx -y server`: what follows is the server's command line, its own flags among it (cli/mcp.ts reads it).
    if (i === 0 && token === "mcp") return { ...args, command: "mcp", targets: argv.slice(1) };
    const [flag, inline] = token.startsWith("--") && token.includes("=") ? [token.slice(0, token.indexOf("=")), token.slice(token.indexOf("=") + 1)] : [token, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) throw new UsageError(`${flag} needs a value ${HINT}`);
      i++;
      return next;
    };
    const noValue = () => {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value ${HINT}`);
    };
    switch (flag) {
      case "-h":
      case "--help":
        noValue();
        help = true;
        break;
      case "-v":
      case "--version":
        noValue();
        version = true;
        break;
      case "-p":
      case "--print": {
        // Bare (`awl -p --resume ID`): a prompt may come from stdin, or the turn continues.
        const next = argv[i + 1];
        args.prompt = inline === undefined && (next === undefined || (next.startsWith("-") && next !== "-")) ? "" : value();
        break;
      }
      case "--no-stdin":
        noValue();
        args.noStdin = true;
        break;
      case "--no-extensions":
        noValue();
        args.noExtensions = true;
        break;
      case "--trust":
        noValue();
        args.trust = true;
        break;
      case "--max-turns": {
        const text = value();
        if (!/^[1-9]\d{0,8}$/.test(text)) throw new UsageError(`--max-turns needs a whole number of at least 1, not '${text}' ${HINT}`);
        args.maxTurns = Number(text);
        break;
      }
      case "--max-cost": {
        const text = value();
        if (!/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0) throw new UsageError(`--max-cost needs an amount of US dollars above 0 (0.50), not '${text}' ${HINT}`);
        args.maxCost = Number(text);
        break;
      }
      case "-r":
      case "--resume": {
        const next = argv[i + 1];
        if (inline !== undefined) args.resume = inline;
        // The value names a session (an id, a prefix or words of its title: `--resume "flaky test"`), never a prompt.
        else if (next !== undefined && !next.startsWith("-") && !isCommandWord(next)) {
          args.resume = next;
          i++;
        } else args.resume = true;
        if (args.resume === "") throw new UsageError(`--resume= needs an id ${HINT}`);
        break;
      }
      case "-c":
      case "--continue":
        noValue();
        continued = true;
        break;
      case "--provider":
        args.provider = value();
        break;
      case "-m":
      case "--model":
        args.model = value();
        if (!args.model.trim()) throw new UsageError(`--model needs a model name ${HINT}`);
        break;
      case "--approve": {
        const mode = value();
        if (!isApprovalMode(mode)) throw new UsageError(`unknown approval mode '${mode}': use ${APPROVAL_MODES.join(", ")} ${HINT}`);
        args.approve = mode;
        break;
      }
      case "--sandbox": {
        const mode = value();
        if (!isSandboxMode(mode)) throw new UsageError(`unknown sandbox mode '${mode}': use ${SANDBOX_MODES.join(", ")} ${HINT}`);
        args.sandbox = mode;
        break;
      }
      case "--sandbox-network": {
        const network = value();
        if (network !== "off" && network !== "on") throw new UsageError(`--sandbox-network takes off or on, not '${network}' ${HINT}`);
        args.sandboxNetworkOff = network === "off";
        break;
      }
      case "--thinking":
        noValue();
        args.effort ??= "high";
        break;
      case "--effort": {
        const effort = value();
        if (!isEffort(effort)) throw new UsageError(`unknown effort '${effort}': use ${EFFORTS.join(", ")} ${HINT}`);
        args.effort = effort;
        break;
      }
      case "--plain":
        noValue();
        args.plain = true;
        break;
      case "--json":
        noValue();
        args.json = true;
        break;
      case "--older-than":
        args.olderThan = value();
        break;
      case "--since":
        args.since = value();
        break;
      case "--at":
        args.at = value();
        break;
      case "--to":
        args.to = value();
        break;
      case "--fork":
        noValue();
        args.fork = true;
        break;
      case "--conversation":
      case "--files": {
        noValue();
        const only = flag === "--files" ? "files" : "conversation";
        if (args.only && args.only !== only) throw new UsageError(`awl rewind takes --files or --conversation, not both (without either, both go back) ${HINT}`);
        args.only = only;
        break;
      }
      case "--force":
        noValue();
        args.force = true;
        break;
      case "--undo":
        noValue();
        args.undo = true;
        break;
      case "--dry-run":
        noValue();
        args.dryRun = true;
        break;
      case "--all":
        noValue();
        args.all = true;
        break;
      case "--md":
      case "--html":
      case "--jsonl":
        noValue();
        if (args.format !== undefined) throw new UsageError(`choose one of --md, --html and --jsonl ${HINT}`);
        args.format = flag.slice(2) as "md" | "html" | "jsonl";
        break;
      case "--mcp-config":
        args.mcpConfig = value();
        break;
      case "-o":
      case "--output":
        args.output = value();
        break;
      case "-y":
      case "--yes":
        noValue();
        args.yes = true;
        break;
      default:
        if (token.startsWith("-")) throw new UsageError(`unknown option ${flag} ${HINT}`);
        if ((tree || rewind) && args.session === undefined) args.session = token;
        else if (tree || rewind || models) {
          throw new UsageError(`unexpected argument '${token}': awl ${tree ? "sessions tree takes one session id" : rewind ? "rewind takes one session id" : "models takes none"} ${HINT}`);
        } else if (sessions && args.action === undefined && args.targets.length === 0 && token === "tree") tree = true;
        else if (sessions && args.action === undefined && args.targets.length === 0 && (SESSION_ACTIONS as readonly string[]).includes(token)) args.action = token as SessionAction;
        else if (sessions || exporting) args.targets.push(token);
        else if (extensions) {
          if (token !== "types" || args.targets.length > 0) throw new UsageError(`unexpected argument '${token}': awl extensions takes only the word types ${HINT}`);
          args.targets.push(token);
        } else if (words.length === 0 && token === "extensions") extensions = true;
        else if (words.length === 0 && token === "sessions") sessions = true;
        else if (words.length === 0 && token === "models") models = true;
        else if (words.length === 0 && token === "export") exporting = true;
        else if (words.length === 0 && token === "rewind") rewind = true;
        else words.push(token);
    }
  }
  if (continued) {
    if (args.resume !== undefined) throw new UsageError(`choose one of --continue and --resume ${HINT}`);
    args.resume = true;
  }
  // `awl -p --json "fix it"`: the words are -p's prompt.
  if (args.prompt === "" && words.length) args.prompt = words.splice(0).join(" ");
  if (args.prompt === "" && args.resume === undefined && !help && !version) throw new UsageError(`-p needs a prompt, or - to read it from stdin ${HINT}`);
  if (words.length) {
    if (args.prompt !== undefined) throw new UsageError(`give the prompt once: awl -p "..." or awl "..." ${HINT}`);
    args.send = words.join(" ");
  }

  if (help) return { ...args, command: "help" };
  if (version) return { ...args, command: "version" };
  if (args.provider !== undefined && !isProviderName(args.provider)) {
    throw new UsageError(`unknown provider '${args.provider}': use ${namesInWords()} ${HINT}`);
  }
  if (models) {
    const extra = args.prompt !== undefined || args.resume !== undefined || args.approve !== undefined || args.model !== undefined || args.effort !== undefined || continued || args.plain || args.noStdin || args.maxTurns !== undefined;
    if (extra) throw new UsageError(`awl models takes only --provider and --json ${HINT}`);
    checkSessionsArgs(args, "chat", HINT);
    return { ...args, command: "models" };
  }
  if (extensions) {
    const extra = args.prompt !== undefined || args.resume !== undefined || args.approve !== undefined || args.model !== undefined || args.effort !== undefined || continued || args.plain || args.json || args.noStdin || args.maxTurns !== undefined;
    if (extra) throw new UsageError(`awl extensions takes only types, --trust and --no-extensions ${HINT}`);
    checkSessionsArgs(args, "chat", HINT);
    return { ...args, command: "extensions" };
  }
  if (rewind) return rewindArgs(args);
  if (args.to !== undefined || args.yes || args.only || args.force || args.undo) throw new UsageError(`--to, --undo, --yes, --files, --conversation and --force belong to awl rewind ${HINT}`);
  if (tree) {
    if (args.session === undefined) throw new UsageError(`awl sessions tree needs a session id (awl sessions lists them) ${HINT}`);
    if (args.prompt !== undefined || args.resume !== undefined || args.at !== undefined || args.fork) throw new UsageError(`awl sessions tree takes only a session id and --json ${HINT}`);
    return { ...args, command: "tree" };
  }
  if ((args.at !== undefined || args.fork) && args.resume === undefined) {
    throw new UsageError(`--at and --fork go with --resume: awl --resume <id> ${args.fork ? "--fork" : "--at <entry>"} ${HINT}`);
  }
  if (sessions || exporting) {
    const name = sessions ? "awl sessions" : "awl export";
    if (continued) throw new UsageError(`${name} takes no --continue ${HINT}`);
    if (args.prompt !== undefined || args.resume !== undefined || args.approve !== undefined || args.noStdin || args.maxTurns !== undefined) {
      throw new UsageError(`${name} takes no -p, --resume, --approve, --no-stdin or --max-turns ${HINT}`);
    }
    if (args.plain && args.json) throw new UsageError(`choose one of --plain and --json ${HINT}`);
    checkSessionsArgs(args, sessions ? "sessions" : "export", HINT);
    return { ...args, command: sessions ? "sessions" : "export" };
  }
  const print = args.prompt !== undefined;
  if (args.plain || (args.json && !print)) throw new UsageError(`--plain belongs to awl sessions, --json to -p (and to awl sessions and awl models) ${HINT}`);
  if (!print && (args.noStdin || args.maxTurns !== undefined || args.maxCost !== undefined)) throw new UsageError(`--no-stdin, --max-turns and --max-cost belong to -p ${HINT}`);
  if (args.noStdin && args.prompt === "-") throw new UsageError(`-p - reads the prompt from stdin, which --no-stdin forbids ${HINT}`);
  checkSessionsArgs(args, "chat", HINT);
  if (args.send !== undefined && !args.send.trim()) throw new UsageError(`the prompt is empty ${HINT}`);
  return { ...args, command: print ? "print" : "chat" };
}

/** `awl rewind [ID] (--to ENTRY | --undo) [--files | --conversation] [--dry-run] [--yes] [--force]`. */
function rewindArgs(args: Args): Args {
  if (args.to === undefined && !args.undo) throw new UsageError(`awl rewind needs --to <entry> (awl sessions tree <id> lists the entries) or --undo ${HINT}`);
  if (args.to !== undefined && args.undo) throw new UsageError(`awl rewind takes --to <entry> or --undo, not both ${HINT}`);
  if (args.prompt !== undefined || args.resume !== undefined || args.send !== undefined || args.at !== undefined || args.fork || args.plain || args.json) {
    throw new UsageError(`awl rewind takes a session id, --to or --undo, --files or --conversation, --dry-run, --yes and --force ${HINT}`);
  }
  return { ...args, command: "rewind" };
}

function isCommandWord(word: string): boolean {
  return (COMMANDS as readonly string[]).includes(word);
}

/** The effort in force: --effort (or --thinking), else the resumed session's (`kept`), else AWL_EFFORT, else none (the model's own default). */
export function chosenEffort(args: Args, env: Record<string, string | undefined> = process.env, kept?: Effort): Effort | undefined {
  const fromEnv = env.AWL_EFFORT?.trim() || undefined;
  if (fromEnv !== undefined && !isEffort(fromEnv)) throw new UsageError(`AWL_EFFORT=${fromEnv} is not an effort: use ${EFFORTS.join(", ")} ${HINT}`);
  return args.effort ?? kept ?? fromEnv;
}

/** The sandbox mode in force: --sandbox, else AWL_SANDBOX, else workspace-write. */
export function sandboxMode(args: Args, env: Record<string, string | undefined> = process.env): SandboxMode {
  const fromEnv = env.AWL_SANDBOX?.trim() || undefined;
  if (fromEnv !== undefined && !isSandboxMode(fromEnv)) throw new UsageError(`AWL_SANDBOX=${fromEnv} is not a sandbox mode: use ${SANDBOX_MODES.join(", ")} ${HINT}`);
  return args.sandbox ?? fromEnv ?? "workspace-write";
}

/**
 * The approval mode in force: --approve, else AWL_APPROVE, else ask in the
 * REPL and auto under -p. Under -p nobody can answer a question, so ask is a
 * usage error there, however it was chosen.
 */
export function approvalMode(args: Args, env: Record<string, string | undefined> = process.env): ApprovalMode {
  const fromEnv = env.AWL_APPROVE?.trim() || undefined;
  if (fromEnv !== undefined && !isApprovalMode(fromEnv)) {
    throw new UsageError(`AWL_APPROVE=${fromEnv} is not an approval mode: use ${APPROVAL_MODES.join(", ")} ${HINT}`);
  }
  const print = args.command === "print";
  const mode = args.approve ?? fromEnv ?? (print ? "auto" : "ask");
  if (print && mode === "ask") {
    const source = args.approve ? "--approve ask" : "AWL_APPROVE=ask";
    throw new UsageError(`${source} cannot be used with -p: nobody is there to answer; use --approve auto or --approve read-only ${HINT}`);
  }
  return mode;
}
