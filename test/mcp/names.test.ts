import { expect, test } from "bun:test";
import { MAX_NAME, serverFileName, toolName, toolNames } from "../../src/mcp/names";
import { tokenFile } from "../../src/mcp/oauth";

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

test("a server's files: its name as it is when it is safe; two names that differ in other characters never share a token file or a log", () => {
  expect(tokenFile("github", { XDG_DATA_HOME: "/d" })).toBe("/d/awl/mcp/oauth/github.json");
  const spaced = tokenFile("a b", { XDG_DATA_HOME: "/d" });
  const underscored = tokenFile("a_b", { XDG_DATA_HOME: "/d" });
  expect(underscored).toBe("/d/awl/mcp/oauth/a_b.json");
  expect(spaced).not.toBe(underscored);
  expect(spaced).toMatch(/^\/d\/awl\/mcp\/oauth\/a_b-[0-9a-f]{8}\.json$/);
  expect(tokenFile("../../etc/x", { XDG_DATA_HOME: "/d" })).toMatch(/^\/d\/awl\/mcp\/oauth\/\.\._\.\._etc_x-[0-9a-f]{8}\.json$/);
  expect(serverFileName("a/b")).not.toBe(serverFileName("a_b"));
});
