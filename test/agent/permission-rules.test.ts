// Saved permissions (docs/permissions.md): the rules of the settings files,
// as the approval policy applies them to real calls, read from real files and
// saved into the person's settings.json.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Approvals, type ApprovalMode } from "../../src/agent/approval";
import { parseRule, type PermissionRule } from "../../src/agent/permission-rules";
import { loadPermissions } from "../../src/agent/permission-settings";
import { checkCall } from "../../src/tools";

let root: string;
let project: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "awl-permissions-"));
  project = join(root, "project");
  mkdirSync(project);
  env = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "config"), PATH: process.env.PATH ?? "/usr/bin:/bin" };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const rules = (allow: string[], deny: string[] = []): PermissionRule[] =>
  [...allow.map((t) => parseRule(t, "allow", "settings.json")), ...deny.map((t) => parseRule(t, "deny", "settings.json"))] as PermissionRule[];
const call = (name: string, input: unknown) => checkCall(name, JSON.stringify(input));
const bash = (command: string) => call("bash", { command });
const edit = (path: string) => call("edit", { path, oldText: "a", newText: "b" });
const read = (path: string) => call("read", { path });
async function action(mode: ApprovalMode, given: PermissionRule[], call: ReturnType<typeof checkCall>) {
  return (await new Approvals(mode, env, given).decide(call, project)).action;
}

function writeSettings(file: string, settings: unknown): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, typeof settings === "string" ? settings : JSON.stringify(settings, null, 2));
}

describe("rules applied to calls", () => {
  test("Bash(npm test) lets exactly that command run unasked; npm test && rm x is still asked about", async () => {
    const given = rules(["Bash(npm test)"]);
    expect(await action("ask", given, bash("npm test"))).toBe("run");
    expect(await action("ask", given, bash("npm test && rm x"))).toBe("ask");
    expect(await action("ask", given, bash("npm test --watch"))).toBe("ask");
  });

  test("Bash(git push:*) covers git push with arguments but never --force, as \"always\" would not", async () => {
    const given = rules(["Bash(git push:*)", "Bash(make:*)"]);
    expect(await action("ask", given, bash("git push origin main"))).toBe("run");
    expect(await action("ask", given, bash("git push --force origin main"))).toBe("ask");
    expect(await action("ask", given, bash("make build"))).toBe("run");
    expect(await action("ask", given, bash("make $TARGET"))).toBe("ask"); // what runs is not what was written
    expect(await action("ask", given, bash("make > out.txt"))).toBe("ask");
  });

  test("a deny rule refuses even in auto, in any part of a command, and wins over an allow", async () => {
    const given = rules(["Bash"], ["Bash(rm:*)", "Read(~/.ssh/**)", "Edit(secrets/**)"]);
    const refused = await new Approvals("auto", env, given).decide(bash("ls && rm -rf build"), project);
    expect(refused).toEqual({ action: "refuse", content: "Not run: the user's permission rule Bash(rm:*) (in settings.json) denies it." });
    expect(await action("ask", given, bash("echo $(rm -rf x)"))).toBe("refuse");
    expect(await action("auto", given, read(join(env.HOME!, ".ssh", "id_rsa")))).toBe("refuse");
    expect(await action("auto", given, read("notes.txt"))).toBe("run");
    expect(await action("auto", given, call("write", { path: "secrets/key.txt", content: "x" }))).toBe("refuse");
    expect(await action("ask", given, bash("ls -la"))).toBe("run");
  });

  test("Edit(src/**) allows edits and writes under src only; an allow never lifts read-only", async () => {
    const given = rules(["Edit(src/**)"]);
    expect(await action("ask", given, edit("src/a/b.ts"))).toBe("run");
    expect(await action("ask", given, call("write", { path: "src/new.ts", content: "x" }))).toBe("run");
    expect(await action("ask", given, edit("README.md"))).toBe("ask");
    expect(await action("read-only", given, edit("src/a.ts"))).toBe("refuse");
    expect(await action("read-only", rules(["Bash(make:*)"]), bash("make"))).toBe("refuse");
  });
});

describe("rules read from the settings files", () => {
  test("the person's allow and deny load; a project's deny loads without trust, its allow is ignored and said", () => {
    const person = join(env.XDG_CONFIG_HOME!, "awl", "settings.json");
    writeSettings(person, { permissions: { allow: ["Bash(npm test)"], deny: ["Read(~/.ssh/**)"] } });
    writeSettings(join(project, ".awl", "settings.json"), `{\n  "permissions": {\n    "allow": ["Bash"],\n    "deny": ["Bash(curl:*)"]\n  }\n}`);
    const loaded = loadPermissions(project, env, { person: true, project: false });
    expect(loaded.rules.map((r) => [r.kind, r.text, r.source])).toEqual([
      ["allow", "Bash(npm test)", person],
      ["deny", "Read(~/.ssh/**)", person],
      ["deny", "Bash(curl:*)", join(project, ".awl", "settings.json")],
    ]);
    expect(loaded.problems).toEqual([`${join(project, ".awl", "settings.json")}:3: a project's settings may only deny; its 1 allow rule is ignored (allow rules belong in ${person})`]);
  });

  test("a rule that cannot be read is named file:line and skipped; the others load", () => {
    const person = join(env.XDG_CONFIG_HOME!, "awl", "settings.json");
    writeSettings(person, `{\n  "permissions": {\n    "deny": [\n      "Bash(rm:*)",\n      "WebFetch(domain:x)"\n    ]\n  }\n}`);
    const loaded = loadPermissions(project, env, { person: true, project: false });
    expect(loaded.rules.map((r) => r.text)).toEqual(["Bash(rm:*)"]);
    expect(loaded.problems).toEqual([`${person}:5: "WebFetch(domain:x)": awl reads what is in the parentheses only for Bash, Read, Edit, Write; it is skipped`]);
  });
});

describe("always, and save", () => {
  test("writes the rule into permissions.allow, keeping the rest of the file; the next session's rules have it", async () => {
    const person = join(env.XDG_CONFIG_HOME!, "awl", "settings.json");
    writeSettings(person, { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] }, permissions: { deny: ["Bash(rm:*)"] }, theme: "dark" });
    const approvals = new Approvals("ask", env, loadPermissions(project, env, { person: true, project: false }).rules);
    const decision = await approvals.decide(bash("npm test"), project);
    if (decision.action !== "ask") throw new Error("expected a question");
    expect(decision.request.save).toEqual(["Bash(npm test:*)"]);
    expect(approvals.saveAlways(decision.request)).toBe(`Saved to ${person}: Bash(npm test:*)`);
    expect(JSON.parse(readFileSync(person, "utf8"))).toEqual({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] },
      permissions: { deny: ["Bash(rm:*)"], allow: ["Bash(npm test:*)"] },
      theme: "dark",
    });
    expect(statSync(person).mode & 0o777).toBe(0o600);
    const next = new Approvals("ask", env, loadPermissions(project, env, { person: true, project: false }).rules);
    expect((await next.decide(bash("npm test"), project)).action).toBe("run");
  });

  test("a settings file that is not valid JSON is left as it is; the rule holds until awl exits", async () => {
    const person = join(env.XDG_CONFIG_HOME!, "awl", "settings.json");
    writeSettings(person, "{ not json");
    const approvals = new Approvals("ask", env, []);
    const decision = await approvals.decide(bash("touch made.txt"), project);
    if (decision.action !== "ask") throw new Error("expected a question");
    expect(approvals.saveAlways(decision.request)).toBe(`Not saved (${person} is not valid JSON; it was left as it is): allowed until awl exits.`);
    expect(readFileSync(person, "utf8")).toBe("{ not json");
    expect((await approvals.decide(bash("touch made.txt"), project)).action).toBe("run");
  });
});
