// deploy/prometheus/alerts.yml is read as Prometheus reads it: every expression is parsed with
// Prometheus's own PromQL grammar, and every metric and label it selects is held against what a
// gateway process and a worker process really export once they have run a battle, counted a
// vote, retried a model and failed a job. docs/alerts.md must explain each alert.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreateBattleResponse } from '@duet/contracts';
import { ALL_QUEUES, BATTLE_QUEUE, bullPrefix, RUN_BATTLE_JOB } from '@duet/contracts';
import { parser } from '@prometheus-io/lezer-promql';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { loadWorkerConfig } from '../../worker/src/config.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import { postJson } from '../helpers/api.ts';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { freePort } from '../helpers/private-services.ts';
import type { Sample } from '../helpers/prometheus.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const ZRuleSchema = z
  .object({
    alert: z.string().regex(/^Duet[A-Z][A-Za-z]+$/),
    expr: z.string().min(1),
    for: z.string().regex(/^\d+[smh]$/),
    labels: z.object({ severity: z.enum(['critical', 'warning', 'info']) }).strict(),
    annotations: z.object({ summary: z.string().min(10), description: z.string().regex(/docs\/alerts\.md#[a-z]+/) }).strict(),
  })
  .strict();
const ZRuleFileSchema = z.object({ groups: z.array(z.object({ name: z.string().min(1), rules: z.array(ZRuleSchema).min(1) }).strict()).min(1) }).strict();

const rules = ZRuleFileSchema.parse(parse(read('deploy/prometheus/alerts.yml'))).groups.flatMap((g) => g.rules);
const operations = read('docs/operations.md');
const alerts = read('docs/alerts.md');

/** Labels Prometheus adds to every scraped series (never exported by the processes). */
const TARGET_LABELS = new Set(['job', 'instance']);
/** Labels whose values are a known, small set: a matcher on them must name values that exist. */
const CHECKED_VALUES = new Set(['queue', 'state', 'route', 'kind']);
/** Labels that say yes or no. */
const YES_NO = new Set(['final', 'retried', 'counted']);

interface Selector {
  metric: string;
  matchers: Array<{ label: string; op: string; value: string }>;
}

/** The vector selectors of a PromQL expression; throws on a syntax error. */
function selectorsOf(expr: string): Selector[] {
  const tree = parser.parse(expr);
  const selectors: Selector[] = [];
  const errors: number[] = [];
  tree.iterate({
    enter: (ref) => {
      if (ref.type.isError) errors.push(ref.from);
      if (ref.name !== 'VectorSelector') return;
      const node = ref.node;
      const text = (n: { from: number; to: number } | null) => (n ? expr.slice(n.from, n.to) : '');
      const matchers = (node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []).map((m) => ({
        label: text(m.getChild('LabelName')),
        op: text(m.getChild('MatchOp')),
        value: JSON.parse(text(m.getChild('StringLiteral'))) as string,
      }));
      selectors.push({ metric: text(node.getChild('Identifier')), matchers });
    },
  });
  if (errors.length > 0) throw new Error(`PromQL syntax error at ${errors.join(', ')} in: ${expr}`);
  return selectors;
}

describe('deploy/prometheus/alerts.yml', () => {
  it('holds uniquely named rules whose expressions parse as PromQL and select Duet metrics', () => {
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
    for (const rule of rules) {
      const selectors = selectorsOf(rule.expr);
      expect(selectors.length, rule.alert).toBeGreaterThan(0);
      for (const s of selectors) expect(s.metric, rule.alert).toMatch(/^duet_/);
    }
    expect(() => selectorsOf('sum(rate(duet_votes_total[5m]) >')).toThrow(/syntax error/);
  });

  it('explains every alert in docs/alerts.md, and no alert the file does not hold', () => {
    const documented = [...alerts.matchAll(/^## `(Duet\w+)`/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(rules.map((r) => r.alert).sort());
    for (const rule of rules) {
      const anchor = /docs\/alerts\.md#([a-z]+)/.exec(rule.annotations.description)![1];
      expect(anchor, rule.alert).toBe(rule.alert.toLowerCase());
      const section = alerts.split(`## \`${rule.alert}\``)[1]!.split(/^#{1,3} /m)[0]!;
      // The doc shows the very expression and threshold the file holds.
      expect(section.replace(/\s+/g, ' '), rule.alert).toContain(rule.expr.replace(/\s+/g, ' '));
    }
  });
});

describe('deploy/prometheus/prometheus.yml and the Kubernetes pods', () => {
  it('loads the rules and scrapes gateways and workers on the ports they serve /metrics on', () => {
    const gatewayPort = loadGatewayConfig({}).metrics.port;
    const workerPort = loadWorkerConfig({}).http.port;
    const config = z
      .object({
        rule_files: z.array(z.string()),
        scrape_configs: z.array(z.object({ job_name: z.string(), dns_sd_configs: z.array(z.object({ names: z.array(z.string()), port: z.number() })) })),
      })
      .parse(parse(read('deploy/prometheus/prometheus.yml')));
    expect(config.rule_files).toEqual(['alerts.yml']);
    const portOf = (job: string) => config.scrape_configs.find((c) => c.job_name === job)?.dns_sd_configs[0]?.port;
    expect([portOf('duet-gateway'), portOf('duet-worker')]).toEqual([gatewayPort, workerPort]);

    for (const [file, port] of [['gateway.yaml', gatewayPort], ['worker.yaml', workerPort]] as const) {
      const deployment = parseAllDocuments(read(`deploy/kubernetes/${file}`))
        .map((d) => d.toJSON() as { kind: string; spec: { template: { metadata: { annotations?: Record<string, string> }; spec: { containers: Array<{ ports: Array<{ name: string; containerPort: number }> }> } } } })
        .find((m) => m.kind === 'Deployment')!;
      const pod = deployment.spec.template;
      expect(pod.metadata.annotations?.['prometheus.io/port'], file).toBe(String(port));
      expect(pod.spec.containers[0]!.ports.find((p) => p.name === 'metrics')?.containerPort, file).toBe(port);
    }
  });
});

describe('the alert rules against what a gateway and a worker export', () => {
  let fake: FakeLlmServer;
  let gw: GatewayProcess;
  let worker: WorkerProcess;
  let exported: Sample[];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    const [metricsPort, workerPort] = [await freePort(), await freePort()];
    gw = await startGatewayProcess({ env: { ...fakeRosterEnv(fake), METRICS_PORT: String(metricsPort) } });
    worker = spawnWorkerProcess({ ...gw.env, WORKER_HTTP_PORT: String(workerPort), PROVIDER_RETRY_BASE_MS: '20' });
    await worker.ready;

    // One battle whose GPT side is retried once, watched to its end and voted on; one junk job.
    fake.scenario('gpt-fake', { text: 'Blue light scatters the most.', tokensPerSecond: 200, failStatus: 500, failTimes: 1 });
    fake.scenario('claude-fake', { text: 'Air scatters blue light more than red.', tokensPerSecond: 200 });
    const battle = await postJson<CreateBattleResponse>(`${gw.url}/api/battles`, { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' });
    expect(battle.status).toBe(202);
    const socket = await connectSocket(gw.url);
    try {
      const viewer = new BattleViewer(socket, battle.body.battleId);
      await viewer.join();
      await viewer.finished(20_000);
    } finally {
      socket.disconnect();
    }
    const vote = await postJson(`${gw.url}/api/battles/${battle.body.battleId}/vote`, { winner: 'a', voteToken: battle.body.voteToken });
    expect(vote.status).toBe(200);
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const battles = new Queue(BATTLE_QUEUE, { connection, prefix: bullPrefix(gw.prefix) });
    await battles.add(RUN_BATTLE_JOB, { battleId: 'not a battle' });
    await battles.close();
    connection.disconnect();
    const workerUrl = `http://127.0.0.1:${workerPort}`;
    await waitFor(async () => sampleValue(await scrape(workerUrl), 'duet_jobs_failed_total') === 1, { what: 'the junk job to fail' });
    exported = [...(await scrape(`http://127.0.0.1:${metricsPort}`)), ...(await scrape(workerUrl))];
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await gw?.stop();
    await fake?.close();
  });

  it('lists every Duet metric the processes export in docs/operations.md', () => {
    const families = new Set(
      exported
        .map((s) => s.name.replace(/_(bucket|sum|count)$/, ''))
        .filter((name) => name.startsWith('duet_') && !/^duet_(process|nodejs)_/.test(name)),
    );
    const table = operations.split('## Metrics')[1]!.split(/^## /m)[0]!;
    for (const name of families) expect(table, name).toContain(`\`${name}\``);
  });

  it('selects only metrics and labels that exist, with values that exist', () => {
    const labelsOf = new Map<string, Set<string>>();
    const valuesOf = new Map<string, Set<string>>();
    for (const s of exported) {
      const names = labelsOf.get(s.name) ?? new Set<string>();
      for (const [label, value] of Object.entries(s.labels)) {
        names.add(label);
        valuesOf.set(label, (valuesOf.get(label) ?? new Set()).add(value));
      }
      labelsOf.set(s.name, names);
    }
    // The route of a battle's creation is there, and every queue.
    expect([...(valuesOf.get('route') ?? [])]).toContain('/api/battles');
    expect([...(valuesOf.get('queue') ?? [])].sort()).toEqual([...ALL_QUEUES].sort());

    for (const rule of rules) {
      for (const { metric, matchers } of selectorsOf(rule.expr)) {
        expect(labelsOf.has(metric), `${rule.alert}: ${metric} is not exported`).toBe(true);
        for (const { label, op, value } of matchers) {
          if (TARGET_LABELS.has(label)) continue;
          expect(labelsOf.get(metric)!.has(label), `${rule.alert}: ${metric} has no label ${label}`).toBe(true);
          const wanted = op === '=~' ? value.split('|') : [value];
          for (const v of wanted) {
            if (CHECKED_VALUES.has(label)) expect([...valuesOf.get(label)!], `${rule.alert}: ${label}="${v}"`).toContain(v);
            if (YES_NO.has(label)) expect(['true', 'false'], `${rule.alert}: ${label}="${v}"`).toContain(v);
          }
        }
      }
    }
  });
});
