import { request as httpRequest } from "node:http";

/** A raw HTTP request, so that any Host, Origin or body can be sent. */
export function send(
  port: number,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
  path = "/v1/traces",
): Promise<{ status: number; body: Buffer; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            body: Buffer.concat(chunks),
            type: res.headers["content-type"],
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
