// What awl knows about one model: from the provider's models endpoint (the
// catalogue) when it answered, else from the built-in table. Every field is
// optional: a compatible server's list may give nothing but the id.

export interface ModelInfo {
  id: string;
  /** The name the provider shows ("Claude Sonnet 4.6"). */
  displayName?: string;
  /** When the provider released it, epoch milliseconds (Anthropic `created_at`, OpenAI `created`). */
  created?: number;
  /** The most input tokens a request may hold (Anthropic `max_input_tokens`, a server's context length). */
  maxInputTokens?: number;
  /** The most output tokens an answer may hold (Anthropic `max_tokens`). */
  maxOutputTokens?: number;
  /** The thinking forms the model takes, as the API names them: "enabled" (a budget), "adaptive". */
  thinkingTypes?: readonly string[];
  /** The effort levels the model takes ("low" … "max"), when the provider lists them. */
  effortLevels?: readonly string[];
}
