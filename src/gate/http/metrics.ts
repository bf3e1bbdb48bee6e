/** The gate's Prometheus metrics (/metrics), on a registry of its own so two gates in one process do not mix. */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

export class GateMetrics {
  readonly registry = new Registry()
  readonly webhooks = new Counter({
    name: 'gate_webhooks_total',
    help: 'Webhooks answered, by HTTP status',
    labelNames: ['status'],
    registers: [this.registry]
  })
  readonly webhookSeconds = new Histogram({
    name: 'gate_webhook_answer_seconds',
    help: 'From a webhook received to its answer sent',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry]
  })
  readonly refusedOperators = new Counter({
    name: 'gate_operator_refusals_total',
    help: 'Operator requests refused for a missing or unknown token',
    registers: [this.registry]
  })
  readonly streams = new Gauge({
    name: 'gate_event_streams',
    help: 'Operators connected to the event stream',
    registers: [this.registry]
  })

  constructor(openPrompts: () => number) {
    new Gauge({
      name: 'gate_prompts_open',
      help: 'Payments waiting for an operator',
      registers: [this.registry],
      collect() {
        this.set(openPrompts())
      }
    })
    collectDefaultMetrics({ register: this.registry, prefix: 'gate_' })
  }
}
