// Reads npm's `--loglevel=http` output as a few steps a person can follow (resolving, fetching N
// packages, linking) and the warnings worth reporting; every other npm line is noise to a client.

export type NpmStep =
  | { readonly kind: 'resolving'; readonly requests: number }
  | { readonly kind: 'fetching'; readonly packages: number }
  | { readonly kind: 'linking' }
  | { readonly kind: 'done'; readonly summary: string };

// Config complaints about the user's own npmrc and npm's update notice say nothing about this install.
const NOISE_WARN = /^npm warn (Unknown (user|project|global|builtin|env|cli) config|invalid config|config )/i;

export interface NpmOutputReader {
  /** Feeds one line; returns the new step when this line changes it. */
  line(text: string): NpmStep | undefined;
  /** Called when npm has been quiet for a while after fetching: it is writing node_modules. */
  quiet(): NpmStep | undefined;
  readonly warnings: string[];
}

export function createNpmOutputReader(maxWarnings = 20): NpmOutputReader {
  const warnings: string[] = [];
  let lastWarnCode: string | undefined;
  let requests = 0;
  let packages = 0;
  let kind: NpmStep['kind'] | undefined;
  const addWarning = (text: string): void => {
    const match = /^npm warn (\S+)\s?(.*)$/i.exec(text);
    if (!match || NOISE_WARN.test(text)) {
      lastWarnCode = undefined;
      return;
    }
    const [, code = '', rest = ''] = match;
    // Multi-line warnings (EBADENGINE's object, ERESOLVE's tree) repeat the code on every line.
    if (code === lastWarnCode && (/^\s/.test(rest) || /^[}\]]/.test(rest) || rest === '') && warnings.length > 0) {
      warnings[warnings.length - 1] = `${warnings[warnings.length - 1] ?? ''} ${rest.trim()}`.trim();
      return;
    }
    lastWarnCode = code;
    const line = `${code} ${rest}`.trim();
    if (warnings.length < maxWarnings && !warnings.includes(line)) warnings.push(line);
  };
  return {
    warnings,
    line(text) {
      const trimmed = text.trimEnd();
      if (/^npm warn /i.test(trimmed)) {
        addWarning(trimmed);
        return undefined;
      }
      lastWarnCode = undefined;
      // Tarballs are packages being fetched; other GETs are metadata (resolving the tree).
      if (/^npm http (fetch|cache) /.test(trimmed)) {
        if (/\.tgz\b/.test(trimmed)) {
          packages += 1;
          // Steps only go forward: a tarball after a quiet spell already read as linking (npm
          // fetches and writes at once) is counted, not shown as fetching again.
          if (kind === 'linking' || kind === 'done') return undefined;
          kind = 'fetching';
          return { kind, packages };
        }
        requests += 1;
        if (kind === undefined || kind === 'resolving') {
          kind = 'resolving';
          return { kind, requests };
        }
        return undefined;
      }
      const done = /^(added|changed|removed|up to date)\b.*/.exec(trimmed);
      if (done) {
        kind = 'done';
        return { kind, summary: done[0] };
      }
      return undefined;
    },
    quiet() {
      if (kind !== 'fetching') return undefined;
      kind = 'linking';
      return { kind };
    },
  };
}

export function describeStep(step: NpmStep, spec: string): string {
  switch (step.kind) {
    case 'resolving':
      return `npm: resolving ${spec} (${step.requests} metadata ${step.requests === 1 ? 'request' : 'requests'})`;
    case 'fetching':
      return `npm: fetching packages (${step.packages} so far)`;
    case 'linking':
      return 'npm: linking packages into node_modules';
    case 'done':
      return `npm: ${step.summary}`;
  }
}
