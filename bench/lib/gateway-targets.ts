import http from 'node:http';

/** A gateway a load process sends to, with its own keep-alive agent. */
export interface GatewayTarget {
  host: string;
  port: string;
  agent: http.Agent;
}

/**
 * The gateways in `GATEWAY_URL` (one URL, or several separated by commas: gateways behind a load
 * balancer), each with an agent of up to `maxSockets` connections. Call i goes to `targets[i % n]`.
 */
export function gatewayTargets(maxSockets: number): GatewayTarget[] {
  return process.env.GATEWAY_URL!.split(',').map((raw) => {
    const url = new URL(raw);
    return { host: url.hostname, port: url.port, agent: new http.Agent({ keepAlive: true, maxSockets }) };
  });
}
