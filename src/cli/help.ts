export const HELP = `awl — a coding agent for the terminal

Usage:
  awl                          start a new interactive session in this directory
  awl "prompt"                 start one and send the prompt (the words after it are part of it)
  awl --resume [id] ["prompt"] resume the most recent session here, or the one whose id starts with id
  awl -c ["prompt"]            resume the most recent session here (and send the prompt)
  awl -p "prompt" [--resume [id]]
                               run one prompt to completion (tools included), print the answer
  awl -p -                     read the prompt from standard input
  awl sessions [--plain|--json]
                               list this directory's sessions (on a terminal, a picker, most recently active first)
  awl -- sessions              after --, every word is the prompt (this sends "sessions")
  awl models [--provider <name>] [--json]
                               the provider's models, newest first, where the list came from and how old it is

Options:
  -p, --print <prompt|->       non-interactive: answer on stdout, tool activity on stderr
  -r, --resume [id]            continue a session (id: full id or unique prefix)
  -c, --continue               continue the most recent session here (takes no value)
      --provider <name>        anthropic or openai (default: the first of them whose key, or for
                               openai base URL, is set)
  -m, --model <model>          model id, e.g. claude-opus-5-5, gpt-5.5, or provider/model (default: the
                               newest Sonnet, or gpt-…-mini, that the provider lists)
      --effort <level>         how hard the model thinks: off, low, medium, high, xhigh or max (unset: the
                               model's own default); a level the model does not take is refused before it is asked
      --thinking               the same as --effort high
      --approve <mode>         when tools may act: ask (the REPL's default), auto (-p's default: a script
                               cannot answer; -p with ask is a usage error) or read-only
      --plain                  awl sessions: plain lines even on a terminal
      --json                   awl sessions, awl models: JSON
  -h, --help                   this help
  -v, --version                print the version

Environment:
  ANTHROPIC_API_KEY            key for Anthropic
  OPENAI_API_KEY               key for OpenAI (not needed for a local server)
  ANTHROPIC_BASE_URL           Anthropic API host (default https://api.anthropic.com); named when it cannot be reached
  OPENAI_BASE_URL              OpenAI-compatible base URL, ending in /v1 (default https://api.openai.com/v1)
  AWL_PROVIDER, AWL_MODEL      default provider and model for new sessions
  AWL_APPROVE                  the approval mode when --approve is not given (ask, auto, read-only)
  AWL_EFFORT                   the effort when --effort is not given
  AWL_CONTEXT_WINDOW           the model's context window in tokens (e.g. 32768, 200k), instead of awl's table;
                               set it for local servers that truncate a long prompt silently
  AWL_SESSION_DIR              where sessions live, an absolute path (default $XDG_DATA_HOME/awl/sessions)
  AWL_BASH_PASS_ENV=A,B        API keys never reach bash nor tool output; other *KEY*/*SECRET*/*TOKEN*/*PASSWORD* only if listed
  XDG_DATA_HOME                base data directory (default ~/.local/share)
  XDG_CACHE_HOME               base cache directory, for the providers' model lists (default ~/.cache)
  XDG_CONFIG_HOME              base configuration directory, for awl/AGENTS.md (default ~/.config)
  AWL_STREAM_IDLE_TIMEOUT_MS   give up on a response silent this long (default 90000; raise it for slow local models)
  AWL_RETRY_BASE_MS            first retry delay after a rate limit, overload or failed connection, doubling each
                               try (default 1000); a refused local port or unknown host is given up after 2 tries
  NO_COLOR                     turn colour off

Approval modes: ask runs what only reads, and a short list of read-only commands (ls, cat, grep,
rg, find, git status/diff/log/show, pwd, head, tail, wc, in any combination, output not
redirected to a file) by itself, and shows every other command and every change to a file first:
y runs it, a runs it and the same tool (for a command: program and first argument) from then on
until awl exits, n refuses it with an optional reason for the model, Esc or Ctrl+C stops the
turn. auto runs every tool. read-only refuses changes to files and other commands with an error
the model reads. /approve switches.

Project instructions: a new session puts $XDG_CONFIG_HOME/awl/AGENTS.md, then AGENTS.md (else
CLAUDE.md) of each directory from the repository root down to this one, into its system
prompt (32 KiB in all); the banner and /session list them.

A session never runs into the context window: earlier turns are summarized (compacted)
into one more line of its log when the next request would not fit; /compact in the REPL
does it on request. Sessions are JSONL files; awl sessions lists them, and in the REPL
/new starts another and /resume picks one to continue.

Exit codes: 0 ok, 1 failure, 2 usage error, 128 + n when signal n stopped awl (130: Ctrl+C
under -p); what it had is saved first.
`;
