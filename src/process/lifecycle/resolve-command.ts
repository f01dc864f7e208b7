// The program a simple shell line starts, when it can be told without a shell.
const SHELL_WORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'select',
  'time',
  'exec',
  'eval',
  'cd',
  'export',
  'set',
  'unset',
  'source',
  '.',
  ':',
  'true',
  'false',
  'echo',
  'printf',
  'read',
  'test',
  '[',
  'trap',
  'wait',
  'exit',
  'return',
  'shift',
  'ulimit',
  'umask',
  'command',
  'builtin',
  'type',
  'alias',
  'kill',
  'let',
  'local',
]);

// The program a simple shell line starts (`npm run dev` → npm), when it can be told without a
// shell: a plain first word, not a keyword, builtin or VAR=value. Anything else returns undefined
// and is left to the shell (its exit 127 is then caught after the start).
export function firstProgramOfShellLine(line: string): string | undefined {
  const match = /^\s*([A-Za-z0-9_./+-]+)(?=\s|$)/.exec(line);
  const word = match?.[1];
  if (word === undefined || SHELL_WORDS.has(word)) return undefined;
  return word;
}
