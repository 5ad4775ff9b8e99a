// The pure parts hooks are read and given through: the one table of tool
// names and fields (both ways), matchers as Claude Code reads them, and the
// line a broken settings file is named at.
import { describe, expect, test } from "bun:test";
import { awlToolName, claudeToolName, fromClaudeInput, toClaudeInput } from "../../src/extensions/hooks/tool-names";
import { matches } from "../../src/extensions/hooks/matcher";
import { jsonErrorLine } from "../../src/extensions/json-error-line";

describe("the tool table", () => {
  test("awl's tools take Claude Code's names and fields, and back: Bash's timeout in ms, Read's path absolute", () => {
    expect(["bash", "read", "write", "edit", "mcp__x__y"].map(claudeToolName)).toEqual(["Bash", "Read", "Write", "Edit", "mcp__x__y"]);
    expect(["Bash", "Read", "Write", "Edit", "Task", "Grep"].map(awlToolName)).toEqual(["bash", "read", "write", "edit", "task", "Grep"]);
    expect(fromClaudeInput("task", { description: "d", prompt: "p", subagent_type: "reviewer" })).toEqual({ description: "d", prompt: "p", agent: "reviewer" });
    expect(toClaudeInput("bash", { command: "ls", timeout: 5 }, "/w")).toEqual({ command: "ls", timeout: 5000 });
    expect(toClaudeInput("read", { path: "a.txt", offset: 2, limit: 3 }, "/w")).toEqual({ file_path: "/w/a.txt", offset: 2, limit: 3 });
    expect(toClaudeInput("edit", { path: "/abs/b", oldText: "x", newText: "y" }, "/w")).toEqual({ file_path: "/abs/b", old_string: "x", new_string: "y" });
    expect(fromClaudeInput("bash", { command: "ls", timeout: 5000, description: "list" })).toEqual({ command: "ls", timeout: 5 });
    expect(fromClaudeInput("edit", { file_path: "/abs/b", old_string: "x", new_string: "y", replace_all: false })).toEqual({ path: "/abs/b", oldText: "x", newText: "y" });
    expect(fromClaudeInput("mcp__x__y", { any: 1 })).toEqual({ any: 1 });
  });
});

describe("matchers", () => {
  test("none, empty and * match all; names match exactly; anything else is a regular expression", () => {
    for (const m of [undefined, "", "*"]) expect(matches(m, "Bash")).toBe(true);
    expect(matches("Edit|MultiEdit|Write", "Write")).toBe(true);
    expect(matches("Edit|MultiEdit|Write", "WriteFile")).toBe(false);
    expect(matches("Bash", "bash")).toBe(false);
    expect(matches("mcp__memory__.*", "mcp__memory__create")).toBe(true);
    expect(matches("(", "Bash")).toBe(false);
  });
});

describe("jsonErrorLine", () => {
  test("names the line where the JSON first goes wrong", () => {
    expect(jsonErrorLine('{\n  "a": 1,\n  "b": [,]\n}')).toBe(3);
    expect(jsonErrorLine('{\n  "a": 1\n  "b": 2\n}')).toBe(3);
    expect(jsonErrorLine('{\n  "a": tru\n}')).toBe(2);
    expect(jsonErrorLine('{\n  "a": 1,\n')).toBe(3);
  });
});
