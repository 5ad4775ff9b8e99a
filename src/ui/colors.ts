import { createColors } from "picocolors";

/**
 * Colour only for a person at a terminal: off under NO_COLOR (any value) or when
 * the stream is not a TTY. picocolors' own check turns colour ON when CI is set,
 * which would put escape codes into piped output, so awl decides itself.
 */
export function colorsFor(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env) {
  return createColors(Boolean(stream.isTTY) && env.NO_COLOR === undefined);
}

export type Colors = ReturnType<typeof colorsFor>;
