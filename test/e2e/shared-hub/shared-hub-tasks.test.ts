// Tasks on one shared hub belong to the session that created them: two clients share one task
// server child; one client's task is invisible to the other (get, result, list, cancel answer as
// for an unknown id) and its status notifications reach only its owner.
import { join } from 'node:path';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  TaskStatusNotificationSchema,
  type ClientCapabilities,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const TASKS: ClientCapabilities = { tasks: { list: {}, cancel: {} } };

const statusesOf = (hub: HubSession): Task[] => {
  const seen: Task[] = [];
  hub.client.setNotificationHandler(TaskStatusNotificationSchema, notice => void seen.push(notice.params));
  return seen;
};

test(
  "a session's task is its own on a shared hub: not seen, read, listed or cancelled by another",
  {
    timeout: 60_000,
  },
  async () => {
    const home = await makeHubHome();
    await putRecords(
      openStore(loadConfig({ HUB_HOME: home }).paths),
      commandRecord('alpha', [fixture('task-server.mjs')], {
        env: { TASK_LABEL: 'alpha', TASK_EVENTS: join(home, 'alpha.events') },
      }),
    );
    const env = { HUB_TOOL_NAMES: 'dotted' };
    const owner = await spawnHub(home, { env, clientName: 'owner', capabilities: TASKS });
    const other = await spawnHub(home, { env, clientName: 'other', capabilities: TASKS });
    try {
      const ownerStatuses = statusesOf(owner);
      const otherStatuses = statusesOf(other);
      await owner.call('registry.call', { server: 'alpha', tool: 'plain', arguments: { word: 'start' } });
      await vi.waitFor(
        async () => expect((await owner.client.listTools()).tools.map(t => t.name)).toContain('alpha.slow'),
        { timeout: 10_000 },
      );
      const created = await owner.client.request(
        {
          method: 'tools/call',
          params: { name: 'alpha.slow', arguments: { ms: 100, steps: 3 }, task: { ttl: 60_000 } },
        },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;

      // The other session: as if the id did not exist.
      await expect(other.client.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
      await expect(other.client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/not found/i);
      await expect(
        other.client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema),
      ).rejects.toThrow(/not found/i);
      expect((await other.client.experimental.tasks.listTasks()).tasks).toEqual([]);

      // The owner: its statuses, its list, its result.
      const result = await owner.client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
      expect(textOf(result)).toBe('alpha: 3 steps done in task-1');
      await vi.waitFor(() => expect(ownerStatuses.map(task => task.statusMessage)).toContain('alpha: step 3 of 3'), {
        timeout: 5_000,
      });
      expect(ownerStatuses.every(task => task.taskId === taskId)).toBe(true);
      expect((await owner.client.experimental.tasks.listTasks()).tasks.map(task => task.taskId)).toEqual([taskId]);
      expect(otherStatuses).toEqual([]);
    } finally {
      await Promise.all([owner.close(), other.close()]);
    }
  },
);
