// Preloaded into a tool server for measurements only (node --expose-gc --require this-file): on SIGUSR2
// it runs a full garbage collection and prints the live heap on stderr. An idle Node process never
// collects by itself, so without this "memory after the load" would be garbage nobody has swept yet.
process.on("SIGUSR2", () => {
  global.gc();
  // Newer V8 (Node 24) keeps the pages a collection frees in a pool, and gives them back to the system
  // only on a memory-reducing ("last resort") collection: without this one its RSS stays at the load's
  // peak whatever the live heap. Node 20 has collected fully above and takes this as one more collection.
  global.gc({ type: "major", execution: "sync", flavor: "last-resort" });
  process.stderr.write(`gc-on-signal heapUsed=${process.memoryUsage().heapUsed}\n`);
});
