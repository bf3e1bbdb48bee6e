import { useEffect, useState } from 'react'

/** A live countdown to the moment the service rejects the payment by itself; "unknown" when the service did not say. */
export function Deadline({ iso }: { iso: string | null }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!iso) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [iso])
  if (!iso) return <span className="muted">not stated</span>
  const left = Math.round((new Date(iso).getTime() - now) / 1000)
  if (left <= 0)
    return (
      <span className="deadline deadline-past" title={iso}>
        passed
      </span>
    )
  const text =
    left >= 3600
      ? `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`
      : left >= 60
        ? `${Math.floor(left / 60)} min ${left % 60} s`
        : `${left} s`
  return (
    <span className={left < 60 ? 'deadline deadline-soon' : 'deadline'} title={iso}>
      {text} left
    </span>
  )
}
