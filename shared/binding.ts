import { z } from 'zod';

/**
 * Real gateway clients disagree on key casing (`paymentoption`, `paymentOption`) and on names (`paymentmethod`).
 * `bindKeys` renames the keys of a parsed JSON value to the canonical keys of a zod object schema, matching
 * case-insensitively and through the aliases a field declares with `.meta({ 'x-aliases': [...] })`, recursively
 * through nested objects and arrays. Unknown keys are kept as they are, so the schema decides what to do with them.
 *
 * An optional member sent as `null` is bound as absent: Jackson (the Java SDK) and other serialisers write every
 * unset member as `null`, and to the gateway that means "not given". A member whose schema accepts `null` itself
 * keeps it, and a required member sent as `null` stays, so the schema reports it as missing.
 */
export function aliased<T extends z.ZodType>(schema: T, ...aliases: string[]): T {
  return schema.meta({ 'x-aliases': aliases });
}

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType>; options?: z.ZodType[] };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Unwraps optional, nullable, default and pipe wrappers down to the schema that gives the value its shape. */
function core(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.innerType && ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type)) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      current = def.in;
    } else {
      return current;
    }
  }
}

function aliasesOf(schema: z.ZodType): string[] {
  const meta = z.globalRegistry.get(schema) as { 'x-aliases'?: string[] } | undefined;
  return meta?.['x-aliases'] ?? [];
}

const nullAsAbsent = new WeakMap<z.ZodType, boolean>();

/** True when the field is optional and does not give `null` a meaning of its own. */
function dropsNull(field: z.ZodType): boolean {
  let drops = nullAsAbsent.get(field);
  if (drops === undefined) {
    drops = field.safeParse(undefined).success && !field.safeParse(null).success;
    nullAsAbsent.set(field, drops);
  }
  return drops;
}

const keyMaps = new WeakMap<z.ZodType, Map<string, string>>();

function keyMap(shape: Record<string, z.ZodType>, schema: z.ZodType): Map<string, string> {
  let map = keyMaps.get(schema);
  if (!map) {
    map = new Map();
    for (const [key, field] of Object.entries(shape)) {
      map.set(key.toLowerCase(), key);
      // Aliases may sit on the field itself or on any wrapper around it.
      for (let current: z.ZodType | undefined = field; current; ) {
        for (const alias of aliasesOf(current)) map.set(alias.toLowerCase(), key);
        const def = defOf(current);
        current = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
      }
    }
    keyMaps.set(schema, map);
  }
  return map;
}

export function bindKeys(value: unknown, schema: z.ZodType): unknown {
  const shaped = core(schema);
  const def = defOf(shaped);
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.map((item) => bindKeys(item, element));
  }
  if (def.type === 'union' && def.options) {
    const objectOption = def.options.find((option) => defOf(core(option)).type === 'object');
    return objectOption ? bindKeys(value, objectOption) : value;
  }
  if (def.type !== 'object' || !def.shape || value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value;
  }
  const shape = def.shape;
  const map = keyMap(shape, shaped);
  const bound: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    // `__proto__` can name no field, and assigning it would swap the object's prototype: it is dropped.
    if (key === '__proto__') continue;
    const canonical = map.get(key.toLowerCase()) ?? key;
    // A canonical spelling wins over an alias when a client sends both.
    if (Object.hasOwn(bound, canonical) && canonical !== key) continue;
    // Own properties only: `constructor` or `toString` in a payload must not find Object.prototype's members.
    const field = Object.hasOwn(shape, canonical) ? shape[canonical] : undefined;
    if (item === null && field && dropsNull(field)) continue;
    bound[canonical] = field ? bindKeys(item, field) : item;
  }
  return bound;
}
