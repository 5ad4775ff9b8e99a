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
  awl sessions tree <id> [--json]
                               a session's entries as a tree, the active path marked (JSON: one array, file order)
  awl --resume <id> --at <entry>
                               go on from an earlier entry (a message, compaction or branch summary, by id prefix)
  awl --resume <id> --fork [--at <entry>]
                               continue in a copy of the session (up to the entry); the original is not touched
  awl rewind [id] --to <entry> [--conversation] [--dry-run] [--yes]
                               move a session's conversation back to an entry (files are not restored yet)
  awl -- sessions              after --, every word is the prompt (this sends "sessions")

Options:
  -p, --print <prompt|->       non-interactive: answer on stdout, tool activity on stderr
  -r, --resume [id]            continue a session (id: full id or unique prefix)
  -c, --continue               continue the most recent session here (takes no value)
      --provider <name>        anthropic or openai (default: the first of them whose key, or for
                               openai base URL, is set)
  -m, --model <model>          model id, e.g. claude-sonnet-4-5, gpt-5-mini, or provider/model
      --thinking               let the model think before answering (off by default)
      --approve <mode>         when tools may act: ask (the REPL's default), auto (-p's default: a script
                               cannot answer; -p with ask is a usage error) or read-only
      --plain                  awl sessions: plain lines even on a terminal
      --json                   awl sessions: a JSON array
  -h, --help                   this help
  -v, --version                print the version

Environment:
  ANTHROPIC_API_KEY            key for Anthropic
  OPENAI_API_KEY               key for OpenAI (not needed for a local server)
  ANTHROPIC_BASE_URL           Anthropic API host (default https://api.anthropic.com); named when it cannot be reached
  OPENAI_BASE_URL              OpenAI-compatible base URL, ending in /v1 (default https://api.openai.com/v1)
  AWL_PROVIDER, AWL_MODEL      default provider and model for new sessions
  AWL_APPROVE                  the approval mode when --approve is not given (ask, auto, read-only)
  AWL_CONTEXT_WINDOW           the model's context window in tokens (e.g. 32768, 200k), instead of awl's table;
                               set it for local servers that truncate a long prompt silently
  AWL_SESSION_DIR              where sessions live, an absolute path (default $XDG_DATA_HOME/awl/sessions)
  AWL_BASH_PASS_ENV=A,B        API keys never reach bash nor tool output; other *KEY*/*SECRET*/*TOKEN*/*PASSWORD* only if listed
  XDG_DATA_HOME                base data directory (default ~/.local/share)
  AWL_STREAM_IDLE_TIMEOUT_MS   give up on a response silent this long (default 90000; raise it for slow local models)
  AWL_RETRY_BASE_MS            first retry delay after a rate limit, overload or failed connection, doubling each
                               try (default 1000); a refused local port or unknown host is given up after 2 tries
  NO_COLOR                     turn colour off

Approval modes: ask runs read and a short list of read-only commands (ls, cat, grep, rg, find,
git status/diff/log/show, pwd, head, tail, wc, in any combination, output not redirected to a
file) by itself, and shows every other bash command, write and edit first: y runs it, a runs it
and the same tool (for bash: program and first argument) from then on until awl exits, n refuses
it with an optional reason for the model, Esc or Ctrl+C stops the turn. auto runs every tool.
read-only refuses write, edit and other commands with an error the model reads. /approve switches.

A session never runs into the context window: earlier turns are summarized (compacted)
into one more line of its log when the next request would not fit; /compact in the REPL
does it on request. Sessions are JSONL files; awl sessions lists them, and in the REPL
/new starts another and /resume picks one to continue. Going back appends, never removes:
/rewind (or Esc Esc) goes back before a prompt, /tree to any entry, /fork continues in a copy.

Exit codes: 0 ok, 1 failure, 2 usage error, 128 + n when signal n stopped awl (130: Ctrl+C
under -p); what it had is saved first.
`;
