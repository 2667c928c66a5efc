// Keyset anchors of one filter, counted from one end of its ids (the newest or the oldest): the
// id at every `every`-th position from that end. A page is read from the anchor at or before
// it, so it steps over fewer than `every` ids in an index whatever its depth and whatever the
// journal's size. The ids are read only as far as a page has asked (a page near this end reads
// few, the first page asked deep in reads up to it), in one indexed walk that continues where
// the last one stopped; only the anchors are kept, not the ids. Kept per filter until the
// journal changes (journal-pages.ts says when).

/**
 * Reads up to `count` of the filter's ids in this end's order, after `last` (the last id read
 * before; undefined: from the end itself).
 */
export type ReadIds = (last: bigint | undefined, count: number) => bigint[];

/** Ids read at least per walk, so that paging on from here does not walk once per page. */
const MIN_READ = 256;

export class EndAnchors {
  /** ids[k] is the id at position k * every from this end. */
  private readonly ids: bigint[] = [];
  /** How many positions from this end have been read. */
  private read = 0;
  private last: bigint | undefined;

  constructor(
    private readonly every: number,
    /** How many ids the filter matches (the walks never ask for more: see at()). */
    private readonly total: number,
    private readonly readIds: ReadIds,
  ) {}

  /**
   * The anchor at or before `position` (counted from this end, below the total) and how many
   * positions the page steps over from it. With `whole`, every id is read in one go (a filter
   * whose dates bound both ends: no index walks it in id order, so each walk sorts them all).
   */
  at(position: number, whole = false): { anchor: bigint; step: number } | undefined {
    const k = Math.floor(position / this.every);
    const wanted = k * this.every + 1; // positions to have read
    if (wanted > this.read) {
      // Never more than the matches left: a walk asked for more would go on to the index's end
      // looking for them (a "last 30 days" filter would step over every older entry).
      const left = this.total - this.read;
      this.take(whole ? left : Math.min(left, Math.max(wanted - this.read, MIN_READ)));
    }
    const anchor = this.ids[k];
    return anchor === undefined ? undefined : { anchor, step: position - k * this.every };
  }

  private take(count: number): void {
    if (count <= 0) return;
    const ids = this.readIds(this.last, count);
    for (let i = 0; i < ids.length; i++) {
      if ((this.read + i) % this.every === 0) this.ids.push(ids[i] as bigint);
    }
    this.read += ids.length;
    this.last = ids[ids.length - 1] ?? this.last;
    // Fewer than the count says the filter has: nothing more to read in this snapshot.
    if (ids.length < count) this.read = this.total;
  }
}
