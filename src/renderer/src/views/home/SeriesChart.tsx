import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { dayText, moneyText, WHOLE_STEPS } from './home-series'

export interface ChartSeries {
  label: string
  values: number[]
  /** A class whose `color` (a design token, light-dark()) is the line's: read from the page, so both themes follow. */
  tone: 'in' | 'out' | 'balance'
}

const HEIGHT = 150

/** Colours as the page resolves them now: canvas cannot read CSS variables, so each tone is asked of a probe. */
function toneColours(probe: HTMLElement): Record<string, string> {
  const colours: Record<string, string> = {}
  for (const tone of ['in', 'out', 'balance', 'axis']) {
    probe.className = `chart-tone-${tone}`
    colours[tone] = getComputedStyle(probe).color
  }
  return colours
}

/**
 * One currency's 30 days as a uPlot line chart. The canvas is decoration for sighted readers (aria-hidden): the
 * figures are in the text alternative beside it. Drawn again when the theme changes or the panel resizes.
 */
export function SeriesChart(props: { days: string[]; currency: string; series: ChartSeries[] }) {
  const host = useRef<HTMLDivElement>(null)
  const probe = useRef<HTMLSpanElement>(null)
  const { days, currency, series } = props
  useEffect(() => {
    const el = host.current
    const probeEl = probe.current
    if (!el || !probeEl) return
    let plot: uPlot | undefined
    const draw = () => {
      plot?.destroy()
      const colours = toneColours(probeEl)
      const axis = { stroke: colours['axis'], grid: { show: false }, ticks: { stroke: colours['axis'] } }
      plot = new uPlot(
        {
          width: Math.max(200, el.clientWidth),
          height: HEIGHT,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] } },
          axes: [
            { ...axis, values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) ? dayText(days[i] ?? '') : '')) },
            {
              ...axis,
              // As wide as its longest label ("MX$5,000,000.00"), so no amount is cut at the panel's edge.
              size: (_u, values) => 20 + 8 * Math.max(4, ...(values ?? []).map((v) => v.length)),
              incrs: WHOLE_STEPS,
              values: (_u, ticks) => ticks.map((v) => moneyText(v, currency))
            }
          ],
          series: [{}, ...series.map((s) => ({ label: s.label, stroke: colours[s.tone], width: 2 }))]
        },
        [days.map((_, i) => i), ...series.map((s) => s.values)],
        el
      )
    }
    draw()
    const resized = new ResizeObserver(() => plot?.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }))
    resized.observe(el)
    // The theme is the <html> data-theme attribute, or the system's when it has none.
    const themed = new MutationObserver(draw)
    themed.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
    const system = matchMedia('(prefers-color-scheme: dark)')
    system.addEventListener('change', draw)
    return () => {
      resized.disconnect()
      themed.disconnect()
      system.removeEventListener('change', draw)
      plot?.destroy()
    }
  }, [days, currency, series])
  return (
    <>
      <span ref={probe} hidden />
      <div ref={host} className="home-chart" aria-hidden="true" />
    </>
  )
}
