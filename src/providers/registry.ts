// The providers awl knows, one row each: a provider is its name, its
// variables, its models, its windows, how its models think, its models
// endpoint and the wire protocol that makes its requests. Everything else
// reads this table (the command line and AWL_PROVIDER, --help, /model, the
// remedies, the keys kept from the tools, the order providers are tried in,
// the catalogue), so adding a provider is adding a row, and no file outside
// providers/ spells a provider's name. The rows are anthropic-row.ts and
// openai-row.ts; their order is the order awl tries them in (order.ts).

import { ANTHROPIC } from "./anthropic-row";
import type { ModelInfo } from "./model-info";
import type { Price } from "./prices";
import { OPENAI } from "./openai-row";
import type { Connection, Provider, ProviderName, WireApi } from "./provider";
import type { ThinkingRow } from "./thinking-forms";

type Env = Record<string, string | undefined>;

/** The provider's models endpoint: where a page of the list is, how to ask, and how to read the answer. */
export interface CatalogueEndpoint {
  /** The same key and headers as a request. */
  headers(apiKey: string | undefined): Record<string, string>;
  /** A page of the list; `after` is what the previous page said comes next. */
  page(base: string, after?: string): string;
  /** A page read into ModelInfo, or undefined when the body is not a list. */
  parse(body: unknown): { models: ModelInfo[]; next?: string } | undefined;
  /** One model's own URL, where the API resolves ids the list does not show (aliases). */
  model?(base: string, id: string): string;
}

export interface ProviderRow {
  /** What --provider, AWL_PROVIDER, "name/model" and the log say. */
  name: ProviderName;
  /** How messages name it ("Anthropic rejected the API key"). */
  label: string;
  keyVariable: string;
  keyHelp: string;
  baseUrlVariable: string;
  baseUrlHelp: string;
  defaultBaseUrl: string;
  /** Usable with no key once its base URL is set (a local compatible server). */
  keyOptional: boolean;
  /** The wire protocols it may speak (its `connect` picks one). */
  apis: readonly WireApi[];
  /** Other variables it reads, for --help and the README. */
  variables?: readonly { name: string; help: string }[];
  /** The bare model ids that are its own ("claude-…"), so they need no "name/" in front. */
  ids?: { pattern: RegExp; shown: string };
  /** The default when its catalogue cannot say: the newest of its default family among `models`. */
  defaultModel: string;
  /** The families its default comes from, the first that the list holds winning. */
  defaultFamilies: readonly RegExp[];
  /** That family, as --help says it ("the newest Sonnet"). */
  defaultFamilyShown?: string;
  /** Today's models, newest first, for when its catalogue cannot be asked (it goes stale: the catalogue is trusted first). */
  models: readonly ModelInfo[];
  /**
   * The maximum input tokens of the models before today's, by id prefix: the
   * first prefix the id starts with wins, so the more specific come first.
   * Where input and output share one window the whole window is given (the
   * agent reserves room for the answer); where the input has a limit of its
   * own (gpt-5: 400k of context of which at most 272k input) that limit is.
   */
  windows: readonly (readonly [prefix: string, tokens: number])[];
  /** How its models take thinking, by id prefix (thinking-forms.ts). */
  thinking: readonly ThinkingRow[];
  /** The largest request body it takes, in bytes, when its docs state one (stdin under -p must fit every provider's). */
  maxRequestBytes?: number;
  /** What its models cost, by id (a dated snapshot matches its id): its defaults and today's models at least. */
  prices: Readonly<Record<string, Price>>;
  catalogue: CatalogueEndpoint;
  /** The provider that makes its requests. */
  connect(connection: Connection): Provider;
}

const ROWS: ProviderRow[] = [ANTHROPIC, OPENAI];

/** Every provider, in the order awl tries them. */
export function providerRows(): readonly ProviderRow[] {
  return ROWS;
}

/** The largest request body every provider takes: the smallest stated limit, 32 MiB when none states one. */
export function smallestRequestLimit(): number {
  return Math.min(...ROWS.map((row) => row.maxRequestBytes ?? 32 * 1024 * 1024));
}

export function findProvider(name: string | undefined): ProviderRow | undefined {
  return ROWS.find((row) => row.name === name);
}

export function isProviderName(name: string | undefined): name is ProviderName {
  return findProvider(name) !== undefined;
}

export function providerNames(): ProviderName[] {
  return ROWS.map((row) => row.name);
}

/** "anthropic or openai", "anthropic, openai or local". */
export function namesInWords(names: readonly string[] = providerNames()): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/**
 * Adds a provider after the others; the returned function takes it away
 * again. Used by tests, which prove that a row is all a provider needs.
 */
export function registerProvider(row: ProviderRow): () => void {
  if (findProvider(row.name)) throw new Error(`provider ${row.name} is already registered`);
  ROWS.push(row);
  return () => {
    const at = ROWS.indexOf(row);
    if (at >= 0) ROWS.splice(at, 1);
  };
}

/** The keys taken out of process.env (takeKeys): from then on the rows hold them, and no code awl imports later can read them there. */
const taken = new Map<string, string>();

/**
 * Moves every provider key out of `env` (process.env) into the rows, before
 * awl imports code that is not its own (extensions): awl still reaches its
 * providers and scrubs the keys from tool output, and that code finds none.
 */
export function takeKeys(env: Env = process.env): void {
  for (const name of keyVariables()) {
    const value = env[name];
    if (value) taken.set(name, value);
    delete env[name];
  }
}

/** A key variable's value: from `env`, else the one the rows took from process.env. */
const keyOf = (env: Env, name: string) => env[name] || taken.get(name) || undefined;

/** How `row` is reached from `env`, or undefined when it cannot be (no key, and no base URL where that would do). */
export function connectionOf(row: ProviderRow, env: Env): Connection | undefined {
  const apiKey = keyOf(env, row.keyVariable);
  const baseUrl = env[row.baseUrlVariable] || undefined;
  if (!apiKey && !(row.keyOptional && baseUrl)) return undefined;
  const { name: provider, label, keyVariable, baseUrlVariable } = row;
  return { provider, label, keyVariable, baseUrlVariable, apiKey, baseUrl: (baseUrl ?? row.defaultBaseUrl).replace(/\/+$/, ""), env };
}

/** Every variable a provider reads its key from: what bash never gets and the tools scrub. */
export function keyVariables(): string[] {
  return ROWS.map((row) => row.keyVariable);
}

/** The providers' keys set in `env`, by variable name: what tool output is scrubbed of. */
export function providerSecrets(env: Env): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const name of keyVariables()) {
    const value = keyOf(env, name);
    if (value) secrets[name] = value;
  }
  return secrets;
}
