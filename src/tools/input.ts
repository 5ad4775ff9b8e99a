// A tool's input is defined once, as an arktype type: the JSON schema the model
// sees and the validator its answers go through are both derived from it, so
// they cannot drift apart.

import { type Type, type } from "../ark";

export interface ToolInput<T> {
  inputSchema: Record<string, unknown>;
  validate(input: unknown): T | { error: string };
}

/**
 * `fields` describes each property for the model. They are kept out of the
 * arktype definition because arktype would also put them in its error messages.
 */
export function toolInput<T extends object>(
  toolName: string,
  schema: Type<T>,
  fields: { [K in keyof T]-?: string },
): ToolInput<T> {
  // Provider APIs want a plain object schema; the `$schema` dialect marker is noise to them.
  const { $schema: _dialect, ...inputSchema } = schema.toJsonSchema() as Record<string, unknown>;
  const properties = inputSchema.properties as Record<string, Record<string, unknown>>;
  for (const [name, description] of Object.entries<string>(fields)) {
    properties[name] = { ...properties[name], description };
  }
  return {
    inputSchema,
    validate(input) {
      // arktype lets arrays through as objects; the model's JSON schema does not.
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        return { error: `${toolName}: input must be a JSON object (was ${kindOf(input)})` };
      }
      const result = schema(input);
      if (!(result instanceof type.errors)) return result as T;
      return { error: `${toolName}: ${oneLine(result)}` };
    },
  };
}

// arktype words its problems well ("command must be a string (was a number)")
// but spreads several over lines; the model gets them on one.
function oneLine(errors: InstanceType<typeof type.errors>): string {
  return errors
    .map((e) => e.message)
    .map((m) => m.replace(/\.\.\.\s*\n\s*◦\s*/, " ").replace(/\s*\n\s*◦\s*/g, " and "))
    .join("; ")
    .replace(/ must be removed/g, " is not a known field");
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
