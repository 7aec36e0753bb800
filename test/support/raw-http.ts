// One raw HTTP exchange with headers exactly as given: what a load balancer's probe or a metrics
// scraper sends (Host set to the replica's address, no Origin, no token), which fetch would not allow.
import { type IncomingHttpHeaders, request } from "node:http";

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function probe(
  url: string,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port: Number(target.port),
      method,
      path,
      headers: { host: target.host, ...headers },
      agent: false,
      timeout: 10_000,
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 10 s")));
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.end(body);
  });
}
