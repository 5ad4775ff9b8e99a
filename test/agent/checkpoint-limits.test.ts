// The limits of bash tracking (src/agent/checkpoints.ts, manifest.ts): past its
// file count or time, a listing gives up, tracking stops for the session, awl
// says so once, and the commands still run. Outside any repository the working
// directory is listed the same way.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checkpoints } from "../../src/agent/checkpoints";
import { walk } from "../../src/agent/manifest";
import { previewRewind } from "../../src/agent/rewind-files";
import { SessionManager } from "../../src/session";

function project(files: number): { dir: string; session: SessionManager; done(): void } {
  const root = mkdtempSync(join(tmpdir(), "awl-limits-"));
  process.env.AWL_SESSION_DIR = join(root, "sessions");
  const dir = join(root, "plain");
  mkdirSync(join(dir, "sub"), { recursive: true });
  for (let i = 0; i < files; i++) writeFileSync(join(dir, "sub", `f${i}.txt`), `${i}\n`);
  const session = SessionManager.init({ cwd: dir, provider: "anthropic", model: "m" });
  session.appendMessage({ role: "user", content: [{ type: "text", text: "go" }] }, { provider: "anthropic", model: "m" });
  return { dir, session, done: () => rmSync(root, { recursive: true, force: true }) };
}

describe("limits", () => {
  test("a listing past its file count or its time gives up, saying why", () => {
    const { dir, done } = project(10);
    try {
      expect(walk(dir, new Set(), { files: 5, ms: 60_000 })).toEqual({ stopped: "the working tree has over 5 files" });
      expect(walk(dir, new Set(), { files: 100, ms: 0 })).toEqual({ stopped: "listing the working tree took over 0 s" });
      const all = walk(dir, new Set(["sub/f1.txt"]));
      expect("manifest" in all && [...all.manifest.keys()].sort()).toEqual(["sub/f0.txt", ...Array.from({ length: 8 }, (_, i) => `sub/f${i + 2}.txt`)].sort());
    } finally {
      done();
    }
  });

  test("past the limit, tracking stops for the session and is said once, and a rewind across that point names it; the commands still run", async () => {
    const { dir, session, done } = project(10);
    try {
      const notices: string[] = [];
      const checkpoints = new Checkpoints(session, dir, process.env, { files: 5, ms: 60_000 });
      let runs = 0;
      for (let i = 0; i < 3; i++) await checkpoints.around(async () => void runs++, (text) => notices.push(text));
      expect(runs).toBe(3);
      expect(notices).toEqual(["Changes made by shell commands are no longer tracked in this session (the working tree has over 5 files); a rewind cannot restore them."]);
      // A rewind across that point names it in the preview, the question and the report, not only the notice of the moment.
      session.appendMessage({ role: "assistant", content: [{ type: "text", text: "done" }], provider: "anthropic", model: "m", stopReason: "stop" });
      const prompt = session.getBranch()[0]!.id; // before the commands
      expect((await previewRewind(session, prompt)).steps).toEqual([
        { path: dir, action: "not restorable", reason: "shell commands from here on were not tracked (the working tree has over 5 files)" },
      ]);
    } finally {
      session.close();
      done();
    }
  });

  test("outside any repository the working directory is listed, and every file a command changes is kept", async () => {
    const { dir, session, done } = project(3);
    try {
      const checkpoints = new Checkpoints(session, dir, process.env);
      await checkpoints.around(async () => void Bun.spawnSync(["sh", "-c", "echo changed > sub/f0.txt && rm sub/f1.txt && echo new > n.txt"], { cwd: dir }), () => {});
      const lines = (await Bun.file(session.sessionFile).text()).trim().split("\n").map((l) => JSON.parse(l));
      const effects = lines.find((l) => l.type === "bash_effects");
      expect(effects.created.map((p: { path: string }) => p.path)).toEqual([join(dir, "n.txt")]);
      expect(effects.modified.map((p: { path: string; before?: string }) => [p.path, typeof p.before])).toEqual([[join(dir, "sub/f0.txt"), "string"]]);
      expect(effects.deleted.map((p: { path: string; before?: string }) => [p.path, typeof p.before])).toEqual([[join(dir, "sub/f1.txt"), "string"]]);
      expect(effects.untracked).toEqual([]);
    } finally {
      session.close();
      done();
    }
  });
});
