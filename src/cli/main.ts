import { createCliContext } from './cli-context.ts';
import { COMMANDS } from './commands.ts';

/** `npx openibs <command>`: a thin client of the running server's token and admin APIs. */
async function main(): Promise<void> {
  const context = createCliContext(process.argv.slice(2), process.env);
  const name = context.positionals[0];
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined || context.options.help === true) {
    const usage = Object.values(COMMANDS).map((entry) => `  openibs ${entry.usage}`);
    process.stdout.write(`Usage:\n${usage.join('\n')}\n`);
    process.exitCode = name === undefined || context.options.help === true ? 0 : 1;
    return;
  }
  const result = await command.run(context);
  if (result === undefined) {
    // The command wrote its own output (a stream).
    return;
  }
  process.stdout.write(
    typeof result === 'string' ? `${result}\n` : `${JSON.stringify(result, null, 2)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`openibs: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
