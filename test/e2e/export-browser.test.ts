// The HTML export opened in a real browser (headless Chromium, which .ci/run
// installs where missing): it renders the conversation, runs no script, and
// its Content-Security-Policy holds even against a script and a fetch put
// into the file afterwards. Text checks of the file cannot tell what a
// browser does with it; these ask one.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useE2eFixture } from "./awl";

const fx = useE2eFixture();
const CHROMIUM = Bun.which("chromium") ?? Bun.which("chromium-browser");
const profile = mkdtempSync(join(tmpdir(), "awl-chromium-"));

/** A request the page makes, if it can make any. */
const fetched: string[] = [];
const server = Bun.serve({ port: 0, fetch: (request) => (fetched.push(request.url), new Response("gotcha")) });
afterAll(() => server.stop(true));

/** The page's DOM once the browser has loaded it and run what it would run (awaited: the test server answers the page's fetches meanwhile). */
async function domOf(file: string): Promise<string> {
  const run = Bun.spawn([CHROMIUM!, "--headless=new", "--no-sandbox", "--disable-gpu", `--user-data-dir=${profile}`, "--virtual-time-budget=2000", "--dump-dom", `file://${file}`], { stdout: "pipe", stderr: "ignore", timeout: 60_000 });
  const dom = await new Response(run.stdout).text();
  await run.exited;
  return dom;
}

const HOSTILE = `<script>document.documentElement.setAttribute("data-ran", "prompt")</script><img src=x onerror="document.documentElement.setAttribute('data-ran', 'img')">`;

test.skipIf(!CHROMIUM)("the exported page shows each turn's words as they were written, runs nothing, and its policy stops a script and a fetch added to it", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: `## Findings\n\nThe \`parse\` function drops the last line.\n\n<script>document.title = "answer ran"</script>` }] });
  const asked = await fx.run(["-p", `why does parse fail? ${HOSTILE}`]);
  expect(asked.code).toBe(0);
  const out = join(fx.root, "session.html");
  const id = JSON.parse((await fx.run(["sessions", "--json"])).stdout)[0].id;
  expect((await fx.run(["export", id, "--html", "-o", out])).code).toBe(0);

  const dom = await domOf(out);
  // Rendered: the title, each turn under who spoke, the words as they were written.
  expect(dom).toMatch(/<h1>why does parse fail\? /);
  expect(dom).toMatch(/<div class="who">You · [^<]*<\/div><div class="text">why does parse fail\? /);
  expect(dom).toMatch(/<div class="who">awl · anthropic\/[^<]*<\/div><div class="text">## Findings\n\nThe `parse` function drops the last line\./);
  // The prompt's and the answer's markup stayed text: nothing ran, no image was asked for.
  expect(dom).toContain("&lt;script&gt;");
  expect(dom).toMatch(/^<!DOCTYPE html>\n<html lang="en"><head>/);
  expect(dom).not.toContain("<title>answer ran");
  expect(fetched).toEqual([]);

  // The policy itself: a script and an image planted in a copy of the file are refused by the browser.
  const planted = join(fx.root, "planted.html");
  const page = readFileSync(out, "utf8");
  const plant = `<script>document.documentElement.setAttribute("data-ran", "planted")</script><img src="${server.url}pixel.png">`;
  writeFileSync(planted, page.replace("<body>", `<body>${plant}`));
  expect(readFileSync(planted, "utf8")).toContain(plant);
  const plantedDom = await domOf(planted);
  expect(plantedDom).toContain("Findings");
  expect(plantedDom).toMatch(/^<!DOCTYPE html>\n<html lang="en"><head>/);
  expect(fetched).toEqual([]);

  // Without the policy the same plant runs and fetches: the check above can fail.
  const bare = join(fx.root, "bare.html");
  writeFileSync(bare, readFileSync(planted, "utf8").replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ""));
  expect(await domOf(bare)).toMatch(/^<!DOCTYPE html>\n<html lang="en" data-ran="planted"><head>/);
  expect(fetched.length).toBeGreaterThan(0);
});
