// Finds a top-level name that a JSON answer gives twice with different values. JSON.parse keeps
// a repeated name's last value without a word, so `"status":"declined","status":"approved"`
// would read as approved; the answer parser asks here instead. The text has already been parsed
// by JSON.parse, so it is valid JSON and the walk below need not check its grammar. Counting the
// members is one pass over the text with no allocation; values are compared only when the count
// shows that a name came twice, which no honest answer does.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index just past the string whose opening quote is at `at`. */
function skipString(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index just past the value (string, object, array or literal) starting at `at`. */
function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return skipString(text, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let end = at;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) break;
      end++;
    }
    return end;
  }
  let depth = 0;
  let index = at;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = skipString(text, index);
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
    index++;
    if (depth === 0) return index;
  }
  return index;
}

interface Member {
  nameStart: number;
  nameEnd: number;
  valueStart: number;
  valueEnd: number;
}

/** Calls `visit` for every top-level member of the object text, in order. */
function eachMember(text: string, visit: (member: Member) => void): void {
  let index = skipSpace(text, 0) + 1; // past the opening brace
  for (;;) {
    index = skipSpace(text, index);
    if (text.charCodeAt(index) !== QUOTE) return; // the closing brace of an empty object
    const nameStart = index;
    const nameEnd = skipString(text, index);
    index = skipSpace(text, nameEnd);
    if (text.charCodeAt(index) !== COLON) return;
    const valueStart = skipSpace(text, index + 1);
    const valueEnd = skipValue(text, valueStart);
    visit({ nameStart, nameEnd, valueStart, valueEnd });
    index = skipSpace(text, valueEnd);
    if (text.charCodeAt(index) !== COMMA) return;
    index++;
  }
}

/** The value as the answer parser reads it: strings trimmed, numbers and booleans as written. */
function readValue(source: string): string {
  const first = source.charCodeAt(0);
  if (first === QUOTE) return `text:${(JSON.parse(source) as string).trim()}`;
  if (first === OPEN_BRACE || first === OPEN_BRACKET || source === 'null') return `raw:${source}`;
  return `text:${source}`;
}

/**
 * The first top-level name given twice with different values, or undefined. `parsedCount` is the
 * number of keys JSON.parse produced from `text`: when the text names as many, none repeats.
 */
export function conflictingName(text: string, parsedCount: number): string | undefined {
  let named = 0;
  eachMember(text, () => named++);
  if (named === parsedCount) return undefined;
  const seen = new Map<string, string>();
  let conflict: string | undefined;
  eachMember(text, (member) => {
    if (conflict !== undefined) return;
    const name = JSON.parse(text.slice(member.nameStart, member.nameEnd)) as string;
    const value = readValue(text.slice(member.valueStart, member.valueEnd));
    const earlier = seen.get(name);
    if (earlier !== undefined && earlier !== value) conflict = name;
    seen.set(name, value);
  });
  return conflict;
}
