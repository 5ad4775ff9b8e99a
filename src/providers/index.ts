// Picks and configures a provider from the environment (the README's environment table).
// A provider that cannot be used is an AdvisedError: the fact, and a remedy
// that the command line and the REPL each word their own way.

import { UsageError, UserError } from "../errors";
import { clean } from "./api-errors";
import { AdvisedError, type Provider, type ProviderName } from "./provider";
import { connectionOf, findProvider, namesInWords, providerNames } from "./registry";

export function createProvider(name: ProviderName, env: Record<string, string | undefined> = process.env): Provider {
  const row = findProvider(name);
  if (!row) throw new UserError(`Unknown provider "${name}": use ${namesInWords()}`);
  const connection = connectionOf(row, env);
  if (!connection) {
    const others = providerNames().filter((other) => other !== name);
    const orVariable = row.keyOptional ? row.baseUrlVariable : undefined;
    throw new AdvisedError(`${row.keyVariable} is not set`, { kind: "key", provider: name, variable: row.keyVariable, orVariable, others });
  }
  checkBaseUrl(row.baseUrlVariable, env[row.baseUrlVariable], connection.apiKey ? [connection.apiKey] : []);
  return row.connect(connection);
}

/**
 * A base URL fetch cannot use is the person's configuration to fix: said at
 * start, in one line, exit 2, instead of "internal error: Invalid URL" at the
 * first request. `localhost:8080` parses as a URL of the scheme "localhost:",
 * so the scheme is checked, not only the parse.
 */
function checkBaseUrl(variable: string, value: string | undefined, secrets: string[]): void {
  if (!value) return;
  const shown = clean(value, secrets);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  const noScheme = () => new UsageError(`${variable} '${shown}' has no http:// or https:// in front (e.g. http://${shown})`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw scheme ? new UsageError(`${variable} '${shown}' is not a valid URL: check the host and port`) : noScheme();
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw scheme ? new UsageError(`${variable} '${shown}' must use http:// or https://, not ${scheme}://`) : noScheme();
  }
}

export { AdvisedError, type Provider, type ProviderName, type Remedy, type StreamEvent, type StreamRequest } from "./provider";
