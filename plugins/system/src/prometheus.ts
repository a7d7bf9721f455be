import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** One metric family of the Prometheus text format (version 0.0.4). */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'gauge' | 'counter' | 'summary';
  samples: { suffix?: string; labels?: Record<string, string>; value: number }[];
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const escapeHelp = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
const escapeLabel = (text: string) =>
  text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** Metric families as the Prometheus text exposition format. */
export function exposition(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels ?? {});
      const labelText = labels.length
        ? `{${labels.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}`
        : '';
      lines.push(`${family.name}${sample.suffix ?? ''}${labelText} ${formatValue(sample.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

interface RouteTotals {
  method: string;
  route: string;
  status: string;
  count: number;
  seconds: number;
}

/**
 * Requests answered by this process, per method, route pattern and status. Route patterns (not URLs) keep the
 * number of series bounded; requests no route matched share one "unmatched" route.
 */
export class RequestCounters {
  private readonly totals = new Map<string, RouteTotals>();

  record(method: string, route: string | undefined, status: number, seconds: number): void {
    const entry = { method, route: route ?? 'unmatched', status: String(status) };
    const key = `${entry.method} ${entry.status} ${entry.route}`;
    const totals = this.totals.get(key) ?? { ...entry, count: 0, seconds: 0 };
    totals.count += 1;
    totals.seconds += seconds;
    this.totals.set(key, totals);
  }

  families(): MetricFamily[] {
    const rows = [...this.totals.values()].sort(
      (a, b) =>
        a.route.localeCompare(b.route) ||
        a.method.localeCompare(b.method) ||
        a.status.localeCompare(b.status),
    );
    const labels = (row: RouteTotals) => ({ method: row.method, route: row.route, status: row.status });
    return [
      {
        name: 'pipewright_http_requests_total',
        help: 'HTTP requests answered by this server process, by method, route and status.',
        type: 'counter',
        samples: rows.map((row) => ({ labels: labels(row), value: row.count })),
      },
      {
        name: 'pipewright_http_request_duration_seconds',
        help: 'Time spent answering HTTP requests, by method, route and status.',
        type: 'summary',
        samples: rows.flatMap((row) => [
          { suffix: '_sum', labels: labels(row), value: row.seconds },
          { suffix: '_count', labels: labels(row), value: row.count },
        ]),
      },
    ];
  }
}

/** Event loop delay, sampled continuously; each scrape reports the time since the previous one. */
export class EventLoopLag {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  constructor() {
    this.histogram.enable();
  }

  families(): MetricFamily[] {
    const seconds = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? nanoseconds / 1e9 : 0);
    const { mean, max } = this.histogram;
    const p99 = this.histogram.percentile(99);
    this.histogram.reset();
    const gauge = (name: string, help: string, value: number): MetricFamily => ({
      name,
      help,
      type: 'gauge',
      samples: [{ value: seconds(value) }],
    });
    return [
      gauge('nodejs_eventloop_lag_mean_seconds', 'Mean event loop delay since the previous scrape.', mean),
      gauge(
        'nodejs_eventloop_lag_p99_seconds',
        '99th percentile of the event loop delay since the previous scrape.',
        p99,
      ),
      gauge('nodejs_eventloop_lag_max_seconds', 'Longest event loop delay since the previous scrape.', max),
    ];
  }

  close(): void {
    this.histogram.disable();
  }
}

/** Memory, CPU time and uptime of this process. */
export function processFamilies(startedAt: Date): MetricFamily[] {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const gauge = (name: string, help: string, value: number): MetricFamily => ({
    name,
    help,
    type: 'gauge',
    samples: [{ value }],
  });
  const counter = (name: string, help: string, value: number): MetricFamily => ({
    name,
    help,
    type: 'counter',
    samples: [{ value }],
  });
  return [
    gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', memory.rss),
    gauge('nodejs_heap_size_total_bytes', 'Size of the V8 heap in bytes.', memory.heapTotal),
    gauge('nodejs_heap_size_used_bytes', 'Used part of the V8 heap in bytes.', memory.heapUsed),
    gauge(
      'nodejs_external_memory_bytes',
      'Memory of C++ objects bound to JavaScript objects, in bytes.',
      memory.external,
    ),
    counter('process_cpu_user_seconds_total', 'User CPU time spent, in seconds.', cpu.user / 1e6),
    counter('process_cpu_system_seconds_total', 'System CPU time spent, in seconds.', cpu.system / 1e6),
    gauge(
      'process_start_time_seconds',
      'Start time of the server since the Unix epoch, in seconds.',
      startedAt.getTime() / 1000,
    ),
    gauge(
      'pipewright_uptime_seconds',
      'Seconds since the server process started.',
      (Date.now() - startedAt.getTime()) / 1000,
    ),
  ];
}
