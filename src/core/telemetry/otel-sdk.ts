// OpenTelemetry's SDK wired to hub: tracer and meter on the OTLP exporters, loaded only when asked.
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator, setGlobalErrorHandler } from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../logger.js';
import type { OtelSettings, OtlpProtocol } from './otel-env.js';
import {
  activeSpan,
  sessionId,
  type CallDescription,
  type OpenSpan,
  type SpanEnd,
  type Telemetry,
} from './telemetry.js';
import { HUB_VERSION } from '../version.js';

// Loaded by telemetry-start.ts with import(), only when OTEL_* asks for it (docs/telemetry.md).
// The exporters read OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT and their per-signal forms
// themselves; the batch span processor reads OTEL_BSP_*; envDetector OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES.

type On = Extract<OtelSettings, { kind: 'on' }>;

async function spanExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  if (protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

async function metricExporter(protocol: OtlpProtocol): Promise<PushMetricExporter> {
  if (protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter();
  return new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter();
}

/** Problems that must never reach a tool call: counted, and each kind said once in hub's log. */
class Problems {
  readonly counts = { exportFailed: 0, malformedTraceparent: 0 };
  constructor(
    private readonly log: Logger,
    private readonly endpoint: string,
  ) {}

  exportFailed(error: unknown): void {
    if (this.counts.exportFailed++ > 0) return;
    const reason = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'unknown error';
    this.log.warn(
      `telemetry: could not export to ${this.endpoint} (${reason}); tool calls go on unchanged, and later failures are only counted (the count is logged when hub stops).`,
    );
  }

  malformed(): void {
    if (this.counts.malformedTraceparent++ > 0) return;
    this.log.warn(
      'telemetry: a request carried a _meta.traceparent that is not W3C trace context (00-<32 hex>-<16 hex>-<2 hex>); it is ignored and the call is traced as a new trace. Later ones are only counted.',
    );
  }
}

const traceparentOf = (span: Span): string => {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
};

/** Builds hub's tracer and meter on the configured OTLP exporters. */
export async function createOtel(settings: On, log: Logger): Promise<Telemetry> {
  const problems = new Problems(log, settings.endpoint);
  // The SDK reports failed exports here (never by throwing into a call).
  setGlobalErrorHandler(error => problems.exportFailed(error));
  const resource = resourceFromAttributes({ 'service.name': 'hub', 'service.version': HUB_VERSION }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const tracerProvider = settings.traces
    ? new BasicTracerProvider({
        resource,
        spanProcessors: [new BatchSpanProcessor(await spanExporter(settings.traces))],
      })
    : undefined;
  const meterProvider = settings.metrics
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: await metricExporter(settings.metrics),
            exportIntervalMillis: settings.metricIntervalMs,
            exportTimeoutMillis: Math.min(30_000, settings.metricIntervalMs),
          }),
        ],
      })
    : undefined;
  const tracer = tracerProvider?.getTracer('hub', HUB_VERSION);
  const meter = meterProvider?.getMeter('hub', HUB_VERSION);
  const calls = meter?.createCounter('hub.tool.calls', { description: 'Tool calls hub answered, by server and tool' });
  const errors = meter?.createCounter('hub.tool.errors', {
    description: 'Tool calls that failed or answered isError, by server, tool and error.type',
  });
  const duration = meter?.createHistogram('hub.tool.duration', {
    description: 'How long a tool call took in hub, from the request to the answer',
    unit: 'ms',
  });
  const propagator = new W3CTraceContextPropagator();

  // The caller's trace context: the hub span this runs in, else the request's _meta.traceparent.
  const parentOf = (meta: Record<string, unknown> | undefined): Context => {
    const within = activeSpan();
    if (within !== undefined) return contextOf(within.traceparent);
    const given = meta?.traceparent;
    if (given === undefined) return ROOT_CONTEXT;
    if (typeof given !== 'string' || given.length > 128) return (problems.malformed(), ROOT_CONTEXT);
    const tracestate = typeof meta?.tracestate === 'string' && meta.tracestate.length <= 512 ? meta.tracestate : '';
    const context = contextOf(given, tracestate);
    if (trace.getSpanContext(context) === undefined) problems.malformed();
    return context;
  };
  const contextOf = (traceparent: string, tracestate = ''): Context =>
    propagator.extract(ROOT_CONTEXT, { traceparent, tracestate }, defaultTextMapGetter);

  const open = (span: Span, onEnd?: (how: SpanEnd, attributes: Attributes) => void): OpenSpan => {
    const started = performance.now();
    return {
      traceparent: traceparentOf(span),
      end(how) {
        span.setAttribute('hub.outcome', how.outcome);
        if (how.errorType !== undefined) span.setAttribute('error.type', how.errorType);
        if (how.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        onEnd?.(how, { elapsed: performance.now() - started });
      },
    };
  };
  const noSpan = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });

  return {
    startCall(call: CallDescription): OpenSpan {
      const session = sessionId(call.session);
      const method = call.method ?? 'tools/call';
      const attributes: Attributes = {
        'mcp.method.name': method,
        ...(method === 'tools/call' && { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.tool }),
        'hub.server': call.server,
        ...(session !== undefined && { 'mcp.session.id': session }),
      };
      const parent = parentOf(call.meta);
      // Other requests are named by their server alone (a resource URI can hold a token).
      if (method !== 'tools/call')
        return open(
          tracer?.startSpan(`${method} ${call.server}`, { kind: SpanKind.SERVER, attributes }, parent) ?? noSpan,
        );
      const span =
        tracer?.startSpan(
          `tools/call ${call.server === 'hub' ? '' : `${call.server}.`}${call.tool}`,
          { kind: SpanKind.SERVER, attributes },
          parent,
        ) ?? noSpan;
      const labels = { 'hub.server': call.server, 'gen_ai.tool.name': call.tool };
      return open(span, (how, { elapsed }) => {
        calls?.add(1, { ...labels, 'hub.outcome': how.outcome });
        if (how.outcome !== 'ok') errors?.add(1, { ...labels, 'error.type': how.errorType ?? how.outcome });
        duration?.record(elapsed as number, labels);
      });
    },
    startSpan(name, attributes) {
      const parent = parentOf(undefined);
      return open(tracer?.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent) ?? noSpan);
    },
    async shutdown() {
      await Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
      const { exportFailed, malformedTraceparent } = problems.counts;
      if (exportFailed + malformedTraceparent > 0)
        log.info({ exportFailed, malformedTraceparent }, 'telemetry: problems counted while hub ran');
    },
  };
}
