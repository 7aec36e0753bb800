// GET a small JSON document over HTTPS trusting given CAs: how an emulator reads an identity provider's
// discovery document and keys, or a client's metadata document. Bounded in time and size, and never
// following a redirect (a document must be served at its own URL).
import { request } from "node:https";

export interface GetJsonLimits {
  /** Default 5000. */
  timeoutMs?: number;
  /** Default 1 MiB. */
  maxBytes?: number;
}

export function getJson(url: string, ca: string[], limits: GetJsonLimits = {}): Promise<unknown> {
  const timeoutMs = limits.timeoutMs ?? 5000;
  const maxBytes = limits.maxBytes ?? 1024 * 1024;
  return new Promise((resolve, rejectOnce) => {
    if (!url.startsWith("https://")) return rejectOnce(new Error("not an https URL"));
    // The first failure wins: a response cut for its size must not then end as "not JSON".
    let failed = false;
    const reject = (error: Error) => {
      failed = true;
      rejectOnce(error);
    };
    const req = request(
      url,
      { method: "GET", ca, agent: false, timeout: timeoutMs, headers: { accept: "application/json" } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxBytes) chunks.push(chunk);
          else if (!failed) {
            reject(new Error("response too large"));
            req.destroy();
          }
        });
        res.on("error", reject);
        res.on("end", () => {
          if (failed) return;
          if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          } catch {
            reject(new Error("not JSON"));
          }
        });
      },
    );
    // The whole exchange is bounded, not only idle gaps: a document trickled byte by byte is cut too.
    const deadline = setTimeout(() => req.destroy(new Error("timed out")), timeoutMs);
    req.on("close", () => clearTimeout(deadline));
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}
