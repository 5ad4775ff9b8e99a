// What an export passes every piece of text through before it is written:
// the provider keys awl knows (the same scrubbing as tool output), then the
// shapes of common keys wherever they came from (a tool printed one, the
// person pasted one), then the home directory written as `~`, so a shared
// export names neither a key nor the person's user name.
import { homedir } from "node:os";
import { providerSecrets } from "../../providers/registry";
import { scrub } from "../../tools/secrets";

type Env = Record<string, string | undefined>;

/** Key shapes, most specific first (an `sk-ant-` key is named as such, not as `sk-`). */
const PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, "[redacted private key]"],
  [/\bsk-ant-[A-Za-z0-9_-]{8,}/g, "[redacted sk-ant- key]"],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, "[redacted sk- key]"],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g, "[redacted GitHub token]"],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, "[redacted GitHub token]"],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, "[redacted AWS key id]"],
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
