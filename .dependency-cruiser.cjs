/**
 * Duet's layering, checked by `npm run lint` (dependency-cruiser: one tool that sees both the
 * circles and the layers, through `import type` too, across the workspaces).
 *
 * Packages: contracts imports nothing of Duet's; ratings and platform only contracts; the browser
 * only contracts; gateway and worker never each other. Inside the gateway and the worker, a layer
 * imports only the layers below it; the start-up files (app.ts, main.ts, worker.ts) wire everything.
 */
const layer = (name, from, notTo, comment) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: notTo } });

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle of imports: two modules that need each other are one module, or want a third.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('contracts-stand-alone', '^contracts/', '^(ratings|platform|server|worker|client)/', 'Contracts are what everyone shares: they import nothing of Duet.'),
    layer('ratings-pure', '^ratings/', '^(platform|server|worker|client)/', 'The ratings engine is statistics: contracts at most.'),
    layer('platform-below-processes', '^platform/', '^(ratings|server|worker|client)/', 'Platform is what gateway and worker stand on.'),
    layer('browser-contracts-only', '^client/', '^(ratings|platform|server|worker)/', 'The browser may load contracts only: no Node, no statistics.'),
    layer('gateway-not-worker', '^server/', '^worker/', 'The gateway never runs battles.'),
    layer('worker-not-gateway', '^worker/', '^server/', 'The worker never touches sockets or HTTP routes.'),

    // The gateway, from the bottom up: infra, events, http, modules, realtime, observability; then app.ts and main.ts.
    layer('gateway-config-first', '^server/src/(config|accounts-config|site-config)\\.ts$', '^server/src/(modules|realtime|http|observability|events|infra)/', 'Settings are read before anything is built.'),
    layer('gateway-infra-bottom', '^server/src/infra/', '^server/src/(modules|realtime|http|observability|events|app)', 'Infra is connections and SQL plumbing.'),
    layer('gateway-events-low', '^server/src/events/', '^server/src/(modules|realtime|http|observability|app)', 'The event bus knows no one who listens.'),
    layer('gateway-http-below-modules', '^server/src/http/', '^server/src/(modules|realtime|observability|app)', 'HTTP plumbing (errors, auth headers, limits) serves the modules, not the other way.'),
    layer('gateway-modules-below-realtime', '^server/src/modules/', '^server/src/(realtime|observability|app)', 'Modules hold the rules; sockets and metrics call them.'),
    layer('gateway-realtime-below-observability', '^server/src/realtime/', '^server/src/(observability|app)', 'Realtime relays; it is watched, it does not watch.'),
    layer('gateway-observability-watches', '^server/src/observability/', '^server/src/(realtime|modules|app)', 'Metrics and logs listen to events; they never reach into modules or sockets.'),
    {
      name: 'modules-talk-through-services',
      comment: "A module reads its own tables: another module's data comes through that module's service.",
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/' },
      to: { path: '^server/src/modules/([^/]+)/.+\\.repo\\.ts$', pathNot: '^server/src/modules/$1/' },
    },

    // The worker, from the bottom up: infra, providers, store, live, moderation, jobs; then worker.ts and main.ts.
    layer('worker-infra-bottom', '^worker/src/infra/', '^worker/src/(providers|store|live|moderation|jobs|observability|worker|main)', 'Infra is connections and queue plumbing.'),
    layer('worker-providers-stand-alone', '^worker/src/providers/', '^worker/src/(store|live|moderation|jobs|observability|worker|main)', 'A provider speaks to a model, nothing else.'),
    layer('worker-store-below-jobs', '^worker/src/store/', '^worker/src/(live|moderation|jobs|observability|worker|main)', 'The store is SQL.'),
    layer('worker-live-below-jobs', '^worker/src/live/', '^worker/src/(store|moderation|jobs|observability|worker|main)', 'Live events go out; they call no job.'),
    layer('worker-moderation-below-jobs', '^worker/src/moderation/', '^worker/src/(jobs|observability|worker|main)', 'Moderation is called by the battle job and its own schedule.'),
    layer('worker-jobs-below-wiring', '^worker/src/jobs/', '^worker/src/(observability|worker|main)', 'Jobs get their metrics passed in.'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
