// awl --help. The providers' names, variables and defaults come from their
// table (providers/registry.ts), so a new provider shows here by itself.

import { namesInWords, providerRows } from "../providers/registry";

/** The column the options' and variables' descriptions start at, and the width they wrap within. */
const COLUMN = 31;
const WIDTH = 116;

/** `name` and its description, wrapped under the description column. */
function entry(name: string, text: string): string {
  const indent = " ".repeat(COLUMN);
  const head = `  ${name}`;
  const lines: string[] = [];
  let line = head.length < COLUMN ? head.padEnd(COLUMN) : (lines.push(head), indent);
  for (const word of text.split(" ")) {
    if (line.length + word.length > WIDTH && line.trim() !== "") {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join("\n");
}

function providerOption(): string {
  const rows = providerRows();
  const local = rows.filter((row) => row.keyOptional).map((row) => row.name);
  const orBase = local.length ? `, or for ${namesInWords(local)} base URL,` : "";
  return entry("    --provider <name>", `${namesInWords()} (default: the first of them whose key${orBase} is set)`);
}

function modelOption(): string {
  const rows = providerRows();
  const examples = rows.map((row) => row.defaultModel).join(", ");
  const families = rows.flatMap((row) => (row.defaultFamilyShown ? [row.defaultFamilyShown] : []));
  const byDefault = families.length ? `${families.join(", or ")}, that the provider lists` : "the provider's default";
  return entry("-m, --model <model>", `model id, e.g. ${examples}, or provider/model (default: ${byDefault})`);
}

function providerVariables(): string {
  return providerRows()
    .flatMap((row) => [entry(row.keyVariable, row.keyHelp), entry(row.baseUrlVariable, row.baseUrlHelp), ...(row.variables ?? []).map((v) => entry(v.name, v.help))])
    .join("\n");
}

export const help = (): string => `awl — a coding agent for the terminal

Usage:
  awl                          start a new interactive session in this directory
  awl "prompt"                 start one and send the prompt (the words after it are part of it)
  awl --resume [id] ["prompt"] resume the most recent session here, or the one named: a whole id from
                               anywhere, else an id prefix here, else title words (--resume "flaky test")
  awl -c ["prompt"]            resume the most recent session here (and send the prompt)
  awl -p "prompt" [--resume [id]]
                               run one prompt to completion (tools included), print the answer
  awl -p "/name args"          run a Markdown command (.awl/commands/, .claude/commands/, awl/commands/): a
                               name no command has, or a command of the REPL's (/model), is a usage error;
                               a prompt that starts with a path or a space is sent as it is
  awl -p -                     read the prompt from standard input (always a prompt, never a command)
  awl -p "prompt" --json       the session log's lines as they are written, then a result line
  awl -p --resume <id>         send what waits: a prompt the provider refused, or a run --max-turns stopped
  awl sessions [--plain|--json]
                               list this directory's sessions (on a terminal, a picker, most recently active first)
  awl sessions rm ID... | restore ID...
                               move sessions to the trash / bring them back as they were
  awl sessions prune --older-than 90d [--dry-run]
                               move to the trash the sessions with no entry for that long (by the last
                               entry's time, never the file's), naming each one
  awl sessions trash           list the trash
  awl sessions purge [--older-than 30d] [--dry-run]
                               delete from the trash (age: since it was trashed), then the file
                               checkpoints no session or trashed session refers to
  awl sessions du              space used by sessions, the trash and file checkpoints
  awl sessions stats [--since 30d] [--all] [--json]
                               sessions, turns, tokens and cost per model
  awl sessions search TEXT [--all] [--json]
                               sessions whose titles, labels, prompts or answers hold TEXT, newest first
                               (rm, restore, prune, trash, purge: this directory's sessions; --all: every one)
  awl export ID [--md|--html|--jsonl] [-o FILE]
                               a session as Markdown (default), one self-contained HTML file, or its raw
                               log (--jsonl, not redacted); Markdown and HTML have API keys, common key
                               shapes and the home directory redacted; -o never overwrites a file
  awl sessions tree <id> [--json]
                               a session's entries as a tree, the active path marked (JSON: one array, file order)
  awl --resume <id> --at <entry>
                               go on from an earlier entry (a message, compaction or branch summary, by id
                               prefix; a prompt: from before it, the prompt offered back)
  awl --resume <id> --fork [--at <entry>]
                               continue in a copy of the session (up to the entry); the original is not touched
  awl rewind [id] --to <entry> [--files | --conversation] [--dry-run] [--yes] [--force]
                               take a session back to its state at an entry (a prompt: to before it): the
                               conversation goes on from it and the files the tools changed return to how
                               they were (--files, --conversation: one half only); --dry-run shows what each
                               file would become; a file changed since is refused (exit 1) unless --force
  awl rewind [id] --undo       undo the latest rewind or move (again: redo it); same options
  awl -- sessions              after --, every word is the prompt (this sends "sessions")
  awl models [--provider <name>] [--json]
                               the provider's models, newest first, where the list came from and how old it is
  awl extensions               the extensions loaded (yours, a trusted project's), what each registered, what
                               failed, the hooks in force and whether this project is trusted (also /extensions)
  awl extensions types         write awl.d.ts here: the extension API's types, for your editor
  awl mcp [list]               the MCP servers configured here (yours, this project's .mcp.json)
  awl mcp add [-e NAME=VALUE]... [-H 'Name: value']... <name> <command [args...] | url>
                               add a server to your own $XDG_CONFIG_HOME/awl/mcp.json (a URL: streamable HTTP)
  awl mcp remove <name>        remove one from your own file
  awl mcp login <name>         sign in to an HTTP server that asks for OAuth (the URL printed and opened)

Options:
  -p, --print <prompt|->       non-interactive: answer on stdout, tool activity on stderr
  -r, --resume [id]            continue a session (id: whole id, unique prefix or words of a title)
  -c, --continue               continue the most recent session here (takes no value)
${providerOption()}
${modelOption()}
      --effort <level>         how hard the model thinks: off, low, medium, high, xhigh or max (unset: the
                               model's own default); a level the model does not take is refused before it is asked
      --thinking               the same as --effort high
      --approve <mode>         when tools may act: ask (the REPL's default), auto (-p's default: a script
                               cannot answer; -p with ask is a usage error) or read-only
      --sandbox <mode>         where bash commands run (Linux, bubblewrap): workspace-write (the default: a
                               command judged read-only gets nothing writable and no network, an approved one
                               the project folder and the network), read-only (nothing writable, no network)
                               or off
      --sandbox-network off    no bash command gets the network
      --max-turns <n>          -p: at most n model requests, then exit 4
      --mcp-config <file>      MCP servers for this run too, in .mcp.json's format (winning on a shared name)
      --max-cost <usd>         -p: no request whose worst case would pass the budget; exit 4
      --no-stdin               -p: never read standard input (a pipe or a file on it goes before the prompt,
                               and a socket, as Node and Bun give a child, when it speaks within 3 s)
      --no-extensions          start without any extension or hook, yours ($XDG_CONFIG_HOME/awl/) or the project's
                               (MCP servers are not extensions: yours and --mcp-config's still start)
      --trust                  run this project's code this time without asking: its hooks, extensions, .mcp.json
                               servers and Markdown commands' !\`cmd\` parts (and let their allowed-tools count);
                               the REPL asks once and remembers; -p runs only what you trusted before
      --plain                  awl sessions: plain lines even on a terminal
      --json                   -p: the log as JSON lines and a result line; awl sessions, awl models: JSON
  -h, --help                   this help
  -v, --version                print the version

Environment:
${providerVariables()}
  AWL_PROVIDER, AWL_MODEL      default provider and model for new sessions
  AWL_APPROVE                  the approval mode when --approve is not given (ask, auto, read-only)
  AWL_EFFORT                   the effort when --effort is not given
  AWL_SANDBOX                  the sandbox mode when --sandbox is not given (workspace-write, read-only, off)
  AWL_CONTEXT_WINDOW           the model's context window in tokens (e.g. 32768, 200k), instead of awl's table;
                               set it for local servers that truncate a long prompt silently
  AWL_SESSION_DIR              where sessions live, an absolute path (default $XDG_DATA_HOME/awl/sessions)
  AWL_EXTENSION_TIMEOUT        ms an extension may take to load (default 10000); AWL_HANDLER_TIMEOUT: ms an
                               extension's handler may take (default 10000): a tool call is refused after it
  AWL_SUBAGENTS                how many task calls of one answer run at once (default 4)
  AWL_SUBAGENT_REQUESTS        the most model requests one subagent may make (default 50)
  AWL_TITLES=off               no model-written session title after the first answer (the first prompt stands for it)
  AWL_BASH_PASS_ENV=A,B        API keys never reach bash nor tool output; other *KEY*/*SECRET*/*TOKEN*/*PASSWORD* only if listed
  XDG_DATA_HOME                base data directory (default ~/.local/share)
  XDG_CACHE_HOME               base cache directory, for the providers' model lists (default ~/.cache)
  XDG_CONFIG_HOME              base configuration directory, for awl/AGENTS.md, awl/settings.json (hooks; the
                               sandbox's "writable" folders and "network"), awl/mcp.json, awl/commands/,
                               awl/agents/ (subagents), awl/extensions/ and the projects you trust (default ~/.config)
  AWL_MCP_WAIT                 seconds -p waits for MCP servers before its first request (default 5; the REPL never waits)
  AWL_MCP_TIMEOUT              seconds an MCP server has to answer, and each call of its tools (default 30)
  AWL_STREAM_IDLE_TIMEOUT_MS   give up on a response silent this long (default 90000; raise it for slow local models)
  AWL_GIT_TIMEOUT_MS           how long awl's own git questions may take (default 1000; raise it for a very large repository)
  AWL_RETRY_BASE_MS            first retry delay after a rate limit, overload or failed connection, doubling each
                               try (default 1000); a refused local port or unknown host is given up after 2 tries
  NO_COLOR                     turn colour off

Approval modes: ask runs what only reads, and a short list of read-only commands (ls, cat, grep,
rg, find, git status/diff/log/show, pwd, head, tail, wc, in any combination, output not
redirected to a file) by itself, and shows every other command and every change to a file first:
y runs it; a runs it and, until awl exits, what the question names: for write and edit the tool,
for a command its subcommand with any arguments (git add …, npm run …; never --force, a delete
or another program) or else only that exact command; n refuses it with an optional reason for
the model; Esc or Ctrl+C stops the turn. auto runs every tool. read-only refuses changes to
files and other commands with an error the model reads. /approve switches.

Project instructions: a new session puts $XDG_CONFIG_HOME/awl/AGENTS.md, then AGENTS.md (else
CLAUDE.md) of each directory from the repository root down to this one, into its system
prompt (32 KiB in all); the banner and /session list them.

A session never runs into the context window: earlier turns are summarized (compacted)
into one more line of its log when the next request would not fit; /compact in the REPL
does it on request. Sessions are JSONL files; awl sessions lists them, and in the REPL
/new starts another and /resume picks one to continue. Going back appends, never removes:
/rewind (or Esc Esc) goes back before a prompt, files too, /tree to any entry, /fork continues
in a copy.

Exit codes: 0 ok, 1 failure, 2 usage error, 4 --max-turns or --max-cost reached, 128 + n when signal n
stopped awl (130: Ctrl+C under -p; 141 under -p --json when stdout's reader left); what it
had is saved first.
`;
