import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** One POST the receiver got. */
export interface OtlpPost {
  readonly path: string;
  readonly contentType: string;
  readonly authorization: string | undefined;
  readonly body: Buffer;
}

/** A span as OTLP/JSON carries it (ids in hex). */
export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
}

/** A local OTLP/HTTP receiver (a collector's HTTP receiver, as far as hub can tell) on 127.0.0.1. */
export async function otlpReceiver(): Promise<{ endpoint: string; posts: OtlpPost[]; spans(): OtlpSpan[] }> {
  const posts: OtlpPost[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      posts.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks),
      });
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/json' });
      response.end(request.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>(resolve => server.close(() => resolve())));
  const spans = (): OtlpSpan[] =>
    posts
      .filter(post => post.path === '/v1/traces' && post.contentType.includes('json'))
      .flatMap(post => {
        const body = JSON.parse(post.body.toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: (Omit<OtlpSpan, 'attributes'> & { attributes?: Attribute[] })[] }[] }[];
        };
        return body.resourceSpans.flatMap(resource =>
          resource.scopeSpans.flatMap(scope =>
            scope.spans.map(span => ({ ...span, attributes: attributesOf(span.attributes) })),
          ),
        );
      });
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posts, spans };
}

interface Attribute {
  key: string;
  value: Record<string, unknown>;
}

const attributesOf = (list: Attribute[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
