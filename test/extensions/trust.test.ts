// The trust kept for a project (docs/extensions.md, "Trust"): a yes covers
// every file under .awl/ and .mcp.json as they were; a change to any of them,
// or a new file, asks again; the record is private; what would run is listed
// in full, the variables its configuration expands included.
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasCode, projectCode } from "../../src/extensions/project-code";
import { extensionsReport } from "../../src/extensions/report";
import { decideForThisRun, projectTrusted, recordTrust, trustState } from "../../src/extensions/trust";

function world() {
  const root = mkdtempSync(join(tmpdir(), "awl-trust-"));
  const project = join(root, "project");
  mkdirSync(join(project, ".awl", "commands"), { recursive: true });
  writeFileSync(join(project, ".awl", "commands", "review.md"), "Review $ARGUMENTS\n");
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { gh: { command: "npx", args: ["-y", "gh-mcp"], env: { TOKEN: "${GH_TOKEN}" } }, web: { type: "http", url: "https://example.test/mcp" } } }));
  return { project, env: { XDG_CONFIG_HOME: join(root, "config"), HOME: root } };
}

test("a yes covers every file under .awl/ and .mcp.json as they are: an edit or a new file asks again", () => {
  const { project, env } = world();
  expect(trustState(project, env)).toBe("new");
  expect(projectTrusted(project, env)).toBe(false);
  recordTrust(project, env);
  expect(trustState(project, env)).toBe("trusted");
  expect(statSync(join(env.XDG_CONFIG_HOME, "awl", "trusted-projects.json")).mode & 0o777).toBe(0o600);

  writeFileSync(join(project, ".awl", "commands", "review.md"), "Review $ARGUMENTS carefully\n");
  expect(trustState(project, env)).toBe("changed");
  recordTrust(project, env);
  mkdirSync(join(project, ".awl", "extensions", "deep"), { recursive: true });
  writeFileSync(join(project, ".awl", "extensions", "deep", "index.ts"), "export default () => {};\n");
  expect(trustState(project, env)).toBe("changed");
  recordTrust(project, env);
  writeFileSync(join(project, ".mcp.json"), "{}");
  expect(trustState(project, env)).toBe("changed");
});

test("the same folder through a link is the same project; this run's decision beats the record", () => {
  const { project, env } = world();
  recordTrust(project, env);
  const link = join(project, "..", "link");
  symlinkSync(project, link);
  expect(trustState(link, env)).toBe("trusted");
  decideForThisRun(link, false); // --no-extensions
  expect(projectTrusted(project, env)).toBe(false);
});

test("what would run is listed in full: hook commands, modules, servers and every variable they expand", () => {
  const { project } = world();
  writeFileSync(join(project, ".awl", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "check.sh ${CHECK_LEVEL} $HOME" }] }] } }));
  mkdirSync(join(project, ".awl", "extensions"));
  writeFileSync(join(project, ".awl", "extensions", "guard.ts"), "export default () => {};\n");
  const code = projectCode(project);
  expect(code).toEqual({
    hooks: ["PreToolUse (Bash) in .awl/settings.json: check.sh ${CHECK_LEVEL} $HOME"],
    modules: [join(".awl", "extensions", "guard.ts")],
    servers: ["gh: npx -y gh-mcp", "web: https://example.test/mcp"],
    variables: ["CHECK_LEVEL", "GH_TOKEN", "HOME"],
    commands: [],
    allows: [],
  });
  expect(hasCode(code)).toBe(true);
});

test("a project's Markdown command that runs !`command` parts is something to trust: each part is listed as written", () => {
  const { project, env } = world();
  rmSync(join(project, ".mcp.json"));
  mkdirSync(join(project, ".awl", "commands"), { recursive: true });
  writeFileSync(join(project, ".awl", "commands", "status.md"), "Changes: !`git status --short`\nLog: !`git log -3 $1`\n");
  writeFileSync(join(project, ".awl", "commands", "plain.md"), "Only words here.\n");
  const code = projectCode(project);
  expect(code.commands).toEqual([`/status in ${join(".awl", "commands", "status.md")}: git status --short`, `/status in ${join(".awl", "commands", "status.md")}: git log -3 $1`]);
  expect(hasCode(code)).toBe(true);
  // awl extensions says they wait for trust, and what trust would let run.
  const untrusted = extensionsReport(project, env, undefined, { person: true, project: false });
  expect(untrusted).toContain("  this project's 2 !`command` parts: not run, until you trust this project");
  recordTrust(project, env);
  expect(extensionsReport(project, env, undefined, { person: true, project: true }).at(-1)).toBe("This project is trusted: its hooks, extensions, .mcp.json servers and Markdown commands' !`command` parts run.");
});

test("a .claude/commands command's allowed-tools is something to trust: listed, and a change to that folder asks again", () => {
  const { project, env } = world();
  rmSync(join(project, ".mcp.json"));
  mkdirSync(join(project, ".claude", "commands", "git"), { recursive: true });
  writeFileSync(join(project, ".claude", "commands", "git", "commit.md"), "---\nallowed-tools: Bash(git add:*), Bash(git commit:*)\n---\nCommit.\n");
  expect(projectCode(project).allows).toEqual([`/commit in ${join(".claude", "commands", "git", "commit.md")}: Bash(git add:*), Bash(git commit:*)`]);
  expect(hasCode(projectCode(project))).toBe(true);
  // awl extensions says the list waits for trust.
  expect(extensionsReport(project, env, undefined, { person: true, project: false })).toContain("  this project's 1 allowed-tools list: ignored, until you trust this project");
  recordTrust(project, env);
  writeFileSync(join(project, ".claude", "commands", "push.md"), "---\nallowed-tools: Bash\n---\nPush.\n");
  expect(trustState(project, env)).toBe("changed");
});

test("a project with only words (commands, AGENTS.md) has nothing to trust", () => {
  const { project } = world();
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: {} }));
  writeFileSync(join(project, "AGENTS.md"), "Be brief.\n");
  expect(hasCode(projectCode(project))).toBe(false);
});

test("an empty .mcp.json, the sandbox's stand-in an awl killed mid-command leaves, names no server and changes no trust", () => {
  const { project, env } = world();
  rmSync(join(project, ".mcp.json"));
  recordTrust(project, env);
  writeFileSync(join(project, ".mcp.json"), "");
  expect(trustState(project, env)).toBe("trusted");
  expect(projectCode(project).servers).toEqual([]);
  rmSync(join(project, ".awl"), { recursive: true });
  expect(hasCode(projectCode(project))).toBe(false);
});

test("a .awl/ awl cannot list (a link loop inside it) is never trusted as unchanged: every start asks again", () => {
  const { project, env } = world();
  symlinkSync(".", join(project, ".awl", "loop"));
  recordTrust(project, env);
  expect(trustState(project, env)).toBe("changed");
});
