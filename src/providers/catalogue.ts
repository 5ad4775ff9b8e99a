// The model catalogue: what the provider says it serves, asked from its models
// endpoint (its row's `catalogue`: Anthropic `GET /v1/models`, paginated;
// OpenAI and compatible servers `GET {base}/models`) with the same key and
// headers as a request, and
// cached (./catalogue-cache.ts). A fresh cache (24 h) is used as it is; a stale
// one is used at once and refreshed in the background; with none, the list is
// fetched before the first request, for 3 s at most. A server with no models
// endpoint is remembered for a day, a failed fetch for an hour, so neither
// costs a request (or 3 s) on every run. Whatever fails, the built-in table
// (the row's `models`) stands in, without a word: only `awl models` and
// `/model` say where the list came from (describeSource).

import { builtinModel, builtinModels } from "./builtin-models";
import { cacheFile, readCache, writeCache, type CacheFile, type CachedCatalogue } from "./catalogue-cache";
import type { ModelInfo } from "./model-info";
import { newestDefault, newestFirst, newestOfFamily } from "./model-family";
import type { ProviderName, Remedy } from "./provider";
import { connectionOf, findProvider, type CatalogueEndpoint } from "./registry";

const HOUR = 3_600_000;
/** How long each kind of answer is trusted before it is asked again. */
const KEPT_FOR: Record<CachedCatalogue["status"], number> = { ok: 24 * HOUR, none: 24 * HOUR, failed: HOUR };
/** The longest a fetch may take: before the first request when nothing is cached, and in the background. */
const FETCH_LIMIT_MS = 3000;
const MAX_PAGES = 20;

type Env = Record<string, string | undefined>;

interface Endpoint {
  base: string;
  headers: Record<string, string>;
  urls: CatalogueEndpoint;
}

/** Where the provider's models endpoint is and how to ask it, or undefined when the provider cannot be used (no key, or unknown). */
function endpoint(provider: ProviderName, env: Env): Endpoint | undefined {
  const row = findProvider(provider);
  const connection = row && connectionOf(row, env);
  if (!row || !connection) return undefined;
  return { base: connection.baseUrl, headers: row.catalogue.headers(connection.apiKey), urls: row.catalogue };
}

/** The host of a base URL, never its credentials. */
function hostOf(base: string): string {
  return URL.canParse(base) ? new URL(base).host : "the server";
}

export class ModelCatalogue {
  readonly provider: ProviderName;
  readonly #endpoint: Endpoint | undefined;
  readonly #file: CacheFile | undefined;
  readonly #now: () => number;
  #entry: CachedCatalogue | undefined;
  #loaded: Promise<void> | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(provider: ProviderName, env: Env = process.env, now: () => number = Date.now) {
    this.provider = provider;
    this.#endpoint = endpoint(provider, env);
    this.#file = this.#endpoint && cacheFile(env, provider, this.#endpoint.base);
    this.#now = now;
  }

  /**
   * Makes the catalogue ready for the first request: the cache is read; when
   * it is missing or its failure has expired, the list is fetched (3 s at
   * most); when it is stale, it is refreshed in the background (or waited for,
   * with `wait`: `awl models` shows what is current). Never throws.
   */
  load(options: { wait?: boolean } = {}): Promise<void> {
    this.#loaded ??= this.#load();
    if (!options.wait) return this.#loaded;
    return this.#loaded.then(() => this.#refreshing);
  }

  async #load(): Promise<void> {
    if (!this.#file) return;
    this.#entry = await readCache(this.#file);
    const entry = this.#entry;
    if (entry && fresh(entry, this.#now())) return;
    if (entry?.status === "ok") {
      this.#refreshing = this.#refresh(); // the stale list serves meanwhile
      return;
    }
    await this.#refresh();
  }

  /**
   * For a check against the list (`/model <id>`): loaded, and when the
   * provider's list is older than `maxAgeMs`, asked for again first (a model
   * released since is then listed). Never throws.
   */
  async freshen(maxAgeMs: number): Promise<void> {
    await this.load();
    await this.#refreshing;
    const entry = this.#entry;
    if (entry?.status !== "ok" || this.#now() - entry.fetchedAt <= maxAgeMs) return;
    this.#refreshing = undefined;
    await this.#refresh();
  }

  #refresh(): Promise<void> {
    return (this.#refreshing ??= this.#fetch().then((entry) => {
      this.#entry = entry;
      if (this.#file) writeCache(this.#file, entry);
    }));
  }

  async #fetch(): Promise<CachedCatalogue> {
    const { base, headers, urls } = this.#endpoint!;
    const host = hostOf(base);
    const at = this.#now();
    const failed = (reason: string): CachedCatalogue => ({ status: "failed", fetchedAt: at, host, models: [], reason });
    const signal = AbortSignal.timeout(FETCH_LIMIT_MS);
    const models: ModelInfo[] = [];
    try {
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const response = await fetch(urls.page(base, after), { headers, signal });
        if (response.status === 404 || response.status === 405) {
          return { status: "none", fetchedAt: at, host, models: [], reason: `${host} has no models endpoint (${response.status})` };
        }
        if (!response.ok) return failed(`${host} answered ${response.status}`);
        const body: unknown = await response.json().catch(() => undefined);
        const read = urls.parse(body);
        if (!read) return failed(`${host} answered with something that is not a list of models`);
        models.push(...read.models);
        after = read.next;
        if (!after) break;
      }
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === "TimeoutError";
      return failed(timedOut ? `${host} did not answer within ${FETCH_LIMIT_MS / 1000} s` : `${host} could not be reached`);
    }
    return { status: "ok", fetchedAt: at, host, models };
  }

  /** The provider's list when it gave one, newest first. */
  get listed(): readonly ModelInfo[] | undefined {
    return this.#entry?.status === "ok" ? newestFirst(this.#entry.models) : undefined;
  }

  /** The models in force, newest first: the provider's list, else the built-in table. */
  models(): readonly ModelInfo[] {
    return this.listed ?? builtinModels(this.provider);
  }

  /** What awl knows about `model`: the catalogue's row, with what the built-in table knows filling the gaps. */
  info(model: string): ModelInfo | undefined {
    const listed = this.#entry?.status === "ok" ? this.#entry.models.find((m) => m.id === model) : undefined;
    const builtin = builtinModel(this.provider, model);
    // The catalogue's rows hold only the fields it stated (catalogue-wire.ts), so spreading keeps the table's for the rest.
    return listed ? { ...builtin, ...listed } : builtin;
  }

  /** Where the models in force came from and how old they are: "from api.anthropic.com, fetched 3 h ago". */
  describeSource(): string {
    const entry = this.#entry;
    if (!this.#endpoint) return "built into awl (the provider is not configured, so its list was not asked for)";
    if (entry?.status === "ok") return `from ${entry.host}, fetched ${ago(this.#now() - entry.fetchedAt)}`;
    const why = entry?.reason ? `: ${entry.reason}, ${ago(this.#now() - entry.fetchedAt)}` : "";
    return `built into awl (the provider's list could not be used${why})`;
  }

  /**
   * Whether the provider still serves `model`, asked of the model's own URL
   * where the provider has one (Anthropic's `GET /v1/models/{id}`: it resolves
   * aliases, which the list does not show): false only on a 404, undefined
   * when the question could not be asked or answered.
   */
  async serves(model: string): Promise<boolean | undefined> {
    const url = this.#endpoint?.urls.model?.(this.#endpoint.base, model);
    if (!url) return undefined;
    try {
      const response = await fetch(url, { headers: this.#endpoint!.headers, signal: AbortSignal.timeout(FETCH_LIMIT_MS) });
      await response.body?.cancel();
      return response.status === 404 ? false : response.ok ? true : undefined;
    } catch {
      return undefined;
    }
  }
}

/** "just now", "12 min ago", "3 h ago", "2 days ago". */
/** Within its time; one fetched "later than now" (written while the clock ran ahead) is stale, or it would never be refreshed. */
function fresh(entry: CachedCatalogue, now: number): boolean {
  const age = now - entry.fetchedAt;
  return age >= 0 && age < KEPT_FOR[entry.status];
}

function ago(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** The catalogues of one process, one per provider, made when first asked for. */
export class Catalogues {
  readonly #env: Env;
  readonly #byProvider = new Map<ProviderName, ModelCatalogue>();

  constructor(env: Env = process.env) {
    this.#env = env;
  }

  of(provider: ProviderName): ModelCatalogue {
    let catalogue = this.#byProvider.get(provider);
    if (!catalogue) this.#byProvider.set(provider, (catalogue = new ModelCatalogue(provider, this.#env)));
    return catalogue;
  }

  /** The agent's lookup: the catalogue's row merged over the built-in table's. */
  readonly modelInfo = (provider: ProviderName, model: string): ModelInfo | undefined => this.of(provider).info(model);

  /** The default a provider's list gives (its newest of the default family), when it gave a list. */
  readonly newest = (provider: ProviderName): string | undefined => {
    const listed = this.of(provider).listed;
    return listed && newestDefault(provider, listed);
  };

  /** A "choose another model" remedy with the newest models of the same family that `provider` serves, as far as awl knows. */
  advise(remedy: Remedy | undefined, provider: ProviderName): Remedy | undefined {
    if (remedy?.kind !== "model") return remedy;
    return { ...remedy, newer: newestOfFamily(this.of(provider).models(), remedy.model) };
  }
}
