// get_free_port across hubs: every hub is its own process (get-port's in-process memory cannot
// help), all share one HUB_HOME, and no port may be handed out twice within its reservation.
import { describe, expect, onTestFinished, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, type HubSession } from '../../helpers/hub.js';
import { overlappingHandouts, type Handout } from '../../helpers/ports.js';

const soak = process.env.HUB_SOAK === '1';
const HUBS = 8;
const CALLS = soak ? 200 : 15;

describe('get_free_port', () => {
  test(`${HUBS} hubs × ${CALLS} calls on one HUB_HOME: no port is handed out twice within its reservation`, async () => {
    const home = await makeHubHome();
    const hubs: HubSession[] = await Promise.all(Array.from({ length: HUBS }, () => spawnHub(home)));
    onTestFinished(async () => {
      await Promise.all(hubs.map(hub => hub.close()));
    });
    const handouts: Handout[] = [];
    await Promise.all(
      hubs.map(async hub => {
        for (let call = 0; call < CALLS; call += 1) {
          const result = await hub.call('get_free_port');
          expect(result.isError).toBeFalsy();
          const port = result.structuredContent as { port: number; reserved_until: string };
          handouts.push({ port: port.port, until: Date.parse(port.reserved_until) });
        }
      }),
    );
    expect(handouts).toHaveLength(HUBS * CALLS);
    expect(overlappingHandouts(handouts, 30_000)).toEqual([]);
  }, 120_000);
});
