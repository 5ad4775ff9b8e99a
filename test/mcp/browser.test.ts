// Opening a sign-in page (docs/mcp.md, "Signing in"): $BROWSER is a program
// awl starts, so it gets the environment without the provider keys or any
// secret-named variable, as every program awl starts does.
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

test("$BROWSER is given the URL and an environment without the provider keys", async () => {
  const dir = mkdtempSync(join(tmpdir(), "awl-browser-"));
  try {
    const seen = join(dir, "seen");
    const browser = join(dir, "browser.sh");
    writeFileSync(browser, `#!/bin/sh\n{ echo "url=$1"; env; } > '${seen}.tmp' && mv '${seen}.tmp' '${seen}'\n`, { mode: 0o755 });
    // As `awl mcp login` calls it: in a process started with the keys in its environment.
    const script = `import { openBrowser } from ${JSON.stringify(join(import.meta.dir, "../../src/mcp/browser.ts"))}; openBrowser("https://auth.example.test/authorize?x=1");`;
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", BROWSER: browser, ANTHROPIC_API_KEY: "sk-ant-secret", OPENAI_API_KEY: "sk-openai-secret", GITHUB_TOKEN: "ghp-secret", LANG: "C.UTF-8" };
    expect(await Bun.spawn([process.execPath, "-e", script], { env, stdout: "ignore", stderr: "inherit" }).exited).toBe(0);
    for (let waited = 0; !existsSync(seen); waited += 20) {
      if (waited > 20_000) throw new Error("the browser never ran");
      await Bun.sleep(20);
    }
    const text = readFileSync(seen, "utf8");
    expect(text).toContain("url=https://auth.example.test/authorize?x=1");
    expect(text).toContain("LANG=C.UTF-8");
    for (const secret of ["sk-ant-secret", "sk-openai-secret", "ghp-secret"]) expect(text).not.toContain(secret);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
