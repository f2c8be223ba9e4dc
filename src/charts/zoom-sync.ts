/**
 * One visible time range shared by every chart of a view, so panning or zooming one pans them all and
 * FIFO and fair stay aligned second for second. Charts redraw imperatively on change (no React render).
 */
export type Domain = readonly [number, number];

export class ZoomSync {
  private domain: Domain | null = null;
  private readonly listeners = new Set<(domain: Domain | null, source: object | null) => void>();

  /** The range shown, or null for everything. */
  get current(): Domain | null {
    return this.domain;
  }

  set(domain: Domain | null, source: object | null = null): void {
    this.domain = domain;
    for (const listener of this.listeners) listener(domain, source);
  }

  subscribe(listener: (domain: Domain | null, source: object | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
