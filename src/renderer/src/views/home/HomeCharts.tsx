import { useMemo, type ReactNode } from 'react'
import type { HomeFigures } from '../../../../shared/ipc/channels/home'
import { dayText, moneyText, sum } from './home-series'
import { SeriesChart, type ChartSeries } from './SeriesChart'
import './home.css'

/**
 * Home's two charts, one small chart per currency (USD is never drawn on EUR's scale, let alone added to it), each
 * with its text alternative: a sentence of the 30 days' figures and, one click away, every day in a table. Loaded as
 * its own chunk (with uPlot) after Home's first paint.
 */
export default function HomeCharts({ figures }: { figures: HomeFigures }) {
  const { days } = figures
  const period = `${dayText(days[0]!)} – ${dayText(days.at(-1)!)} (${figures.timeZone})`
  return (
    <div className="home-grid">
      <ChartPanel
        kind="volume"
        title="Completed volume, 30 days"
        testId="home-volume"
        about={
          <>
            Payments that completed, by the day they were made, {period}.{' '}
            <span className="chart-key-in">━ Incoming</span> <span className="chart-key-out">━ Outgoing</span>
          </>
        }
        empty="No completed payments in these 30 days."
        days={days}
        charts={figures.volume.map((v) => ({
          currency: v.currency,
          series: [
            { label: 'Incoming', values: v.incoming, tone: 'in' },
            { label: 'Outgoing', values: v.outgoing, tone: 'out' }
          ],
          summary: `${moneyText(sum(v.incoming), v.currency)} in, ${moneyText(sum(v.outgoing), v.currency)} out over 30 days.`
        }))}
      />
      <ChartPanel
        kind="balance"
        title="Platform balances, 30 days"
        testId="home-balance-history"
        about={
          <>
            End of each day, {period}: today’s balance walked back through the payments Paydesk has seen. Movements that
            are not payments (sandbox funding, for one) are not walked back.
          </>
        }
        empty="No platform internal accounts yet."
        days={days}
        charts={figures.balances.map((b) => ({
          currency: b.currency,
          series: [{ label: 'Balance', values: b.endOfDay, tone: 'balance' }],
          summary: `${moneyText(b.endOfDay[0]!, b.currency)} at the end of ${dayText(days[0]!)}, ${moneyText(b.current, b.currency)} now.`
        }))}
      />
    </div>
  )
}

type ChartKind = 'volume' | 'balance'

/** One of the two charts: its heading, what it shows over which days, then a chart per currency (or why none). */
function ChartPanel(props: {
  kind: ChartKind
  title: string
  testId: string
  about: ReactNode
  empty: string
  days: string[]
  charts: { currency: string; series: ChartSeries[]; summary: string }[]
}) {
  const titleId = `home-${props.kind}-title`
  return (
    <section className="panel" aria-labelledby={titleId} data-testid={props.testId}>
      <h2 id={titleId}>{props.title}</h2>
      <p className="muted">{props.about}</p>
      {props.charts.length === 0 ? (
        <p className="muted">{props.empty}</p>
      ) : (
        props.charts.map((c) => <CurrencyChart key={c.currency} kind={props.kind} days={props.days} {...c} />)
      )}
    </section>
  )
}

function CurrencyChart(props: {
  kind: ChartKind
  currency: string
  days: string[]
  series: ChartSeries[]
  summary: string
}) {
  const { kind, currency, days, series, summary } = props
  // One identity per figures answer: the chart is drawn again only when its numbers change.
  const key = JSON.stringify(series)
  const stable = useMemo(() => JSON.parse(key) as ChartSeries[], [key])
  return (
    <figure className="home-currency" data-testid={`home-${kind}-${currency}`}>
      <figcaption>
        <strong>{currency}</strong> <span data-testid={`home-${kind}-${currency}-summary`}>{summary}</span>
      </figcaption>
      <SeriesChart days={days} currency={currency} series={stable} />
      <details>
        <summary>Every day as a table</summary>
        <table className="home-days">
          <caption className="visually-hidden">
            {currency} {kind === 'volume' ? 'completed volume' : 'platform balance'} per day
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col" key={s.label} className="num">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{dayText(day)}</th>
                {series.map((s) => (
                  <td key={s.label} className="num">
                    {moneyText(s.values[i]!, currency)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
