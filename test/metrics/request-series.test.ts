import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestSeries, registerCollected } from '../../src/metrics/request-series.js';
import { parsePrometheus } from '../harness/prometheus.js';

// The request series count in plain numbers and let prom-client's Registry write them: a scrape must read exactly what
// prom-client's own Counter and Histogram would have written for the same answers.

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LABELS = ['method', 'route', 'status'] as const;

interface Answer {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/** The exposition's samples, each as one line with its labels in name order (the two writers order them differently). */
function samples(text: string): string[] {
  return parsePrometheus(text)
    .map(({ name, labels, value }) => `${name}{${Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}="${v}"`).join(',')}} ${value}`)
    .sort();
}

async function ours(answers: Answer[]): Promise<string> {
  const series = new RequestSeries(BUCKETS);
  const registry = new Registry();
  registerCollected(registry, series.counter('http_requests_total', 'answers'));
  registerCollected(registry, series.histogram('http_request_duration_seconds', 'latency'));
  for (const a of answers) series.record(a.method, a.route, a.status, a.seconds);
  return registry.metrics();
}

async function promClients(answers: Answer[]): Promise<string> {
  const registry = new Registry();
  const counter = new Counter({ name: 'http_requests_total', help: 'answers', labelNames: LABELS, registers: [registry] });
  const histogram = new Histogram({ name: 'http_request_duration_seconds', help: 'latency', labelNames: LABELS, buckets: BUCKETS, registers: [registry] });
  for (const a of answers) {
    const labels = { method: a.method, route: a.route, status: String(a.status) };
    counter.inc(labels);
    histogram.observe(labels, a.seconds);
  }
  return registry.metrics();
}

const answer = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  route: fc.constantFrom('/v1/integrator/whoami', '/v1/events/:eventId', 'unmatched'),
  status: fc.constantFrom(200, 201, 401, 404, 500),
  // Every bound itself too: a value on a bound counts in that bucket (le is "less than or equal").
  seconds: fc.oneof(fc.constantFrom(0, ...BUCKETS), fc.double({ min: 0, max: 60, noNaN: true })),
});

describe('request series (GET /metrics)', () => {
  it('reads as prom-client’s Counter and Histogram would have for the same answers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { maxLength: 60 }), async (answers) => {
        assert.deepEqual(samples(await ours(answers)), samples(await promClients(answers)));
      }),
      { numRuns: 200 },
    );
  });

  it('writes the buckets cumulatively, then +Inf, _sum and _count', async () => {
    const text = await ours([
      { method: 'GET', route: '/r', status: 200, seconds: 0.005 },
      { method: 'GET', route: '/r', status: 200, seconds: 0.3 },
      { method: 'GET', route: '/r', status: 200, seconds: 45 },
    ]);
    const lines = samples(text);
    assert.ok(lines.includes('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/r",status="200"} 1'));
    assert.ok(lines.includes('http_request_duration_seconds_bucket{le="0.25",method="GET",route="/r",status="200"} 1'));
    assert.ok(lines.includes('http_request_duration_seconds_bucket{le="0.5",method="GET",route="/r",status="200"} 2'));
    assert.ok(lines.includes('http_request_duration_seconds_bucket{le="30",method="GET",route="/r",status="200"} 2'));
    assert.ok(lines.includes('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/r",status="200"} 3'));
    assert.ok(lines.includes('http_request_duration_seconds_sum{method="GET",route="/r",status="200"} 45.305'));
    assert.ok(lines.includes('http_request_duration_seconds_count{method="GET",route="/r",status="200"} 3'));
    assert.ok(lines.includes('http_requests_total{method="GET",route="/r",status="200"} 3'));
    assert.match(text, /# TYPE http_request_duration_seconds histogram/);
    assert.match(text, /# TYPE http_requests_total counter/);
  });
});
