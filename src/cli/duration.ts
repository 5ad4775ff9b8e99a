// Ages on the command line: `90d`, `12h`, `2w` (prune, purge).
import { UsageError } from "../errors";

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

export function parseDuration(text: string, option: string): number {
  const match = /^(\d+)([hdw])$/.exec(text.trim());
  if (!match) throw new UsageError(`${option} takes an age such as 90d, 12h or 2w, not '${text}' (see awl --help)`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}
