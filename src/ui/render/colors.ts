import { createColors } from "picocolors";

/**
 * Colour only for a person at a terminal: off under NO_COLOR (any value), on a
 * terminal that says it handles no escape sequences (TERM=dumb: Emacs' shell,
 * some CI logs), or when the stream is not a TTY. picocolors' own check turns
 * colour ON when CI is set, which would put escape codes into piped output, so
 * awl decides itself. With colour off, answers are shown as their markdown
 * source (ui/live/render.ts), with no escape sequence in it.
 */
export function colorsFor(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env) {
  return createColors(Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== "dumb");
}

export type Colors = ReturnType<typeof colorsFor>;
