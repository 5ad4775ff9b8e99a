// The model catalogue (src/providers/catalogue.ts) against the test server's
// models endpoints: what it asks, what it keeps on disk, when it asks again,
// and that whatever fails leaves the built-in table in force.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinModels } from "../../src/providers/builtin-models";
import { Catalogues, ModelCatalogue } from "../../src/providers/catalogue";
import { startTestServer, TODAYS_ANTHROPIC, type ServedModel, type TestServer, type TestServerOptions } from "../support/server";

const HOUR = 3_600_000;
let cache: string;
let server: TestServer | undefined;

beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), "awl-catalogue-"));
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  rmSync(cache, { recursive: true, force: true });
});

async function serve(options: TestServerOptions = {}) {
  server = await startTestServer(options);
  return {
    XDG_CACHE_HOME: cache,
    ANTHROPIC_API_KEY: server.anthropicKey,
    ANTHROPIC_BASE_URL: server.anthropicUrl,
    OPENAI_API_KEY: server.openaiKey,
    OPENAI_BASE_URL: server.openaiUrl,
  };
}

/** A link where awl's cache writer used to put its temporary file (`<file>.<pid>.tmp`), to a file of the person's; that file. */
function plantLink(dir: string, file: string): string {
  const victim = join(cache, "bashrc");
  writeFileSync(victim, "mine\n");
  symlinkSync(victim, join(dir, `${file}.${process.pid}.tmp`));
  return victim;
}

/** Anthropic's list, fetched and cached once: where the cache file is. */
async function cachedOnce() {
  const env = await serve({ models: { anthropic: TODAYS_ANTHROPIC } });
  const time = clock();
  await new ModelCatalogue("anthropic", env, time.read).load();
  const dir = join(cache, "awl", "models");
  const [file] = readdirSync(dir);
  return { env, time, dir, file: file! };
}

/** A clock the test moves. */
function clock(start = Date.parse("2026-12-03T12:00:00Z")) {
  const now = { ms: start };
  return { now, read: () => now.ms };
}

describe("Anthropic's catalogue", () => {
  test("all pages are read (limit and after_id, with the request's own key and version headers), newest first, with windows, output limits and thinking forms", async () => {
    // 1,204 models: more than one page of Anthropic's largest (1,000).
    const many: ServedModel[] = Array.from({ length: 1200 }, (_, i) => ({ id: `claude-test-${i}`, created: "2024-01-01" }));
    const env = await serve({ models: { anthropic: [...TODAYS_ANTHROPIC, ...many] } });
    const catalogue = new ModelCatalogue("anthropic", env);
    await catalogue.load();
    expect(server!.modelRequests.map((r) => r.search)).toEqual(["?limit=1000", expect.stringMatching(/^\?limit=1000&after_id=claude-test-\d+$/)]);
    expect(server!.modelRequests[0]!.headers).toMatchObject({ "x-api-key": server!.anthropicKey, "anthropic-version": "2023-06-01" });
    expect(catalogue.listed).toHaveLength(TODAYS_ANTHROPIC.length + many.length);
    expect(catalogue.models()[0]!.id).toBe("claude-sonnet-5-5");
    expect(catalogue.info("claude-sonnet-5-5")).toEqual({
      id: "claude-sonnet-5-5",
      displayName: "Claude Sonnet 5.5",
      created: Date.parse("2026-09-28T00:00:00Z"),
      maxInputTokens: 1_000_000,
      maxOutputTokens: 128_000,
      thinkingTypes: ["adaptive"],
      effortLevels: ["low", "medium", "high", "xhigh", "max"],
    });
    expect(catalogue.info("claude-haiku-4-5-20251001")).toMatchObject({ maxInputTokens: 200_000, thinkingTypes: ["enabled"] });
    expect(catalogue.describeSource()).toBe(`from 127.0.0.1:${new URL(server!.url).port}, fetched just now`);
  });

  test("the list's newest Sonnet is the default; a model the list lacks is asked of GET /v1/models/{id}, which resolves aliases", async () => {
    const newer: ServedModel = { id: "claude-sonnet-6", created: "2026-11-20", maxInputTokens: 2_000_000 };
    const env = await serve({ models: { anthropic: [...TODAYS_ANTHROPIC, newer] } });
    const catalogues = new Catalogues(env);
    await catalogues.of("anthropic").load();
    expect(catalogues.newest("anthropic")).toBe("claude-sonnet-6");
    expect(catalogues.modelInfo("anthropic", "claude-sonnet-6")?.maxInputTokens).toBe(2_000_000);
    expect(await catalogues.of("anthropic").serves("claude-haiku-4-5")).toBe(true); // an alias the list does not show
    expect(await catalogues.of("anthropic").serves("claude-sonnet-4-5")).toBe(false);
    expect(server!.modelRequests.at(-1)).toMatchObject({ path: "/v1/models/claude-sonnet-4-5", status: 404 });
    // The newest of a family, for a model the API does not serve.
    expect(catalogues.advise({ kind: "model", model: "claude-sonnet-4-5" }, "anthropic")).toEqual({
      kind: "model",
      model: "claude-sonnet-4-5",
      newer: ["claude-sonnet-6", "claude-sonnet-5-5", "claude-sonnet-5"],
    });
  });
});

describe("the cache", () => {
  test("kept 0600 in a 0700 folder under XDG_CACHE_HOME, without the key; fresh for a day, then used at once and refreshed in the background", async () => {
    const env = await serve({ models: { anthropic: TODAYS_ANTHROPIC } });
    const time = clock();
    await new ModelCatalogue("anthropic", env, time.read).load();
    const dir = join(cache, "awl", "models");
    const [file, ...others] = readdirSync(dir);
    expect(others).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    const text = readFileSync(join(dir, file!), "utf8");
    expect(text).not.toContain(server!.anthropicKey);
    expect(text).not.toContain(server!.anthropicUrl);

    time.now.ms += 23 * HOUR; // fresh: not asked again
    const fresh = new ModelCatalogue("anthropic", env, time.read);
    await fresh.load();
    expect(server!.modelRequests).toHaveLength(1);
    expect(fresh.listed?.[0]!.id).toBe("claude-sonnet-5-5");

    time.now.ms += 2 * HOUR; // stale: the cached list serves at once, and is asked again behind it
    const stale = new ModelCatalogue("anthropic", env, time.read);
    await stale.load();
    expect(stale.describeSource()).toBe(`from 127.0.0.1:${new URL(server!.url).port}, fetched 25 h ago`);
    await stale.load({ wait: true });
    expect(server!.modelRequests).toHaveLength(2);
    expect(stale.describeSource()).toEndWith("fetched just now");
  });

  test("a server with no models endpoint is remembered for a day; the built-in table stands in", async () => {
    const env = await serve(); // no models: 404, as a compatible server without the endpoint
    const time = clock();
    const first = new ModelCatalogue("openai", env, time.read);
    await first.load();
    expect(first.listed).toBeUndefined();
    expect(first.models()).toEqual(builtinModels("openai"));
    expect(first.describeSource()).toBe(`built into awl (the provider's list could not be used: 127.0.0.1:${new URL(server!.url).port} has no models endpoint (404), just now)`);
    time.now.ms += 23 * HOUR;
    await new ModelCatalogue("openai", env, time.read).load();
    expect(server!.modelRequests).toHaveLength(1);
    time.now.ms += 2 * HOUR;
    await new ModelCatalogue("openai", env, time.read).load();
    expect(server!.modelRequests).toHaveLength(2);
  });

  test("a refused fetch (a wrong key) is remembered for an hour, and says why only when asked", async () => {
    const env = { ...(await serve({ models: { anthropic: TODAYS_ANTHROPIC } })), ANTHROPIC_API_KEY: "sk-ant-wrong-key-000" };
    const time = clock();
    const first = new ModelCatalogue("anthropic", env, time.read);
    await first.load();
    expect(first.models()).toEqual(builtinModels("anthropic"));
    expect(first.describeSource()).toContain("answered 401");
    time.now.ms += 0.5 * HOUR;
    await new ModelCatalogue("anthropic", env, time.read).load();
    expect(server!.modelRequests).toHaveLength(1);
    time.now.ms += HOUR;
    await new ModelCatalogue("anthropic", env, time.read).load();
    expect(server!.modelRequests).toHaveLength(2);
    for (const file of readdirSync(join(cache, "awl", "models"))) expect(readFileSync(join(cache, "awl", "models", file), "utf8")).not.toContain("sk-ant-wrong");
  });

  test("an answer that is not a list of models, or no server at all, falls back to the built-in table", async () => {
    const garbage = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("<html>login</html>", { headers: { "content-type": "text/html" } }) });
    try {
      const catalogue = new ModelCatalogue("openai", { XDG_CACHE_HOME: cache, OPENAI_BASE_URL: `http://127.0.0.1:${garbage.port}/v1` });
      await catalogue.load();
      expect(catalogue.models()).toEqual(builtinModels("openai"));
      expect(catalogue.describeSource()).toContain("something that is not a list of models");
    } finally {
      await garbage.stop(true);
    }
    const closed = new ModelCatalogue("openai", { XDG_CACHE_HOME: cache, OPENAI_BASE_URL: `http://127.0.0.1:${garbage.port}/v1` });
    await closed.load();
    expect(closed.models()).toEqual(builtinModels("openai"));
  });

  test("a cache fetched 'in the future' (written while the clock ran ahead) is stale, and asked again", async () => {
    const env = await serve({ models: { anthropic: TODAYS_ANTHROPIC } });
    const time = clock();
    await new ModelCatalogue("anthropic", env, time.read).load();
    time.now.ms -= 48 * HOUR; // the clock put right
    const later = new ModelCatalogue("anthropic", env, time.read);
    await later.load({ wait: true });
    expect(server!.modelRequests).toHaveLength(2);
  });

  test("a folder others may enter is neither read nor written through: it is made anew, 0700, and a link planted in it goes nowhere", async () => {
    const { env, time, dir, file } = await cachedOnce();
    // Someone opened the folder up and planted a list of their own, and links where awl's temporary file went.
    chmodSync(dir, 0o777);
    const planted = { status: "ok", fetchedAt: time.now.ms, host: "evil", models: [{ id: "claude-planted" }] };
    writeFileSync(join(dir, file), JSON.stringify(planted));
    const victim = plantLink(dir, file);
    const catalogue = new ModelCatalogue("anthropic", env, time.read);
    await catalogue.load({ wait: true });
    expect(catalogue.listed?.map((m) => m.id)).not.toContain("claude-planted");
    expect(readFileSync(victim, "utf8")).toBe("mine\n");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual([file]);
  });

  test("a link planted where the cache's temporary file went is not written through", async () => {
    const { env, time, dir, file } = await cachedOnce();
    const victim = plantLink(dir, file);
    time.now.ms += 25 * HOUR;
    await new ModelCatalogue("anthropic", env, time.read).load({ wait: true });
    expect(server!.modelRequests).toHaveLength(2);
    expect(readFileSync(victim, "utf8")).toBe("mine\n");
  });

  test("a provider without its key is never asked", async () => {
    const catalogue = new ModelCatalogue("anthropic", { XDG_CACHE_HOME: cache });
    await catalogue.load();
    expect(catalogue.models()).toEqual(builtinModels("anthropic"));
    expect(readdirSync(cache)).toEqual([]);
  });
});

describe("OpenAI's list", () => {
  test("created in seconds; the default is the newest gpt-<version>-mini, never a dated snapshot, audio or realtime id", async () => {
    const openai: ServedModel[] = [
      { id: "gpt-5.4-mini", created: "2026-03-17" },
      { id: "gpt-5.5", created: "2026-04-23" },
      { id: "gpt-5.5-mini-2026-05-01", created: "2026-05-01" },
      { id: "gpt-realtime-mini", created: "2026-06-01" },
      { id: "gpt-audio-mini", created: "2026-06-02" },
      { id: "gpt-4o-mini", created: "2024-07-18" },
    ];
    const env = await serve({ models: { openai } });
    const catalogues = new Catalogues(env);
    await catalogues.of("openai").load();
    expect(server!.modelRequests[0]).toMatchObject({ path: "/v1/models", headers: { authorization: `Bearer ${server!.openaiKey}` } });
    expect(catalogues.newest("openai")).toBe("gpt-5.4-mini");
    expect(catalogues.of("openai").info("gpt-5.5")).toMatchObject({ created: Date.parse("2026-04-23T00:00:00Z"), maxInputTokens: 922_000 }); // the window from the table
  });
});
