// An answer's bytes as its fields: the spec's JSON (`application/vnd.pay+json`) or the
// `type=...\n&name=value\n` layout of deployed gateways (gateway-notes.md), by content type. Every
// value is kept as the text the gateway wrote (a JSON number too, never a float), trimmed, in a
// map without a prototype. A field named twice with different values is an AmbiguousField: which
// value the gateway meant would be a guess (docs/protocol.md, "Answers"). What the fields mean is
// response.ts's.

import { conflictingName } from './json-members';

/** A body that names one field twice with different values: neither value can be trusted. */
export class AmbiguousField {
  constructor(readonly name: string) {}
}

/** Parses a body into trimmed string fields, by content type. Returns undefined when unreadable. */
export function parseBody(contentType: string, body: string): Record<string, string> | undefined {
  const fields = readFields(contentType, body);
  return fields instanceof AmbiguousField ? undefined : fields;
}

/** As parseBody, saying which field made an ambiguous body unreadable. */
export function readFields(
  contentType: string,
  body: string,
): Record<string, string> | AmbiguousField | undefined {
  // The media type before any parameters, without splitting into an array for every answer.
  const semicolon = contentType.indexOf(';');
  const mime = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (
    mime === 'application/vnd.pay+json' ||
    mime === 'application/json' ||
    mime.endsWith('+json')
  ) {
    return parseJsonBody(body);
  }
  if (
    mime === 'text/html' ||
    mime === 'text/plain' ||
    mime === 'application/x-www-form-urlencoded'
  ) {
    return parseLineBody(body);
  }
  // No or an odd content type: accept whichever form the body clearly is.
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) return parseJsonBody(trimmed);
  if (/^type=/.test(trimmed)) return parseLineBody(trimmed);
  return undefined;
}

/** A JSON number as the exact text the gateway wrote: 10.10 stays "10.10", never a float. */
class NumberText {
  constructor(readonly text: string) {}
}

/** The reviver's third argument (Node 21+): the source text of a primitive value. */
type ReviverContext = { source?: string } | undefined;
type SourceReviver = (
  this: unknown,
  key: string,
  value: unknown,
  context: ReviverContext,
) => unknown;

function keepNumberText(_key: string, value: unknown, context: ReviverContext): unknown {
  if (typeof value !== 'number') return value;
  // Without the source text a number could only be read as a float: refuse rather than guess.
  if (typeof context?.source !== 'string') throw new Error('JSON.parse gave no source text');
  return new NumberText(context.source);
}

/** Keys that would reach an object's prototype if assigned; no gateway field has these names. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A field map with no prototype, so no answer's key can reach Object.prototype. */
function emptyFields(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

/**
 * Reads a JSON answer with JSON.parse itself (no text scanning): every number keeps its source
 * text. Only the top-level fields are read, as the spec's answers are flat; a nested object or
 * array (and whatever amounts it holds) is ignored, and so are null values.
 */
function parseJsonBody(body: string): Record<string, string> | AmbiguousField | undefined {
  // The plain parse is exact for every string, boolean and null. A number it reads is a float:
  // an answer with a top-level number is read again keeping each number's source text (the
  // reviver costs more than the parse itself, for every answer).
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    return undefined; // not JSON
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
  const fields = root as Record<string, unknown>;
  if (typeof fields.type !== 'string') {
    // A number there is read again as its text, which is not a string type either.
    return undefined;
  }
  // The parsed object becomes the field map itself (copying twenty fields into a new map cost
  // more than the parse). JSON.parse made every key an own data property, "__proto__" too, and
  // the prototype goes before any value is assigned, so no key can reach Object.prototype; the
  // loop then sees own keys only (for-in, whose loads V8 serves from the enum cache, cheaper
  // than Object.keys and a keyed load each). The unsafe keys are dropped at the end.
  Object.setPrototypeOf(fields, null);
  // JSON.parse keeps a name's last value: fewer keys than the text names means one came twice.
  const ambiguous = conflictingName(body, Object.keys(fields).length);
  if (ambiguous !== undefined) return new AmbiguousField(ambiguous);
  let unsafe = false;
  for (const name in fields) {
    const value = fields[name];
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed !== value) fields[name] = trimmed;
    } else if (typeof value === 'number') {
      return parseJsonKeepingNumbers(body);
    } else if (typeof value === 'boolean') {
      fields[name] = String(value);
    } else {
      delete fields[name]; // null, or a nested object or array
    }
    if (UNSAFE_KEYS.has(name)) unsafe = true;
  }
  if (unsafe) for (const name of UNSAFE_KEYS) delete fields[name];
  return fields as Record<string, string>;
}

/** As parseJsonBody, every number kept as the exact text the gateway wrote. */
function parseJsonKeepingNumbers(body: string): Record<string, string> | undefined {
  let root: unknown;
  try {
    root = (JSON.parse as (text: string, reviver: SourceReviver) => unknown)(body, keepNumberText);
  } catch {
    return undefined; // nested too deep to read
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
  if (root instanceof NumberText) return undefined;
  const fields = emptyFields();
  for (const [name, value] of Object.entries(root)) {
    if (UNSAFE_KEYS.has(name)) continue;
    if (typeof value === 'string') fields[name] = value.trim();
    else if (value instanceof NumberText) fields[name] = value.text;
    else if (typeof value === 'boolean') fields[name] = String(value);
  }
  if (typeof (root as { type?: unknown }).type !== 'string') return undefined;
  return fields;
}

function parseLineBody(body: string): Record<string, string> | AmbiguousField | undefined {
  if (!/^\s*type=/.test(body)) return undefined;
  // Each line is `&name=value` with the value URL-encoded (+ is a space); URLSearchParams reads
  // exactly that, and the newline that ends each value is trimmed away.
  const fields = emptyFields();
  for (const [name, value] of new URLSearchParams(body.trim())) {
    const key = name.trim();
    if (!key || UNSAFE_KEYS.has(key)) continue;
    const trimmed = value.trim();
    const earlier = fields[key];
    if (earlier !== undefined && earlier !== trimmed) return new AmbiguousField(key);
    fields[key] = trimmed;
  }
  return fields;
}
