/** Something a guest holds open: a media stream, a live connection. close ends it now. */
export interface OpenConnection {
  close(reason: string): void;
}

// The longest timer Node keeps: a link that expires later is ended by the next request's check instead.
const MAX_TIMER = 2 ** 31 - 1;

/**
 * The connections guests hold open in this process, by link: ended when their link is revoked (here or, through the
 * guest-link.revoked event, in any process) and when it expires while they are open.
 */
export class GuestConnections {
  private readonly byLink = new Map<string, Set<OpenConnection>>();

  /** Keep a connection until it ends (call the answer then) or its link ends. */
  add(linkId: string, connection: OpenConnection, expiresAt: Date | null): () => void {
    let open = this.byLink.get(linkId);
    if (!open) this.byLink.set(linkId, (open = new Set()));
    open.add(connection);
    const delay = expiresAt ? expiresAt.getTime() - Date.now() : null;
    const timer =
      delay !== null && delay < MAX_TIMER
        ? setTimeout(() => connection.close('expired'), Math.max(0, delay))
        : null;
    timer?.unref();
    return () => {
      if (timer) clearTimeout(timer);
      open.delete(connection);
      if (open.size === 0 && this.byLink.get(linkId) === open) this.byLink.delete(linkId);
    };
  }

  /** End every connection of a link held in this process; answers how many. */
  closeLink(linkId: string, reason: string): number {
    const open = this.byLink.get(linkId);
    if (!open) return 0;
    this.byLink.delete(linkId);
    for (const connection of open) connection.close(reason);
    return open.size;
  }

  /** How many connections a link holds open here (tests). */
  count(linkId: string): number {
    return this.byLink.get(linkId)?.size ?? 0;
  }

  closeAll(): void {
    for (const linkId of [...this.byLink.keys()]) this.closeLink(linkId, 'shutdown');
  }
}
