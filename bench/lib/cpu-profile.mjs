import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: top self-time
// functions, self time by area (zod, SDK protocol, JSON, logging, store, hub, node internals, GC),
// and inclusive time (share of samples with that area anywhere on the stack).

const AREAS = [
  ['zod', /\/node_modules\/zod\//],
  ['ajv', /\/node_modules\/ajv/],
  ['sdk protocol', /\/@modelcontextprotocol\/sdk\/dist\/\w+\/shared\/protocol\.js/],
  ['sdk stdio framing', /\/@modelcontextprotocol\/sdk\/dist\/\w+\/(shared|server|client)\/stdio\.js/],
  ['sdk server/client', /\/@modelcontextprotocol\/sdk\/dist\/\w+\/(server|client)\/index\.js/],
  ['sdk other', /\/@modelcontextprotocol\/sdk\//],
  [
    'logging (pino)',
    /\/node_modules\/(pino|sonic-boom|thread-stream|pino-std-serializers|fast-redact|on-exit-leak-free|quick-format-unescaped)/,
  ],
  ['store (lowdb/hub store)', /\/node_modules\/(lowdb|steno)\/|\/dist\/store\//],
  ['hub proxy', /\/dist\/proxy\//],
  ['hub (other)', /\/dist\//],
  ['other node_modules', /\/node_modules\//],
  ['node internals', /^node:|^internal\//],
];

function areaOf(frame) {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'program (native/VM)';
  if (functionName === '(root)') return 'root';
  if (!url) {
    if (/^(parse|stringify)$/.test(functionName) || /^JSON/.test(functionName)) return 'JSON (native)';
    return 'native/builtin';
  }
  for (const [name, pattern] of AREAS) if (pattern.test(url)) return name;
  return 'other js';
}

const shortUrl = url =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/dist\//, 'dist/');
const label = frame =>
  `${frame.functionName || '(anonymous)'} ${frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '[native]'}`;

export function analyzeProfile(profile, { fromUs = 0, top = 20 } = {}) {
  const nodes = new Map(profile.nodes.map(node => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // Only samples taken after fromUs (the end of warm-up), when the clocks agree.
  const selfCount = new Map();
  let at = profile.startTime;
  let kept = 0;
  const clocksAgree = fromUs > profile.startTime && fromUs < profile.endTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (clocksAgree && at < fromUs) return;
    kept++;
    selfCount.set(id, (selfCount.get(id) ?? 0) + 1);
  });

  let idle = 0;
  for (const [id, count] of selfCount) if (nodes.get(id).callFrame.functionName === '(idle)') idle += count;
  const busy = kept - idle;
  const pct = count => Number(((count / busy) * 100).toFixed(1));

  const selfByFunction = new Map();
  const selfByArea = new Map();
  const inclusiveByArea = new Map();
  const zodCallers = new Map();
  const inclusiveByFunction = new Map();
  const stackCache = new Map();
  for (const [id, count] of selfCount) {
    const frame = nodes.get(id).callFrame;
    if (frame.functionName === '(idle)') continue;
    const key = label(frame);
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + count);
    const area = areaOf(frame);
    selfByArea.set(area, (selfByArea.get(area) ?? 0) + count);
    // Inclusive: every area present anywhere on this sample's stack, counted once.
    let info = stackCache.get(id);
    if (!info) {
      const areas = new Set();
      const functions = new Set();
      let zodCaller;
      let inZod = false;
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const f = nodes.get(at).callFrame;
        const a = areaOf(f);
        areas.add(a);
        if (a.startsWith('hub') || a === 'store (lowdb/hub store)') areas.add('hub dist/ (any)');
        if (f.url && a !== 'node internals' && a !== 'zod') functions.add(label(f));
        if (a === 'zod') inZod = true;
        else if (inZod && !zodCaller && a !== 'native/builtin') zodCaller = label(f);
        if (/^(parse|stringify)$/.test(f.functionName) && !f.url) areas.add(`JSON.${f.functionName} (inclusive)`);
      }
      info = { areas, functions, zodCaller };
      stackCache.set(id, info);
    }
    for (const area of info.areas) inclusiveByArea.set(area, (inclusiveByArea.get(area) ?? 0) + count);
    for (const fn of info.functions) inclusiveByFunction.set(fn, (inclusiveByFunction.get(fn) ?? 0) + count);
    if (info.zodCaller) zodCallers.set(info.zodCaller, (zodCallers.get(info.zodCaller) ?? 0) + count);
  }
  const sorted = map => [...map].sort((a, b) => b[1] - a[1]);
  const durationMs = (profile.endTime - (clocksAgree ? fromUs : profile.startTime)) / 1000;
  return {
    windowFromWarmUp: clocksAgree,
    samples: kept,
    busySamples: busy,
    durationMs: Math.round(durationMs),
    sampleIntervalUs: Math.round((profile.endTime - profile.startTime) / Math.max(1, profile.samples.length)),
    topSelf: sorted(selfByFunction)
      .slice(0, top)
      .map(([fn, count]) => ({ fn, pct: pct(count) })),
    selfByArea: sorted(selfByArea).map(([area, count]) => ({ area, pct: pct(count) })),
    inclusiveByArea: sorted(inclusiveByArea)
      .filter(([area]) => area !== 'root' && area !== 'other js')
      .map(([area, count]) => ({ area, pct: pct(count) })),
    // Total (inclusive) time of JS functions outside node internals and zod: the call paths.
    topInclusive: sorted(inclusiveByFunction)
      .slice(0, 30)
      .map(([fn, count]) => ({ fn, pct: pct(count) })),
    zodCalledFrom: sorted(zodCallers)
      .slice(0, 10)
      .map(([fn, count]) => ({ fn, pct: pct(count) })),
  };
}

export async function readProfileIn(dir) {
  const files = (await readdir(dir)).filter(f => f.endsWith('.cpuprofile'));
  if (files.length === 0) return undefined;
  return JSON.parse(await readFile(join(dir, files[0]), 'utf8'));
}

/** A short human summary of an analysis, for the bench's stdout. */
export function describeAnalysis(name, a) {
  const lines = [`${name}: ${a.busySamples} busy samples over ${a.durationMs} ms`];
  lines.push(
    `  self time by area: ${a.selfByArea
      .slice(0, 10)
      .map(x => `${x.area} ${x.pct}%`)
      .join(', ')}`,
  );
  lines.push(
    `  on the stack (inclusive): ${a.inclusiveByArea
      .slice(0, 12)
      .map(x => `${x.area} ${x.pct}%`)
      .join(', ')}`,
  );
  lines.push(
    `  zod called from: ${
      a.zodCalledFrom
        .slice(0, 5)
        .map(x => `${x.fn} ${x.pct}%`)
        .join('; ') || '—'
    }`,
  );
  lines.push('  top self time:');
  for (const x of a.topSelf.slice(0, 12)) lines.push(`    ${String(x.pct).padStart(5)}%  ${x.fn}`);
  lines.push('  top total time (JS outside node internals and zod):');
  for (const x of a.topInclusive.slice(0, 15)) lines.push(`    ${String(x.pct).padStart(5)}%  ${x.fn}`);
  return lines.join('\n');
}
