// Preloaded into a tool server for measurements only (node --expose-gc --require this-file): on SIGUSR2
// it runs a full garbage collection and prints the live heap on stderr. An idle Node process never
// collects by itself, so without this "memory after the load" would be garbage nobody has swept yet.
process.on("SIGUSR2", () => {
  global.gc();
  process.stderr.write(`gc-on-signal heapUsed=${process.memoryUsage().heapUsed}\n`);
});
