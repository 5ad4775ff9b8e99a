// Hooks through the compiled binary, configured as Claude Code's documentation
// configures them: its examples are copied here unchanged (the hooks guide's
// command logging, formatter and file protection; the hooks reference's
// UserPromptSubmit script and PreToolUse permission decision), and each must
// do what that documentation says. They sit in a project's .awl/settings.json,
// trusted for the run (--trust); the rest in the person's settings file
// ($XDG_CONFIG_HOME/awl/settings.json). test/e2e/trust.test.ts: what waits for trust.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture, sessionFiles } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { readLog } from "../support/session-log";

const fx = useE2eFixture();
const term = useTerminal();

const bash = (command: string) => ({ type: "toolUse" as const, name: "bash", input: { command } });
const write = (path: string, content: string) => ({ type: "toolUse" as const, name: "write", input: { path, content } });
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });

/** Writes the person's settings file; the fixture's XDG_CONFIG_HOME is set to find it. */
function personSettings(settings: unknown): string {
  const dir = join(fx.root, "config", "awl");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "settings.json");
  writeFileSync(file, typeof settings === "string" ? settings : JSON.stringify(settings, null, 2));
  return file;
}

/** Writes the project's .awl/settings.json, as a cloned repository brings it. */
function projectSettings(settings: unknown): void {
  mkdirSync(join(fx.project, ".awl"), { recursive: true });
  writeFileSync(join(fx.project, ".awl", "settings.json"), typeof settings === "string" ? settings : JSON.stringify(settings, null, 2));
}

const run = (args: string[], env: Record<string, string> = {}) => fx.run(args, { env: { XDG_CONFIG_HOME: join(fx.root, "config"), ...env } });

/** What request `n` sent, as one string (the model's view of the conversation). */
const sent = (n: number) => JSON.stringify(fx.server.requests[n]!.body.messages);

describe("Claude Code's documented hook examples, unchanged", () => {
  test("the hooks guide's quickstart: every Bash command is logged with jq, described or not", async () => {
    // https://docs.anthropic.com/en/docs/claude-code/hooks-guide (Quickstart, step 5)
    projectSettings(`{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "jq -r '\\"\\\\(.tool_input.command) - \\\\(.tool_input.description // \\"No description\\")\\"' >> ~/.claude/bash-command-log.txt"
          }
        ]
      }
    ]
  }
}`);
    mkdirSync(join(fx.home, ".claude"));
    fx.server.reply({ blocks: [bash("echo one")] }, { blocks: [bash("ls")] }, text("Done."));
    const result = await run(["--trust", "-p", "run two commands"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(fx.home, ".claude", "bash-command-log.txt"), "utf8")).toBe("echo one - No description\nls - No description\n");
  });

  test("the hooks guide's formatter runs after a Write on a .ts file's absolute path, and only on .ts files", async () => {
    // https://docs.anthropic.com/en/docs/claude-code/hooks-guide (Code Formatting Hook)
    projectSettings(`{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|MultiEdit|Write",
        "hooks": [
          {
            "type": "command",
            "command": "jq -r '.tool_input.file_path' | { read file_path; if echo \\"$file_path\\" | grep -q '\\\\.ts$'; then npx prettier --write \\"$file_path\\"; fi; }"
          }
        ]
      }
    ]
  }
}`);
    // A stand-in for `npx prettier --write FILE`: squeezes runs of spaces, and says which path it was given.
    const bin = join(fx.root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "npx"), `#!/bin/sh\n[ "$1" = prettier ] && [ "$2" = --write ] || exit 9\necho "$3" >> "${join(fx.root, "formatted.txt")}"\nsed -i 's/  */ /g' "$3"\n`);
    chmodSync(join(bin, "npx"), 0o755);
    fx.server.reply({ blocks: [write("src/a.ts", "const  x  =  1;\n"), write("b.js", "let  y;\n")] }, text("Written."));
    const result = await run(["--trust", "-p", "write two files"], { PATH: `${bin}:${fx.env.PATH}` });
    expect(result.code).toBe(0);
    expect(readFileSync(join(fx.project, "src", "a.ts"), "utf8")).toBe("const x = 1;\n");
    expect(readFileSync(join(fx.project, "b.js"), "utf8")).toBe("let  y;\n");
    expect(readFileSync(join(fx.root, "formatted.txt"), "utf8")).toBe(`${join(fx.project, "src", "a.ts")}\n`);
  });

  test("the hooks guide's file protection: exit 2 blocks a write to .env, the model is told, other files are written", async () => {
    // https://docs.anthropic.com/en/docs/claude-code/hooks-guide (File Protection Hook)
    projectSettings(`{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Edit|MultiEdit|Write",
        "hooks": [
          {
            "type": "command",
            "command": "python3 -c \\"import json, sys; data=json.load(sys.stdin); path=data.get('tool_input',{}).get('file_path',''); sys.exit(2 if any(p in path for p in ['.env', 'package-lock.json', '.git/']) else 0)\\""
          }
        ]
      }
    ]
  }
}`);
    fx.server.reply({ blocks: [write(".env", "SECRET=1\n"), write("notes.txt", "fine\n")] }, text("One was refused."));
    const result = await run(["--trust", "-p", "write two files"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(fx.project, ".env"))).toBe(false);
    expect(readFileSync(join(fx.project, "notes.txt"), "utf8")).toBe("fine\n");
    const results = readLog(sessionFiles(fx.sessions)[0]!).filter((l) => l.message?.role === "user").at(-1).message.content;
    expect(results[0]).toMatchObject({ type: "toolResult", isError: true });
    expect(results[0].content).toContain("Blocked by a PreToolUse hook");
    expect(results[1].isError).toBeFalsy();
    expect(sent(1)).toContain("Blocked by a PreToolUse hook");
  });

  test("the hooks reference's UserPromptSubmit script: its stdout is context the model gets; a secret in the prompt blocks it, unsent and unsaved", async () => {
    // https://docs.anthropic.com/en/docs/claude-code/hooks (JSON Output Example: UserPromptSubmit to Add Context and Validation)
    const script = join(fx.root, "prompt-hook.py");
    writeFileSync(script, PROMPT_HOOK_EXAMPLE);
    chmodSync(script, 0o755);
    projectSettings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: script }] }] } });
    fx.server.reply(text("Noted."));
    const allowed = await run(["--trust", "-p", "what day is it?"]);
    expect(allowed.code).toBe(0);
    expect(sent(0)).toContain("what day is it?");
    expect(sent(0)).toMatch(/Current time: \d{4}-\d\d-\d\d \d\d:\d\d/);

    const blocked = await run(["--trust", "-p", "log in with password: hunter2"]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("Security policy violation: Prompt contains potential secrets");
    expect(fx.server.requests.length).toBe(1);
    expect(sessionFiles(fx.sessions).map((f) => readFileSync(f, "utf8")).join("")).not.toContain("hunter2");
  });

  test("the hooks reference's PreToolUse permissionDecision deny: the call does not run and the model reads the reason", async () => {
    // https://docs.anthropic.com/en/docs/claude-code/hooks (PreToolUse Decision Control), as a hook's stdout
    const deny = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "No touching in this repository." } };
    projectSettings({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${JSON.stringify(deny)}'` }] }] } });
    fx.server.reply({ blocks: [bash("touch touched")] }, text("Refused."));
    const result = await run(["--trust", "-p", "touch a file"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(fx.project, "touched"))).toBe(false);
    expect(sent(1)).toContain("No touching in this repository.");
  });
});

describe("what a hook is given, and what it may do", () => {
  test("stdin is Claude Code's JSON (the session file as transcript_path); the environment has CLAUDE_PROJECT_DIR and no provider key", async () => {
    const out = join(fx.root, "out");
    personSettings({ hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: `cat > ${out}.json; env > ${out}.env` }] }] } });
    writeFileSync(join(fx.project, "f.txt"), "x\n");
    fx.server.reply({ blocks: [{ type: "toolUse", name: "read", input: { path: "f.txt", limit: 5 } }] }, text("Read."));
    const result = await run(["-p", "read it"]);
    expect(result.code).toBe(0);
    const stdin = JSON.parse(readFileSync(`${out}.json`, "utf8"));
    const [file] = sessionFiles(fx.sessions);
    expect(stdin).toMatchObject({ transcript_path: file, cwd: fx.project, hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: join(fx.project, "f.txt"), limit: 5 } });
    expect(file).toContain(stdin.session_id);
    const env = readFileSync(`${out}.env`, "utf8");
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${fx.project}\n`);
    expect(env).not.toContain(fx.env.ANTHROPIC_API_KEY!);
    expect(env).not.toContain("ANTHROPIC_API_KEY=");
  });

  test("updatedInput changes the call before it runs, and the log says what ran before it runs", async () => {
    const change = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo changed > which.txt" } } };
    personSettings({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${JSON.stringify(change)}'` }] }] } });
    fx.server.reply({ blocks: [bash("echo original > which.txt")] }, text("Done."));
    const result = await run(["-p", "write which"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(fx.project, "which.txt"), "utf8")).toBe("changed\n");
    expect(sent(1)).toContain("echo changed > which.txt");
    // Recorded before the call ran, between the call and its result; a resume goes on from it.
    const file = sessionFiles(fx.sessions)[0]!;
    const kinds = readLog(file).filter((l) => l.type === "message" || l.type === "custom").map((l) => (l.type === "custom" ? l.data : l.message.role));
    expect(kinds).toEqual(["system", "user", "assistant", { event: "PreToolUse", toolUseId: expect.any(String), updatedInput: { command: "echo changed > which.txt" } }, "user", "assistant"]);
    fx.server.reply(text("Resumed."));
    expect((await run(["-p", "again", "--resume"])).stdout).toBe("Resumed.\n");
  });

  test("permissionDecision allow never lifts read-only", async () => {
    const allow = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "trusted command" } };
    personSettings({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${JSON.stringify(allow)}'` }] }] } });
    fx.server.reply({ blocks: [bash("touch readonly")] }, text("Refused."));
    expect((await run(["-p", "touch it", "--approve", "read-only"])).code).toBe(0);
    expect(existsSync(join(fx.project, "readonly"))).toBe(false);
  });

  test("SessionStart's context reaches the model with the first prompt (source startup, then resume); PostToolUse's exit 2 and additionalContext follow the result; each is a hook's custom_message in the log", async () => {
    const post = { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "the file is generated: edit the template instead" } };
    personSettings({
      hooks: {
        SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo 'branch main, 3 open issues'" }] }, { matcher: "resume", hooks: [{ type: "command", command: "echo 'welcome back'" }] }],
        PostToolUse: [
          { matcher: "Write", hooks: [{ type: "command", command: `echo '${JSON.stringify(post)}'` }] },
          { matcher: "Write", hooks: [{ type: "command", command: "echo 'lint: missing newline' >&2; exit 2" }] },
        ],
      },
    });
    fx.server.reply({ blocks: [write("gen.txt", "x")] }, text("Written."), text("Again."));
    expect((await run(["-p", "write it"])).code).toBe(0);
    expect(sent(0)).toContain("branch main, 3 open issues");
    expect(sent(0)).not.toContain("welcome back");
    expect(sent(1)).toContain("the file is generated: edit the template instead");
    expect(sent(1)).toContain("PostToolUse hook: lint: missing newline");
    expect(readFileSync(join(fx.project, "gen.txt"), "utf8")).toBe("x");
    // Recorded as the hooks' words, apart from the person's prompt and the tool's result.
    const log = readLog(sessionFiles(fx.sessions)[0]!).filter((l) => l.type === "message" || l.type === "custom_message");
    expect(log.map((l) => (l.type === "custom_message" ? `hook: ${l.content}` : l.message.role))).toEqual([
      "system",
      "user",
      "hook: branch main, 3 open issues",
      "assistant",
      "user",
      "hook: PostToolUse hook: lint: missing newline\nthe file is generated: edit the template instead",
      "assistant",
    ]);
    expect(JSON.stringify(log[1].message.content)).not.toContain("branch main");
    expect(JSON.stringify(log[4].message.content)).not.toContain("lint");
    expect(sent(0)).toContain("[Added by a hook, not typed by the user.]");
    expect((await run(["-p", "again", "--resume"])).code).toBe(0);
    expect(JSON.stringify(fx.server.requests[2]!.body.messages.at(-1))).toContain("welcome back");
  });

  test("a Stop hook that exits 2 sends the model back to work with its stderr; stop_hook_active lets it stop the next time", async () => {
    const seen = join(fx.root, "stop-inputs");
    personSettings({
      hooks: { Stop: [{ hooks: [{ type: "command", command: `cat >> ${seen}; echo >> ${seen}; [ -f ${seen}.once ] && exit 0; touch ${seen}.once; echo "run the tests before you stop" >&2; exit 2` }] }] },
    });
    fx.server.reply(text("All done."), text("Tests pass; done now."));
    const result = await run(["-p", "fix it"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Tests pass; done now.\n");
    expect(sent(1)).toContain("run the tests before you stop");
    expect(readLog(sessionFiles(fx.sessions)[0]!).filter((l) => l.type === "custom_message").map((l) => l.content)).toEqual(["A Stop hook sent you back to work: run the tests before you stop"]);
    const inputs = readFileSync(seen, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(inputs.map((i) => [i.hook_event_name, i.stop_hook_active])).toEqual([["Stop", false], ["Stop", true]]);
  });

  test("another exit code and a timeout go on with a notice; the timed-out hook's process group is killed", async () => {
    const pidFile = join(fx.root, "sleeper.pid");
    personSettings({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "echo broken >&2; exit 1" }] },
          { matcher: "Bash", hooks: [{ type: "command", command: `sleep 300 & echo $! > ${pidFile}; wait`, timeout: 1 }] },
        ],
      },
    });
    fx.server.reply({ blocks: [bash("echo ran > ran.txt")] }, text("Done."));
    const result = await run(["-p", "run it"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(fx.project, "ran.txt"), "utf8")).toBe("ran\n");
    expect(result.stderr).toContain("failed (exit code 1): broken; going on");
    expect(result.stderr).toContain("took longer than 1 s and was killed");
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ")).toBe(false);
  });

  test("SessionEnd runs once the answer is out, told the reason", async () => {
    const heard = join(fx.root, "end.json");
    personSettings({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: `cat > ${heard}` }] }] } });
    fx.server.reply(text("Bye."));
    expect((await run(["-p", "hello"])).stdout).toBe("Bye.\n");
    expect(JSON.parse(readFileSync(heard, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other", transcript_path: sessionFiles(fx.sessions)[0] });
  });

  test("a settings file that is not JSON is named with its line, once, and the session goes on", async () => {
    const file = personSettings('{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n');
    fx.server.reply(text("Fine."));
    const result = await run(["-p", "hello"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Fine.\n");
    expect(result.stderr.split(`${file}:3: not valid JSON`).length).toBe(2);
  });
});

/** The fixture's environment without AWL_APPROVE (the REPL's own default, ask), finding the person's settings. */
const askingEnv = () => ({ ...Object.fromEntries(Object.entries(fx.env).filter(([k]) => k !== "AWL_APPROVE")), XDG_CONFIG_HOME: join(fx.root, "config") });

describe.skipIf(!hasTmux)("hooks in the REPL", () => {
  test("permissionDecision allow skips the question of ask mode; a blocked prompt is said and comes back to the input box", async () => {
    const allow = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } };
    const block = { decision: "block", reason: "no prompts about the launch codes" };
    personSettings({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${JSON.stringify(allow)}'` }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `grep -q launch && echo '${JSON.stringify(block)}' || true` }] }],
      },
    });
    fx.server.reply({ blocks: [bash("touch allowed")] }, text("Touched without asking."));
    term.start([AWL], { cwd: fx.project, env: askingEnv(), width: 160 });
    expect(await term.waitFor(/\/help for commands/)).toContain("approve: ask");
    term.type("touch a file");
    term.keys("Enter");
    const screen = await term.waitFor(/Touched without asking\./);
    expect(screen).not.toContain("Run it?");
    expect(existsSync(join(fx.project, "allowed"))).toBe(true);
    term.type("what are the launch codes");
    term.keys("Enter");
    await term.waitFor(/a UserPromptSubmit hook blocked this prompt: no prompts about the launch codes/);
    await term.waitFor(/› what are the launch codes/);
    expect(fx.server.requests.length).toBe(2);
  });

  test("SessionStart runs as the REPL opens, before any prompt, and its context goes with the first; /new ends the session (reason clear), /quit too (prompt_input_exit)", async () => {
    const log = join(fx.root, "events.jsonl");
    personSettings({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: `jq -c '{e: .hook_event_name, s: .source}' >> ${log}; echo 'the build is green'` }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: `jq -c '{e: .hook_event_name, r: .reason}' >> ${log}` }] }],
      },
    });
    // Whole lines only: a hook may be writing the next one.
    const events = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").slice(0, -1).map((l) => JSON.parse(l)) : []);
    fx.server.reply(text("Noted."));
    term.start([AWL], { cwd: fx.project, env: askingEnv(), width: 160 });
    await term.waitFor(/\/help for commands/);
    while (events().length === 0) await Bun.sleep(50);
    expect(events()).toEqual([{ e: "SessionStart", s: "startup" }]);
    term.send("hello");
    await term.waitFor(/Noted\./);
    expect(sent(0)).toContain("the build is green");
    term.send("/new");
    while (events().length < 3) await Bun.sleep(50);
    term.send("/quit");
    while (events().length < 4) await Bun.sleep(50);
    expect(events()).toEqual([
      { e: "SessionStart", s: "startup" },
      { e: "SessionEnd", r: "clear" },
      { e: "SessionStart", s: "startup" },
      { e: "SessionEnd", r: "prompt_input_exit" },
    ]);
  });

  test("Esc while a PreToolUse hook runs kills its process group, and the call is not run; Notification hooks hear the question", async () => {
    const pidFile = join(fx.root, "hook.pid");
    const heard = join(fx.root, "heard.json");
    personSettings({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `[ -f ${pidFile} ] && exit 0; sleep 300 & echo $! > ${pidFile}; wait` }] }],
        Notification: [{ hooks: [{ type: "command", command: `cat > ${heard}` }] }],
      },
    });
    fx.server.reply({ blocks: [bash("touch never")] }, { blocks: [bash("touch asked")] }, text("Fine."));
    term.start([AWL], { cwd: fx.project, env: askingEnv(), width: 160 });
    await term.waitFor(/\/help for commands/);
    term.type("touch a file");
    term.keys("Enter");
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") await Bun.sleep(50);
    const pid = Number(readFileSync(pidFile, "utf8"));
    term.keys("Escape");
    await term.waitFor(/Interrupted/);
    const alive = () => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
    for (let i = 0; i < 200 && alive(); i++) await Bun.sleep(50);
    expect(alive()).toBe(false);
    expect(existsSync(join(fx.project, "never"))).toBe(false);

    term.type("now ask me");
    term.keys("Enter");
    await term.waitFor(/Run it\?/);
    while (!existsSync(heard) || readFileSync(heard, "utf8") === "") await Bun.sleep(50);
    expect(JSON.parse(readFileSync(heard, "utf8"))).toMatchObject({ hook_event_name: "Notification", message: "awl needs your permission to use Bash" });
    term.type("y");
    await term.waitFor(/Fine\./);
  });
});

// Copied unchanged from the hooks reference.
const PROMPT_HOOK_EXAMPLE = `#!/usr/bin/env python3
import json
import sys
import re
import datetime

# Load input from stdin
try:
    input_data = json.load(sys.stdin)
except json.JSONDecodeError as e:
    print(f"Error: Invalid JSON input: {e}", file=sys.stderr)
    sys.exit(1)

prompt = input_data.get("prompt", "")

# Check for sensitive patterns
sensitive_patterns = [
    (r"(?i)\\b(password|secret|key|token)\\s*[:=]", "Prompt contains potential secrets"),
]

for pattern, message in sensitive_patterns:
    if re.search(pattern, prompt):
        # Use JSON output to block with a specific reason
        output = {
            "decision": "block",
            "reason": f"Security policy violation: {message}. Please rephrase your request without sensitive information."
        }
        print(json.dumps(output))
        sys.exit(0)

# Add current time to context
context = f"Current time: {datetime.datetime.now()}"
print(context)

"""
The following is also equivalent:
print(json.dumps({
  "hookSpecificOutput": {
    "hookEventName": "UserPromptSubmit",
    "additionalContext": context,
  },
}))
"""

# Allow the prompt to proceed with the additional context
sys.exit(0)
`;
