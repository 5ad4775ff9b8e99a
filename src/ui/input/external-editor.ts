// Ctrl+G: the prompt in the person's editor ($VISUAL, else $EDITOR, else vi),
// for a long, careful prompt. The text goes to a file only this user can read
// (0600, in a 0700 folder of its own, removed after), the editor gets the
// terminal as it would from a shell (readLine hands it over and takes it back),
// and what the file holds when the editor exits 0 comes back, a trailing line
// break taken off. An editor that exits otherwise, or cannot start, changes
// nothing: the prompt stays as it was. The editor runs without the provider
// keys, as every program awl starts.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programEnvironment } from "../../program-env";

export type Edited = { text: string } | { unchanged: string };

export async function editInEditor(text: string, env: Record<string, string | undefined> = process.env): Promise<Edited> {
  const editor = env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
  const dir = mkdtempSync(join(tmpdir(), "awl-prompt-"));
  try {
    const file = join(dir, "prompt.md");
    writeFileSync(file, text, { mode: 0o600, flag: "wx" });
    // Through the shell, as git runs $EDITOR: it may carry arguments (`code --wait`).
    const child = Bun.spawn(["sh", "-c", `${editor} "$1"`, "sh", file], { stdio: ["inherit", "inherit", "inherit"], env: programEnvironment(env) });
    const code = await child.exited;
    if (code !== 0) return { unchanged: `${editor} exited with ${code}: the prompt is as it was` };
    return { text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } catch (error) {
    return { unchanged: `${editor} could not be run (${error instanceof Error ? error.message : String(error)}): the prompt is as it was` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
