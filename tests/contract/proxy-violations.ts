import { Agent, type Dispatcher } from 'undici'

export type Violation = { location: string[]; code: string | number; message: string; severity?: string | number }

export type Exchange = { method: string; path: string; status: number; violations: Violation[] }

/**
 * An undici dispatcher that hands every response's `sl-violations` header (how `prism proxy` reports what broke the
 * document, on the request or the response) to `record`, whatever the status, so Paydesk's own ApiClient can be used
 * unchanged: it takes a dispatcher option.
 */
export function violationRecorder(record: (exchange: Exchange) => void): Dispatcher {
  return new Agent().compose((dispatch) => (opts, handler) => {
    const seen = (status: number, header: string | undefined) =>
      record({
        method: String(opts.method),
        path: String(opts.path),
        status,
        violations: header ? parse(header) : []
      })
    const target = handler as Record<string, unknown>
    const wrapped = new Proxy(target, {
      get(t, prop, receiver) {
        if (prop === 'onResponseStart' && typeof t['onResponseStart'] === 'function') {
          return (controller: unknown, status: number, headers: Record<string, string | string[]>, text: string) => {
            const h = headers['sl-violations']
            seen(status, Array.isArray(h) ? h[0] : h)
            return (t['onResponseStart'] as (...a: unknown[]) => unknown).call(t, controller, status, headers, text)
          }
        }
        if (prop === 'onHeaders' && typeof t['onHeaders'] === 'function') {
          return (status: number, raw: Buffer[], resume: () => void, text: string) => {
            let header: string | undefined
            for (let i = 0; i < raw.length; i += 2)
              if (raw[i]!.toString().toLowerCase() === 'sl-violations') header = raw[i + 1]!.toString()
            seen(status, header)
            return (t['onHeaders'] as (...a: unknown[]) => unknown).call(t, status, raw, resume, text)
          }
        }
        const value = Reflect.get(t, prop, receiver) as unknown
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value
      }
    })
    return dispatch(opts, wrapped as unknown as Dispatcher.DispatchHandler)
  })
}

function parse(header: string): Violation[] {
  try {
    return JSON.parse(header) as Violation[]
  } catch {
    return [{ location: ['sl-violations'], code: 'unparsed', message: header.slice(0, 500) }]
  }
}
