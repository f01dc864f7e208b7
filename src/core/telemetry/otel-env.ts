// Whether and how hub exports OpenTelemetry, from the standard OTEL_* variables
// (docs/telemetry.md). Zero dependencies: this runs in every hub, configured or not.

type Env = Readonly<Record<string, string | undefined>>;

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type OtelSettings =
  | { readonly kind: 'off' }
  /** Configured, but in a way hub cannot honour: said once in hub's log, nothing exported. */
  | { readonly kind: 'refused'; readonly why: string }
  | {
      readonly kind: 'on';
      readonly traces?: OtlpProtocol;
      readonly metrics?: OtlpProtocol;
      /** Where the metrics go, for the log line (never its headers). */
      readonly endpoint: string;
      /** OTEL_METRIC_EXPORT_INTERVAL, in ms. */
      readonly metricIntervalMs: number;
    };

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

function protocolOf(env: Env, signal: 'TRACES' | 'METRICS'): OtlpProtocol | { refused: string } {
  const name = set(env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`])
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = (env[name] ?? '').trim() || 'http/protobuf';
  if (value === 'http/protobuf' || value === 'http/json') return value;
  if (value === 'grpc')
    return {
      refused: `${name}=grpc: hub exports OTLP over HTTP only (no gRPC library is bundled). Set ${name}=http/protobuf and point OTEL_EXPORTER_OTLP_ENDPOINT at the collector's HTTP receiver (usually port 4318).`,
    };
  return { refused: `${name}="${value.slice(0, 40)}" is not a protocol hub knows: use http/protobuf or http/json.` };
}

/** What the OTEL_* variables ask of hub. */
export function otelSettings(env: Env): OtelSettings {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return { kind: 'off' };
  const generic = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const wanted = (signal: 'TRACES' | 'METRICS') =>
    (env[`OTEL_${signal}_EXPORTER`] ?? 'otlp').trim() !== 'none' &&
    (set(generic) || set(env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]));
  const traces = wanted('TRACES');
  const metrics = wanted('METRICS');
  if (!traces && !metrics) return { kind: 'off' };
  const tracesProtocol = traces ? protocolOf(env, 'TRACES') : undefined;
  const metricsProtocol = metrics ? protocolOf(env, 'METRICS') : undefined;
  for (const protocol of [tracesProtocol, metricsProtocol])
    if (typeof protocol === 'object') return { kind: 'refused', why: protocol.refused };
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return {
    kind: 'on',
    ...(tracesProtocol !== undefined && { traces: tracesProtocol as OtlpProtocol }),
    ...(metricsProtocol !== undefined && { metrics: metricsProtocol as OtlpProtocol }),
    endpoint: shown(
      set(generic) ? generic : (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT),
    ),
    metricIntervalMs: Number.isFinite(interval) && interval >= 100 ? interval : 60_000,
  };
}

// The endpoint as the log may show it: no user, password or query (they can hold a token).
function shown(url: string | undefined): string {
  try {
    const parsed = new URL(url ?? '');
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return 'an endpoint that is not a URL';
  }
}
