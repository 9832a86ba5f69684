/**
 * Flink's own REST response schemas (copied here from apache/flink, see README.md), made usable by
 * ajv and strict enough to catch a misnamed field.
 *
 * The `*.schema.json` files come from Flink's REST API snapshot, written by Jackson's JSON-schema
 * module: draft-03 style `"id": "urn:jsonschema:…"` on each class the first time it appears, `$ref`
 * to that id afterwards, `"type": "any"` for a custom serializer, and no notion of required fields,
 * nullability or subtypes. The adaptation:
 * 1. Every `$ref` is replaced by (an adapted copy of) the schema with that id, and ids are dropped,
 *    so each file becomes one self-contained draft-07 schema (ids repeat across files).
 * 2. Every object schema that lists `properties` gets `additionalProperties: false` and requires all
 *    of them: Flink's mapper writes every field, nulls included, so a missing or renamed field is a bug.
 * 3. Polymorphic classes get their subtypes, taken from the OpenAPI subset (which the Jackson
 *    snapshot lacks): CheckpointStatistics becomes a `oneOf` over className completed | failed |
 *    in_progress, SubtaskCheckpointStatistics over completed | pending; subtype fields are merged in.
 *    The subclasses that appear on their own (latest.completed, latest.failed) get their className.
 * 4. Fields Flink marks `@Nullable` may be null (see NULLABLE_FIELDS).
 * 5. A Java double (`"type": "number"`) may also be the string "NaN", "Infinity" or "-Infinity":
 *    Jackson writes non-finite doubles that way (WRITE_NAN_AS_STRINGS, on by default).
 * 6. `"type": "any"` on CheckpointConfigInfo.mode is what Flink's ProcessingModeSerializer writes:
 *    the lower-case enum name.
 */
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';

export type JsonSchema = { [key: string]: unknown };

export type FlinkResponseSchemaName =
  | 'checkpointing-statistics'
  | 'checkpoint-statistics'
  | 'task-checkpoint-statistics'
  | 'checkpoint-config';

const CLASS = 'urn:jsonschema:org:apache:flink:runtime:rest:messages:checkpoints:';
const CHECKPOINT_STATISTICS = `${CLASS}CheckpointStatistics`;
const SUBTASK_CHECKPOINT_STATISTICS = `${CLASS}SubtaskCheckpointStatistics`;

/** Subclasses that the snapshot shows on their own, and the className Jackson gives them. */
const CLASS_NAME_OF_SUBCLASS: Record<string, string> = {
  [`${CHECKPOINT_STATISTICS}:CompletedCheckpointStatistics`]: 'completed',
  [`${CHECKPOINT_STATISTICS}:FailedCheckpointStatistics`]: 'failed',
};

/** Fields annotated `@Nullable` in Flink's DTOs, per class id; Jackson writes them as null. */
const NULLABLE_FIELDS: Record<string, string[]> = {
  [`${CLASS}CheckpointingStatistics:LatestCheckpoints`]: ['completed', 'savepoint', 'failed', 'restored'],
  [`${CLASS}CheckpointingStatistics:RestoredCheckpointStatistics`]: ['external_path'],
  [CHECKPOINT_STATISTICS]: ['savepointFormat'],
  [`${CHECKPOINT_STATISTICS}:CompletedCheckpointStatistics`]: ['savepointFormat', 'external_path'],
  [`${CHECKPOINT_STATISTICS}:FailedCheckpointStatistics`]: ['savepointFormat', 'failure_message'],
};

/** The same for the fields the OpenAPI subtypes add, per OpenAPI component. */
const NULLABLE_SUBTYPE_FIELDS: Record<string, string[]> = {
  CompletedCheckpointStatistics: ['external_path'],
  FailedCheckpointStatistics: ['failure_message'],
};

/** What the subtask `status` string is for each subtype (SubtaskCheckpointStatistics.java). */
const SUBTASK_STATUS: Record<string, string> = { completed: 'completed', pending: 'pending_or_failed' };

/**
 * The OpenAPI generator lists a component's properties alphabetically; these are the Java field
 * orders Jackson writes them in (SubtaskCheckpointStatistics.CompletedSubtaskCheckpointStatistics).
 */
const JAVA_FIELD_ORDER: Record<string, string[]> = {
  CheckpointDuration: ['sync', 'async'],
  CheckpointAlignment: ['buffered', 'processed', 'persisted', 'duration'],
};

const JACKSON_NON_FINITE_DOUBLES = ['NaN', 'Infinity', '-Infinity'];

const readJson = (file: string): JsonSchema =>
  JSON.parse(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')) as JsonSchema;

/** The adapted response schema of one endpoint. */
export function flinkResponseSchema(name: FlinkResponseSchemaName): JsonSchema {
  const call = readJson(`${name}.schema.json`);
  const response = call['response'] as JsonSchema;
  return new JacksonSchemaAdapter(collectIds(response), openApiComponents()).adapt(response);
}

/** Validates a document against the adapted schema; returns ajv's errors as readable lines. */
export function flinkResponseValidator(name: FlinkResponseSchemaName): (document: unknown) => string[] {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(flinkResponseSchema(name));
  return (document) => {
    if (validate(document)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  };
}

function openApiComponents(): Record<string, JsonSchema> {
  const openApi = readJson('openapi-checkpoints.subset.json');
  return (openApi['components'] as { schemas: Record<string, JsonSchema> }).schemas;
}

/** Every schema node carrying an `id`, by id (Jackson defines each class once per file). */
function collectIds(node: unknown, ids = new Map<string, JsonSchema>()): Map<string, JsonSchema> {
  if (Array.isArray(node)) node.forEach((child) => collectIds(child, ids));
  if (!isObject(node)) return ids;
  if (typeof node['id'] === 'string') ids.set(node['id'], node);
  for (const value of Object.values(node)) collectIds(value, ids);
  return ids;
}

class JacksonSchemaAdapter {
  constructor(
    private readonly ids: Map<string, JsonSchema>,
    private readonly components: Record<string, JsonSchema>,
  ) {}

  adapt(node: JsonSchema): JsonSchema {
    if (typeof node['$ref'] === 'string') return this.adapt(this.#definition(node['$ref']));
    const classId = typeof node['id'] === 'string' ? node['id'] : undefined;
    if (classId === CHECKPOINT_STATISTICS) return this.#polymorphic(node, 'CheckpointStatistics');
    if (classId === SUBTASK_CHECKPOINT_STATISTICS) return this.#polymorphic(node, 'SubtaskCheckpointStatistics');
    const adapted = this.#plain(node, classId);
    const className = classId === undefined ? undefined : CLASS_NAME_OF_SUBCLASS[classId];
    return className === undefined ? adapted : withClassName(adapted, className);
  }

  #definition(ref: string): JsonSchema {
    const definition = this.ids.get(ref);
    if (definition === undefined) throw new Error(`no schema with id ${ref}`);
    return definition;
  }

  /** A non-polymorphic node: ids dropped, children adapted, objects made strict. */
  #plain(node: JsonSchema, classId: string | undefined): JsonSchema {
    if (node['type'] === 'number') return jacksonDoubleSchema();
    const { id: _id, type, properties, items, additionalProperties, ...rest } = node;
    const adapted: JsonSchema = { ...rest };
    if (type !== 'any') adapted['type'] = type;
    if (isObject(items)) adapted['items'] = this.adapt(items);
    if (isObject(additionalProperties)) adapted['additionalProperties'] = this.adapt(additionalProperties);
    if (isObject(properties)) {
      const nullable = classId === undefined ? [] : (NULLABLE_FIELDS[classId] ?? []);
      return strictObject(adapted, this.#properties(properties as Record<string, JsonSchema>, nullable));
    }
    return adapted;
  }

  #properties(properties: Record<string, JsonSchema>, nullable: string[]): Record<string, JsonSchema> {
    const adapted: Record<string, JsonSchema> = {};
    for (const [name, schema] of Object.entries(properties)) {
      const property = name === 'mode' && schema['type'] === 'any' ? processingModeSchema() : this.adapt(schema);
      adapted[name] = nullable.includes(name) ? nullableSchema(property) : property;
    }
    return adapted;
  }

  /** The base class as a oneOf over its OpenAPI subtypes, each with its own fields merged in. */
  #polymorphic(base: JsonSchema, component: string): JsonSchema {
    const mapping = (this.components[component]?.['discriminator'] as { mapping: Record<string, string> }).mapping;
    const variants = Object.entries(mapping).map(([className, ref]) => this.#variant(base, className, ref));
    return { oneOf: variants };
  }

  #variant(base: JsonSchema, className: string, ref: string): JsonSchema {
    const baseSchema = this.#plain(base, base['id'] as string);
    const extras = this.#subtypeProperties(ref);
    const properties = { ...(baseSchema['properties'] as Record<string, JsonSchema>), ...extras };
    const status = SUBTASK_STATUS[className];
    if (base['id'] === SUBTASK_CHECKPOINT_STATISTICS && status !== undefined) properties['status'] = { const: status };
    return withClassName(strictObject({ type: 'object' }, properties), className);
  }

  /** The fields an OpenAPI subtype (allOf: [base, {properties}]) adds to its base. */
  #subtypeProperties(ref: string): Record<string, JsonSchema> {
    const subtype = this.#component(ref);
    const nullable = NULLABLE_SUBTYPE_FIELDS[componentName(ref)] ?? [];
    const parts = (subtype['allOf'] as JsonSchema[] | undefined) ?? [];
    const added: Record<string, JsonSchema> = {};
    for (const part of parts.filter((p) => p['$ref'] === undefined)) {
      for (const [name, schema] of Object.entries((part['properties'] ?? {}) as Record<string, JsonSchema>)) {
        const property = this.#fromOpenApi(schema);
        added[name] = nullable.includes(name) ? nullableSchema(property) : property;
      }
    }
    return added;
  }

  #component(ref: string): JsonSchema {
    const name = componentName(ref);
    const component = this.components[name];
    if (component === undefined) throw new Error(`no OpenAPI component ${ref}`);
    return JAVA_FIELD_ORDER[name] === undefined ? component : inJavaOrder(component, JAVA_FIELD_ORDER[name]);
  }

  /** An OpenAPI 3 schema as draft-07, made strict like the rest (formats are not JSON-schema's). */
  #fromOpenApi(schema: JsonSchema): JsonSchema {
    if (typeof schema['$ref'] === 'string') return this.#fromOpenApi(this.#component(schema['$ref']));
    if (schema['type'] === 'number') return jacksonDoubleSchema();
    const { format: _format, properties, ...rest } = schema;
    if (!isObject(properties)) return rest;
    const converted: Record<string, JsonSchema> = {};
    for (const [name, child] of Object.entries(properties as Record<string, JsonSchema>)) {
      converted[name] = this.#fromOpenApi(child);
    }
    return strictObject(rest, converted);
  }
}

function componentName(ref: string): string {
  return ref.replace('#/components/schemas/', '');
}

function strictObject(schema: JsonSchema, properties: Record<string, JsonSchema>): JsonSchema {
  return { ...schema, properties, required: Object.keys(properties), additionalProperties: false };
}

/** Jackson writes the type id first, so className leads the properties. */
function withClassName(schema: JsonSchema, className: string): JsonSchema {
  const properties = { className: { const: className }, ...(schema['properties'] as Record<string, JsonSchema>) };
  return strictObject(schema, properties);
}

function nullableSchema(schema: JsonSchema): JsonSchema {
  return { anyOf: [{ type: 'null' }, schema] };
}

function jacksonDoubleSchema(): JsonSchema {
  return { anyOf: [{ type: 'number' }, { enum: JACKSON_NON_FINITE_DOUBLES }] };
}

function processingModeSchema(): JsonSchema {
  return { enum: ['exactly_once', 'at_least_once'] };
}

function inJavaOrder(component: JsonSchema, order: string[]): JsonSchema {
  const properties = component['properties'] as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  if (names.length !== order.length || !order.every((name) => names.includes(name))) {
    throw new Error(`Java field order ${order.join(',')} does not match ${names.join(',')}`);
  }
  return { ...component, properties: Object.fromEntries(order.map((name) => [name, properties[name]])) };
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
