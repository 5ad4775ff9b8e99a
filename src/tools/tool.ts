// A tool is one small file: its name, its input schema, its execute.

export interface ToolContext {
  /** The session's working directory; relative paths resolve against it. */
  cwd: string;
  /** Aborted when the person presses Ctrl+C: the tool stops and says so. */
  signal: AbortSignal;
}

export interface ToolOutput {
  content: string;
  isError: boolean;
}

export interface Tool<Input = unknown> {
  name: string;
  description: string;
  /** JSON schema of the input, as sent to the model. */
  inputSchema: Record<string, unknown>;
  /** Validates the model's parsed input; returns it typed, or a message saying what is wrong. */
  validate(input: unknown): Input | { error: string };
  /** The argument shown on the one line that announces the call (command, path). */
  summary(input: Input): string;
  execute(input: Input, context: ToolContext): Promise<ToolOutput>;
}

/** True for the `{ error }` a validator returns instead of the typed input. */
export function isInvalid(result: unknown): result is { error: string } {
  return typeof result === "object" && result !== null && "error" in result && Object.keys(result).length === 1;
}
