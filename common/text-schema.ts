// The zod schema every text of the bridge is built from, shared by contract.ts and
// team-contract.ts. Kept apart from text-rules.ts, which main reads without loading zod.

import { z } from 'zod';

import { BROKEN_TEXT_MESSAGE, isWellFormedText } from './text-rules';

/**
 * Every text a call takes: well-formed UTF-16, so nothing downstream (encodeURIComponent, the
 * signature, SQLite) meets a lone surrogate. Request schemas build their strings from this.
 */
export const str = () => z.string().refine(isWellFormedText, BROKEN_TEXT_MESSAGE);
