export interface Handout {
  readonly port: number;
  /** reserved_until, epoch ms. */
  readonly until: number;
}

/** Handouts of one port made before the previous handout's reservation of it ended. */
export function overlappingHandouts(handouts: readonly Handout[], reservationMs: number): string[] {
  const byPort = new Map<number, number[]>();
  for (const { port, until } of handouts) byPort.set(port, [...(byPort.get(port) ?? []), until]);
  const clashes: string[] = [];
  for (const [port, untils] of byPort) {
    untils.sort((a, b) => a - b);
    for (let i = 1; i < untils.length; i += 1) {
      const given = (untils[i] ?? 0) - reservationMs;
      if (given < (untils[i - 1] ?? 0))
        clashes.push(
          `port ${port} handed out at ${new Date(given).toISOString()} while reserved until ${new Date(untils[i - 1] ?? 0).toISOString()}`,
        );
    }
  }
  return clashes;
}
