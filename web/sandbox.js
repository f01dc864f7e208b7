// A server's sandbox in its details: the policy in force, whether it is on here, and its grants,
// changed through configure with the same checks as `hub-mcp servers configure` (docs/sandbox.md).
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from './api.js';

const lines = text =>
  text
    .split('\n')
    .map(line => line.trim())
    .filter(Boolean);
const hosts = text => text.split(/[\s,]+/).filter(Boolean);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const STATES = {
  on: ['ready', 'sandboxed'],
  off: ['failed', 'UNSANDBOXED'],
  unavailable: ['degraded', 'no sandbox here'],
  'n/a': ['disabled', 'no sandbox needed'],
};

const WARNING =
  "Without its sandbox this server reaches every file you can (~/.ssh, ~/.aws, HUB_HOME's db.json with every server's secrets) and this machine's network, localhost included.";

function Status({ sandbox }) {
  const [tone, label] = STATES[sandbox.state];
  return html`<p data-sandbox-state=${sandbox.state}>
      <span class=${`badge ${tone}`}>${label}</span> <span data-sandbox-line>${sandbox.line}</span>
    </p>
    ${
      sandbox.state === 'unavailable' &&
      html`<p class="error">
        No sandbox can run on this machine, so this server does not start: make bubblewrap work, or turn its sandbox off
        below.
      </p>`
    }
    <p class="sub">This machine: ${sandbox.machine}</p>`;
}

// Only what the person changed is sent: an old grant whose folder is gone does not block a new one.
function Settings({ name, settings, report, reload }) {
  const [network, setNetwork] = useState(Array.isArray(settings.network) ? 'hosts' : settings.network);
  const [unsandboxed, setUnsandboxed] = useState(!settings.enabled);
  const save = async event => {
    event.preventDefault();
    const form = new FormData(event.target);
    const read = lines(String(form.get('read')));
    const write = lines(String(form.get('write')));
    const reach = network === 'hosts' ? hosts(String(form.get('hosts'))) : network;
    const sandbox = {
      ...(unsandboxed === settings.enabled && { enabled: !unsandboxed }),
      ...(!same(read, settings.read) && { read }),
      ...(!same(write, settings.write) && { write }),
      ...(!same(reach, settings.network) && { network: reach }),
    };
    if (Object.keys(sandbox).length === 0) return report(`${name}: the sandbox settings are unchanged.`);
    try {
      await api(`servers/${encodeURIComponent(name)}/configure`, { sandbox });
      report(`${name}: sandbox settings saved.`);
      reload();
    } catch (failure) {
      report(failure.message, true);
    }
  };
  const id = `sandbox-${name}`;
  return html`<form class="filter" onSubmit=${save} aria-label=${`Sandbox settings of ${name}`}>
      <label
        >Network
        <select name="network" value=${network} onChange=${event => setNetwork(event.target.value)}>
          <option value="all">all: the network, not this machine's services (default)</option>
          <option value="host">host: this machine's network, localhost included</option>
          <option value="none">none: no network</option>
          <option value="hosts">only the hosts named</option>
        </select>
      </label>
      ${
        network === 'hosts' &&
        html`<label
          >Hosts (api.github.com, *.example.com:443)
          <input name="hosts" defaultValue=${Array.isArray(settings.network) ? settings.network.join(', ') : ''}
        /></label>`
      }
      <label
        >Also readable (absolute paths, one per line)
        <textarea name="read" rows="2" defaultValue=${settings.read.join('\n')}></textarea>
      </label>
      <label
        >Also writable (absolute paths or roots, one per line)
        <textarea name="write" rows="2" defaultValue=${settings.write.join('\n')}></textarea>
      </label>
      <label class="check"
        ><input
          type="checkbox"
          name="unsandboxed"
          checked=${unsandboxed}
          aria-describedby=${`${id}-warning`}
          onChange=${event => setUnsandboxed(event.target.checked)}
        />
        Run without the sandbox (--no-sandbox)</label
      >
      <button type="submit">Save sandbox</button>
    </form>
    <p id=${`${id}-warning`} class=${unsandboxed ? 'error' : 'sub'}>${WARNING}</p>`;
}

export function SandboxPanel({ name, sandbox, report, reload }) {
  if (!sandbox) return '';
  return html`<div role="region" aria-label="Sandbox">
    <h4>Sandbox</h4>
    <${Status} sandbox=${sandbox} />
    ${
      sandbox.applies &&
      html`<${Settings}
        key=${JSON.stringify(sandbox.settings)}
        name=${name}
        settings=${sandbox.settings}
        report=${report}
        reload=${reload}
      />`
    }
  </div>`;
}
