// The command line (awl --help), parsed by hand: `--resume` takes an OPTIONAL
// value, which node:util parseArgs cannot express.

import { APPROVAL_MODES, isApprovalMode, type ApprovalMode } from "../agent/approval-mode";
import { UsageError } from "../errors";

export interface Args {
  command: "chat" | "print" | "sessions" | "models" | "help" | "version";
  /** -p text, or "-" for stdin. */
  prompt?: string;
  /** true: the most recent session here; a string: an id or unique prefix. */
  resume?: true | string;
  provider?: string;
  model?: string;
  thinking: boolean;
  /** --approve: when tools may act. */
  approve?: ApprovalMode;
  plain: boolean;
  json: boolean;
}

const HINT = "(see awl --help)";

export function parseArgs(argv: string[]): Args {
  const args: Args = { command: "chat", thinking: false, plain: false, json: false };
  let sessions = false;
  let models = false;
  let help = false;
  let version = false;

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
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
      case "--print":
        args.prompt = value();
        break;
      case "-r":
      case "--resume": {
        const next = argv[i + 1];
        if (inline !== undefined) args.resume = inline;
        else if (next !== undefined && !next.startsWith("-") && next !== "sessions") {
          args.resume = next;
          i++;
        } else args.resume = true;
        if (args.resume === "") throw new UsageError(`--resume= needs an id ${HINT}`);
        break;
      }
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
      case "--thinking":
        noValue();
        args.thinking = true;
        break;
      case "--plain":
        noValue();
        args.plain = true;
        break;
      case "--json":
        noValue();
        args.json = true;
        break;
      default:
        if (token === "sessions" && !sessions && !models) sessions = true;
        else if (token === "models" && !models && !sessions) models = true;
        else if (token.startsWith("-")) throw new UsageError(`unknown option ${flag} ${HINT}`);
        else throw new UsageError(`unexpected argument '${token}'; to send a prompt use awl -p "..." ${HINT}`);
    }
  }

  if (help) return { ...args, command: "help" };
  if (version) return { ...args, command: "version" };
  if (args.provider !== undefined && !["anthropic", "openai"].includes(args.provider)) {
    throw new UsageError(`unknown provider '${args.provider}': use anthropic or openai ${HINT}`);
  }
  if (models) {
    const extra = args.prompt !== undefined || args.resume !== undefined || args.approve !== undefined || args.model !== undefined || args.thinking || args.plain;
    if (extra) throw new UsageError(`awl models takes only --provider and --json ${HINT}`);
    return { ...args, command: "models" };
  }
  if (sessions) {
    if (args.prompt !== undefined || args.resume !== undefined || args.approve !== undefined) throw new UsageError(`awl sessions takes no -p, --resume or --approve ${HINT}`);
    if (args.plain && args.json) throw new UsageError(`choose one of --plain and --json ${HINT}`);
    return { ...args, command: "sessions" };
  }
  if (args.plain || args.json) throw new UsageError(`--plain and --json belong to awl sessions (and --json to awl models) ${HINT}`);
  return { ...args, command: args.prompt !== undefined ? "print" : "chat" };
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
