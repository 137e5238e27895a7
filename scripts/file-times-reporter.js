// A node:test reporter for scripts/run-tests.js: per test file, the seconds its top-level tests
// and suites took (hooks inside them included; the process start and imports are not), written
// as one JSON object once the run ends.
export default async function* fileTimes(source) {
  const seconds = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ?? '(no file)';
      seconds[file] = (seconds[file] ?? 0) + (event.data.details.duration_ms ?? 0) / 1000;
    }
  }
  yield `${JSON.stringify(seconds)}\n`;
}
