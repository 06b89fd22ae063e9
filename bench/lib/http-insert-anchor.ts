/**
 * A second anchor for votes: the least an HTTP write can cost on this machine. A bare `node:http`
 * server (no framework, no logging) that reads each POST's JSON body, runs one `INSERT` into
 * `bench_insert_anchor` over a pool of `POOL` connections and answers a small JSON object. Prints
 * `listening <port>` once it listens; stops on SIGTERM.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: Number(process.env.POOL) });
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { winner?: string };
    pool.query('INSERT INTO bench_insert_anchor (battle_id, winner) VALUES ($1, $2)', [req.url?.split('/')[3] ?? null, body.winner ?? 'a']).then(
      () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      },
      (err: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: err.message }));
      },
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
