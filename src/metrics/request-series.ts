import type { Metric, MetricValue, MetricValueWithName, Registry } from 'prom-client';

/** One (method, route, status): its answers, their summed duration, and how many fell in each latency bucket. */
interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Per bucket, not cumulative: the buckets' upper bounds in order, then one more past the last (+Inf). */
  inBucket: Float64Array;
}

/** What prom-client's Registry reads of a metric (registerMetric, metrics(), getMetricsAsJSON()). */
export interface CollectedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<Omit<CollectedMetric, 'get'> & { values: MetricValue<string>[] }>;
}

/**
 * The HTTP request counter and latency histogram of /metrics, counted in plain numbers on each answer and turned
 * into prom-client's form only when scraped. prom-client's own Counter and Histogram (even bound with `labels()`)
 * check and hash their labels and walk objects on every `inc` and `observe`: about 2 µs of the event loop per
 * request under the whoami bench, where this costs a Map lookup and a few additions (docs/benchmarks.md). The text
 * a scrape gets is prom-client's, written by its Registry from these values, as for its own metrics.
 */
export class RequestSeries {
  private readonly series = new Map<string, Series>();

  constructor(private readonly buckets: readonly number[]) {}

  /** One answered request; `seconds` from the request's arrival to its answer's end. */
  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, count: 0, sum: 0, inBucket: new Float64Array(this.buckets.length + 1) };
      this.series.set(key, series);
    }
    series.count++;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < this.buckets.length && seconds > this.buckets[bucket]!) bucket++;
    series.inBucket[bucket]!++;
  }

  /** The counter of answers, by method, route and status. */
  counter(name: string, help: string): CollectedMetric {
    const values = (): MetricValue<string>[] => [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.count }));
    return collected(name, help, 'counter', values);
  }

  /** The latency histogram: cumulative buckets (le), +Inf, _sum and _count per series, as prom-client's Histogram. */
  histogram(name: string, help: string): CollectedMetric {
    const values = (): MetricValueWithName<string>[] =>
      [...this.series.values()].flatMap((s) => {
        let cumulative = 0;
        const buckets = this.buckets.map((le, i) => {
          cumulative += s.inBucket[i]!;
          return { labels: { ...s.labels, le }, value: cumulative, metricName: `${name}_bucket` };
        });
        return [
          ...buckets,
          { labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${name}_bucket` },
          { labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` },
          { labels: { ...s.labels }, value: s.count, metricName: `${name}_count` },
        ];
      });
    return collected(name, help, 'histogram', values);
  }
}

/** Registers one of these with a prom-client Registry, which reads any object of this shape as it reads its own metrics. */
export function registerCollected(registry: Registry, metric: CollectedMetric): void {
  registry.registerMetric(metric as unknown as Metric);
}

function collected(name: string, help: string, type: CollectedMetric['type'], values: () => MetricValue<string>[]): CollectedMetric {
  return { name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) };
}
