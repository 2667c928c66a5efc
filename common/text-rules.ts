// Rules for text that crosses the bridge or names a profile. Shared by the contract's schemas
// (main parses every payload with them, the renderer's forms validate with them) and by the
// profile store, which batch tools and tests reach without the bridge.

/**
 * A lone UTF-16 surrogate is text no encoder can write: encodeURIComponent throws on it and
 * TextEncoder silently swaps it for U+FFFD. With the `u` flag a well-formed pair is one code
 * point, so this class matches only surrogates that have no partner.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function isWellFormedText(text: string): boolean {
  // Most text has no surrogate at all: one pass over its code units (every request's fields go
  // through here) answers without running the regular expression.
  for (let i = 0; i < text.length; i++) {
    if ((text.charCodeAt(i) & 0xf800) === 0xd800) return !LONE_SURROGATE.test(text);
  }
  return true;
}

export const BROKEN_TEXT_MESSAGE =
  'This text contains a broken character (half of a UTF-16 pair, often from a bad copy and paste); type it again.';

/**
 * Marks that change how text is shown without being seen: right-to-left and left-to-right
 * overrides, embeddings and isolates (U+202A-202E, U+2066-2069), the LRM, RLM and Arabic
 * letter marks (U+200E, U+200F, U+061C). In a profile name they can make "Production" read
 * as something else.
 */
const BIDI_CONTROLS: ReadonlySet<number> = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);

export type UnsafeCharacter = 'control' | 'bidi';

/** The first kind of invisible character in `text`: C0/C1 controls (NUL, newline, DEL...) or a bidi control. */
export function unsafeCharacterIn(text: string): UnsafeCharacter | undefined {
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'control';
    if (BIDI_CONTROLS.has(code)) return 'bidi';
  }
  return undefined;
}

/** The sentence for a profile field holding an invisible character, or undefined when it is clean. */
export function unsafeTextMessage(text: string, fieldLabel: string): string | undefined {
  const kind = unsafeCharacterIn(text);
  if (kind === 'control')
    return `The ${fieldLabel} contains a control character (such as a line break, tab or NUL); remove it.`;
  if (kind === 'bidi')
    return `The ${fieldLabel} contains an invisible text-direction character (such as a right-to-left override); remove it.`;
  return undefined;
}

/** The gateway's orderid is digits only: anything else is refused in the form, never sent. */
export const ORDERID_MESSAGE =
  'The gateway’s orderid is digits only (for example 1000001); for the shop’s own id choose “Client order id”.';
