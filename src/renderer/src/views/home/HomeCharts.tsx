import { useMemo } from 'react'
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
      <section className="panel" aria-labelledby="home-volume-title" data-testid="home-volume">
        <h2 id="home-volume-title">Completed volume, 30 days</h2>
        <p className="muted">
          Payments that completed, by the day they were made, {period}. <span className="chart-key-in">━ Incoming</span>{' '}
          <span className="chart-key-out">━ Outgoing</span>
        </p>
        {figures.volume.length === 0 ? (
          <p className="muted">No completed payments in these 30 days.</p>
        ) : (
          figures.volume.map((v) => (
            <CurrencyChart
              key={v.currency}
              kind="volume"
              currency={v.currency}
              days={days}
              series={[
                { label: 'Incoming', values: v.incoming, tone: 'in' },
                { label: 'Outgoing', values: v.outgoing, tone: 'out' }
              ]}
              summary={`${moneyText(sum(v.incoming), v.currency)} in, ${moneyText(sum(v.outgoing), v.currency)} out over 30 days.`}
            />
          ))
        )}
      </section>
      <section className="panel" aria-labelledby="home-balance-title" data-testid="home-balance-history">
        <h2 id="home-balance-title">Platform balances, 30 days</h2>
        <p className="muted">
          End of each day, {period}: today’s balance walked back through the payments Paydesk has seen. Movements that
          are not payments (sandbox funding, for one) are not walked back.
        </p>
        {figures.balances.length === 0 ? (
          <p className="muted">No platform internal accounts yet.</p>
        ) : (
          figures.balances.map((b) => (
            <CurrencyChart
              key={b.currency}
              kind="balance"
              currency={b.currency}
              days={days}
              series={[{ label: 'Balance', values: b.endOfDay, tone: 'balance' }]}
              summary={`${moneyText(b.endOfDay[0]!, b.currency)} at the end of ${dayText(days[0]!)}, ${moneyText(b.current, b.currency)} now.`}
            />
          ))
        )}
      </section>
    </div>
  )
}

function CurrencyChart(props: {
  kind: 'volume' | 'balance'
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
