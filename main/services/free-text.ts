// One check for every use case that takes text a person wrote (reasons, notes, descriptions,
// comments, batch columns): card data in it is refused with the sentence the clerk needs,
// before anything is signed, stored or sent. The bridge's schemas refuse it first; this also
// covers callers that do not come through the bridge (batches, tests, future screens).

import { findCardData } from '../../common/card-data';
import { ServiceError } from './errors';

export function refuseCardData(fields: Readonly<Record<string, string | undefined>>): void {
  for (const [field, value] of Object.entries(fields)) {
    const found = value === undefined ? null : findCardData(value);
    if (found) throw new ServiceError('CARD_DATA', found.message, field);
  }
}
