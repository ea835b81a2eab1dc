import { expect } from 'vitest';

/**
 * The seed's table types, as the gateway's typed clients read them (the Java SDK's Jackson models): `int` is a
 * JSON integer (Java Integer/Long), `num` any JSON number (Double; amounts), `str` a string, `bool` true or false;
 * a trailing `?` admits null. Objects and one-element arrays describe nested members.
 */
export type WireType = 'int' | 'int?' | 'num' | 'num?' | 'str' | 'str?' | 'bool' | 'bool?' | 'any';
export type WireShape = WireType | { [member: string]: WireShape } | [WireShape] | { nullable: WireShape };

function matches(value: unknown, type: WireType): boolean {
  if (type === 'any') return true;
  if (type.endsWith('?') && value === null) return true;
  switch (type.replace('?', '')) {
    case 'int':
      return Number.isInteger(value);
    case 'num':
      return typeof value === 'number' && Number.isFinite(value);
    case 'str':
      return typeof value === 'string';
    default:
      return typeof value === 'boolean';
  }
}

/** Every problem found: a member of the wrong type, a member the table lacks, a member the answer lacks. */
export function shapeProblems(value: unknown, shape: WireShape, path = '$'): string[] {
  if (typeof shape === 'string') return matches(value, shape) ? [] : [`${path}: ${JSON.stringify(value)} is not ${shape}`];
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path}: not a list`];
    return value.flatMap((item, index) => shapeProblems(item, shape[0], `${path}[${index}]`));
  }
  if ('nullable' in shape && Object.keys(shape).length === 1) {
    return value === null ? [] : shapeProblems(value, shape.nullable as WireShape, path);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
  const members = shape as Record<string, WireShape>;
  const problems = Object.keys(value).filter((key) => !Object.hasOwn(members, key)).map((key) => `${path}.${key}: not in the table`);
  for (const [key, member] of Object.entries(members)) {
    if (!Object.hasOwn(value, key)) problems.push(`${path}.${key}: missing`);
    else problems.push(...shapeProblems((value as Record<string, unknown>)[key], member, `${path}.${key}`));
  }
  return problems;
}

export function expectWireShape(value: unknown, shape: WireShape): void {
  expect(shapeProblems(value, shape)).toEqual([]);
}
