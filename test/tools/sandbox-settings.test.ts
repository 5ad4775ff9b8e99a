// The person's sandbox settings, read from their own settings.json: folders
// with ~ expanded, the network switch, and a wrong file said in one line that
// names it (never a silent default that would loosen the sandbox); a file
// that is not JSON at all is the tightest reading.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxSettings } from "../../src/cli/sandbox";
import { tempDir } from "./helpers";

async function withSettings(text: string | undefined) {
  const home = await tempDir();
  const file = join(home, ".config", "awl", "settings.json");
  mkdirSync(join(home, ".config", "awl"), { recursive: true });
  if (text !== undefined) writeFileSync(file, text);
  return { home, file, read: () => sandboxSettings({ HOME: home }) };
}

test("no file, or no sandbox object: nothing more writable, the network on", async () => {
  expect((await withSettings(undefined)).read()).toEqual({ writable: [], network: true });
  expect((await withSettings(`{"theme":"dark"}`)).read()).toEqual({ writable: [], network: true });
});

test("writable folders with ~ expanded, and the network taken away", async () => {
  const { home, read } = await withSettings(JSON.stringify({ sandbox: { writable: ["~/.cache/bun", "/opt/cache", "~"], network: false } }));
  expect(read()).toEqual({ writable: [join(home, ".cache/bun"), "/opt/cache", home], network: false });
});

test("XDG_CONFIG_HOME is where the file is; a relative one is ignored", async () => {
  const config = await tempDir();
  mkdirSync(join(config, "awl"));
  writeFileSync(join(config, "awl", "settings.json"), JSON.stringify({ sandbox: { network: false } }));
  expect(sandboxSettings({ HOME: "/nowhere", XDG_CONFIG_HOME: config }).network).toBe(false);
  expect(sandboxSettings({ HOME: "/nowhere", XDG_CONFIG_HOME: "relative" }).network).toBe(true);
});

test("a file that is not JSON gives the tightest reading (it is named once, as every settings file is)", async () => {
  expect((await withSettings("{not json")).read()).toEqual({ writable: [], network: false });
});

test.each([
  [`{"sandbox":[]}`, `"sandbox" must be an object`],
  [`{"sandbox":{"writable":"~/.cache"}}`, `"sandbox.writable" must be a list of paths`],
  [`{"sandbox":{"writable":["cache"]}}`, `"sandbox.writable" takes absolute paths (or ~/…), not cache`],
  [`{"sandbox":{"network":"off"}}`, `"sandbox.network" must be true or false`],
])("%s is one line naming the file: %s", async (text, said) => {
  const { file, read } = await withSettings(text);
  expect(read).toThrow(`${file}: ${said}`);
});
