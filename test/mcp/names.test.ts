import { expect, test } from "bun:test";
import { MAX_NAME, toolName, toolNames } from "../../src/mcp/names";

test("a tool's name is mcp__<server>__<tool> when it fits the providers' rule", () => {
  expect(toolName("github", "create_issue")).toBe("mcp__github__create_issue");
});

test("a name too long or with other characters is cut to 64 of [A-Za-z0-9_-] with a hash, and two that agree on their start stay two", () => {
  const long = "x".repeat(80);
  const a = toolName("server", `${long}_a`);
  const b = toolName("server", `${long}_b`);
  for (const name of [a, b, toolName("my.server", "do it")]) {
    expect(name.length).toBeLessThanOrEqual(MAX_NAME);
    expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
  }
  expect(a).not.toBe(b);
  expect(toolName("my.server", "x")).not.toBe(toolName("my_server", "x"));
});

test("two servers whose names meet in the same tool name are both reachable", () => {
  const names = toolNames([
    { server: "a__b", tool: "c" },
    { server: "a", tool: "b__c" },
  ]);
  expect(new Set(names).size).toBe(2);
});
