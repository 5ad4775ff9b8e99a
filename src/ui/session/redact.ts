// What an export passes every piece of text through before it is written:
// the provider keys awl knows (the same scrubbing as tool output), then the
// shapes of common keys wherever they came from (a tool printed one, the
// person pasted one), then the home directory written as `~`, so a shared
// export names neither a key nor the person's user name.
import { homedir } from "node:os";
import { providerSecrets } from "../../providers/registry";
import { scrub } from "../../tools/secrets";

type Env = Record<string, string | undefined>;

/**
 * Where a key may start: not inside a word, and also straight after a
 * percent-encoded separator (`token%3Dsk-ant-…`, `Bearer%20sk-…`) or an
 * escaped newline or tab (`\nsk-…` in JSON), whose last character is a
 * letter or digit and so no word boundary.
 */
const START = String.raw`(?:(?<=%[0-9A-Fa-f]{2})|(?<=\\[nrt])|(?<![A-Za-z0-9_]))`;
/** A space in a PEM armour line, as written, URL-encoded or form-encoded. */
const SPACE = String.raw`(?: |%20|\+)`;
/** An armour line's words (`RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`, `PGP PRIVATE KEY BLOCK`, `ENCRYPTED PRIVATE KEY`). */
const PRIVATE_LABEL = String.raw`(?:[A-Z0-9]+${SPACE})*PRIVATE${SPACE}KEY(?:${SPACE}[A-Z0-9]+)*`;

const shape = (source: string) => new RegExp(START + source, "g");

/** Key shapes, most specific first (an `sk-ant-` key is named as such, not as `sk-`). */
const PATTERNS: [RegExp, string][] = [
  // A private key block whole, from its BEGIN line to its END line (or the end of the text, when it was cut).
  [new RegExp(String.raw`-----BEGIN${SPACE}${PRIVATE_LABEL}-----[\s\S]*?(?:-----END${SPACE}${PRIVATE_LABEL}-----|$)`, "g"), "[redacted private key]"],
  [shape(String.raw`sk-ant-[A-Za-z0-9_-]{8,}`), "[redacted sk-ant- key]"],
  [shape(String.raw`sk-[A-Za-z0-9_-]{16,}`), "[redacted sk- key]"],
  [shape(String.raw`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`), "[redacted GitHub token]"],
  [shape(String.raw`github_pat_[A-Za-z0-9_]{20,}`), "[redacted GitHub token]"],
  [shape(String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9_])`), "[redacted AWS key id]"],
];

export type Redact = (text: string) => string;

export function redactor(env: Env = process.env): Redact {
  const secrets = providerSecrets(env);
  const home = (env.HOME || homedir()).replace(/\/+$/, "");
  // The home directory at a path boundary only: /home/ana/x and /home/ana, never /home/anabel.
  const homePath = home.length > 1 ? new RegExp(`${escapeRegExp(home)}(?=/|\\b|$)`, "g") : undefined;
  return (text) => {
    let out = scrub(text, secrets);
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return homePath ? out.replace(homePath, "~") : out;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
