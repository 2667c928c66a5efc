// The links to an order's page and to one journal entry, as other screens write them: an order
// on a given profile (#/order/<profileId>/<orderid>) is Orders on that order and that profile;
// a journal entry (#/journal/entry:<action id>) is the Journal searched by that id, opened.

import { describe, expect, it } from 'vitest';

import { hrefOf, orderHref, parseRoute } from '../../../renderer/src/route';
import { draftOfPreset, entryOfPreset } from '../../../renderer/src/screens/journal/JournalFilters';

describe('the order page link', () => {
  it('names the profile and the order, and reads back as Orders on that order and profile', () => {
    const href = orderHref('4e9028c4-2286-4bd0-9d43-0f6a2c1b7e55', '1000001');
    expect(href).toBe('#/order/4e9028c4-2286-4bd0-9d43-0f6a2c1b7e55/1000001');
    expect(parseRoute(href)).toEqual({
      screen: 'lookup',
      param: '1000001',
      profileId: '4e9028c4-2286-4bd0-9d43-0f6a2c1b7e55',
    });
  });

  it('keeps odd characters of a profile id intact, and leaves the plain lookup link as it was', () => {
    expect(parseRoute(orderHref('a/b c', '42'))).toMatchObject({ profileId: 'a/b c', param: '42' });
    expect(parseRoute('#/lookup/1000001')).toEqual({ screen: 'lookup', param: '1000001' });
    expect(hrefOf({ screen: 'lookup', param: '1000001' })).toBe('#/lookup/1000001');
    // Without an order it is no order page: Orders, as any unknown screen.
    expect(parseRoute('#/order/p1')).toEqual({ screen: 'lookup', param: 'p1' });
  });
});

describe('the journal entry link', () => {
  it('searches the journal by the action id and names the entry to open', () => {
    expect(entryOfPreset('entry:pd-shot-0001')).toBe('pd-shot-0001');
    expect(draftOfPreset('entry:pd-shot-0001').orderRef).toBe('pd-shot-0001');
    expect(entryOfPreset('pending')).toBeUndefined();
    expect(entryOfPreset('entry:')).toBeUndefined();
  });
});
