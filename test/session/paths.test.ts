import { describe, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd, sessionFileName, sessionRoot } from "../../src/session";
import { spawnBun, useSessionRoot } from "./helpers";

const root = useSessionRoot();

describe("where sessions live", () => {
  test("AWL_SESSION_DIR replaces the root; else XDG_DATA_HOME/awl/sessions; else ~/.local/share/awl/sessions", () => {
    expect(sessionRoot({ AWL_SESSION_DIR: "/s", XDG_DATA_HOME: "/x", HOME: "/h" })).toBe("/s");
    expect(sessionRoot({ XDG_DATA_HOME: "/x", HOME: "/h" })).toBe("/x/awl/sessions");
    expect(sessionRoot({ HOME: "/h" })).toBe("/h/.local/share/awl/sessions");
    expect(sessionRoot({ XDG_DATA_HOME: "", HOME: "/h" })).toBe("/h/.local/share/awl/sessions");
  });

  test("the working directory is encoded exactly as the spec's example", () => {
    expect(encodeCwd("/Users/travis/Code/awl")).toBe("--Users-travis-Code-awl--");
    expect(encodeCwd("/Users/travis/Code/awl/")).toBe("--Users-travis-Code-awl--");
    expect(encodeCwd("/a-b")).toBe(encodeCwd("/a/b"));
  });

  test("file names follow the spec's example", () => {
    expect(sessionFileName("2026-04-25T17:40:15.990Z", "019dc5ba-53f6-71a5-ab8f-b1f8709c2572")).toBe(
      "2026-04-25T17-40-15-990Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl",
    );
  });

  test("a session is created under XDG_DATA_HOME when AWL_SESSION_DIR is unset", async () => {
    const env = { ...process.env, AWL_SESSION_DIR: undefined, XDG_DATA_HOME: join(root(), "data") };
    const child = spawnBun(
      `const s = S.SessionManager.init({ cwd: "/w", provider: "p", model: "m" }); s.appendMessage(S.messageToDisk({ role: "system", content: [] })); s.close(); console.log(s.sessionFile);`,
      env,
    );
    expect(await child.exited).toBe(0);
    const file = (await new Response(child.stdout).text()).trim();
    expect(file.startsWith(join(root(), "data", "awl", "sessions", "--w--") + "/")).toBe(true);
    expect(statSync(file).isFile()).toBe(true);
  });

  test("files are 0600 and every directory created is 0700, even under umask 000", async () => {
    const sessions = join(root(), "fresh", "nested", "sessions");
    const child = spawnBun(
      `process.umask(0); const s = S.SessionManager.init({ cwd: "/w/x", provider: "p", model: "m" }); s.appendMessage(S.messageToDisk({ role: "system", content: [] })); s.close(); const o = await S.SessionManager.open(s.sessionFile); o.appendMessage(S.messageToDisk({ role: "system", content: [] })); o.close(); console.log(s.sessionFile);`,
      { ...process.env, AWL_SESSION_DIR: sessions },
    );
    expect(await child.exited).toBe(0);
    const file = (await new Response(child.stdout).text()).trim();
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(file)).toBe(0o600);
    for (const dir of [join(root(), "fresh"), join(root(), "fresh", "nested"), sessions, join(sessions, "--w-x--")]) expect(mode(dir)).toBe(0o700);
    expect(readdirSync(join(sessions, "--w-x--"))).toHaveLength(1); // the pid sidecar is gone after close
  });
});
