// hub's version, read once from the package.json shipped beside dist/.
import { readFileSync } from 'node:fs';

// Read once from the package.json that ships beside dist/.
export const HUB_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
})();
