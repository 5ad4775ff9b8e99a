// A Markdown command typed with its arguments, made into the prompt it sends,
// as Claude Code expands its custom slash commands: `$ARGUMENTS` is all that
// followed the name, `$1`… each argument (quotes group words). Each `!`cmd``
// is a command to run before the prompt goes (agent/command-turn.ts runs them
// as bash calls); its output takes its place. `@path` needs nothing here: a
// prompt's `@path` is attached as any typed prompt's is (agent/attachments.ts).

/** `!`cmd``: what Claude Code runs before the prompt is sent. */
const SHELL_PART = /!`([^`]+)`/g;

export interface Expanded {
  /** The body with the arguments put in, its `!`cmd`` parts still in place. */
  prompt: string;
  /** The commands of its `!`cmd`` parts, in order (one per part, repeats included). */
  commands: string[];
}

export function expandCommand(body: string, argument: string): Expanded {
  const args = [...argument.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  const prompt = body.replace(/\$ARGUMENTS|\$(\d+)/g, (_whole, n: string | undefined) => (n === undefined ? argument : (args[Number(n) - 1] ?? ""))).trim();
  return { prompt, commands: shellParts(prompt) };
}

/** The commands of a text's `!`cmd`` parts, in order. */
export function shellParts(text: string): string[] {
  return [...text.matchAll(SHELL_PART)].map((m) => m[1]!);
}

/** What one `!`cmd`` gave: its output, or (`failed`) why it has none that can stand for it. */
export interface ShellOutput {
  content: string;
  failed: boolean;
}

/** The prompt with each `!`cmd`` part replaced, in order, by its output; one that failed or was refused, by a note that says so. */
export function withOutputs(prompt: string, outputs: readonly ShellOutput[]): string {
  let i = 0;
  return prompt.replace(SHELL_PART, (whole, command: string) => {
    const output = outputs[i++];
    if (!output) return whole;
    const text = output.content.replace(/\n+$/, "");
    return output.failed ? `[\`${command}\` did not succeed: ${text}]` : text;
  });
}
