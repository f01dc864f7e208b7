// The sandbox flags of `hub servers configure` as a sandbox request.
import { HubError } from '../../core/errors.js';
import { SandboxRequestSchema, type SandboxRequest } from '../../registry/installed/sandbox-settings.js';

// `hub servers configure --no-sandbox | --sandbox-read PATH | --sandbox-write PATH|roots | --network all|none|host|HOST,...`.

export interface SandboxFlags {
  readonly sandbox?: boolean | undefined;
  readonly 'no-sandbox'?: boolean | undefined;
  readonly 'sandbox-read'?: string[] | undefined;
  readonly 'sandbox-write'?: string[] | undefined;
  readonly 'no-sandbox-read'?: boolean | undefined;
  readonly 'no-sandbox-write'?: boolean | undefined;
  readonly network?: string | undefined;
}

export function sandboxRequest(values: SandboxFlags): SandboxRequest | undefined {
  if (values.sandbox && values['no-sandbox'])
    throw new HubError('INVALID_INPUT', 'Give --sandbox or --no-sandbox, not both.');
  const given = values.network;
  // all | none | host, or host names separated by commas: only those.
  const asked = given === undefined || ['all', 'none', 'host'].includes(given) ? given : given.split(',');
  const parsed = SandboxRequestSchema.shape.network.safeParse(asked);
  if (!parsed.success)
    throw new HubError(
      'INVALID_INPUT',
      `--network "${given}": give all (the network but not this machine's services, the default), host (this machine's network, localhost included), none (no network at all), or host names separated by commas (api.github.com,*.example.com:443): only those.`,
    );
  const network = parsed.data;
  const read = values['no-sandbox-read'] ? [] : values['sandbox-read'];
  const write = values['no-sandbox-write'] ? [] : values['sandbox-write'];
  const request: SandboxRequest = {
    ...((values.sandbox || values['no-sandbox']) && { enabled: values.sandbox === true }),
    ...(read && { read }),
    ...(write && { write }),
    ...(network !== undefined && { network }),
  };
  return Object.keys(request).length > 0 ? request : undefined;
}
