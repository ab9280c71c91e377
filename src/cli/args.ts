// node:util parseArgs for every command, with a mistyped flag answered as a person would: `unknown option
// --horizn; did you mean --horizon?` instead of Node's generic "Unknown option '--horizn'. To specify a
// positional argument starting with a '-', …". The command's own usage error carries it (exit 2 and its usage).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../forecasting/did-you-mean.ts';

/** parseArgs(config), an unknown option becoming `fail(message)` with the nearest known option named. */
export function parseCliArgs<T extends ParseArgsConfig>(config: T, fail: (message: string) => Error): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw error;
    const given = /'(-{1,2}[^'\s]+)'/.exec((error as Error).message)?.[1] ?? '';
    throw fail(unknownOptionMessage(given, Object.keys(config.options ?? {})));
  }
}

/** `unknown option --horizn; did you mean --horizon?` (or the options there are, when none is near). */
export function unknownOptionMessage(given: string, options: string[]): string {
  const name = given.replace(/^-+/, '').split('=')[0];
  const near = name.length > 1 ? closest(name, options) : null;
  const shown = given.split('=')[0];
  return near ? `unknown option ${shown}; did you mean --${near}?` : `unknown option ${shown}; the options are ${options.map((o) => `--${o}`).join(', ')}`;
}
