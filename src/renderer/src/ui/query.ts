import { useCallback, useEffect, useRef, useState } from 'react'
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../shared/ipc/contract'
import type { IpcError } from '../../../shared/ipc/define'
import { paydesk } from '../bridge/paydesk'

export interface QueryState<T> {
  data: T | null
  error: IpcError | null
  /** True only before the first answer: views show skeleton rows then, never a spinner over old data. */
  loading: boolean
  reload(): void
}

/**
 * Calls a channel whenever its input (compared by value) or `version` changes, keeping the last good data on screen
 * while a new answer is on its way, and dropping answers that arrive out of order.
 */
export function useChannel<K extends ChannelName>(
  channel: K,
  input: ChannelInput<K>,
  version = 0,
  enabled = true
): QueryState<ChannelOutput<K>> {
  const [data, setData] = useState<ChannelOutput<K> | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [loading, setLoading] = useState(true)
  const [nonce, setNonce] = useState(0)
  const sequence = useRef(0)
  const key = JSON.stringify(input ?? null)

  useEffect(() => {
    if (!enabled) return
    const mine = ++sequence.current
    void paydesk.invoke(channel, JSON.parse(key) as ChannelInput<K>).then((result) => {
      if (mine !== sequence.current) return
      if (result.ok) {
        setData(result.value)
        setError(null)
      } else setError(result.error)
      setLoading(false)
    })
  }, [channel, key, version, nonce, enabled])

  const reload = useCallback(() => setNonce((n) => n + 1), [])
  return { data, error, loading, reload }
}
