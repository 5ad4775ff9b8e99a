// Markdown commands as files in real folders: which folder's file a name
// goes to, what is named and skipped, and a command typed with arguments
// made into its prompt.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadMarkdownCommands } from "../../src/extensions/commands/markdown-commands";
import { expandCommand, withOutputs } from "../../src/extensions/commands/expand-command";

let root: string;
let project: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "awl-commands-"));
  project = join(root, "project");
  env = { XDG_CONFIG_HOME: join(root, "config"), HOME: join(root, "home") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function put(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe("finding Markdown commands", () => {
  test("the person's file wins a name over the project's, .awl over .claude; a built-in's name is kept; each clash is named", () => {
    put(join(root, "config", "awl", "commands", "review.md"), "---\ndescription: mine\n---\nMy review.\n");
    const shadowed = put(join(project, ".claude", "commands", "review.md"), "Their review.\n");
    put(join(project, ".awl", "commands", "deploy.md"), "Deploy from .awl\n");
    const second = put(join(project, ".claude", "commands", "deploy.md"), "Deploy from .claude\n");
    put(join(project, ".claude", "commands", "frontend", "component.md"), "---\nargument-hint: <name>\nallowed-tools: Read, Edit\nmodel: claude-haiku\n---\nMake $1.\n");
    const builtIn = put(join(project, ".claude", "commands", "help.md"), "Not help.\n");
    const loaded = loadMarkdownCommands(project, env, ["help", "quit"]);
    expect(loaded.commands.map((c) => [c.name, c.scope, c.body.trim()])).toEqual([
      ["review", "person", "My review."],
      ["deploy", "project", "Deploy from .awl"],
      ["component", "project", "Make $1."],
    ]);
    expect(loaded.commands[0]!.description).toBe("mine");
    expect(loaded.commands[2]).toMatchObject({ argumentHint: "<name>", allowedTools: "Read, Edit", model: "claude-haiku" });
    expect(loaded.problems).toEqual([
      `${second}: /deploy is already ${join(project, ".awl", "commands", "deploy.md")}; this file is skipped`,
      `${builtIn}: /help is already a built-in command; this file is skipped`,
      `${shadowed}: /review is already ${join(root, "config", "awl", "commands", "review.md")}; this file is skipped`,
    ]);
  });

  test("a front matter line that is not key: value is named with its line; the command still loads", () => {
    const file = put(join(project, ".awl", "commands", "odd.md"), "---\ndescription: fine\n- a list item\n---\nBody.\n");
    const loaded = loadMarkdownCommands(project, env, []);
    expect(loaded.commands.map((c) => c.name)).toEqual(["odd"]);
    expect(loaded.problems).toEqual([`${file}:3: not a "key: value" line of front matter; skipped`]);
  });
});

describe("a command typed with arguments", () => {
  test("$ARGUMENTS, $1, $2 (quotes group words) put in, also inside its !`command` parts, which are listed in order", () => {
    put(join(project, ".awl", "commands", "go.md"), "Use @notes.md for $1, then $2.\nAll: $ARGUMENTS\nStatus: !`git status`\nLog of $1: !`git log -1 -- $1`\nMissing: $3.\n");
    const [command] = loadMarkdownCommands(project, env, []).commands;
    const expanded = expandCommand(command!.body, 'alpha "beta gamma"');
    expect(expanded.prompt).toBe('Use @notes.md for alpha, then beta gamma.\nAll: alpha "beta gamma"\nStatus: !`git status`\nLog of alpha: !`git log -1 -- alpha`\nMissing: .');
    expect(expanded.commands).toEqual(["git status", "git log -1 -- alpha"]);
  });

  test("each !`command` part is replaced by its output, in order; one that failed or was refused by a note that says so", () => {
    const { pieces } = expandCommand("A: !`echo a`\nB: !`touch b`\nA again: !`echo a`", "");
    const filled = withOutputs(pieces, [
      { content: "a\n", failed: false },
      { content: "Not run: awl is in read-only mode.", failed: true },
      { content: "$& a", failed: false },
    ]);
    expect(filled).toBe("A: a\nB: [`touch b` did not succeed: Not run: awl is in read-only mode.]\nA again: $& a");
  });

  test("what is typed never adds a !`command` part, and inside one each argument is one word for the shell", () => {
    const body = "Fix the issue titled: $ARGUMENTS\nFirst word: $1\nIts log: !`git log --grep $1`\nAll: !`echo $ARGUMENTS`";
    const expanded = expandCommand(body, "x;rm -rf ~ !`touch pwned` \"it's $(id)\"");
    // The typed !`touch pwned` is words of the prompt: no part runs it.
    expect(expanded.commands).toEqual(["git log --grep 'x;rm'", "echo 'x;rm' -rf '~' '!`touch' 'pwned`' 'it'\\''s $(id)'"]);
    expect(expanded.prompt).toStartWith("Fix the issue titled: x;rm -rf ~ !`touch pwned` \"it's $(id)\"\nFirst word: x;rm\n");
    // The outputs go where the file's parts were; the typed one stays text.
    expect(withOutputs(expanded.pieces, [{ content: "log\n", failed: false }, { content: "echoed\n", failed: false }])).toBe(
      "Fix the issue titled: x;rm -rf ~ !`touch pwned` \"it's $(id)\"\nFirst word: x;rm\nIts log: log\nAll: echoed",
    );
  });
});
