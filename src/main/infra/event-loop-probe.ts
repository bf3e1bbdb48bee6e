import { monitorEventLoopDelay } from 'node:perf_hooks'

/** The variable that turns the probe on; unset in normal use, so the probe costs nothing there. */
const EVENT_LOOP_PROBE_ENV = 'PAYDESK_BENCH_EVENT_LOOP'

/**
 * For `npm run bench -- ui` only: when PAYDESK_BENCH_EVENT_LOOP is set, prints the longest event-loop block of each
 * interval (e.g. `[event-loop] max 12.3 ms`), so the bench can see whether approvals and polling were ever frozen
 * while payments arrived. Returns a stop function.
 */
export function startEventLoopProbe(
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
  intervalMs = 200
): () => void {
  if (!env[EVENT_LOOP_PROBE_ENV]) return () => {}
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  const timer = setInterval(() => {
    print(`[event-loop] max ${(histogram.max / 1e6).toFixed(1)} ms\n`)
    histogram.reset()
  }, intervalMs)
  timer.unref()
  return () => {
    clearInterval(timer)
    histogram.disable()
  }
}
