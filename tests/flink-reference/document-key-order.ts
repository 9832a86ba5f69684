/**
 * Where a document's keys are not in the order of an adapted Flink schema (flink-schema.ts).
 * The schema files list properties in the order Jackson writes them, so this checks that the
 * documents serialize field for field like Flink's responses. Use it on schema-valid documents.
 */
import type { JsonSchema } from './flink-schema.ts';

export function keyOrderMismatches(schema: JsonSchema, document: unknown, path = ''): string[] {
  if (Array.isArray(document)) return arrayMismatches(schema, document, path);
  if (!isObject(document)) return [];
  const branch = objectBranch(schema, document);
  if (branch === undefined) return [];
  const properties = branch['properties'];
  if (isObject(properties)) return propertyMismatches(properties, document, path);
  const values = branch['additionalProperties'];
  if (!isObject(values)) return [];
  return Object.entries(document).flatMap(([key, value]) => keyOrderMismatches(values, value, `${path}/${key}`));
}

function arrayMismatches(schema: JsonSchema, document: unknown[], path: string): string[] {
  const items = schema['items'];
  if (!isObject(items)) return [];
  return document.flatMap((item, index) => keyOrderMismatches(items, item, `${path}/${index}`));
}

function propertyMismatches(properties: JsonSchema, document: JsonSchema, path: string): string[] {
  const expected = Object.keys(properties).filter((key) => key in document);
  const actual = Object.keys(document);
  const here = expected.join(',') === actual.join(',') ? [] : [`${path || '/'}: expected ${expected.join(',')} got ${actual.join(',')}`];
  const nested = actual.flatMap((key) => {
    const property = properties[key];
    return isObject(property) ? keyOrderMismatches(property, document[key], `${path}/${key}`) : [];
  });
  return [...here, ...nested];
}

/** The object schema that applies: a oneOf variant by its className, an anyOf's object branch. */
function objectBranch(schema: JsonSchema, document: JsonSchema): JsonSchema | undefined {
  const choices = schema['oneOf'] ?? schema['anyOf'];
  if (!Array.isArray(choices)) return schema;
  const objects = choices.filter((choice): choice is JsonSchema => isObject(choice) && isObject(choice['properties']));
  return objects.find((choice) => classNameMatches(choice, document)) ?? objects[0];
}

function classNameMatches(choice: JsonSchema, document: JsonSchema): boolean {
  const className = (choice['properties'] as JsonSchema)['className'];
  return isObject(className) && className['const'] === document['className'];
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
