import http from 'node:http';

/** What a browser sends as `Accept-Encoding`. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** A GET as a browser asks (its `Accept-Encoding`), read to the end: its status, encoding and bytes on the wire. */
export function browserGet(target: { host: string; port: string; agent: http.Agent }, path: string): Promise<{ status: number; encoding: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ ...target, path, headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: String(res.headers['content-encoding'] ?? 'identity'), bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
