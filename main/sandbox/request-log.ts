// The sandbox's request log: the newest `limit` API requests, oldest first. A ring, not an
// array shifted at the front: once full, Array#shift on an array this long moves every entry
// on each request (V8 cannot trim an array held in its large-object space), which would cost
// a long-running sandbox more per request than answering it.

/** One request as the sandbox's request log keeps it. */
export interface SandboxRequest {
  operation: string;
  orderid?: string;
  clientOrderId?: string;
}

export class RequestLog {
  private readonly ring: SandboxRequest[] = [];
  /** Where the oldest entry sits once the ring is full (and the next one is written). */
  private next = 0;

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`The request log keeps at least 1 entry; got ${limit}.`);
  }

  add(entry: SandboxRequest): void {
    if (this.ring.length < this.limit) {
      this.ring.push(entry);
      return;
    }
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.limit;
  }

  /** A copy, oldest first. */
  list(): SandboxRequest[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }
}
