// A small JSON Schema (2020-12) validator: the keywords the published schema
// (docs/session-format.schema.json) uses, checked as the specification says,
// so a test reads a line the way a script in another language would. A keyword
// it does not know throws: the schema must not use one silently ignored here.

type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(["$schema", "$defs", "title", "description"]);

/** The first reason `value` fails `schema`, or undefined when it passes. `root` resolves `#/$defs/...` references. */
export function schemaError(value: unknown, schema: Schema, root: Schema = schema, at = "$"): string | undefined {
  for (const [keyword, arg] of Object.entries(schema)) {
    const why = check(keyword, arg, value, root, at);
    if (why) return why;
  }
  return undefined;
}

function check(keyword: string, arg: unknown, value: unknown, root: Schema, at: string): string | undefined {
  const sub = (s: unknown, v: unknown, where = at) => schemaError(v, s as Schema, root, where);
  switch (keyword) {
    case "type":
      return (Array.isArray(arg) ? arg : [arg]).some((t) => isType(value, t as string)) ? undefined : `${at}: not of type ${JSON.stringify(arg)}`;
    case "const":
      return JSON.stringify(value) === JSON.stringify(arg) ? undefined : `${at}: not ${JSON.stringify(arg)}`;
    case "enum":
      return (arg as unknown[]).some((e) => JSON.stringify(e) === JSON.stringify(value)) ? undefined : `${at}: not one of ${JSON.stringify(arg)}`;
    case "minLength":
      return typeof value !== "string" || [...value].length >= (arg as number) ? undefined : `${at}: shorter than ${arg}`;
    case "minimum":
      return typeof value !== "number" || value >= (arg as number) ? undefined : `${at}: below ${arg}`;
    case "exclusiveMinimum":
      return typeof value !== "number" || value > (arg as number) ? undefined : `${at}: not above ${arg}`;
    case "required": {
      if (!isObject(value)) return undefined;
      const missing = (arg as string[]).find((k) => !(k in value));
      return missing === undefined ? undefined : `${at}: ${missing} is missing`;
    }
    case "properties": {
      if (!isObject(value)) return undefined;
      for (const [k, s] of Object.entries(arg as Schema)) if (k in value) { const why = sub(s, value[k], `${at}.${k}`); if (why) return why; }
      return undefined;
    }
    case "items": {
      if (!Array.isArray(value)) return undefined;
      for (const [i, item] of value.entries()) { const why = sub(arg, item, `${at}[${i}]`); if (why) return why; }
      return undefined;
    }
    case "anyOf": {
      const whys = (arg as unknown[]).map((s) => sub(s, value));
      return whys.some((w) => w === undefined) ? undefined : `${at}: matches none of anyOf (${whys.join("; ")})`;
    }
    case "allOf":
      return (arg as unknown[]).map((s) => sub(s, value)).find((w) => w !== undefined);
    case "not":
      return sub(arg, value) === undefined ? `${at}: matches what "not" excludes` : undefined;
    case "$ref": {
      const name = /^#\/\$defs\/(\w+)$/.exec(arg as string)?.[1];
      const target = name && (root.$defs as Record<string, Schema> | undefined)?.[name];
      if (!target) throw new Error(`unresolvable $ref ${arg}`);
      return sub(target, value);
    }
    default:
      if (ANNOTATIONS.has(keyword)) return undefined;
      throw new Error(`json-schema.ts does not know the keyword ${keyword}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isType(v: unknown, t: string): boolean {
  switch (t) {
    case "object":
      return isObject(v);
    case "array":
      return Array.isArray(v);
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "integer":
      return Number.isInteger(v);
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    default:
      throw new Error(`unknown JSON Schema type ${t}`);
  }
}
