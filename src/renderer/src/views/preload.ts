/**
 * Fetches views one after the other, each once the one before it has arrived (or failed), until `cancelled()` says
 * stop. All at once, a dozen chunk downloads took every connection the browser keeps to Paydesk (six, with the page's
 * first calls still waiting on a starting backend), and the open view's first query queued behind them: 250 ms in a
 * cold-start timeline. In turn, at most one view's files are in flight, and a query finds a connection free.
 */
export async function preloadInTurn(
  views: Iterable<{ preload(): Promise<unknown> }>,
  cancelled: () => boolean
): Promise<void> {
  for (const view of views) {
    if (cancelled()) return
    // One that fails is fetched again when opened: the others still come.
    await view.preload().catch(() => undefined)
  }
}
