// Log lines of the fleet's many processes on one stream, each line prefixed with who wrote it.
import { Writable } from "node:stream";

export function prefixedLines(prefix: string, out: NodeJS.WritableStream): Writable {
  let partial = "";
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) out.write(`[${prefix}] ${line}\n`);
      done();
    },
    final(done) {
      if (partial) out.write(`[${prefix}] ${partial}\n`);
      done();
    },
  });
}
