// Types for the two files of undici the API client loads on their own (api-client.ts says why). undici types only
// its index; these are the same classes and function as the index re-exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici'
  const agent: typeof Agent
  export = agent
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici'
  /** Dispatcher.request, unbound: called with the dispatcher as `this`. */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>
  export = request
}
