// A provider's models as a person reads them, for `awl models` and `/model`:
// newest first, each with its window and output limit when known.

import type { ModelInfo } from "../providers/model-info";
import { compactNumber } from "./render/format";
import { safeText } from "./render/safe-text";

/** "window 1.0M · output 128k", as far as they are known ("" when neither is). */
export function limitsText(info: ModelInfo | undefined): string {
  const parts = [];
  if (info?.maxInputTokens) parts.push(`window ${compactNumber(info.maxInputTokens)}`);
  if (info?.maxOutputTokens) parts.push(`output ${compactNumber(info.maxOutputTokens)}`);
  return parts.join(" · ");
}

/** One row per model, the ids aligned: id, name, date, limits; `mark(id)` adds a note (the active one). */
export function modelRows(models: readonly ModelInfo[], mark: (id: string) => string = () => ""): string[] {
  const width = Math.max(0, ...models.map((m) => m.id.length));
  return models.map((m) => {
    const date = m.created ? new Date(m.created).toISOString().slice(0, 10) : "";
    const fields = [m.displayName ?? "", date, limitsText(m)].filter(Boolean).join("  ");
    return `  ${safeText(m.id).padEnd(width)}  ${safeText(fields)}${mark(m.id)}`.trimEnd();
  });
}
