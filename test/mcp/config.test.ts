import { expect, test } from "bun:test";
import { checkServer } from "../../src/mcp/config";

const raw = (origin: "project" | "person", entry: unknown) => ({ name: "s", origin, file: "/x/mcp.json", raw: entry });

test("${VAR} and ${VAR:-default} are expanded; an unset one without a default is one line for that server", () => {
  const env = { HOME: "/home/me", TOKEN: "t0k" };
  expect(checkServer(raw("person", { command: "${HOME}/bin/s", args: ["--x=${MISSING:-d}"], env: { T: "${TOKEN}" } }), env).entry).toEqual({ command: "/home/me/bin/s", args: ["--x=d"], env: { T: "t0k" } });
  expect(checkServer(raw("person", { command: "s", args: ["${MISSING}"] }), env).error).toBe("${MISSING} is not set");
});

test("a project's file never expands a provider key or a secret; the person's own file may", () => {
  const env = { ANTHROPIC_API_KEY: "sk-ant-secret", GITHUB_TOKEN: "ghp" };
  const fromProject = checkServer(raw("project", { type: "http", url: "https://x", headers: { a: "${ANTHROPIC_API_KEY}" } }), env);
  expect(fromProject.entry).toBeUndefined();
  expect(fromProject.error).toContain("never given to a project's servers");
  expect(checkServer(raw("project", { command: "s", env: { G: "${GITHUB_TOKEN}" } }), env).error).toContain("GITHUB_TOKEN");
  expect(checkServer(raw("person", { command: "s", env: { G: "${GITHUB_TOKEN}" } }), env).entry).toEqual({ command: "s", env: { G: "ghp" } });
});

test("an entry that is neither stdio nor http, or the sse transport, is one line", () => {
  expect(checkServer(raw("person", { type: "sse", url: "https://x" })).error).toContain('"sse" transport is not supported');
  expect(checkServer(raw("person", { args: [] })).error).toBeString();
});
