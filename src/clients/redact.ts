// Env values are never printed; args are, so the obvious secrets in them are masked too.
const SECRET_FLAG = /^--?[\w-]*(key|token|secret|password|passwd|auth|credential)[\w-]*$/i;

export function redactArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1]! : '';
    if (SECRET_FLAG.test(previous) && !arg.startsWith('-')) return '***';
    const inline = /^(--?[\w-]*(?:key|token|secret|password|passwd|auth|credential)[\w-]*=).+$/i.exec(arg);
    if (inline) return `${inline[1]}***`;
    return arg.replace(/(\/\/[^/:@\s]+:)[^@/\s]+@/, '$1***@').replace(/(bearer\s+)\S+/i, '$1***');
  });
}
